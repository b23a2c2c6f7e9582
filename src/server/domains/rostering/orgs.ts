import { randomUUID } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type {
  createSchoolSchema,
  Org,
  OrgClass,
  OrgCounts,
  OrgDetail,
  OrgRef,
  OrgSummary,
  OrgTreeNode,
  orgClassesQuerySchema,
  orgListQuerySchema,
  orgPeopleQuerySchema,
  updateOrgSchema,
} from "../../../shared/contracts/people";
import type { PersonSummary } from "../../../shared/contracts/rostering";
import type { Language } from "../../../shared/languages";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { containsPattern, type FilterFields, filterToSql } from "./filter";
import { NO_COUNTS, type OrgNumbers, type OrgNumbersCache } from "./org-numbers";
import { personSearch, personSummaryColumns, toPersonSummary, userFilterFields } from "./people";
import { grantsRole } from "./queries";
import { recordRosterChange } from "./roster-changes";
import { bounded } from "./scope";

/**
 * Organisations: the district and its schools as a hierarchy, what each holds (people, classes),
 * and who may see which. Administrators see and edit every organisation; a Guide sees, read-only,
 * the organisations they teach at and everything under them.
 */

/** The ids of the given organisations and of every active organisation under them. */
export function subtreeIds(roots: SQL): SQL {
  return sql`with recursive scope_tree(id) as (
      select o.sourced_id from orgs o where o.sourced_id in (${roots})
      union
      select o.sourced_id from orgs o join scope_tree s on o.parent_sourced_id = s.id where o.status = 'active'
    ) select id from scope_tree`;
}

/** The organisations a Guide teaches at (their teacher roles), with everything under them. */
export function orgIdsOfGuide(guideId: string): SQL {
  return subtreeIds(
    sql`select r.org_sourced_id from user_roles r where r.user_sourced_id = ${guideId} and ${grantsRole(sql`r.role`, "teacher")}`,
  );
}

/** The organisations a Guide teaches at, bounded while a Guide views Dash as someone. */
export function orgIdsInGuideReach(actor: Actor): SQL {
  return bounded(actor, orgIdsOfGuide(actor.user.sourcedId), orgIdsOfGuide);
}

/** Whether the organisation in `column` is one the caller may see, as SQL. */
export function canSeeOrg(actor: Actor, column: SQL): SQL {
  if (actor.activeRole === "administrator") return sql`true`;
  if (actor.activeRole === "teacher") return sql`${column} in (${orgIdsInGuideReach(actor)})`;
  return sql`false`;
}

/** The organisation, when it exists and the caller may see it; else 404 or 403. */
export async function visibleOrg(db: Database, actor: Actor, orgId: string): Promise<OrgRef> {
  const [org] = await queryRows<OrgRef & { isVisible: boolean }>(
    db,
    sql`select o.sourced_id as "sourcedId", o.name, o.type, ${canSeeOrg(actor, sql`o.sourced_id`)} as "isVisible"
        from orgs o where o.sourced_id = ${orgId} and o.status = 'active'`,
  );
  if (!org) throw new AppError("not_found", message("rostering:orgs.notFound", { orgId }));
  if (!org.isVisible) throw new AppError("forbidden", message("rostering:orgs.guideCannotSee"));
  return { sourcedId: org.sourcedId, name: org.name, type: org.type };
}

interface OrgRow {
  sourcedId: string;
  name: string;
  type: string;
  identifier: string | null;
  defaultLanguage: Language | null;
  status: string;
  dateLastModified: Date | string;
  parentId: string | null;
  parentName: string | null;
  parentType: string | null;
  total?: number | string;
}

const orgColumns = sql`o.sourced_id as "sourcedId", o.name, o.type, o.identifier,
  o.default_language as "defaultLanguage", o.status,
  o.date_last_modified as "dateLastModified",
  p.sourced_id as "parentId", p.name as "parentName", p.type as "parentType"`;

async function withCounts(numbers: OrgNumbersCache, rows: OrgRow[]): Promise<Org[]> {
  const { orgs } = await numbers.get();
  return rows.map((row) => ({
    sourcedId: row.sourcedId,
    name: row.name,
    type: row.type,
    identifier: row.identifier,
    defaultLanguage: row.defaultLanguage,
    status: row.status,
    dateLastModified: new Date(row.dateLastModified).toISOString(),
    parent: row.parentId
      ? { sourcedId: row.parentId, name: row.parentName ?? row.parentId, type: row.parentType ?? "unknown" }
      : null,
    counts: countsOf(orgs, row.sourcedId),
  }));
}

