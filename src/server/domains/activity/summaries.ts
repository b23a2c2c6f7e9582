import { type SQL, sql } from "drizzle-orm";
import type { StudentSummary } from "../../../shared/contracts/activity";
import { addDays, localDateOf, weekStartOf } from "../../../shared/time-zone";
import { type Database, queryRows } from "../../db/client";
import { completedSubjects, dailyGoalsOf, holidaysOfStudents, streakOf } from "./goals";

/** The first look back: this week, and a streak of up to two school weeks. */
const RECENT_DAYS = 14;
/** How far back a longer streak is looked for: long enough for a term's streak, short enough to stay fast. */
const STREAK_WINDOW_DAYS = 90;

interface StudentActivity {
  xpByDay: Map<string, Record<string, number>>;
  lastEventAt: number;
}

/**
 * XP per day and subject of each student from the daily totals, one row per student. The days,
 * subjects and amounts come as three parallel arrays: the cheapest shape to hand over, from PGlite
 * above all, and rows of several apps for the same subject are simply added up here.
 */
async function activityOf(
  db: Database,
  studentIds: string[],
  from: string,
  to: string,
): Promise<Map<string, StudentActivity>> {
  const rows = await queryRows<{
    studentId: string;
    dayOffsets: number[];
    subjects: string[];
    xp: number[];
    lastEventAt: Date | string | null;
  }>(
    db,
    sql`select student_sourced_id as "studentId", array_agg(local_date - ${from}::date) as "dayOffsets",
          array_agg(subject) as subjects, array_agg(xp::float8) as xp, max(last_event_at) as "lastEventAt"
        from daily_student_metrics
        where student_sourced_id in ${studentIds} and local_date between ${from} and ${to}
        group by student_sourced_id`,
  );
  const dates = new Map<number, string>();
  const dateAt = (offset: number) => {
    let date = dates.get(offset);
    if (!date) dates.set(offset, (date = addDays(from, offset)));
    return date;
  };
  return new Map(
    rows.map((row) => {
      const xpByDay = new Map<string, Record<string, number>>();
      row.dayOffsets.forEach((offset, index) => {
        const date = dateAt(offset);
        const subject = row.subjects[index] as string;
        const day = xpByDay.get(date) ?? {};
        day[subject] = Math.round(((day[subject] ?? 0) + (row.xp[index] as number)) * 100) / 100;
        xpByDay.set(date, day);
      });
      return [
        row.studentId,
        { xpByDay, lastEventAt: row.lastEventAt ? new Date(row.lastEventAt).getTime() : 0 },
      ];
    }),
  );
}

/**
 * Today, this week and the streak of each student the condition on `u` (users) names, every
 * figure in the student's own timezone, read from the daily totals. The last two weeks answer
 * nearly everyone; only students whose streak goes back further are read again, further back.
 */
async function summariesWhere(db: Database, students: SQL, now: Date): Promise<StudentSummary[]> {
  const people = await queryRows<{
    sourcedId: string;
    givenName: string;
    familyName: string;
    timezone: string;
    grades: string[];
  }>(
    db,
    sql`select u.sourced_id as "sourcedId", u.given_name as "givenName", u.family_name as "familyName", u.timezone, u.grades
        from users u where ${students} order by u.family_name, u.given_name`,
  );
  if (people.length === 0) return [];
  const ids = people.map((student) => student.sourcedId);
  const todays = new Map(people.map((student) => [student.sourcedId, localDateOf(now, student.timezone)]));
  const sortedDays = [...todays.values()].sort();
  const latest = sortedDays.at(-1) as string;
  const earliest = sortedDays[0] as string;
  const recentFrom = addDays(earliest, -RECENT_DAYS);
  const streakFrom = addDays(earliest, -STREAK_WINDOW_DAYS);

  const [activity, goals, holidays] = await Promise.all([
    activityOf(db, ids, recentFrom, latest),
    dailyGoalsOf(db, ids),
    holidaysOfStudents(db, ids, streakFrom, latest),
  ]);
  const noActivity: StudentActivity = { xpByDay: new Map(), lastEventAt: 0 };
  const streak = (studentId: string, since: string) =>
    streakOf({
      today: todays.get(studentId) as string,
      goals: goals.get(studentId) ?? {},
      xpByDay: (activity.get(studentId) ?? noActivity).xpByDay,
      holidays: holidays.get(studentId) ?? new Set(),
      since,
    });
  const streaks = new Map(ids.map((id) => [id, streak(id, recentFrom)]));
  const longer = ids.filter((id) => streaks.get(id)?.reachesSince);
  if (longer.length > 0) {
    for (const [id, further] of await activityOf(db, longer, streakFrom, latest)) activity.set(id, further);
    for (const id of longer) streaks.set(id, streak(id, streakFrom));
  }

  return people.map((student) => {
    const today = todays.get(student.sourcedId) as string;
    const studentGoals = goals.get(student.sourcedId) ?? {};
    const { xpByDay, lastEventAt } = activity.get(student.sourcedId) ?? noActivity;
    const xpToday = xpByDay.get(today) ?? {};
    const weekStart = weekStartOf(today);
    const week = Array.from({ length: 7 }, (_, offset) => {
      const date = addDays(weekStart, offset);
      const xpBySubject = xpByDay.get(date) ?? {};
      return {
        date,
        xp: sumValues(xpBySubject),
        allGoalsMet: completedSubjects(studentGoals, xpBySubject).length === Object.keys(studentGoals).length,
      };
    });
    return {
      sourcedId: student.sourcedId,
      givenName: student.givenName,
      familyName: student.familyName,
      grades: student.grades,
      timezone: student.timezone,
      today,
      subjects: Object.entries(studentGoals).map(([subject, goal]) => ({
        subject,
        xp: xpToday[subject] ?? 0,
        goal,
        isComplete: (xpToday[subject] ?? 0) >= goal,
      })),
      xpToday: sumValues(xpToday),
      xpThisWeek: Math.round(week.reduce((total, day) => total + day.xp, 0) * 100) / 100,
      week,
      streak: streaks.get(student.sourcedId)?.days ?? 0,
      lastActivityAt: lastEventAt ? new Date(lastEventAt).toISOString() : null,
    };
  });
}

