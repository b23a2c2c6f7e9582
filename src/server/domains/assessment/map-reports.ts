import { type SQL, sql } from "drizzle-orm";
import {
  GROWTH_WINDOWS,
  type GrowthSummary,
  type GrowthWindow,
  type LatestMapSubject,
  type MapActualRow,
  type MapActualStatus,
  type MapActualsPage,
  type MapActualsQuery,
  type MapGrowthReport,
  type MapReportQuery,
  type MapReportRow,
  type MapSeason,
  type MapStudentsPage,
  type MapStudentsQuery,
  type MapTermSummary,
  mapScaleOf,
} from "../../../shared/contracts/assessment";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { containsPattern } from "../rostering/filter";
import { displayNameOfU, gradeLevelOfGrades } from "../rostering/queries";
import { studentIdsInReach, studentIdsOfClass, studentIdsUnder } from "../rostering/scope";
import { percentileFromNorms } from "./norms";

/**
 * The windows in the order a student's latest growth is told: the school year's own from fall
 * first (the "2× growth" promise is fall to spring), then the others.
 */
const WINDOW_PREFERENCE: readonly GrowthWindow[] = [
  "fallToSpring",
  "fallToWinter",
  "winterToSpring",
  "springToSpring",
  "fallToFall",
  "winterToWinter",
];
const windowOrder = (column: SQL) =>
  sql`array_position(array[${sql.join(
    WINDOW_PREFERENCE.map((window) => sql`${window}`),
    sql`, `,
  )}]::text[], ${column})`;

const growthColumns = (g: SQL) => sql`${g}.window, ${g}.from_term as "fromTerm", ${g}.to_term as "toTerm",
  ${g}.observed, ${g}.projected::float8 as projected, ${g}.conditional_growth_percentile as "conditionalGrowthPercentile",
  ${g}.met_projected as "metProjected", ${g}.multiple::float8 as multiple, ${g}.reaches_target as "reachesTarget"`;

/** Each student's latest growth per subject: the preferred window of those ending at the latest test. */
function latestGrowthOf(studentIds: SQL, subject?: string): SQL {
  return sql`select distinct on (g.student_sourced_id, g.subject) g.* from map_growth g
    where g.student_sourced_id in (${studentIds}) ${subject ? sql`and g.subject = ${subject}` : sql``}
    order by g.student_sourced_id, g.subject, g.end_test_date desc, ${windowOrder(sql`g.window`)}`;
}

/** Students of a school or district (and the organisations under it), or of a class, or both. */
function populationOf(query: { schoolId?: string; classId?: string }): SQL | null {
  const parts: SQL[] = [];
  if (query.schoolId) parts.push(studentIdsUnder(sql`select ${query.schoolId}::text`));
  if (query.classId) parts.push(studentIdsOfClass(query.classId));
  if (parts.length === 0) return null;
  return sql.join(
    parts.map((part) => sql`(${part})`),
    sql` intersect `,
  );
}

/**
 * The students a Guide teaches (an administrator: every student), a page at a time, each with the
 * latest result and growth of every subject; the summary counts every student the filter names.
 */