function countsOf(orgs: OrgNumbers["orgs"], orgId: string): OrgCounts {
  const { families: _families, ...counts } = orgs.get(orgId) ?? NO_COUNTS;
  return counts;
}

const orgFilterFields: FilterFields = {
  sourcedId: { column: sql`o.sourced_id`, kind: "text" },
  name: { column: sql`o.name`, kind: "text" },
  type: { column: sql`o.type`, kind: "text" },
  identifier: { column: sql`o.identifier`, kind: "text" },
  dateLastModified: { column: sql`o.date_last_modified`, kind: "timestamp" },
  "parent.sourcedId": { column: sql`o.parent_sourced_id`, kind: "text" },
};

const ORG_SORT_COLUMNS = {
  name: sql`lower(o.name)`,
  type: sql`o.type`,
  identifier: sql`lower(o.identifier)`,
  dateLastModified: sql`o.date_last_modified`,
} as const;

/** The organisations the caller may see, searched by name or identifier, filtered, sorted, paged. */
export async function findOrgs(
  db: Database,
  numbers: OrgNumbersCache,
  actor: Actor,
  query: z.output<typeof orgListQuerySchema>,
) {
  const pattern = containsPattern(query.search);
  const direction = sql.raw(query.orderBy === "desc" ? "desc" : "asc");
  const rows = await queryRows<OrgRow>(
    db,
    sql`select ${orgColumns}, count(*) over () as total
        from orgs o left join orgs p on p.sourced_id = o.parent_sourced_id
        where o.status = 'active' and ${canSeeOrg(actor, sql`o.sourced_id`)}
          and (${query.search} = '' or o.name ilike ${pattern} or coalesce(o.identifier, '') ilike ${pattern})
          and ${filterToSql(query.filter, orgFilterFields)}
        order by ${ORG_SORT_COLUMNS[query.sort]} ${direction} nulls last, lower(o.name), o.sourced_id
        limit ${query.limit} offset ${query.offset}`,
  );
  return { total: Number(rows[0]?.total ?? 0), data: await withCounts(numbers, rows) };
}

async function loadOrg(db: Database, numbers: OrgNumbersCache, orgId: string): Promise<Org> {
  const rows = await queryRows<OrgRow>(
    db,
    sql`select ${orgColumns} from orgs o left join orgs p on p.sourced_id = o.parent_sourced_id
        where o.sourced_id = ${orgId}`,
  );
  const [org] = await withCounts(numbers, rows);
  if (!org) throw new AppError("not_found", message("rostering:orgs.notFound", { orgId }));
  return org;
}

/** One organisation with the way up to the top (as far as the caller may see) and its children. */
export async function getOrgDetail(
  db: Database,
  numbers: OrgNumbersCache,
  actor: Actor,
  orgId: string,
): Promise<OrgDetail> {
  await visibleOrg(db, actor, orgId);
  const org = await loadOrg(db, numbers, orgId);
  const ancestors = await queryRows<OrgRef>(
    db,
    sql`with recursive up(sourced_id, depth) as (
          select o.parent_sourced_id, 1 from orgs o where o.sourced_id = ${orgId} and o.parent_sourced_id is not null
          union all
          select o.parent_sourced_id, up.depth + 1 from orgs o join up on o.sourced_id = up.sourced_id
          where o.parent_sourced_id is not null and up.depth < 20
        )
        select o.sourced_id as "sourcedId", o.name, o.type from up join orgs o on o.sourced_id = up.sourced_id
        where ${canSeeOrg(actor, sql`o.sourced_id`)}
        order by up.depth desc`,
  );
  const childRows = await queryRows<OrgRow>(
    db,
    sql`select ${orgColumns} from orgs o left join orgs p on p.sourced_id = o.parent_sourced_id
        where o.parent_sourced_id = ${orgId} and o.status = 'active' order by lower(o.name), o.sourced_id`,
  );
  return { ...org, ancestors, children: await withCounts(numbers, childRows) };
}

