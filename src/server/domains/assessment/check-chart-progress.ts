import { sql } from "drizzle-orm";
import {
  type ClassChartProgress,
  EARLIEST_OBSERVATION,
  type StudentChartProgress,
  workingLevelIndex,
} from "../../../shared/contracts/assessment";
import { localDateOf, SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { type Database, isoInstant, queryJsonRows, queryRows, uuidEquals } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { invalidFields } from "../../lib/validation";
import { nameOf } from "../rostering/queries";
import { classIdsInGuideReach, studentIdsOfClass, studentVisibleTo } from "../rostering/scope";
import { chartNotFound, isChart, isStaff, roleForbids, studentNotFound } from "./check-charts";

/**
 * Students' progress through a chart: one student's ticks (which their Guide or an administrator
 * sets and clears), and a class's students level by level.
 */

/** Today in the school's time zone: the latest day a check can have been observed. */
export function schoolToday(now: Date): string {
  return localDateOf(now, SCHOOL_TIME_ZONE);
}

type StoredProgress = Omit<StudentChartProgress, "workingLevelId" | "canObserve" | "today">;

/**
 * One student's progress through a chart, for whoever may see the student: themself, their
 * parents and guardians, their Guides and administrators. Guides of the student and
 * administrators may tick their checks.
 */
export async function studentChartProgress(
  db: Database,
  actor: Actor,
  chartId: string,
  studentId: string,
  now: Date,
): Promise<StudentChartProgress> {
  const visible = studentVisibleTo(actor, studentId);
  if (!visible) throw roleForbids("seeProgress");
  const [row] = await queryJsonRows<{ visible: boolean; progress: StoredProgress | null }>(
    db,
    sql`select ${visible} as visible,
        (select json_build_object(
            'chart', json_build_object('id', c.id, 'title', c.title, 'subject', c.subject, 'description', c.description),
            'student', (select json_build_object('id', u.sourced_id, 'name', ${nameOf(sql`u.sourced_id`)}, 'grades', u.grades)
              from users u where u.sourced_id = ${studentId}),
            'levels', coalesce((select json_agg(json_build_object('id', l.id, 'name', l.name,
                'checks', coalesce((select json_agg(json_build_object('id', k.id, 'name', k.name, 'description', k.description,
                    'observation', (select json_build_object('observedOn', to_char(o.observed_on, 'YYYY-MM-DD'),
                        'observedBy', ${nameOf(sql`o.observed_by`)}, 'recordedAt', ${isoInstant(sql`o.recorded_at`)})
                      from check_observations o where o.check_id = k.id and o.student_sourced_id = ${studentId}))
                  order by k.position, k.id) from check_chart_checks k where k.level_id = l.id), '[]'::json))
              order by l.position, l.id) from check_chart_levels l where l.chart_id = c.id), '[]'::json))
          from check_charts c where ${isChart(sql`c.id`, chartId)}) as progress`,
  );
  if (!row?.visible) throw studentNotFound();
  if (!row.progress) throw chartNotFound();
  const { levels } = row.progress;
  const working = workingLevelIndex(
    levels.map((level) => ({
      checkCount: level.checks.length,
      observedCount: level.checks.filter((check) => check.observation).length,
    })),
  );
  return {
    ...row.progress,
    workingLevelId: working === null ? null : (levels[working]?.id ?? null),
    canObserve: isStaff(actor),
    today: schoolToday(now),
  };
}

/**
 * Whether the caller may tick this student's checks of this chart: a Guide their own students
 * (bounded while viewing as someone), an administrator any student. 404 for a student out of
 * reach or a check the chart does not have.
 */
async function assertObservable(
  db: Database,
  actor: Actor,
  chartId: string,
  studentId: string,
  checkId: string,
) {
  if (!isStaff(actor)) throw roleForbids("observe");
  const visible = studentVisibleTo(actor, studentId) ?? sql`false`;
  const [row] = await queryRows<{ visible: boolean; found: boolean }>(
    db,
    sql`select ${visible} as visible, exists (select 1 from check_chart_checks k
        join check_chart_levels l on l.id = k.level_id
      where ${uuidEquals(sql`k.id`, checkId)} and ${isChart(sql`l.chart_id`, chartId)}) as found`,
  );
  if (!row?.visible) throw studentNotFound();
  if (!row.found) throw new AppError("not_found", message("assessment:checkCharts.checkNotFound"));
}

/**
 * Ticks a check as observed on a day (today or before, in the school's time zone). Ticking again
 * keeps the one observation and takes the new day: the latest word on it is the one kept.
 */
export async function observeCheck(
  db: Database,
  actor: Actor,
  target: { chartId: string; studentId: string; checkId: string },
  observedOn: string,
  now: Date,
): Promise<StudentChartProgress> {
  const today = schoolToday(now);
  if (observedOn > today)
    throw invalidFields([
      { path: "observedOn", message: message("assessment:checkCharts.observedInFuture", { today }) },
    ]);
  if (observedOn < EARLIEST_OBSERVATION)
    throw invalidFields([
      {
        path: "observedOn",
        message: message("assessment:checkCharts.observedTooEarly", { earliest: EARLIEST_OBSERVATION }),
      },
    ]);
  await assertObservable(db, actor, target.chartId, target.studentId, target.checkId);
  await db.execute(sql`insert into check_observations (check_id, student_sourced_id, observed_on, observed_by, recorded_at)
    values (${target.checkId}::uuid, ${target.studentId}, ${observedOn}::date, ${actor.realUser.sourcedId},
      ${now.toISOString()}::timestamptz)
    on conflict (check_id, student_sourced_id) do update set observed_on = excluded.observed_on,
      observed_by = excluded.observed_by, recorded_at = excluded.recorded_at`);
  return studentChartProgress(db, actor, target.chartId, target.studentId, now);
}

/** Unticks a check: the observation is removed. Unticking one not ticked changes nothing. */
export async function clearObservation(
  db: Database,
  actor: Actor,
  target: { chartId: string; studentId: string; checkId: string },
  now: Date,
): Promise<StudentChartProgress> {
  await assertObservable(db, actor, target.chartId, target.studentId, target.checkId);
  await db.execute(sql`delete from check_observations
    where check_id = ${target.checkId}::uuid and student_sourced_id = ${target.studentId}`);
  return studentChartProgress(db, actor, target.chartId, target.studentId, now);
}

/**
 * A class's students through a chart: per student the checks observed at each level and the level
 * they work at. A Guide's own classes (bounded while viewing as someone), any class for an
 * administrator.
 */
export async function classChartProgress(
  db: Database,
  actor: Actor,
  chartId: string,
  classId: string,
): Promise<ClassChartProgress> {
  if (!isStaff(actor)) throw roleForbids("dashboard");
  const visible =
    actor.activeRole === "administrator" ? sql`true` : sql`${classId} in (${classIdsInGuideReach(actor)})`;
  const [found] = await queryJsonRows<{
    class: ClassChartProgress["class"] | null;
    chart: (ClassChartProgress["chart"] & { levels: ClassChartProgress["levels"] }) | null;
  }>(
    db,
    sql`select (select json_build_object('id', k.sourced_id, 'title', k.title, 'schoolName', o.name)
          from classes k left join orgs o on o.sourced_id = k.school_sourced_id
          where k.sourced_id = ${classId} and ${visible}) as class,
        (select json_build_object('id', c.id, 'title', c.title, 'subject', c.subject,
            'levels', coalesce((select json_agg(json_build_object('id', l.id, 'name', l.name,
                'checkCount', (select count(*)::int from check_chart_checks k where k.level_id = l.id))
              order by l.position, l.id) from check_chart_levels l where l.chart_id = c.id), '[]'::json))
          from check_charts c where ${isChart(sql`c.id`, chartId)}) as chart`,
  );
  if (!found?.class) throw new AppError("not_found", message("assessment:checkCharts.classNotFound"));
  if (!found.chart) throw chartNotFound();
  const { levels, ...chart } = found.chart;
  const students = await queryJsonRows<{
    id: string;
    name: string;
    grades: string[];
    observedByLevel: Record<string, number>;
    lastObservedOn: string | null;
  }>(
    db,
    sql`select u.sourced_id as id, ${nameOf(sql`u.sourced_id`)} as name, u.grades,
        coalesce((select json_object_agg(x.level_id, x.observed) from (
            select k.level_id, count(*)::int as observed from check_observations o
              join check_chart_checks k on k.id = o.check_id join check_chart_levels l on l.id = k.level_id
            where l.chart_id = ${chart.id}::uuid and o.student_sourced_id = u.sourced_id group by k.level_id) x),
          '{}'::json) as "observedByLevel",
        (select to_char(max(o.observed_on), 'YYYY-MM-DD') from check_observations o
            join check_chart_checks k on k.id = o.check_id join check_chart_levels l on l.id = k.level_id
          where l.chart_id = ${chart.id}::uuid and o.student_sourced_id = u.sourced_id) as "lastObservedOn"
      from users u where u.sourced_id in (${studentIdsOfClass(classId)})
      order by u.family_name, u.given_name, u.sourced_id`,
  );
  return {
    chart,
    class: found.class,
    levels,
    students: students.map(({ observedByLevel, ...student }) => {
      const observed = levels.map((level) => observedByLevel[level.id] ?? 0);
      return {
        ...student,
        observed,
        workingLevelIndex: workingLevelIndex(
          levels.map((level, index) => ({
            checkCount: level.checkCount,
            observedCount: observed[index] ?? 0,
          })),
        ),
      };
    }),
  };
}
