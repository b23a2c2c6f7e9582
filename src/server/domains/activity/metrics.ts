import { type SQL, sql } from "drizzle-orm";
import {
  type LearningMetrics,
  type LearningMetricsQuery,
  type LearningMetricsRow,
  MAX_METRICS_DAYS,
  type MetricsView,
} from "../../../shared/contracts/activity";
import type { Language } from "../../../shared/languages";
import { addDays, datesAfter, daysBetween, localDateOf, SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message, translate } from "../../lib/i18n";
import { dailyGoalsFrom, schoolDailyGoals, storedDailyGoals } from "../goals/daily-goals";
import { classIdsInGuideReach, studentIdsInReach } from "../rostering/scope";

const DEFAULT_DAYS = 30;

export const studentForbidden = () => new AppError("forbidden", message("activity:students.forbidden"));
const classForbidden = () => new AppError("forbidden", message("activity:classes.forbidden"));

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
  if (startDate > endDate) throw new AppError("validation_failed", message("activity:range.startAfterEnd"));
  if (daysBetween(startDate, endDate) + 1 > MAX_METRICS_DAYS) {
    throw new AppError("validation_failed", message("activity:range.tooLong", { days: MAX_METRICS_DAYS }));
  }
  return { startDate, endDate };
}

function maxDate(a: string, b: string): string {
  return a > b ? a : b;
}

/**
 * XP, time, questions and mastery per period, student and subject (or app), for the students the
 * query names, within what the caller may see. The students come from one query that holds the
 * caller's scope in its WHERE clause, and only they are aggregated; asking by name for a student
 * outside the scope is refused as a whole. Who may be seen is asked of `db`, the primary; the
 * figures, which may lag a second behind it, of `readDb`.
 */
export async function learningMetrics(
  { db, readDb }: { db: Database; readDb: Database },
  actor: Actor,
  query: LearningMetricsQuery,
  now: Date,
  /** The language of the groups' names that are not data ("Manual", "Unknown app"). */
  language: Language,
): Promise<LearningMetrics> {
  const { startDate, endDate } = resolveRange(query, now);
  const scope = studentIdsInReach(actor);
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

  const candidates = await queryRows<{
    sourcedId: string;
    givenName: string;
    familyName: string;
    allowed: boolean;
    schoolGoals: unknown;
  }>(
    db,
    sql`select u.sourced_id as "sourcedId", u.given_name as "givenName", u.family_name as "familyName",
          u.sourced_id in (${scope}) as allowed, ${storedDailyGoals} as "schoolGoals"
        from users u where u.sourced_id in (${target})
        order by u.family_name, u.given_name, u.sourced_id`,
  );
  if (named && (candidates.length < new Set(named).size || candidates.some((student) => !student.allowed))) {
    throw studentForbidden();
  }
  const students = candidates
    .filter((student) => student.allowed)
    .map(({ sourcedId, givenName, familyName }) => ({ sourcedId, givenName, familyName }));

  const goals = candidates[0] ? dailyGoalsFrom(candidates[0].schoolGoals) : await schoolDailyGoals(db);
  const rows = students.length
    ? await totals(
        readDb,
        query,
        students.map((student) => student.sourcedId),
        startDate,
        endDate,
        language,
      )
    : [];

  return {
    view: query.view,
    startDate,
    endDate,
    groupBy: query.groupBy,
    students,
    rows,
    dailyGoal: Object.values(goals).reduce((total, goal) => total + Number(goal), 0),
  };
}

/** The figures of the daily totals a metrics row adds up, in the order they are read. */
const FIGURES = [
  "xp",
  "active_seconds",
  "waste_seconds",
  "total_questions",
  "correct_questions",
  "mastered_units",
  "events",
];

/**
 * The daily totals of these students in the range, added up per period, student and subject (or
 * app). The database hands over the figures as one string of numbers, each total led by its
 * period's first day (as days from startDate, which a week or month may start before), and the
 * names as two arrays in the same order: far cheaper to pass on than a row or a JSON object per
 * total, from PGlite above all. The sums are worked out here.
 */