/** The organisation and everything under it: child organisations, then each school's classes. */
export async function getOrgTree(
  db: Database,
  numbers: OrgNumbersCache,
  actor: Actor,
  orgId: string,
): Promise<OrgTreeNode> {
  await visibleOrg(db, actor, orgId);
  const inTree = subtreeIds(sql`select ${orgId}::text`);
  const orgRows = await queryRows<{
    sourcedId: string;
    name: string;
    type: string;
    identifier: string | null;
    parentId: string | null;
  }>(
    db,
    sql`select o.sourced_id as "sourcedId", o.name, o.type, o.identifier, o.parent_sourced_id as "parentId"
        from orgs o where o.sourced_id in (${inTree}) order by lower(o.name), o.sourced_id`,
  );
  const classRows = await queryRows<{
    sourcedId: string;
    title: string;
    classCode: string | null;
    schoolId: string;
  }>(
    db,
    sql`select k.sourced_id as "sourcedId", k.title, k.class_code as "classCode", k.school_sourced_id as "schoolId"
        from classes k where k.status = 'active' and k.school_sourced_id in (${inTree})
        order by lower(k.title), k.sourced_id`,
  );
  const { orgs, classes } = await numbers.get();
  const nodes = new Map<string, OrgTreeNode>(
    orgRows.map((row) => {
      const { students, guides, classes: classCount } = countsOf(orgs, row.sourcedId);
      return [
        row.sourcedId,
        {
          kind: "org",
          sourcedId: row.sourcedId,
          name: row.name,
          type: row.type,
          identifier: row.identifier,
          counts: { students, guides, classes: classCount },
          children: [],
        },
      ];
    }),
  );
  for (const row of orgRows) {
    const parent = row.sourcedId === orgId || !row.parentId ? undefined : nodes.get(row.parentId);
    const node = nodes.get(row.sourcedId);
    if (parent && node) parent.children.push(node);
  }
  for (const row of classRows) {
    const counts = classes.get(row.sourcedId) ?? { students: 0, guides: 0 };
    nodes.get(row.schoolId)?.children.push({
      kind: "class",
      sourcedId: row.sourcedId,
      name: row.title,
      type: "class",
      identifier: row.classCode,
      counts: { ...counts, classes: 0 },
      children: [],
    });
  }
  const root = nodes.get(orgId);
  if (!root) throw new AppError("not_found", message("rostering:orgs.notFound", { orgId }));
  return root;
}

/** The numbers of an organisation: totals and students per grade. */
export async function getOrgSummary(
  db: Database,
  numbers: OrgNumbersCache,
  actor: Actor,
  orgId: string,
): Promise<OrgSummary> {
  const org = await visibleOrg(db, actor, orgId);
  const { orgs, grades } = await numbers.get();
  return { org, totals: orgs.get(orgId) ?? NO_COUNTS, studentsPerGrade: grades.get(orgId) ?? [] };
}

const classFilterFields: FilterFields = {
  sourcedId: { column: sql`k.sourced_id`, kind: "text" },
  title: { column: sql`k.title`, kind: "text" },
  classCode: { column: sql`k.class_code`, kind: "text" },
  classType: { column: sql`k.class_type`, kind: "text" },
  location: { column: sql`k.location`, kind: "text" },
  grades: { column: sql`k.grades`, kind: "textArray" },
  subjects: { column: sql`k.subjects`, kind: "textArray" },
  "school.sourcedId": { column: sql`k.school_sourced_id`, kind: "text" },
  "course.sourcedId": { column: sql`k.course_sourced_id`, kind: "text" },
};

const CLASS_SORT_COLUMNS = {
  title: sql`lower(k.title)`,
  classCode: sql`lower(k.class_code)`,
  students: sql`students`,
} as const;

