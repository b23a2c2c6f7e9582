import { type SQL, sql } from "drizzle-orm";
import {
  type LearningMetrics,
  type LearningMetricsQuery,
  MAX_METRICS_DAYS,
  type MetricsView,
} from "../../../shared/contracts/activity";
import { addDays, daysBetween, localDateOf } from "../../../shared/time-zone";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { childIdsOfAgent, studentIdsOfGuide } from "../rostering/scope";
import { schoolDailyGoals } from "./goals";

/** The school's days: the default range ends today there. */
const SCHOOL_TIME_ZONE = "America/New_York";
const DEFAULT_DAYS = 30;

export const studentForbidden = () => new AppError("forbidden", "You do not have access to this student");
const classForbidden = () => new AppError("forbidden", "You do not have access to this class");

/** The students the caller may see in their active role, as a sub-query of ids; null for none. */
function scopeOf(actor: Actor): SQL | null {
  const self = actor.user.sourcedId;
  switch (actor.activeRole) {
    case "student":
      return sql`select ${self}::text`;
    case "parent":
    case "guardian":
      return childIdsOfAgent(self);
    case "teacher":
      return studentIdsOfGuide(self);
    case "administrator":
      return sql`select r.user_sourced_id from user_roles r where lower(r.role) = 'student'`;
    default:
      return null;
  }
}

/** The first day of the period a day belongs to; weeks start on Sunday. */
function bucketOf(view: MetricsView): SQL {
  if (view === "weekly") return sql`m.local_date - extract(dow from m.local_date)::int`;
  if (view === "monthly") return sql`date_trunc('month', m.local_date)::date`;
  return sql`m.local_date`;
}

/** The period asked for, with the defaults (the last 30 days ending today) filled in. */
export function resolveRange(query: Pick<LearningMetricsQuery, "startDate" | "endDate">, now: Date) {
  const endDate =
    query.endDate ??
    (query.startDate
      ? maxDate(query.startDate, localDateOf(now, SCHOOL_TIME_ZONE))
      : localDateOf(now, SCHOOL_TIME_ZONE));
  const startDate = query.startDate ?? addDays(endDate, -(DEFAULT_DAYS - 1));
  if (startDate > endDate) throw new AppError("validation_failed", "startDate must not be after endDate");
  if (daysBetween(startDate, endDate) + 1 > MAX_METRICS_DAYS) {
    throw new AppError("validation_failed", `Ask for at most ${MAX_METRICS_DAYS} days at a time`);
  }
  return { startDate, endDate };
}

function maxDate(a: string, b: string): string {
  return a > b ? a : b;
}

/** A row as the aggregate sends it: period, student, group, group name, then the totals. */
type TotalsRow = [string, string, string, string, number, number, number, number, number, number, number];

/**
 * XP, time, questions and mastery per period, student and subject (or app), for the students the
 * query names, within what the caller may see. The students come from one query that holds the
 * caller's scope in its WHERE clause, and only they are aggregated; asking by name for a student
 * outside the scope is refused as a whole.
 */
