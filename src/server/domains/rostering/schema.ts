import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/**
 * Roster tables in the OneRoster 1.2 shape. Every record has a sourcedId (the id the student
 * information system gave it), a status and dateLastModified; references are by sourcedId.
 */
const oneRosterBase = {
  sourcedId: text("sourced_id").primaryKey(),
  status: text("status").notNull().default("active"),
  dateLastModified: timestamp("date_last_modified", { withTimezone: true }).notNull().defaultNow(),
  metadata: jsonb("metadata").$type<Record<string, unknown>>(),
};

export const orgs = pgTable(
  "orgs",
  {
    ...oneRosterBase,
    name: text("name").notNull(),
    type: text("type").notNull(),
    identifier: text("identifier"),
    parentSourcedId: text("parent_sourced_id"),
    /** Dash's, not OneRoster's: the language of its people who chose none and whose browser asks for none Dash speaks. */
    defaultLanguage: text("default_language"),
  },
  (table) => [index("orgs_parent_idx").on(table.parentSourcedId)],
);

export const users = pgTable(
  "users",
  {
    ...oneRosterBase,
    enabledUser: boolean("enabled_user").notNull().default(true),
    username: text("username"),
    givenName: text("given_name").notNull(),
    familyName: text("family_name").notNull(),
    middleName: text("middle_name"),
    preferredFirstName: text("preferred_first_name"),
    preferredMiddleName: text("preferred_middle_name"),
    preferredLastName: text("preferred_last_name"),
    pronouns: text("pronouns"),
    identifier: text("identifier"),
    email: text("email"),
    sms: text("sms"),
    phone: text("phone"),
    grades: text("grades").array().notNull().default(sql`'{}'::text[]`),
    primaryOrgSourcedId: text("primary_org_sourced_id"),
    /** IANA timezone in which this user's days are counted (students' XP days, for example). */
    timezone: text("timezone").notNull().default("America/New_York"),
    /** Dash's, not OneRoster's: the language this person chose; null follows their browser. */
    preferredLanguage: text("preferred_language"),
  },
  (table) => [
    // Sign-in is by email, compared case-insensitively.
    uniqueIndex("users_email_lower_idx").on(sql`lower(${table.email})`),
    index("users_primary_org_idx").on(table.primaryOrgSourcedId),
  ],
);

/** A user's roles: OneRoster 1.2 `roles[]` of { roleType, role, org }. `role` is kept as the source wrote it. */
export const userRoles = pgTable(
  "user_roles",
  {
    userSourcedId: text("user_sourced_id")
      .notNull()
      .references(() => users.sourcedId, { onDelete: "cascade" }),
    role: text("role").notNull(),
    roleType: text("role_type").notNull(),
    orgSourcedId: text("org_sourced_id").notNull(),
    beginDate: date("begin_date"),
    endDate: date("end_date"),
    /** The id a roster file (OneRoster 1.2 roles.csv) gave this role; roles made in Dash have none. */
    sourcedId: text("sourced_id"),
  },
  (table) => [
    primaryKey({ columns: [table.userSourcedId, table.role, table.orgSourcedId] }),
    index("user_roles_org_idx").on(table.orgSourcedId),
    // "Holds this role", compared case-insensitively: /students, /teachers, filter=role='student'.
    index("user_roles_role_idx").on(sql`lower(${table.role})`, table.userSourcedId),
    uniqueIndex("user_roles_sourced_id_idx").on(table.sourcedId),
  ],
);

/** OneRoster `agents`: a parent or guardian (agent) linked to a student. */
export const userAgents = pgTable(
  "user_agents",
  {
    userSourcedId: text("user_sourced_id")
      .notNull()
      .references(() => users.sourcedId, { onDelete: "cascade" }),
    agentSourcedId: text("agent_sourced_id")
      .notNull()
      .references(() => users.sourcedId, { onDelete: "cascade" }),
  },
  (table) => [
    primaryKey({ columns: [table.userSourcedId, table.agentSourcedId] }),
    index("user_agents_agent_idx").on(table.agentSourcedId),
  ],
);

/**
 * A Guide's request to link an existing parent or guardian to a student they onboarded. Linking
 * opens the family's data to whoever holds the link, so an administrator decides.
 */
export const guardianLinkRequests = pgTable(
  "guardian_link_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    studentSourcedId: text("student_sourced_id")
      .notNull()
      .references(() => users.sourcedId, { onDelete: "cascade" }),
    agentSourcedId: text("agent_sourced_id")
      .notNull()
      .references(() => users.sourcedId, { onDelete: "cascade" }),
    requestedBy: text("requested_by").notNull(),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    status: text("status").$type<"pending" | "approved" | "refused">().notNull().default("pending"),
    decidedBy: text("decided_by"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("guardian_link_requests_pending_idx")
      .on(table.studentSourcedId, table.agentSourcedId)
      .where(sql`status = 'pending'`),
    index("guardian_link_requests_status_idx").on(table.status, table.requestedAt),
  ],
);

/**
 * Every change made to the roster from Dash's own pages (roles, parent links, organisations,
 * onboarding) and to people's passwords (links issued, passwords changed): who, what and when.
 * Append-only; the summary is written at the time, so it still reads right after names change:
 * `summary` in English words, and `summary_message` (the catalogue key and its values, when the
 * change was recorded as one) to say it in the reader's language. Rows written before messages
 * were stored have only the English.
 */