async function totals(
  db: Database,
  query: LearningMetricsQuery,
  studentIds: string[],
  startDate: string,
  endDate: string,
  language: Language,
): Promise<LearningMetricsRow[]> {
  const byApp = query.groupBy === "app";
  const group = byApp ? sql`m.app_key` : sql`m.subject`;
  const inRange = sql`m.student_sourced_id in ${studentIds} and m.local_date between ${startDate}::date and ${endDate}::date`;
  const figures = sql.raw(FIGURES.join(", "));
  // A day's rows are few enough to pass on as they are; weeks and months are added up first.
  const source =
    query.view === "daily"
      ? sql`select m.local_date as day, m.student_sourced_id as student_id, ${group} as grp, ${figures}
          from daily_student_metrics m where ${inRange}`
      : sql`select ${bucketOf(query.view)} as day,
            m.student_sourced_id as student_id, ${group} as grp, ${sql.raw(FIGURES.map((name) => `sum(${name}) as ${name}`).join(", "))}
          from daily_student_metrics m where ${inRange} group by 1, 2, 3`;
  const [[result], appNames] = await Promise.all([
    queryRows<{ figures: string | null; students: string[] | null; groups: string[] | null }>(
      db,
      sql`select string_agg(concat_ws(' ', t.day - ${startDate}::date, ${sql.raw(FIGURES.map((name) => `t.${name}`).join(", "))}), ',') as figures,
          array_agg(t.student_id) as students, array_agg(t.grp) as groups
        from (${source}) t`,
    ),
    byApp
      ? queryRows<{ id: string; name: string }>(db, sql`select id::text as id, name from learning_apps`)
      : Promise.resolve([]),
  ]);
  if (!result?.figures || !result.students || !result.groups) return [];
  const names = new Map(appNames.map((app) => [app.id, app.name]));
  const manual = translate(message("activity:metrics.manual"), language);
  const nameOf = (group: string) =>
    !byApp
      ? group
      : group === "manual"
        ? manual
        : (names.get(group) ?? translate(message("activity:metrics.unknownApp"), language));

  const periodAt = datesAfter(startDate);
  const sums = new Map<string, LearningMetricsRow>();
  const lines = result.figures.split(",");
  for (let index = 0; index < lines.length; index++) {
    const [offset, xp, active, waste, questions, correct, mastered, events] = (lines[index] as string).split(
      " ",
    );
    const period = periodAt(Number(offset));
    const studentId = result.students[index] as string;
    const group = result.groups[index] as string;
    const key = `${period}\u0000${studentId}\u0000${group}`;
    let sum = sums.get(key);
    if (!sum) {
      sum = {
        period,
        studentId,
        group,
        groupName: nameOf(group),
        xp: 0,
        activeSeconds: 0,
        wasteSeconds: 0,
        totalQuestions: 0,
        correctQuestions: 0,
        accuracy: null,
        masteredUnits: 0,
        events: 0,
      };
      sums.set(key, sum);
    }
    sum.xp += Number(xp);
    sum.activeSeconds += Number(active);
    sum.wasteSeconds += Number(waste);
    sum.totalQuestions += Number(questions);
    sum.correctQuestions += Number(correct);
    sum.masteredUnits += Number(mastered);
    sum.events += Number(events);
  }
  const rows = [...sums.values()];
  for (const row of rows) {
    row.xp = Math.round(row.xp * 100) / 100;
    if (row.totalQuestions > 0)
      row.accuracy = Math.round((row.correctQuestions / row.totalQuestions) * 10_000) / 10_000;
  }
  return rows.sort(
    (a, b) =>
      compare(a.period, b.period) || compare(a.studentId, b.studentId) || compare(a.groupName, b.groupName),
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A Guide may ask for a class they teach; an administrator for any class; nobody else by class. */
async function assertClassAccess(db: Database, actor: Actor, classId: string): Promise<void> {
  let condition: SQL;
  if (actor.activeRole === "teacher") {
    condition = sql`${classId} in (${classIdsInGuideReach(actor)})`;
  } else if (actor.activeRole === "administrator") {
    condition = sql`exists (select 1 from classes c where c.sourced_id = ${classId})`;
  } else {
    throw classForbidden();
  }
  const [row] = await queryRows<{ allowed: boolean }>(db, sql`select ${condition} as allowed`);
  if (!row?.allowed) throw classForbidden();
}