export async function learningMetrics(
  db: Database,
  actor: Actor,
  query: LearningMetricsQuery,
  now: Date,
): Promise<LearningMetrics> {
  const { startDate, endDate } = resolveRange(query, now);
  const scope = scopeOf(actor);
  if (!scope) throw studentForbidden();

  const named = query.studentIds ?? (query.studentId ? [query.studentId] : null);
  let target: SQL;
  if (named) {
    target = sql`select u.sourced_id from users u where u.sourced_id in ${[...new Set(named)]}`;
  } else if (query.classId) {
    await assertClassAccess(db, actor, query.classId);
    target = sql`select e.user_sourced_id from enrollments e
      where e.class_sourced_id = ${query.classId} and e.role = 'student' and e.status = 'active'`;
  } else {
    target = scope;
  }

  const [candidates, goals] = await Promise.all([
    queryRows<{ sourcedId: string; givenName: string; familyName: string; allowed: boolean }>(
      db,
      sql`select u.sourced_id as "sourcedId", u.given_name as "givenName", u.family_name as "familyName",
            u.sourced_id in (${scope}) as allowed
          from users u where u.sourced_id in (${target})
          order by u.family_name, u.given_name, u.sourced_id`,
    ),
    schoolDailyGoals(db),
  ]);
  if (named && (candidates.length < new Set(named).size || candidates.some((student) => !student.allowed))) {
    throw studentForbidden();
  }
  const students = candidates
    .filter((student) => student.allowed)
    .map(({ sourcedId, givenName, familyName }) => ({ sourcedId, givenName, familyName }));

  const rows = students.length
    ? await totals(
        db,
        query,
        students.map((student) => student.sourcedId),
        startDate,
        endDate,
      )
    : [];

  return {
    view: query.view,
    startDate,
    endDate,
    groupBy: query.groupBy,
    students,
    rows: rows.map(
      ([
        period,
        studentId,
        group,
        groupName,
        xp,
        activeSeconds,
        wasteSeconds,
        totalQuestions,
        correctQuestions,
        masteredUnits,
        events,
      ]) => ({
        period,
        studentId,
        group,
        groupName,
        xp: Math.round(xp * 100) / 100,
        activeSeconds,
        wasteSeconds,
        totalQuestions,
        correctQuestions,
        accuracy:
          totalQuestions > 0 ? Math.round((correctQuestions / totalQuestions) * 10_000) / 10_000 : null,
        masteredUnits,
        events,
      }),
    ),
    dailyGoal: Object.values(goals).reduce((total, goal) => total + Number(goal), 0),
  };
}

/**
 * One aggregate over the daily totals of these students in the range. It answers with a single
 * JSON array of rows rather than a row per total: far cheaper to hand over from the database,
 * from PGlite above all.
 */
async function totals(
  db: Database,
  query: LearningMetricsQuery,
  studentIds: string[],
  startDate: string,
  endDate: string,
): Promise<TotalsRow[]> {
  const byApp = query.groupBy === "app";
  const group = byApp ? sql`m.app_key` : sql`m.subject`;
  const groupName = byApp
    ? sql`case when t.grp = 'manual' then 'Manual' else coalesce(a.name, 'Unknown app') end`
    : sql`t.grp`;
  const apps = byApp ? sql`left join learning_apps a on a.id::text = t.grp` : sql``;
  const [result] = await queryRows<{ rows: TotalsRow[] | null }>(
    db,
    sql`select json_agg(json_build_array(to_char(t.period, 'YYYY-MM-DD'), t.student_id, t.grp, ${groupName},
          t.xp, t.active_seconds, t.waste_seconds, t.total_questions, t.correct_questions, t.mastered_units,
          t.events) order by t.period, t.student_id, ${groupName}) as rows
        from (
          select ${bucketOf(query.view)} as period, m.student_sourced_id as student_id, ${group} as grp,
            sum(m.xp)::float8 as xp, sum(m.active_seconds)::int as active_seconds, sum(m.waste_seconds)::int as waste_seconds,
            sum(m.total_questions)::int as total_questions, sum(m.correct_questions)::int as correct_questions,
            sum(m.mastered_units)::int as mastered_units, sum(m.events)::int as events
          from daily_student_metrics m
          where m.student_sourced_id in ${studentIds}
            and m.local_date between ${startDate}::date and ${endDate}::date
          group by 1, 2, 3) t
        ${apps}`,
  );
  return result?.rows ?? [];
}

/** A Guide may ask for a class they teach; an administrator for any class; nobody else by class. */
async function assertClassAccess(db: Database, actor: Actor, classId: string): Promise<void> {
  let condition: SQL;
  if (actor.activeRole === "teacher") {
    condition = sql`exists (select 1 from enrollments e where e.class_sourced_id = ${classId}
      and e.user_sourced_id = ${actor.user.sourcedId} and e.role = 'teacher' and e.status = 'active')`;
  } else if (actor.activeRole === "administrator") {
    condition = sql`exists (select 1 from classes c where c.sourced_id = ${classId})`;
  } else {
    throw classForbidden();
  }
  const [row] = await queryRows<{ allowed: boolean }>(db, sql`select ${condition} as allowed`);
  if (!row?.allowed) throw classForbidden();
}
