import { type SQL, sql } from "drizzle-orm";
import { type Database, queryJsonRows, queryRows } from "../../../db/client";
import {
  comparison,
  containsPattern,
  type FilterField,
  type FilterFields,
  type FilterOperator,
} from "../filter";
import {
  CLASS_TYPES,
  ENROLLMENT_ROLES,
  ORG_TYPES,
  recordStatus,
  SESSION_TYPES,
  SEXES,
  userRoleName,
  vocabularyValue,
} from "./vocabulary";

/**
 * The OneRoster 1.2 rostering records read from Dash's roster tables: for each one, the SQL that
 * reads it, the fields a client may filter, sort, search and select, and its JSON shape.
 */

type RefType = "org" | "user" | "class" | "course" | "academicSession";
export interface GuidRef {
  href: string;
  sourcedId: string;
  type: RefType;
}

const COLLECTION_OF: Record<RefType, string> = {
  org: "orgs",
  user: "users",
  class: "classes",
  course: "courses",
  academicSession: "academicSessions",
};

/** Makes GUIDRefs whose href points at the record on this server. */
export function refMaker(baseUrl: string) {
  return (type: RefType, sourcedId: string): GuidRef => ({
    href: `${baseUrl}/${COLLECTION_OF[type]}/${encodeURIComponent(sourcedId)}`,
    sourcedId,
    type,
  });
}
export type MakeRef = ReturnType<typeof refMaker>;

