import { type SQL, sql } from "drizzle-orm";
import type { ReportFilter, ReportOption } from "../../../shared/contracts/reports";
import { queryRows } from "../../db/client";
import { studentForbidden } from "../activity/metrics";
import { studentIdsInReach, studentIdsOfClass, studentIdsOfGuide, studentIdsUnder } from "../rostering/scope";
import type { ReportContext } from "./engine";
import { packedLine, packedLines } from "./packed";

/** A student a report counts, with what its tables group by. */
export interface ReportStudent {
  id: string;
  name: string;
  grade: string;
  schoolId: string | null;
  schoolName: string | null;
  timezone: string;
  classIds: string[];
}

export interface ReportClass {
  id: string;
  title: string;
  schoolId: string | null;
  guides: string;
}

/** A grade as people say it: "3", "K". */
export function gradeName(grade: string): string {
  return grade === "KG" ? "K" : grade.replace(/^0+(?=\d)/, "");
}

/**
 * The students the report's filters name, within what the caller may see, as a sub-query of ids:
 * the caller's reach is in its WHERE clause, so no filter widens it.
 */
export function studentsOfFilters(context: ReportContext, filters: readonly ReportFilter[]): SQL {
  const reach = studentIdsInReach(context.actor);
  if (!reach) throw studentForbidden();
  const { search } = context;
  const uses = (filter: ReportFilter) => filters.includes(filter);
  const conditions = [sql`u.sourced_id in (${reach})`];
  if (uses("schoolId") && search.schoolId)
    conditions.push(sql`u.sourced_id in (${studentIdsUnder(sql`select ${search.schoolId}::text`)})`);
  if (uses("grade") && search.grade) conditions.push(sql`${search.grade} = any(u.grades)`);
  if (uses("classId") && search.classId)
    conditions.push(sql`u.sourced_id in (${studentIdsOfClass(search.classId)})`);
  if (uses("guideId") && search.guideId)
    conditions.push(sql`u.sourced_id in (${studentIdsOfGuide(search.guideId)})`);
  if (uses("studentId") && search.studentId) conditions.push(sql`u.sourced_id = ${search.studentId}`);
  return sql`select u.sourced_id from users u where ${sql.join(conditions, sql` and `)}`;
}

/**
 * The students of a sub-query with their school, first grade and active classes, and those
 * classes with their Guides, in the order reports list people (family name, given name). The
 * students come back packed (packed.ts), each one's class ids apart by the group separator.
 */
export async function reportStudents(
  context: ReportContext,
  ids: SQL,
): Promise<{ students: ReportStudent[]; classes: Map<string, ReportClass> }> {
  const [lines, classes] = await Promise.all([
    packedLines(
      context.db,
      sql`select ${packedLine([
        sql`u.sourced_id`,
        sql`concat_ws(' ', u.given_name, u.family_name)`,
        sql`coalesce(u.grades[1], '')`,
        sql`u.timezone`,
        sql`coalesce(s.sourced_id, '')`,
        sql`coalesce(s.name, '')`,
        sql`coalesce(c.ids, '')`,
      ])} as line, u.family_name, u.given_name, u.sourced_id
        from users u
        -- A student's school: their primary organisation when it is a school, else a school they have a role at.
        left join orgs p on p.sourced_id = u.primary_org_sourced_id and p.type = 'school'
        left join lateral (select p.sourced_id, p.name where p.sourced_id is not null
          union all (select o.sourced_id, o.name from user_roles r join orgs o on o.sourced_id = r.org_sourced_id
            where p.sourced_id is null and r.user_sourced_id = u.sourced_id and o.type = 'school' order by o.name limit 1)
          limit 1) s on true
        left join (select e.user_sourced_id, string_agg(e.class_sourced_id, chr(29) order by e.class_sourced_id) as ids
          from enrollments e where e.role = 'student' and e.status = 'active' and e.user_sourced_id in (${ids})
          group by 1) c on c.user_sourced_id = u.sourced_id
        where u.sourced_id in (${ids})`,
      sql`order by g.family_name, g.given_name, g.sourced_id`,
    ),
    queryRows<ReportClass>(
      context.db,
      sql`select c.sourced_id as id, c.title, c.school_sourced_id as "schoolId",
          coalesce(string_agg(concat_ws(' ', g.given_name, g.family_name), ', ' order by g.family_name), '') as guides
        from classes c
        left join enrollments t on t.class_sourced_id = c.sourced_id and t.role = 'teacher' and t.status = 'active'
        left join users g on g.sourced_id = t.user_sourced_id
        where c.sourced_id in (select e.class_sourced_id from enrollments e
          where e.role = 'student' and e.status = 'active' and e.user_sourced_id in (${ids}))
        group by c.sourced_id, c.title, c.school_sourced_id`,
    ),
  ]);
  const students = lines.map((line) => {
    const [id, name, grade, timezone, schoolId, schoolName, classIds] = line;
    return {
      id: id as string,
      name: name as string,
      grade: grade as string,
      timezone: timezone as string,
      schoolId: schoolId || null,
      schoolName: schoolName || null,
      classIds: classIds ? classIds.split("\u001d") : [],
    };
  });
  return { students, classes: new Map(classes.map((row) => [row.id, row])) };
}

