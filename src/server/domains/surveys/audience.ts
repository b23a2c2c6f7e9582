import { type SQL, sql } from "drizzle-orm";
import { GRADES } from "../../../shared/contracts/courses";
import {
  AUDIENCE_ROLES,
  type Audience,
  type AudienceOptions,
  type AudienceRole,
  GUIDE_AUDIENCE_ROLES,
} from "../../../shared/contracts/surveys";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { invalidFields } from "../../lib/validation";
import { grantsRole } from "../rostering/queries";
import { classIdsInGuideReach } from "../rostering/scope";

/**
 * Who a survey asks, in SQL: every check reads the audience as stored (jsonb), so "is this person
 * asked", "who is asked" and "may this Guide see it" are one rule each, decided in the query.
 * The aliases are the module's own (aud_…), so a caller's `u` or `s` is never shadowed.
 */

type ListKey = "schoolIds" | "grades" | "classIds";

/** The audience's list under `key`, as rows of text. */
const listed = (audience: SQL, key: ListKey) =>
  sql`select jsonb_array_elements_text(coalesce(${audience} -> ${sql.raw(`'${key}'`)}, '[]'::jsonb))`;

const isUnfiltered = (audience: SQL, key: ListKey) =>
  sql`jsonb_array_length(coalesce(${audience} -> ${sql.raw(`'${key}'`)}, '[]'::jsonb)) = 0`;

/** A filter: met when the audience lists nothing under `key`, or when `matches` holds. */
const filter = (audience: SQL, key: ListKey, matches: SQL) =>
  sql`(${isUnfiltered(audience, key)} or ${matches})`;

/** The person's own schools: their roles' organisations and their primary one. */
const ownSchoolIn = (audience: SQL, person: SQL) =>
  sql`(exists (select 1 from user_roles aud_r where aud_r.user_sourced_id = ${person}
        and aud_r.org_sourced_id in (${listed(audience, "schoolIds")}))
      or exists (select 1 from users aud_u where aud_u.sourced_id = ${person}
        and aud_u.primary_org_sourced_id in (${listed(audience, "schoolIds")})))`;

/** A student matches every filter by their own school, grade and classes. */
function studentMatches(audience: SQL, student: SQL): SQL {
  return sql`(${filter(audience, "schoolIds", ownSchoolIn(audience, student))}
    and ${filter(
      audience,
      "grades",
      sql`exists (select 1 from users aud_g where aud_g.sourced_id = ${student}
        and aud_g.grades && array(${listed(audience, "grades")}))`,
    )}
    and ${filter(
      audience,
      "classIds",
      sql`exists (select 1 from enrollments aud_e where aud_e.user_sourced_id = ${student}
        and aud_e.role = 'student' and aud_e.status = 'active' and aud_e.class_sourced_id in (${listed(audience, "classIds")}))`,
    )})`;
}

const hasNoFilter = (audience: SQL) =>
  sql`(${isUnfiltered(audience, "schoolIds")} and ${isUnfiltered(audience, "grades")} and ${isUnfiltered(audience, "classIds")})`;

/** A Guide matches by the schools they belong to and the classes they teach (and those classes' grades). */
function guideMatches(audience: SQL, guide: SQL): SQL {
  const taught = sql`select aud_t.class_sourced_id from enrollments aud_t
    where aud_t.user_sourced_id = ${guide} and aud_t.role = 'teacher' and aud_t.status = 'active'`;
  return sql`(${filter(audience, "schoolIds", ownSchoolIn(audience, guide))}
    and ${filter(
      audience,
      "grades",
      sql`exists (select 1 from classes aud_c where aud_c.sourced_id in (${taught})
        and aud_c.grades && array(${listed(audience, "grades")}))`,
    )}
    and ${filter(audience, "classIds", sql`exists (select 1 from (${taught}) aud_tc (id) where aud_tc.id in (${listed(audience, "classIds")}))`)})`;
}

