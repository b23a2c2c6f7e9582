import { inArray, sql } from "drizzle-orm";
import { addDays, isWeekday } from "../../../shared/time-zone";
import { type Database, queryRows } from "../../db/client";
import { getMeta } from "../../db/meta";
import { studentDailyGoals } from "./schema";

/** Daily XP goals per subject: the school's defaults, overridden per student. */
export type SubjectGoals = Record<string, number>;

export const FALLBACK_DAILY_GOALS: SubjectGoals = { Math: 30, Reading: 30, Language: 20, Science: 20 };

export async function schoolDailyGoals(db: Database): Promise<SubjectGoals> {
  const stored = await getMeta(db, "daily_xp_goals");
  return stored && typeof stored === "object" ? (stored as SubjectGoals) : FALLBACK_DAILY_GOALS;
}

export async function dailyGoalsOf(db: Database, studentIds: string[]): Promise<Map<string, SubjectGoals>> {
  const defaults = await schoolDailyGoals(db);
  const goals = new Map(studentIds.map((id) => [id, { ...defaults }]));
  if (studentIds.length === 0) return goals;
  const overrides = await db
    .select()
    .from(studentDailyGoals)
    .where(inArray(studentDailyGoals.studentSourcedId, studentIds));
  for (const row of overrides) {
    const own = goals.get(row.studentSourcedId);
    if (own) own[row.subject] = row.dailyXp;
  }
  return goals;
}

/** Subjects whose goal the day's XP meets. */
export function completedSubjects(goals: SubjectGoals, xpBySubject: Record<string, number>): string[] {
  return Object.entries(goals)
    .filter(([subject, goal]) => (xpBySubject[subject] ?? 0) >= goal)
    .map(([subject]) => subject);
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
  const isComplete = (date: string) =>
    completedSubjects(input.goals, input.xpByDay.get(date) ?? {}).length === Object.keys(input.goals).length;
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

/** Per student: holidays of the organisations they belong to and of those organisations' parents (a district's breaks). */
export async function holidaysOfStudents(
  db: Database,
  studentIds: string[],
  from: string,
  to: string,
): Promise<Map<string, Set<string>>> {
  const holidays = new Map(studentIds.map((id) => [id, new Set<string>()]));
  if (studentIds.length === 0) return holidays;
  const rows = await queryRows<{ studentId: string; date: string }>(
    db,
    sql`with student_orgs as (
          select r.user_sourced_id as student_id, r.org_sourced_id as org_id from user_roles r
            where r.user_sourced_id in ${studentIds}
          union select r.user_sourced_id, o.parent_sourced_id from user_roles r join orgs o on o.sourced_id = r.org_sourced_id
            where r.user_sourced_id in ${studentIds} and o.parent_sourced_id is not null)
        select distinct s.student_id as "studentId", to_char(h.date, 'YYYY-MM-DD') as date
        from student_orgs s join school_holidays h on h.org_sourced_id = s.org_id
        where h.date between ${from} and ${to}`,
  );
  for (const row of rows) holidays.get(row.studentId)?.add(row.date);
  return holidays;
}