/** The choices of the report's filters that have a list: schools, grades, classes, Guides, subjects and apps. */
export async function filterOptions(
  context: ReportContext,
  filters: readonly ReportFilter[],
): Promise<Partial<Record<ReportFilter, ReportOption[]>>> {
  const { db, search } = context;
  const list = (filter: ReportFilter, query: SQL) =>
    filters.includes(filter)
      ? queryRows<ReportOption>(db, query).then((options) => [filter, options] as const)
      : null;
  const inSchool = (column: SQL) =>
    search.schoolId
      ? sql`and ${column} in (select o.sourced_id from orgs o where o.sourced_id = ${search.schoolId}
      or o.parent_sourced_id = ${search.schoolId})`
      : sql``;
  const lists = await Promise.all(
    [
      list(
        "schoolId",
        sql`select o.sourced_id as value, o.name as label from orgs o
        where o.type in ('school', 'district') and o.status = 'active' order by o.type = 'school', o.name`,
      ),
      list(
        "grade",
        sql`select g as value, g as label from (select distinct unnest(u.grades) as g from users u
        where u.sourced_id in (select r.user_sourced_id from user_roles r where lower(r.role) = 'student')) grades
        order by g`,
      ),
      list(
        "classId",
        sql`select c.sourced_id as value, c.title as label from classes c
        where c.status = 'active' ${inSchool(sql`c.school_sourced_id`)} order by c.title`,
      ),
      list(
        "guideId",
        sql`select distinct u.sourced_id as value, concat_ws(' ', u.given_name, u.family_name) as label,
          u.family_name from users u join enrollments e on e.user_sourced_id = u.sourced_id
        where e.role = 'teacher' and e.status = 'active' ${inSchool(sql`e.school_sourced_id`)}
        order by u.family_name, label`,
      ),
      list(
        "subject",
        sql`select distinct s as value, s as label from (
          select unnest(c.subjects) as s from classes c
          union select g.key from app_meta m, jsonb_each(m.value) g where m.key = 'daily_xp_goals') subjects
        where s is not null order by s`,
      ),
      list("appKey", sql`select id::text as value, name as label from learning_apps order by name`),
    ].filter((entry) => entry !== null),
  );
  return Object.fromEntries(
    lists.map(([filter, options]) => [
      filter,
      filter === "grade" ? options.map((option) => ({ ...option, label: gradeName(option.label) })) : options,
    ]),
  );
}

/**
 * The filters applied, in words (for the page and the PDF's header), and whose figures these are:
 * the school asked for, else all schools.
 */
export function describeFilters(
  context: ReportContext,
  filters: readonly ReportFilter[],
  options: Partial<Record<ReportFilter, ReportOption[]>>,
): { applied: { label: string; value: string }[]; scope: string } {
  const { search, t } = context;
  const applied: { label: string; value: string }[] = [];
  for (const filter of filters) {
    if (filter === "date" || filter === "startDate" || filter === "endDate" || filter === "studentId")
      continue;
    const value = search[filter];
    if (!value) continue;
    const label = options[filter]?.find((option) => option.value === value)?.label ?? value;
    applied.push({ label: t(`filters.${filter}`), value: label });
  }
  const school = search.schoolId && options.schoolId?.find((option) => option.value === search.schoolId);
  return { applied, scope: school ? school.label : t("scope.allSchools") };
}

/** Only the filters whose values are among their choices count; a stale id in an address falls back to none. */
export function knownFilters(
  context: ReportContext,
  options: Partial<Record<ReportFilter, ReportOption[]>>,
): ReportContext {
  const search = { ...context.search };
  for (const [filter, choices] of Object.entries(options) as [ReportFilter, ReportOption[]][]) {
    const value = search[filter];
    if (value && !choices.some((choice) => choice.value === value)) search[filter] = undefined;
  }
  return { ...context, search };
}