/** Whether the person matches the audience's filters in this role. */
function matchesFilters(audience: SQL, person: SQL, role: AudienceRole): SQL {
  switch (role) {
    case "student":
      return studentMatches(audience, person);
    case "parent":
    case "guardian":
      // Through a child who matches every filter; with no filter, anyone holding the role.
      return sql`(${hasNoFilter(audience)} or exists (select 1 from user_agents aud_a
        where aud_a.agent_sourced_id = ${person} and ${studentMatches(audience, sql`aud_a.user_sourced_id`)}))`;
    case "teacher":
      return guideMatches(audience, person);
    case "administrator":
    case "proctor":
      return sql`(${isUnfiltered(audience, "grades")} and ${isUnfiltered(audience, "classIds")}
        and ${filter(audience, "schoolIds", ownSchoolIn(audience, person))})`;
  }
}

/** SQL: the person, acting in `role`, is asked by the audience (a jsonb expression). */
export function audienceIncludes(audience: SQL, person: SQL, role: AudienceRole): SQL {
  return sql`((${audience} -> 'roles') @> ${JSON.stringify([role])}::jsonb
    and exists (select 1 from user_roles aud_h where aud_h.user_sourced_id = ${person} and ${grantsRole(sql`aud_h.role`, role)})
    and ${matchesFilters(audience, person, role)})`;
}

/** The same for the caller in their active role; false for a role no survey asks. */
export function audienceIncludesActor(audience: SQL, actor: Actor): SQL {
  const role = actor.activeRole;
  if (!role || !(AUDIENCE_ROLES as readonly string[]).includes(role)) return sql`false`;
  return audienceIncludes(audience, sql`${actor.user.sourcedId}::text`, role);
}

/** The active people an audience asks (each once, whichever of their roles it asks them in). */
export function audienceMemberIds(
  audience: Audience | SQL,
  roles: readonly AudienceRole[] = AUDIENCE_ROLES,
): SQL {
  const stored = "roles" in audience ? sql`${JSON.stringify(audience)}::jsonb` : audience;
  const asked = "roles" in audience ? roles.filter((role) => audience.roles.includes(role)) : roles;
  if (asked.length === 0) return sql`select null::text where false`;
  return sql.join(
    asked.map(
      (role) => sql`select aud_m.sourced_id from users aud_m
        where aud_m.status = 'active' and aud_m.enabled_user and ${audienceIncludes(stored, sql`aud_m.sourced_id`, role)}`,
    ),
    sql` union `,
  );
}

/**
 * SQL: the audience lies within a Guide's reach: it names classes, every one of them the Guide's,
 * and asks only students and their families.
 */
function withinGuideReach(audience: SQL, actor: Actor): SQL {
  const roles = sql.join(
    GUIDE_AUDIENCE_ROLES.map((role) => sql`${role}`),
    sql`, `,
  );
  return sql`(jsonb_array_length(coalesce(${audience} -> 'classIds', '[]'::jsonb)) > 0
    and not exists (select 1 from jsonb_array_elements_text(${audience} -> 'classIds') aud_k (id)
      where aud_k.id not in (${classIdsInGuideReach(actor)}))
    and not exists (select 1 from jsonb_array_elements_text(${audience} -> 'roles') aud_o (role)
      where aud_o.role not in (${roles})))`;
}

/** SQL: the caller manages surveys of this audience (administrators all; Guides those within reach). */
export function managedBy(actor: Actor, audience: SQL): SQL {
  if (actor.activeRole === "administrator") return sql`true`;
  if (actor.activeRole === "teacher") return withinGuideReach(audience, actor);
  return sql`false`;
}

/** Only administrators and Guides build surveys and read their results. */
export function requireSurveyStaff(actor: Actor, action: string): void {
  if (actor.activeRole !== "administrator" && actor.activeRole !== "teacher")
    throw new AppError(
      "forbidden",
      message("common:roleForbids", { action: message(`surveys:actions.${action}`) }),
    );
}

/**
 * Refuses an audience the caller may not ask: a Guide asks students and families of classes they
 * teach (403 for other roles, 404 for a class not theirs); every school and class must exist.
 */