export async function mapStudentsOverview(
  db: Database,
  actor: Actor,
  query: MapStudentsQuery,
): Promise<MapStudentsPage> {
  const reach = studentIdsInReach(actor);
  if (!reach || (actor.activeRole !== "teacher" && actor.activeRole !== "administrator"))
    throw new AppError("forbidden", message("assessment:forbidden"));
  const conditions = [sql`u.sourced_id in (${reach})`];
  if (query.classId) conditions.push(sql`u.sourced_id in (${studentIdsOfClass(query.classId)})`);
  if (query.search) conditions.push(sql`${displayNameOfU} ilike ${containsPattern(query.search)}`);
  const chosen = sql`select u.sourced_id from users u where ${sql.join(conditions, sql` and `)}`;
  const latestGrowth = latestGrowthOf(chosen, query.subject);
  const below = sql`u.sourced_id in (select lg.student_sourced_id from (${latestGrowth}) lg where lg.met_projected = false)`;
  const listed = query.belowProjection ? sql`${chosen} and ${below}` : chosen;

  const [counts] = await queryRows<{
    total: number;
    tested: number;
    belowProjection: number;
    atTarget: number;
  }>(
    db,
    sql`with lg as (${latestGrowth})
      select (select count(*)::int from (${listed}) l) as total,
        (select count(distinct r.student_sourced_id)::int from map_results r where r.student_sourced_id in (${chosen})
          ${query.subject ? sql`and r.subject = ${query.subject}` : sql``}) as tested,
        (select count(distinct lg.student_sourced_id)::int from lg where lg.met_projected = false) as "belowProjection",
        (select count(distinct lg.student_sourced_id)::int from lg where lg.reaches_target) as "atTarget"`,
  );
  const students = await queryRows<{ sourcedId: string; name: string; grade: string | null }>(
    db,
    sql`select u.sourced_id as "sourcedId", ${displayNameOfU} as name,
        u.grades[1] as grade
      from users u where u.sourced_id in (${listed})
      order by u.family_name, u.given_name, u.sourced_id
      limit ${query.perPage} offset ${query.page * query.perPage}`,
  );
  const pageIds = sql`select jsonb_array_elements_text(${JSON.stringify(students.map((s) => s.sourcedId))}::jsonb)`;
  const latest = await queryRows<
    Omit<LatestMapSubject, "growth"> & { studentId: string; season: MapSeason; grade: number | null }
  >(
    db,
    sql`select distinct on (r.student_sourced_id, r.subject) r.student_sourced_id as "studentId", r.subject,
        r.term_name as "termName", r.season, to_char(r.test_date, 'YYYY-MM-DD') as "testDate", r.rit, r.percentile, r.grade
      from map_results r where r.student_sourced_id in (${pageIds})
        ${query.subject ? sql`and r.subject = ${query.subject}` : sql``}
      order by r.student_sourced_id, r.subject, r.test_date desc`,
  );
  const growth = await queryRows<GrowthSummary & { studentId: string; subject: string }>(
    db,
    sql`select lg.student_sourced_id as "studentId", lg.subject, ${growthColumns(sql`lg`)}
      from (${latestGrowthOf(pageIds, query.subject)}) lg`,
  );
  const growthOf = new Map(
    growth.map(({ studentId, subject, ...summary }) => [`${studentId}|${subject}`, summary]),
  );
  const subjectsOf = Map.groupBy(latest, (test) => test.studentId);
  const [subjects] = await queryRows<{ list: string[] | null }>(
    db,
    sql`select array_agg(distinct r.subject order by r.subject) as list from map_results r
      where r.student_sourced_id in (${chosen})`,
  );
  return {
    students: students.map((student) => ({
      ...student,
      subjects: (subjectsOf.get(student.sourcedId) ?? []).map(({ studentId, season, grade, ...test }) => ({
        ...test,
        percentile:
          test.percentile ??
          (grade === null ? null : percentileFromNorms(test.subject, season, grade, test.rit)),
        growth: growthOf.get(`${studentId}|${test.subject}`) ?? null,
      })),
    })),
    total: counts?.total ?? 0,
    page: query.page,
    perPage: query.perPage,
    summary: {
      tested: counts?.tested ?? 0,
      belowProjection: counts?.belowProjection ?? 0,
      atTarget: counts?.atTarget ?? 0,
    },
    subjects: subjects?.list ?? [],
  };
}

/**
 * The school's growth over one window of a school year, by grade and subject, with each subject's
 * total (grade null): how many met their projection, the median conditional growth percentile and
 * how many reached 2×. Defaults to the latest school year and its fall-to-spring window.
 */