/** The classes of an organisation's schools, with their Guides and numbers of students. */
export async function findOrgClasses(
  db: Database,
  actor: Actor,
  orgId: string,
  query: z.output<typeof orgClassesQuerySchema>,
): Promise<{ data: OrgClass[]; total: number }> {
  await visibleOrg(db, actor, orgId);
  const pattern = containsPattern(query.search);
  const direction = sql.raw(query.orderBy === "desc" ? "desc" : "asc");
  const rows = await queryRows<
    Omit<OrgClass, "school"> & { schoolId: string; schoolName: string | null; total: number | string }
  >(
    db,
    sql`select k.sourced_id as "sourcedId", k.title, k.class_code as "classCode", k.grades, k.subjects,
          k.school_sourced_id as "schoolId", o.name as "schoolName",
          coalesce((select json_agg(json_build_object('sourcedId', g.sourced_id, 'name', g.given_name || ' ' || g.family_name)
              order by g.family_name, g.given_name)
            from enrollments e join users g on g.sourced_id = e.user_sourced_id
            where e.class_sourced_id = k.sourced_id and e.role = 'teacher' and e.status = 'active'), '[]'::json) as guides,
          (select count(*)::int from enrollments e where e.class_sourced_id = k.sourced_id and e.role = 'student'
            and e.status = 'active') as students,
          count(*) over () as total
        from classes k left join orgs o on o.sourced_id = k.school_sourced_id
        where k.status = 'active' and k.school_sourced_id in (${subtreeIds(sql`select ${orgId}::text`)})
          and (${query.search} = '' or k.title ilike ${pattern} or coalesce(k.class_code, '') ilike ${pattern})
          and ${filterToSql(query.filter, classFilterFields)}
        order by ${CLASS_SORT_COLUMNS[query.sort]} ${direction} nulls last, lower(k.title), k.sourced_id
        limit ${query.limit} offset ${query.offset}`,
  );
  return {
    total: Number(rows[0]?.total ?? 0),
    data: rows.map(({ schoolId, schoolName, total: _total, ...row }) => ({
      ...row,
      school: { sourcedId: schoolId, name: schoolName ?? schoolId },
    })),
  };
}

const PEOPLE_SORT_COLUMNS = {
  familyName: sql`lower(u.family_name), lower(u.given_name)`,
  givenName: sql`lower(u.given_name), lower(u.family_name)`,
  email: sql`lower(u.email)`,
} as const;

/** The people holding a role in an organisation or under it, with those roles. */
export async function findOrgPeople(
  db: Database,
  actor: Actor,
  orgId: string,
  query: z.output<typeof orgPeopleQuerySchema>,
): Promise<{ data: PersonSummary[]; total: number }> {
  await visibleOrg(db, actor, orgId);
  const direction = sql.raw(query.orderBy === "desc" ? "desc" : "asc");
  const inTree = (alias: string) => sql`${sql.raw(alias)}.org_sourced_id in (select id from tree)`;
  const rows = await queryRows<Parameters<typeof toPersonSummary>[0] & { total: number | string }>(
    db,
    sql`with tree(id) as (${subtreeIds(sql`select ${orgId}::text`)})
        select ${personSummaryColumns(inTree("r"))}, count(*) over () as total
        from users u
        where u.status = 'active'
          and exists (select 1 from user_roles hr where hr.user_sourced_id = u.sourced_id and ${inTree("hr")}
            and ${query.role ? grantsRole(sql`hr.role`, query.role) : sql`true`})
          and ${personSearch(query.search)} and ${filterToSql(query.filter, userFilterFields)}
        order by ${PEOPLE_SORT_COLUMNS[query.sort]} ${direction} nulls last, u.sourced_id
        limit ${query.limit} offset ${query.offset}`,
  );
  return { total: Number(rows[0]?.total ?? 0), data: rows.map(toPersonSummary) };
}

async function assertIdentifierFree(db: Database, identifier: string | null, exceptOrgId: string | null) {
  if (!identifier) return;
  const [other] = await queryRows<{ name: string }>(
    db,
    sql`select name from orgs where lower(identifier) = ${identifier.toLowerCase()}
          and (${exceptOrgId}::text is null or sourced_id <> ${exceptOrgId})`,
  );
  if (other)
    throw new AppError(
      "conflict",
      message("rostering:orgs.identifierTaken", { org: other.name, identifier }),
    );
}