/** Summaries of these students. */
export async function studentSummaries(
  db: Database,
  studentIds: string[],
  now: Date,
): Promise<StudentSummary[]> {
  if (studentIds.length === 0) return [];
  return summariesWhere(db, sql`u.sourced_id in ${studentIds}`, now);
}

/** Summaries of the students a scope sub-query names (a Guide's students, a parent's children). */
export async function summariesOf(db: Database, studentIdsQuery: SQL, now: Date): Promise<StudentSummary[]> {
  return summariesWhere(db, sql`u.sourced_id in (${studentIdsQuery})`, now);
}

function sumValues(values: Record<string, number>): number {
  return Math.round(Object.values(values).reduce((total, value) => total + value, 0) * 100) / 100;
}

/** When each app last reported anything for a student: data freshness. */
export async function appFreshness(db: Database, studentId: string) {
  return queryRows<{
    appId: string;
    name: string;
    icon: string | null;
    launchUrl: string | null;
    subjects: string[];
    lastReportedAt: string | null;
  }>(
    db,
    sql`select a.id as "appId", a.name, a.icon, a.launch_url as "launchUrl", a.subjects,
          (select to_char(max(m.last_event_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') from daily_student_metrics m
            where m.student_sourced_id = ${studentId} and m.app_key = a.id::text) as "lastReportedAt"
        from learning_apps a where a.is_active order by a.name`,
  );
}

/** Per school: its students, and their XP today and this week, each student's days their own. */
export async function schoolSummaries(db: Database, now: Date) {
  const rows = await queryRows<{
    sourcedId: string;
    name: string;
    students: number | string;
    activeToday: number | string;
    xpToday: number | string;
    xpThisWeek: number | string;
  }>(
    db,
    sql`with students as (
          select u.sourced_id, r.org_sourced_id as school_id, (${now}::timestamptz at time zone u.timezone)::date as today
          from users u join user_roles r on r.user_sourced_id = u.sourced_id
          where lower(r.role) = 'student' and u.status = 'active'),
        totals as (
          select s.school_id, s.sourced_id,
            coalesce(sum(m.xp) filter (where m.local_date = s.today), 0) as xp_today,
            coalesce(sum(m.xp), 0) as xp_week
          from students s
          left join daily_student_metrics m on m.student_sourced_id = s.sourced_id
            and m.local_date between s.today - extract(dow from s.today)::int and s.today
          group by s.school_id, s.sourced_id)
        select o.sourced_id as "sourcedId", o.name, count(t.sourced_id) as students,
          count(t.sourced_id) filter (where t.xp_today <> 0) as "activeToday",
          coalesce(sum(t.xp_today), 0) as "xpToday", coalesce(sum(t.xp_week), 0) as "xpThisWeek"
        from orgs o join totals t on t.school_id = o.sourced_id
        group by o.sourced_id, o.name order by o.name`,
  );
  return rows.map((row) => ({
    sourcedId: row.sourcedId,
    name: row.name,
    students: Number(row.students),
    activeToday: Number(row.activeToday),
    xpToday: Math.round(Number(row.xpToday) * 100) / 100,
    xpThisWeek: Math.round(Number(row.xpThisWeek) * 100) / 100,
  }));
}