export async function assertAudienceAllowed(db: Database, actor: Actor, audience: Audience): Promise<void> {
  const isGuide = actor.activeRole === "teacher";
  if (isGuide) {
    if (audience.roles.some((role) => !GUIDE_AUDIENCE_ROLES.includes(role)))
      throw new AppError("forbidden", message("surveys:guideRolesOnly"));
    if (audience.classIds.length === 0)
      throw invalidFields([{ path: "audience.classIds", message: message("surveys:guideChoosesClasses") }]);
  }
  const [found] = await queryRows<{
    unknown_schools: string[];
    unknown_classes: string[];
    outside: string[];
  }>(
    db,
    sql`select
      array(select id from jsonb_array_elements_text(${JSON.stringify(audience.schoolIds)}::jsonb) ids (id)
        where not exists (select 1 from orgs o where o.sourced_id = ids.id)) as unknown_schools,
      array(select id from jsonb_array_elements_text(${JSON.stringify(audience.classIds)}::jsonb) ids (id)
        where not exists (select 1 from classes k where k.sourced_id = ids.id)) as unknown_classes,
      ${
        isGuide
          ? sql`array(select id from jsonb_array_elements_text(${JSON.stringify(audience.classIds)}::jsonb) ids (id)
              where ids.id not in (${classIdsInGuideReach(actor)}))`
          : sql`array[]::text[]`
      } as outside`,
  );
  if (found?.outside.length) throw new AppError("not_found", message("surveys:classNotYours"));
  const issues = [
    ...(found?.unknown_schools.length
      ? [{ path: "audience.schoolIds", message: message("surveys:unknownSchool") }]
      : []),
    ...(found?.unknown_classes.length
      ? [{ path: "audience.classIds", message: message("surveys:unknownClass") }]
      : []),
  ];
  if (issues.length > 0) throw invalidFields(issues);
}

/** How many active people the audience asks now. */
export async function countAudience(db: Database, audience: Audience): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from (${audienceMemberIds(audience)}) members`,
  );
  return row?.count ?? 0;
}

/** Grades in school order (K before 1, 2 before 10), those outside the roster's list last. */
export function compareGrades(a: string, b: string): number {
  const rank = (grade: string) => {
    const index = (GRADES as readonly string[]).indexOf(grade);
    return index === -1 ? GRADES.length : index;
  };
  return rank(a) - rank(b) || a.localeCompare(b);
}

/** The schools, grades and classes the caller may ask: an administrator's all, a Guide's their classes'. */
export async function audienceOptions(db: Database, actor: Actor): Promise<AudienceOptions> {
  const isGuide = actor.activeRole === "teacher";
  const classes = isGuide
    ? sql`select k.* from classes k where k.sourced_id in (${classIdsInGuideReach(actor)})`
    : sql`select k.* from classes k where k.status = 'active'`;
  const [row] = await queryRows<{
    schools: AudienceOptions["schools"];
    grades: string[];
    classes: AudienceOptions["classes"];
  }>(
    db,
    sql`with chosen as (${classes})
      select
        coalesce((select json_agg(json_build_object('id', o.sourced_id, 'name', o.name) order by o.name)
          from orgs o where o.status = 'active' and ${
            isGuide ? sql`o.sourced_id in (select school_sourced_id from chosen)` : sql`o.type = 'school'`
          }), '[]'::json) as schools,
        array(select distinct g from chosen, unnest(chosen.grades) g) as grades,
        coalesce((select json_agg(json_build_object('id', c.sourced_id, 'title', c.title,
            'schoolId', c.school_sourced_id, 'schoolName', coalesce(o.name, c.school_sourced_id))
            order by o.name, c.title)
          from chosen c left join orgs o on o.sourced_id = c.school_sourced_id), '[]'::json) as classes`,
  );
  return {
    roles: isGuide ? [...GUIDE_AUDIENCE_ROLES] : [...AUDIENCE_ROLES],
    schools: row?.schools ?? [],
    grades: [...(row?.grades ?? [])].sort(compareGrades),
    classes: row?.classes ?? [],
    mustChooseClasses: isGuide,
  };
}