export async function mapGrowthReport(db: Database, query: MapReportQuery): Promise<MapGrowthReport> {
  const offered = await queryRows<{ schoolYear: number; windows: GrowthWindow[] }>(
    db,
    sql`select school_year as "schoolYear", array_agg(distinct "window") as windows from map_growth
      group by school_year order by school_year desc`,
  );
  const choices = offered.map((choice) => ({
    schoolYear: choice.schoolYear,
    windows: GROWTH_WINDOWS.filter((window) => choice.windows.includes(window)),
  }));
  const schoolYear = query.schoolYear ?? choices[0]?.schoolYear ?? null;
  const windows = choices.find((choice) => choice.schoolYear === schoolYear)?.windows ?? [];
  const window = query.window ?? WINDOW_PREFERENCE.find((each) => windows.includes(each)) ?? null;
  if (schoolYear === null || window === null) return { schoolYear, window, choices, rows: [] };
  const population = populationOf(query);
  const rows = await queryRows<MapReportRow & { withProjection: number; withMultiple: number }>(
    db,
    sql`select g.grade, g.subject,
        count(*)::int as students,
        count(*) filter (where g.met_projected)::int as "metProjected",
        count(g.met_projected)::int as "withProjection",
        percentile_cont(0.5) within group (order by g.conditional_growth_percentile)::float8
          as "medianConditionalGrowthPercentile",
        count(*) filter (where g.reaches_target)::int as "atTarget",
        count(g.reaches_target)::int as "withMultiple",
        percentile_cont(0.5) within group (order by g.multiple)::float8 as "medianMultiple",
        grouping(g.grade) = 1 as total
      from map_growth g
      where g.school_year = ${schoolYear} and g.window = ${window}
        ${population ? sql`and g.student_sourced_id in (${population})` : sql``}
      group by grouping sets ((g.subject, g.grade), (g.subject))
      order by g.subject, grouping(g.grade), g.grade nulls last`,
  );
  return {
    schoolYear,
    window,
    choices,
    rows: rows.map(({ withProjection, withMultiple, ...row }) => ({
      ...row,
      shareMetProjected: withProjection > 0 ? row.metProjected / withProjection : null,
      shareAtTarget: withMultiple > 0 ? row.atTarget / withMultiple : null,
      medianConditionalGrowthPercentile: roundedOrNull(row.medianConditionalGrowthPercentile, 0),
      medianMultiple: roundedOrNull(row.medianMultiple, 2),
    })),
  };
}