export const rosterChanges = pgTable(
  "roster_changes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Order of writing: changes made within the same instant still list in the order they happened. */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    actorSourcedId: text("actor_sourced_id").notNull(),
    action: text("action").notNull(),
    targetUserSourcedId: text("target_user_sourced_id"),
    orgSourcedId: text("org_sourced_id"),
    summary: text("summary").notNull(),
    summaryMessage: jsonb("summary_message").$type<{ key: string; values?: Record<string, unknown> }>(),
    details: jsonb("details").$type<Record<string, unknown>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("roster_changes_created_idx").on(table.createdAt),
    index("roster_changes_target_idx").on(table.targetUserSourcedId),
  ],
);

export const academicSessions = pgTable(
  "academic_sessions",
  {
    ...oneRosterBase,
    title: text("title").notNull(),
    type: text("type").notNull(),
    startDate: date("start_date").notNull(),
    endDate: date("end_date").notNull(),
    parentSourcedId: text("parent_sourced_id"),
    schoolYear: text("school_year").notNull(),
    orgSourcedId: text("org_sourced_id"),
  },
  (table) => [index("academic_sessions_parent_idx").on(table.parentSourcedId)],
);

export const courses = pgTable(
  "courses",
  {
    ...oneRosterBase,
    title: text("title").notNull(),
    schoolYearSourcedId: text("school_year_sourced_id"),
    courseCode: text("course_code"),
    grades: text("grades").array().notNull().default(sql`'{}'::text[]`),
    subjects: text("subjects").array().notNull().default(sql`'{}'::text[]`),
    subjectCodes: text("subject_codes").array().notNull().default(sql`'{}'::text[]`),
    orgSourcedId: text("org_sourced_id").notNull(),
  },
  (table) => [index("courses_org_idx").on(table.orgSourcedId)],
);

export const classes = pgTable(
  "classes",
  {
    ...oneRosterBase,
    title: text("title").notNull(),
    classCode: text("class_code"),
    classType: text("class_type").notNull().default("scheduled"),
    location: text("location"),
    grades: text("grades").array().notNull().default(sql`'{}'::text[]`),
    subjects: text("subjects").array().notNull().default(sql`'{}'::text[]`),
    subjectCodes: text("subject_codes").array().notNull().default(sql`'{}'::text[]`),
    periods: text("periods").array().notNull().default(sql`'{}'::text[]`),
    courseSourcedId: text("course_sourced_id").notNull(),
    schoolSourcedId: text("school_sourced_id").notNull(),
    termSourcedIds: text("term_sourced_ids").array().notNull().default(sql`'{}'::text[]`),
  },
  (table) => [
    index("classes_course_idx").on(table.courseSourcedId),
    index("classes_school_idx").on(table.schoolSourcedId),
  ],
);

export const enrollments = pgTable(
  "enrollments",
  {
    ...oneRosterBase,
    userSourcedId: text("user_sourced_id").notNull(),
    classSourcedId: text("class_sourced_id").notNull(),
    schoolSourcedId: text("school_sourced_id").notNull(),
    role: text("role").notNull(),
    primary: boolean("primary").notNull().default(false),
    beginDate: date("begin_date"),
    endDate: date("end_date"),
  },
  (table) => [
    index("enrollments_user_idx").on(table.userSourcedId),
    index("enrollments_class_idx").on(table.classSourcedId),
    index("enrollments_school_idx").on(table.schoolSourcedId),
    // The enrollment list's default order: latest begin date first.
    index("enrollments_begin_date_idx").on(table.beginDate.desc().nullsLast(), table.sourcedId),
  ],
);

/** OneRoster demographics: one row per user, sharing the user's sourcedId. Sensitive; read by scope. */
export const demographics = pgTable("demographics", {
  ...oneRosterBase,
  birthDate: date("birth_date"),
  sex: text("sex"),
  americanIndianOrAlaskaNative: boolean("american_indian_or_alaska_native"),
  asian: boolean("asian"),
  blackOrAfricanAmerican: boolean("black_or_african_american"),
  nativeHawaiianOrOtherPacificIslander: boolean("native_hawaiian_or_other_pacific_islander"),
  white: boolean("white"),
  demographicRaceTwoOrMoreRaces: boolean("demographic_race_two_or_more_races"),
  hispanicOrLatinoEthnicity: boolean("hispanic_or_latino_ethnicity"),
  countryOfBirthCode: text("country_of_birth_code"),
  stateOfBirthAbbreviation: text("state_of_birth_abbreviation"),
  cityOfBirth: text("city_of_birth"),
  publicSchoolResidenceStatus: text("public_school_residence_status"),
});

/**
 * Course components (OneRoster 1.2 resources-style units of a course): a course's units and their
 * parts. Ordered by sortOrder; components without one come last.
 */
export const courseComponents = pgTable(
  "course_components",
  {
    ...oneRosterBase,
    courseSourcedId: text("course_sourced_id").notNull(),
    parentComponentSourcedId: text("parent_component_sourced_id"),
    title: text("title").notNull(),
    sortOrder: integer("sort_order"),
  },
  (table) => [
    index("course_components_course_idx").on(table.courseSourcedId),
    index("course_components_parent_idx").on(table.parentComponentSourcedId),
  ],
);
