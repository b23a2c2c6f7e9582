import { type SQL, sql } from "drizzle-orm";
import { addDays, isWeekday } from "../../../shared/time-zone";
import type { Database } from "../../db/client";
import { getMeta } from "../../db/meta";

/** Daily XP goals per subject: the school's defaults, overridden per student. */
export type SubjectGoals = Record<string, number>;

export const FALLBACK_DAILY_GOALS: SubjectGoals = { Math: 30, Reading: 30, Language: 20, Science: 20 };

export async function schoolDailyGoals(db: Database): Promise<SubjectGoals> {
  return dailyGoalsFrom(await getMeta(db, "daily_xp_goals"));
}

/**
 * The school's daily goals as a column, for a query that needs them anyway: the hot pages read
 * them in the same round trip as their figures. `dailyGoalsFrom` reads the column's value.
 */
export const storedDailyGoals = sql`(select m.value from app_meta m where m.key = 'daily_xp_goals')`;

export function dailyGoalsFrom(stored: unknown): SubjectGoals {
  return stored && typeof stored === "object" ? (stored as SubjectGoals) : FALLBACK_DAILY_GOALS;
}

/** The school's goals with a student's own in their place (parallel arrays of subjects and daily XP). */
export function goalsWith(
  defaults: SubjectGoals,
  subjects: string[] | null,
  dailyXp: number[] | null,
): SubjectGoals {
  const goals = { ...defaults };
  subjects?.forEach((subject, index) => {
    goals[subject] = dailyXp?.[index] as number;
  });
  return goals;
}

/** A lateral sub-query: a student's own goals, as arrays `subjects` and `daily_xp`. */
export function ownGoalsOf(student: SQL): SQL {
  return sql`select array_agg(g.subject) as subjects, array_agg(g.daily_xp) as daily_xp
    from student_daily_goals g where g.student_sourced_id = ${student}`;
}

/** The weekly XP a student's daily goals make on five school days: their weekly goal until one is set. */
export function weeklyXpOfDailyGoals(goals: SubjectGoals): number {
  return Object.values(goals).reduce((total, daily) => total + daily, 0) * 5;
}

/** Subjects whose goal the day's XP meets. */
export function completedSubjects(goals: SubjectGoals, xpBySubject: Record<string, number>): string[] {
  return Object.entries(goals)
    .filter(([subject, goal]) => (xpBySubject[subject] ?? 0) >= goal)
    .map(([subject]) => subject);
}

/** Whether the day's XP meets every goal. */
export function allGoalsMet(goals: SubjectGoals, xpBySubject: Record<string, number>): boolean {
  return completedSubjects(goals, xpBySubject).length === Object.keys(goals).length;
}

/**
 * Consecutive school days (Monday to Friday, not holidays) with every goal met, counting back
 * from today. Today counts once its goals are met; until then the streak is yesterday's. It looks
 * no further back than `since` (a year by default); `reachesSince` says the run of complete days
 * went all the way there, so a look further back could find more.
 */
export function streakOf(input: {
  today: string;
  goals: SubjectGoals;
  xpByDay: Map<string, Record<string, number>>;
  holidays: Set<string>;
  since?: string;
}): { days: number; reachesSince: boolean } {
  const since = input.since ?? addDays(input.today, -366);
  const isSchoolDay = (date: string) => isWeekday(date) && !input.holidays.has(date);
  const isComplete = (date: string) => allGoalsMet(input.goals, input.xpByDay.get(date) ?? {});
  let days = 0;
  let date = input.today;
  if (!isComplete(date)) date = addDays(date, -1);
  for (; date >= since; date = addDays(date, -1)) {
    if (!isSchoolDay(date)) continue;
    if (!isComplete(date)) return { days, reachesSince: false };
    days++;
  }
  return { days, reachesSince: true };
}

/**
 * A lateral sub-query: a student's days without school between two dates, as `offsets` (days
 * after `from`): the holidays of the organisations they belong to and of those organisations'
 * parents (a district's breaks).
 */
export function holidaysOf(student: SQL, from: string, to: string): SQL {
  return sql`select array_agg(distinct h.date - ${from}::date) as offsets from school_holidays h
    where h.date between ${from}::date and ${to}::date and h.org_sourced_id in (
      select r.org_sourced_id from user_roles r where r.user_sourced_id = ${student}
      union select o.parent_sourced_id from user_roles r join orgs o on o.sourced_id = r.org_sourced_id
        where r.user_sourced_id = ${student})`;
}