/** Renames an organisation or changes its identifier (administrators). */
export async function updateOrg(
  db: Database,
  numbers: OrgNumbersCache,
  actor: Actor,
  orgId: string,
  input: z.output<typeof updateOrgSchema>,
  now: Date,
): Promise<Org> {
  await db.transaction(async (tx) => {
    const [org] = await queryRows<{
      name: string;
      identifier: string | null;
      defaultLanguage: Language | null;
    }>(
      tx,
      sql`select name, identifier, default_language as "defaultLanguage" from orgs
          where sourced_id = ${orgId} and status = 'active' for update`,
    );
    if (!org) throw new AppError("not_found", message("rostering:orgs.notFound", { orgId }));
    const name = input.name ?? org.name;
    const identifier = input.identifier === undefined ? org.identifier : input.identifier;
    const defaultLanguage = input.defaultLanguage === undefined ? org.defaultLanguage : input.defaultLanguage;
    const isRenamed = name !== org.name;
    const isIdentifierChanged = identifier !== org.identifier;
    if (defaultLanguage !== org.defaultLanguage) {
      await tx.execute(sql`update orgs set default_language = ${defaultLanguage}, date_last_modified = ${now}
        where sourced_id = ${orgId}`);
      await recordRosterChange(tx, {
        actorSourcedId: actor.realUser.sourcedId,
        action: "org.update",
        orgSourcedId: orgId,
        summary: message("rostering:changes.orgLanguageChanged", {
          name,
          language: defaultLanguage ?? "none",
        }),
        details: { before: { defaultLanguage: org.defaultLanguage }, after: { defaultLanguage } },
        createdAt: now,
      });
    }
    if (!isRenamed && !isIdentifierChanged) return;
    if (identifier?.toLowerCase() !== org.identifier?.toLowerCase())
      await assertIdentifierFree(tx, identifier, orgId);
    await tx.execute(sql`update orgs set name = ${name}, identifier = ${identifier}, date_last_modified = ${now}
      where sourced_id = ${orgId}`);
    const identifiers = {
      identifierBefore: org.identifier ?? "",
      hadBefore: org.identifier === null ? "no" : "yes",
      identifierAfter: identifier ?? "",
      hasAfter: identifier === null ? "no" : "yes",
    };
    await recordRosterChange(tx, {
      actorSourcedId: actor.realUser.sourcedId,
      action: "org.update",
      orgSourcedId: orgId,
      summary: !isIdentifierChanged
        ? message("rostering:changes.orgRenamed", { before: org.name, after: name })
        : isRenamed
          ? message("rostering:changes.orgRenamedAndIdentifierChanged", {
              before: org.name,
              name,
              ...identifiers,
            })
          : message("rostering:changes.orgIdentifierChanged", { name, ...identifiers }),
      details: { before: org, after: { name, identifier } },
      createdAt: now,
    });
  });
  return loadOrg(db, numbers, orgId);
}

// Schools go under districts and the like; a school or a department has no schools under it.
const TYPES_WITHOUT_SCHOOLS = new Set(["school", "department"]);

/** Adds a school under an organisation (administrators). */
export async function createSchool(
  db: Database,
  numbers: OrgNumbersCache,
  actor: Actor,
  input: z.output<typeof createSchoolSchema>,
  now: Date,
): Promise<Org> {
  const sourcedId = randomUUID();
  await db.transaction(async (tx) => {
    const [parent] = await queryRows<{ name: string; type: string }>(
      tx,
      sql`select name, type from orgs where sourced_id = ${input.parentSourcedId} and status = 'active' for update`,
    );
    if (!parent)
      throw new AppError(
        "bad_request",
        message("rostering:orgs.noActiveWithId", { orgId: input.parentSourcedId }),
      );
    if (TYPES_WITHOUT_SCHOOLS.has(parent.type.toLowerCase()))
      throw new AppError(
        "bad_request",
        message("rostering:orgs.noSchoolsUnder", { parent: parent.name, type: parent.type }),
      );
    const [twin] = await queryRows(
      tx,
      sql`select 1 from orgs where parent_sourced_id = ${input.parentSourcedId} and lower(name) = ${input.name.toLowerCase()}
            and status = 'active'`,
    );
    if (twin)
      throw new AppError(
        "conflict",
        message("rostering:orgs.schoolNameTaken", { parent: parent.name, name: input.name }),
      );
    await assertIdentifierFree(tx, input.identifier, null);
    await tx.execute(sql`insert into orgs (sourced_id, status, date_last_modified, name, type, identifier, parent_sourced_id)
      values (${sourcedId}, 'active', ${now}, ${input.name}, 'school', ${input.identifier}, ${input.parentSourcedId})`);
    await recordRosterChange(tx, {
      actorSourcedId: actor.realUser.sourcedId,
      action: "org.create",
      orgSourcedId: sourcedId,
      summary: message("rostering:changes.schoolAdded", { name: input.name, parent: parent.name }),
      details: { parentSourcedId: input.parentSourcedId, identifier: input.identifier },
      createdAt: now,
    });
  });
  numbers.forget();
  return loadOrg(db, numbers, sourcedId);
}