function roundedOrNull(value: number | null, digits: number): number | null {
  if (value === null) return null;
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

interface StoredActual {
  studentId: string;
  name: string;
  grade: number | null;
  subject: string;
  startTerm: string;
  startRit: number;
  latestTerm: string | null;
  latestRit: number | null;
  projected: number | null;
  metProjected: boolean | null;
}

/**
 * Per student and subject tested in the fall of a school year: the fall RIT, the latest RIT since,
 * the RIT the fall-to-spring projection leads to, and the student's RIT goal, with where they stand.
 */
export async function mapActualsReport(db: Database, query: MapActualsQuery): Promise<MapActualsPage> {
  const years = await queryRows<{ schoolYear: number }>(
    db,
    sql`select distinct school_year as "schoolYear" from map_results where season = 'fall' order by 1 desc`,
  );
  const schoolYears = years.map((year) => year.schoolYear);
  const schoolYear = query.schoolYear ?? schoolYears[0] ?? null;
  if (schoolYear === null)
    return {
      schoolYear,
      schoolYears,
      subjects: [],
      rows: [],
      total: 0,
      page: query.page,
      perPage: query.perPage,
    };
  const [tested] = await queryRows<{ subjects: string[] | null }>(
    db,
    sql`select array_agg(distinct subject order by subject) as subjects from map_results
      where school_year = ${schoolYear} and season = 'fall'`,
  );
  const population = populationOf(query);
  const conditions = [sql`f.school_year = ${schoolYear}`, sql`f.season = 'fall'`, sql`f.growth_measure`];
  if (population) conditions.push(sql`f.student_sourced_id in (${population})`);
  if (query.subject) conditions.push(sql`f.subject = ${query.subject}`);
  if (query.search) conditions.push(sql`${displayNameOfU} ilike ${containsPattern(query.search)}`);
  const falls = sql`select distinct on (f.student_sourced_id, f.subject) f.* from map_results f
    join users u on u.sourced_id = f.student_sourced_id
    where ${sql.join(conditions, sql` and `)}
    order by f.student_sourced_id, f.subject, f.test_date desc`;
  const [count] = await queryRows<{ total: number }>(
    db,
    sql`select count(*)::int as total from (${falls}) f`,
  );
  const rows = await queryRows<StoredActual>(
    db,
    sql`select f.student_sourced_id as "studentId",
        ${displayNameOfU} as name,
        coalesce(f.grade, ${gradeLevelOfGrades(sql`u.grades`)}) as grade, f.subject, f.term_name as "startTerm", f.rit as "startRit",
        l.term_name as "latestTerm", l.rit as "latestRit",
        coalesce(g.projected, (f.growth -> 'fallToSpring' ->> 'projected')::numeric,
          (f.growth -> 'fallToSpring' ->> 'typical')::numeric)::float8 as projected,
        lg.met_projected as "metProjected"
      from (${falls}) f
        join users u on u.sourced_id = f.student_sourced_id
        left join lateral (select r.term_name, r.rit from map_results r
          where r.student_sourced_id = f.student_sourced_id and r.subject = f.subject and r.school_year = f.school_year
            and r.season <> 'fall' and r.growth_measure order by r.test_date desc limit 1) l on true
        left join map_growth g on g.student_sourced_id = f.student_sourced_id and g.subject = f.subject
          and g.school_year = f.school_year and g.window = 'fallToSpring'
        left join lateral (select m.met_projected from map_growth m
          where m.student_sourced_id = f.student_sourced_id and m.subject = f.subject
            and m.school_year = f.school_year and m.window in ('fallToWinter', 'fallToSpring')
          order by m.end_test_date desc limit 1) lg on true
      order by u.family_name, u.given_name, f.student_sourced_id, f.subject
      limit ${query.perPage} offset ${query.page * query.perPage}`,
  );
  const goals = await ritGoalsOf(db, [...new Set(rows.map((row) => row.studentId))]);
  return {
    schoolYear,
    schoolYears,
    subjects: tested?.subjects ?? [],
    rows: rows.map((row) => actualRowOf(row, goals.get(row.studentId) ?? [])),
    total: count?.total ?? 0,
    page: query.page,
    perPage: query.perPage,
  };
}

interface RitGoal {
  studentId: string;
  subject: string;
  target: number;
  deadline: string | null;
}

/** The students' own RIT goals, latest deadline first. */
async function ritGoalsOf(db: Database, studentIds: string[]): Promise<Map<string, RitGoal[]>> {
  const goals = await queryRows<RitGoal>(
    db,
    sql`select g.student_sourced_id as "studentId", g.subject, g.target, to_char(g.deadline, 'YYYY-MM-DD') as deadline
      from goals g where g.kind = 'rit' and g.subject is not null
        and g.student_sourced_id in (select jsonb_array_elements_text(${JSON.stringify(studentIds)}::jsonb))
      order by g.deadline desc nulls last, g.created_at desc`,
  );
  return Map.groupBy(goals, (goal) => goal.studentId);
}

function actualRowOf(row: StoredActual, goals: RitGoal[]): MapActualRow {
  const { projected, metProjected, ...rest } = row;
  const scale = mapScaleOf(row.subject);
  const goal = goals.find((each) => scale !== null && mapScaleOf(each.subject) === scale) ?? null;
  const status: MapActualStatus =
    goal && row.latestRit !== null && row.latestRit >= goal.target
      ? "goalReached"
      : row.latestRit === null || metProjected === null
        ? "awaitingTest"
        : metProjected
          ? "aboveProjection"
          : "belowProjection";
  return {
    ...rest,
    projectedRit: projected === null ? null : Math.round(row.startRit + projected),
    goalRit: goal?.target ?? null,
    goalDeadline: goal?.deadline ?? null,
    status,
  };
}

/** Every term of the stored results, latest first, with what it holds. */
export function mapTerms(db: Database): Promise<MapTermSummary[]> {
  return queryRows<MapTermSummary>(
    db,
    sql`select term_name as "termName", season, school_year as "schoolYear",
        array_agg(distinct subject order by subject) as subjects, count(distinct student_sourced_id)::int as students,
        count(*)::int as tests, to_char(min(test_date), 'YYYY-MM-DD') as "firstTestDate",
        to_char(max(test_date), 'YYYY-MM-DD') as "lastTestDate"
      from map_results group by term_name, season, school_year
      order by school_year desc, array_position(array['spring','winter','fall'], season), term_name`,
  );
}