export interface Resource {
  /** The plural envelope key of lists. */
  collection: string;
  /** The envelope key of a single record. */
  single: string;
  table: string;
  /** The table's alias, as the columns, filters and sorts name it. */
  alias: string;
  id: SQL;
  columns: SQL;
  /** Every top-level field of the record in the standard: what `fields` may name. */
  fields: readonly string[];
  filters: FilterFields;
  sorts: Record<string, SQL>;
  /** Dash's `search` extension: case-insensitive contains on these. */
  searchable: SQL[];
  /**
   * Reads what the records hold in other tables (a user's roles and agents) for a whole page in
   * one query each, and adds it to the rows: cheaper than a subquery per record.
   */
  attach?: (db: Database, rows: Record<string, unknown>[]) => Promise<void>;
  toRecord(row: never, ref: MakeRef): Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------
// SQL helpers. Dates and instants leave the database as text, so both drivers give the same strings.

const isoInstant = (column: SQL) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const isoDate = (column: SQL) => sql`to_char(${column}, 'YYYY-MM-DD')`;

function baseColumns(alias: string) {
  const a = sql.raw(alias);
  return sql`${a}.sourced_id as "sourcedId", ${a}.status, ${isoInstant(sql`${a}.date_last_modified`)} as "dateLastModified", ${a}.metadata`;
}

function baseFilters(alias: string): FilterFields {
  const a = sql.raw(alias);
  return {
    sourcedId: { column: sql`${a}.sourced_id`, kind: "text" },
    status: { column: sql`${a}.status`, kind: "text" },
    dateLastModified: { column: sql`${a}.date_last_modified`, kind: "timestamp" },
  };
}

function baseSorts(alias: string): Record<string, SQL> {
  const a = sql.raw(alias);
  return {
    sourcedId: sql`${a}.sourced_id`,
    status: sql`${a}.status`,
    dateLastModified: sql`${a}.date_last_modified`,
  };
}

/** `column op value`, with `~` as a case-insensitive contains and, when asked, case-insensitive equality. */
function compare(column: SQL, operator: FilterOperator, value: string, caseInsensitive = false): SQL {
  if (operator === "~") return sql`${column} ilike ${containsPattern(value)}`;
  return caseInsensitive
    ? sql`lower(${column}) ${comparison[operator]} lower(${value})`
    : sql`${column} ${comparison[operator]} ${value}`;
}

/**
 * A filter on a field of related rows (a user's roles, an org's children): true when some row
 * matches; `!=` is true when none equals the value.
 */
function related(rows: (condition: SQL) => SQL, column: SQL, caseInsensitive = false): FilterField {
  return {
    build: (operator, value) =>
      operator === "!="
        ? sql`not exists (${rows(compare(column, "=", value, caseInsensitive))})`
        : sql`exists (${rows(compare(column, operator, value, caseInsensitive))})`,
  };
}

const text = (column: SQL): FilterField => ({ column, kind: "text" });
const textArray = (column: SQL): FilterField => ({ column, kind: "textArray" });
const date = (column: SQL): FilterField => ({ column, kind: "date" });
const flag = (column: SQL): FilterField => ({ column, kind: "boolean" });

/** Leaves out fields without a value, as the standard marks them optional. */
function present(
  fields: Record<string, unknown>,
  into: Record<string, unknown> = {},
): Record<string, unknown> {
  for (const key in fields) {
    const value = fields[key];
    if (value !== null && value !== undefined) into[key] = value;
  }
  return into;
}

interface BaseRow {
  sourcedId: string;
  status: string;
  dateLastModified: string;
  metadata: Record<string, unknown> | null;
}

/**
 * A record: the fields every record has, then its own, without those that have no value. (Built
 * key by key rather than by spreading objects, which is many times slower on pages of 1,000.)
 */
function record(row: BaseRow, fields: Record<string, unknown>): Record<string, unknown> {
  const built: Record<string, unknown> = {
    sourcedId: row.sourcedId,
    status: recordStatus(row.status),
    dateLastModified: row.dateLastModified,
  };
  if (row.metadata) built.metadata = row.metadata;
  return present(fields, built);
}

const BASE_FIELDS = ["sourcedId", "status", "dateLastModified", "metadata"] as const;

// ---------------------------------------------------------------------------------------------
// orgs

interface OrgRow extends BaseRow {
  name: string;
  type: string;
  identifier: string | null;
  parent: string | null;
  children: string[];
}

export const orgResource: Resource = {
  collection: "orgs",
  single: "org",
  table: "orgs",
  alias: "o",
  id: sql`o.sourced_id`,
  columns: sql`${baseColumns("o")}, o.name, o.type, o.identifier, o.parent_sourced_id as parent,
    array(select c.sourced_id from orgs c where c.parent_sourced_id = o.sourced_id order by c.sourced_id) as children`,
  fields: [...BASE_FIELDS, "name", "type", "identifier", "parent", "children"],
  filters: {
    ...baseFilters("o"),
    name: text(sql`o.name`),
    type: text(sql`o.type`),
    identifier: text(sql`o.identifier`),
    "parent.sourcedId": text(sql`o.parent_sourced_id`),
    "children.sourcedId": related(
      (condition) => sql`select 1 from orgs c where c.parent_sourced_id = o.sourced_id and ${condition}`,
      sql`c.sourced_id`,
    ),
  },
  sorts: { ...baseSorts("o"), name: sql`o.name`, type: sql`o.type`, identifier: sql`o.identifier` },
  searchable: [sql`o.sourced_id`, sql`o.name`, sql`o.identifier`],
  toRecord: (row: OrgRow, ref) =>
    record(row, {
      name: row.name,
      type: vocabularyValue(row.type, ORG_TYPES),
      // Required by the standard; an org without one answers with an empty identifier.
      identifier: row.identifier ?? "",
      parent: row.parent ? ref("org", row.parent) : undefined,
      children: row.children.map((id) => ref("org", id)),
    }),
};

// ---------------------------------------------------------------------------------------------
// academicSessions

interface SessionRow extends BaseRow {
  title: string;
  startDate: string;
  endDate: string;
  type: string;
  parent: string | null;
  children: string[];
  schoolYear: string;
}

export const academicSessionResource: Resource = {
  collection: "academicSessions",
  single: "academicSession",
  table: "academic_sessions",
  alias: "s",
  id: sql`s.sourced_id`,
  columns: sql`${baseColumns("s")}, s.title, ${isoDate(sql`s.start_date`)} as "startDate",
    ${isoDate(sql`s.end_date`)} as "endDate", s.type, s.parent_sourced_id as parent, s.school_year as "schoolYear",
    array(select c.sourced_id from academic_sessions c where c.parent_sourced_id = s.sourced_id order by c.start_date, c.sourced_id) as children`,
  fields: [...BASE_FIELDS, "title", "startDate", "endDate", "type", "parent", "children", "schoolYear"],
  filters: {
    ...baseFilters("s"),
    title: text(sql`s.title`),
    startDate: date(sql`s.start_date`),
    endDate: date(sql`s.end_date`),
    type: text(sql`s.type`),
    schoolYear: text(sql`s.school_year`),
    "parent.sourcedId": text(sql`s.parent_sourced_id`),
    "children.sourcedId": related(
      (condition) =>
        sql`select 1 from academic_sessions c where c.parent_sourced_id = s.sourced_id and ${condition}`,
      sql`c.sourced_id`,
    ),
  },
  sorts: {
    ...baseSorts("s"),
    title: sql`s.title`,
    startDate: sql`s.start_date`,
    endDate: sql`s.end_date`,
    type: sql`s.type`,
    schoolYear: sql`s.school_year`,
  },
  searchable: [sql`s.sourced_id`, sql`s.title`, sql`s.school_year`],
  toRecord: (row: SessionRow, ref) =>
    record(row, {
      title: row.title,
      startDate: row.startDate,
      endDate: row.endDate,
      type: vocabularyValue(row.type, SESSION_TYPES),
      parent: row.parent ? ref("academicSession", row.parent) : undefined,
      children: row.children.map((id) => ref("academicSession", id)),
      schoolYear: row.schoolYear,
    }),
};

// ---------------------------------------------------------------------------------------------
// courses

interface CourseRow extends BaseRow {
  title: string;
  schoolYear: string | null;
  courseCode: string | null;
  grades: string[];
  subjects: string[];
  org: string;
  subjectCodes: string[];
}

export const courseResource: Resource = {
  collection: "courses",
  single: "course",
  table: "courses",
  alias: "c",
  id: sql`c.sourced_id`,
  columns: sql`${baseColumns("c")}, c.title, c.school_year_sourced_id as "schoolYear", c.course_code as "courseCode",
    c.grades, c.subjects, c.org_sourced_id as org, c.subject_codes as "subjectCodes"`,
  fields: [
    ...BASE_FIELDS,
    "title",
    "schoolYear",
    "courseCode",
    "grades",
    "subjects",
    "org",
    "subjectCodes",
    "resources",
  ],
  filters: {
    ...baseFilters("c"),
    title: text(sql`c.title`),
    courseCode: text(sql`c.course_code`),
    grades: textArray(sql`c.grades`),
    subjects: textArray(sql`c.subjects`),
    subjectCodes: textArray(sql`c.subject_codes`),
    "org.sourcedId": text(sql`c.org_sourced_id`),
    "schoolYear.sourcedId": text(sql`c.school_year_sourced_id`),
  },
  sorts: { ...baseSorts("c"), title: sql`c.title`, courseCode: sql`c.course_code` },
  searchable: [sql`c.sourced_id`, sql`c.title`, sql`c.course_code`],
  toRecord: (row: CourseRow, ref) =>
    record(row, {
      title: row.title,
      schoolYear: row.schoolYear ? ref("academicSession", row.schoolYear) : undefined,
      // Required by the standard; a course without one answers with an empty code.
      courseCode: row.courseCode ?? "",
      grades: row.grades,
      subjects: row.subjects,
      org: ref("org", row.org),
      subjectCodes: row.subjectCodes,
    }),
};

// ---------------------------------------------------------------------------------------------
// classes

interface ClassRow extends BaseRow {
  title: string;
  classCode: string | null;
  classType: string;
  location: string | null;
  grades: string[];
  subjects: string[];
  course: string;
  school: string;
  terms: string[];
  subjectCodes: string[];
  periods: string[];
}

export const classResource: Resource = {
  collection: "classes",
  single: "class",
  table: "classes",
  alias: "k",
  id: sql`k.sourced_id`,
  columns: sql`${baseColumns("k")}, k.title, k.class_code as "classCode", k.class_type as "classType", k.location,
    k.grades, k.subjects, k.course_sourced_id as course, k.school_sourced_id as school, k.term_sourced_ids as terms,
    k.subject_codes as "subjectCodes", k.periods`,
  fields: [
    ...BASE_FIELDS,
    "title",
    "classCode",
    "classType",
    "location",
    "grades",
    "subjects",
    "course",
    "school",
    "terms",
    "subjectCodes",
    "periods",
    "resources",
  ],
  filters: {
    ...baseFilters("k"),
    title: text(sql`k.title`),
    classCode: text(sql`k.class_code`),
    classType: text(sql`k.class_type`),
    location: text(sql`k.location`),
    grades: textArray(sql`k.grades`),
    subjects: textArray(sql`k.subjects`),
    subjectCodes: textArray(sql`k.subject_codes`),
    periods: textArray(sql`k.periods`),
    "course.sourcedId": text(sql`k.course_sourced_id`),
    "school.sourcedId": text(sql`k.school_sourced_id`),
    "terms.sourcedId": textArray(sql`k.term_sourced_ids`),
  },
  sorts: {
    ...baseSorts("k"),
    title: sql`k.title`,
    classCode: sql`k.class_code`,
    classType: sql`k.class_type`,
    location: sql`k.location`,
  },
  searchable: [sql`k.sourced_id`, sql`k.title`, sql`k.class_code`, sql`k.location`],
  toRecord: (row: ClassRow, ref) =>
    record(row, {
      title: row.title,
      classCode: row.classCode,
      classType: vocabularyValue(row.classType, CLASS_TYPES),
      location: row.location,
      grades: row.grades,
      subjects: row.subjects,
      course: ref("course", row.course),
      school: ref("org", row.school),
      terms: row.terms.map((id) => ref("academicSession", id)),
      subjectCodes: row.subjectCodes,
      periods: row.periods,
    }),
};

// ---------------------------------------------------------------------------------------------
// enrollments

interface EnrollmentRow extends BaseRow {
  user: string;
  class: string;
  school: string;
  role: string;
  primary: boolean;
  beginDate: string | null;
  endDate: string | null;
}

export const enrollmentResource: Resource = {
  collection: "enrollments",
  single: "enrollment",
  table: "enrollments",
  alias: "e",
  id: sql`e.sourced_id`,
  columns: sql`${baseColumns("e")}, e.user_sourced_id as "user", e.class_sourced_id as "class",
    e.school_sourced_id as school, e.role, e."primary", ${isoDate(sql`e.begin_date`)} as "beginDate",
    ${isoDate(sql`e.end_date`)} as "endDate"`,
  fields: [...BASE_FIELDS, "user", "class", "school", "role", "primary", "beginDate", "endDate"],
  filters: {
    ...baseFilters("e"),
    role: text(sql`e.role`),
    primary: flag(sql`e."primary"`),
    beginDate: date(sql`e.begin_date`),
    endDate: date(sql`e.end_date`),
    "user.sourcedId": text(sql`e.user_sourced_id`),
    "class.sourcedId": text(sql`e.class_sourced_id`),
    "school.sourcedId": text(sql`e.school_sourced_id`),
  },
  sorts: {
    ...baseSorts("e"),
    role: sql`e.role`,
    primary: sql`e."primary"`,
    beginDate: sql`e.begin_date`,
    endDate: sql`e.end_date`,
  },
  searchable: [sql`e.sourced_id`, sql`e.user_sourced_id`, sql`e.class_sourced_id`],
  toRecord: (row: EnrollmentRow, ref) =>
    record(row, {
      user: ref("user", row.user),
      class: ref("class", row.class),
      school: ref("org", row.school),
      role: vocabularyValue(row.role, ENROLLMENT_ROLES),
      primary: String(row.primary),
      beginDate: row.beginDate,
      endDate: row.endDate,
    }),
};

// ---------------------------------------------------------------------------------------------
// users

interface UserRoleRow {
  user: string;
  role: string;
  roleType: string;
  org: string;
  orgType: string | null;
  beginDate: string | null;
  endDate: string | null;
}

interface UserRow extends BaseRow {
  username: string | null;
  enabledUser: boolean;
  givenName: string;
  familyName: string;
  middleName: string | null;
  preferredFirstName: string | null;
  preferredMiddleName: string | null;
  preferredLastName: string | null;
  pronouns: string | null;
  roles: UserRoleRow[];
  primaryOrg: string | null;
  identifier: string | null;
  email: string | null;
  sms: string | null;
  phone: string | null;
  agents: string[];
  grades: string[];
}

const rolesOfUser = (condition: SQL) =>
  sql`select 1 from user_roles r where r.user_sourced_id = u.sourced_id and ${condition}`;

/** Roles (with their org's type, which names 1.1 administrators) and agents of a page of users. */
async function attachRolesAndAgents(db: Database, rows: Record<string, unknown>[]) {
  const ids = sql.param(rows.map((row) => row.sourcedId as string));
  // `in (select unnest(…))` lets the planner look the page's ids up in the index; PostgreSQL
  // checks `= any(array parameter)` row by row over the whole table instead.
  const [roles, agents] = await Promise.all([
    queryJsonRows<UserRoleRow>(
      db,
      sql`select r.user_sourced_id as "user", r.role, r.role_type as "roleType", r.org_sourced_id as org,
            o.type as "orgType", ${isoDate(sql`r.begin_date`)} as "beginDate", ${isoDate(sql`r.end_date`)} as "endDate"
          from user_roles r left join orgs o on o.sourced_id = r.org_sourced_id
          where r.user_sourced_id in (select unnest(${ids}::text[]))
          order by r.user_sourced_id, r.role_type, r.role, r.org_sourced_id`,
    ),
    // Agents both ways: a student's parents, and a parent's children.
    queryRows<{ user: string; agent: string }>(
      db,
      sql`select a.user_sourced_id as "user", a.agent_sourced_id as agent from user_agents a
            where a.user_sourced_id in (select unnest(${ids}::text[]))
          union select a.agent_sourced_id, a.user_sourced_id from user_agents a
            where a.agent_sourced_id in (select unnest(${ids}::text[]))
          order by 1, 2`,
    ),
  ]);
  const rolesByUser = Map.groupBy(roles, (role) => role.user);
  const agentsByUser = Map.groupBy(agents, (agent) => agent.user);
  for (const row of rows) {
    const id = row.sourcedId as string;
    row.roles = rolesByUser.get(id) ?? [];
    row.agents = (agentsByUser.get(id) ?? []).map((agent) => agent.agent);
  }
}

/** Users holding a role (any spelling case), at any org: who `/students` and `/teachers` list. */
export const holdsRole = (role: string) =>
  sql`exists (select 1 from user_roles r where r.user_sourced_id = u.sourced_id and lower(r.role) = ${role.toLowerCase()})`;

export const userResource: Resource = {
  collection: "users",
  single: "user",
  table: "users",
  alias: "u",
  id: sql`u.sourced_id`,
  columns: sql`${baseColumns("u")}, u.username, u.enabled_user as "enabledUser", u.given_name as "givenName",
    u.family_name as "familyName", u.middle_name as "middleName", u.preferred_first_name as "preferredFirstName",
    u.preferred_middle_name as "preferredMiddleName", u.preferred_last_name as "preferredLastName", u.pronouns,
    u.primary_org_sourced_id as "primaryOrg", u.identifier, u.email, u.sms, u.phone,
    u.grades`,
  fields: [
    ...BASE_FIELDS,
    "userMasterIdentifier",
    "username",
    "userIds",
    "enabledUser",
    "givenName",
    "familyName",
    "middleName",
    "preferredFirstName",
    "preferredMiddleName",
    "preferredLastName",
    "pronouns",
    "roles",
    "userProfiles",
    "primaryOrg",
    "identifier",
    "email",
    "sms",
    "phone",
    "agents",
    "grades",
    "password",
    "resources",
  ],
  filters: {
    ...baseFilters("u"),
    username: text(sql`u.username`),
    enabledUser: flag(sql`u.enabled_user`),
    givenName: text(sql`u.given_name`),
    familyName: text(sql`u.family_name`),
    middleName: text(sql`u.middle_name`),
    preferredFirstName: text(sql`u.preferred_first_name`),
    preferredMiddleName: text(sql`u.preferred_middle_name`),
    preferredLastName: text(sql`u.preferred_last_name`),
    pronouns: text(sql`u.pronouns`),
    identifier: text(sql`u.identifier`),
    email: text(sql`u.email`),
    sms: text(sql`u.sms`),
    phone: text(sql`u.phone`),
    grades: textArray(sql`u.grades`),
    "primaryOrg.sourcedId": text(sql`u.primary_org_sourced_id`),
    // OneRoster 1.1 named a user's role `role`; 1.1 clients filter `role='student'`.
    role: related(rolesOfUser, sql`r.role`, true),
    "roles.role": related(rolesOfUser, sql`r.role`, true),
    "roles.roleType": related(rolesOfUser, sql`r.role_type`, true),
    "roles.org.sourcedId": related(rolesOfUser, sql`r.org_sourced_id`),
    "agents.sourcedId": related(
      (condition) => sql`select 1 from (
          select a.agent_sourced_id as id from user_agents a where a.user_sourced_id = u.sourced_id
          union all select a.user_sourced_id from user_agents a where a.agent_sourced_id = u.sourced_id
        ) agent where ${condition}`,
      sql`agent.id`,
    ),
  },
  sorts: {
    ...baseSorts("u"),
    username: sql`u.username`,
    enabledUser: sql`u.enabled_user`,
    givenName: sql`u.given_name`,
    familyName: sql`u.family_name`,
    middleName: sql`u.middle_name`,
    preferredFirstName: sql`u.preferred_first_name`,
    preferredLastName: sql`u.preferred_last_name`,
    identifier: sql`u.identifier`,
    email: sql`u.email`,
  },
  searchable: [
    sql`u.sourced_id`,
    sql`u.given_name || ' ' || u.family_name`,
    sql`u.preferred_first_name`,
    sql`u.email`,
    sql`u.username`,
    sql`u.identifier`,
  ],
  attach: attachRolesAndAgents,
  toRecord: (row: UserRow, ref) =>
    record(row, {
      username: row.username ?? "",
      userIds: [],
      enabledUser: String(row.enabledUser),
      givenName: row.givenName,
      familyName: row.familyName,
      middleName: row.middleName,
      preferredFirstName: row.preferredFirstName,
      preferredMiddleName: row.preferredMiddleName,
      preferredLastName: row.preferredLastName,
      pronouns: row.pronouns,
      roles: row.roles.map((role) =>
        present({
          roleType: role.roleType.toLowerCase() === "primary" ? "primary" : "secondary",
          role: userRoleName(role.role, role.orgType),
          org: ref("org", role.org),
          beginDate: role.beginDate,
          endDate: role.endDate,
        }),
      ),
      primaryOrg: row.primaryOrg ? ref("org", row.primaryOrg) : undefined,
      identifier: row.identifier,
      email: row.email,
      sms: row.sms,
      phone: row.phone,
      agents: row.agents.map((id) => ref("user", id)),
      grades: row.grades,
    }),
};

// ---------------------------------------------------------------------------------------------
// demographics

interface DemographicsRow extends BaseRow {
  birthDate: string | null;
  sex: string | null;
  americanIndianOrAlaskaNative: boolean | null;
  asian: boolean | null;
  blackOrAfricanAmerican: boolean | null;
  nativeHawaiianOrOtherPacificIslander: boolean | null;
  white: boolean | null;
  demographicRaceTwoOrMoreRaces: boolean | null;
  hispanicOrLatinoEthnicity: boolean | null;
  countryOfBirthCode: string | null;
  stateOfBirthAbbreviation: string | null;
  cityOfBirth: string | null;
  publicSchoolResidenceStatus: string | null;
}

const RACE_FIELDS = [
  ["americanIndianOrAlaskaNative", "american_indian_or_alaska_native"],
  ["asian", "asian"],
  ["blackOrAfricanAmerican", "black_or_african_american"],
  ["nativeHawaiianOrOtherPacificIslander", "native_hawaiian_or_other_pacific_islander"],
  ["white", "white"],
  ["demographicRaceTwoOrMoreRaces", "demographic_race_two_or_more_races"],
  ["hispanicOrLatinoEthnicity", "hispanic_or_latino_ethnicity"],
] as const;

const flagText = (value: boolean | null) => (value === null ? undefined : String(value));

export const demographicsResource: Resource = {
  collection: "demographics",
  single: "demographics",
  table: "demographics",
  alias: "d",
  id: sql`d.sourced_id`,
  columns: sql`${baseColumns("d")}, ${isoDate(sql`d.birth_date`)} as "birthDate", d.sex,
    ${sql.join(
      RACE_FIELDS.map(([field, column]) => sql`d.${sql.raw(column)} as ${sql.identifier(field)}`),
      sql`, `,
    )},
    d.country_of_birth_code as "countryOfBirthCode", d.state_of_birth_abbreviation as "stateOfBirthAbbreviation",
    d.city_of_birth as "cityOfBirth", d.public_school_residence_status as "publicSchoolResidenceStatus"`,
  fields: [
    ...BASE_FIELDS,
    "birthDate",
    "sex",
    ...RACE_FIELDS.map(([field]) => field),
    "countryOfBirthCode",
    "stateOfBirthAbbreviation",
    "cityOfBirth",
    "publicSchoolResidenceStatus",
  ],
  filters: {
    ...baseFilters("d"),
    birthDate: date(sql`d.birth_date`),
    sex: text(sql`d.sex`),
    ...Object.fromEntries(RACE_FIELDS.map(([field, column]) => [field, flag(sql`d.${sql.raw(column)}`)])),
    countryOfBirthCode: text(sql`d.country_of_birth_code`),
    stateOfBirthAbbreviation: text(sql`d.state_of_birth_abbreviation`),
    cityOfBirth: text(sql`d.city_of_birth`),
    publicSchoolResidenceStatus: text(sql`d.public_school_residence_status`),
  },
  sorts: { ...baseSorts("d"), birthDate: sql`d.birth_date`, sex: sql`d.sex` },
  searchable: [sql`d.sourced_id`, sql`d.city_of_birth`],
  toRecord: (row: DemographicsRow) =>
    record(row, {
      birthDate: row.birthDate,
      sex: row.sex === null ? undefined : vocabularyValue(row.sex, SEXES),
      ...Object.fromEntries(RACE_FIELDS.map(([field]) => [field, flagText(row[field])])),
      countryOfBirthCode: row.countryOfBirthCode,
      stateOfBirthAbbreviation: row.stateOfBirthAbbreviation,
      cityOfBirth: row.cityOfBirth,
      publicSchoolResidenceStatus: row.publicSchoolResidenceStatus,
    }),
};
