import { type SQL, sql } from "drizzle-orm";
import type { StudentSummary } from "../../../shared/contracts/activity";
import { addDays, localDateOf, weekStartOf } from "../../../shared/time-zone";
import { type Database, queryRows } from "../../db/client";
import { completedSubjects, dailyGoalsOf, holidaysOfStudents, streakOf } from "./goals";

/** How far back a streak is looked for: long enough for a term's streak, short enough to stay fast. */
const STREAK_WINDOW_DAYS = 90;

/** One row per student: their XP per day and subject, as JSON (far fewer rows to carry than one per day and subject). */
interface ActivityRow {
  studentId: string;
  days: Record<string, Record<string, number>>;
  lastEventAt: Date | string | null;
}

/**
 * Today, this week and the streak of each student, every figure in the student's own timezone,
 * read from the daily totals in two queries whatever the number of students.
 */
export async function studentSummaries(
  db: Database,
  studentIds: string[],
  now: Date,
): Promise<StudentSummary[]> {
  if (studentIds.length === 0) return [];
  const students = await queryRows<{
    sourcedId: string;
    givenName: string;
    familyName: string;
    timezone: string;
    grades: string[];
  }>(
    db,
    sql`select sourced_id as "sourcedId", given_name as "givenName", family_name as "familyName", timezone, grades
        from users where sourced_id in ${studentIds} order by family_name, given_name`,
  );
  const todays = new Map(students.map((student) => [student.sourcedId, localDateOf(now, student.timezone)]));
  const latest = [...todays.values()].sort().at(-1) as string;
  const earliest = addDays([...todays.values()].sort()[0] as string, -STREAK_WINDOW_DAYS);

  const [rows, goals, holidays] = await Promise.all([
    queryRows<ActivityRow>(
      db,
      sql`select student_id as "studentId", json_object_agg(date, subjects) as days, max(last_event_at) as "lastEventAt"
          from (
            select student_id, date, json_object_agg(subject, xp) as subjects, max(last_event_at) as last_event_at
            from (
              select student_sourced_id as student_id, to_char(local_date, 'YYYY-MM-DD') as date, subject,
                round(sum(xp)::numeric, 2)::float8 as xp, max(last_event_at) as last_event_at
              from daily_student_metrics
              where student_sourced_id in ${studentIds} and local_date between ${earliest} and ${latest}
              group by student_sourced_id, local_date, subject
            ) per_subject
            group by student_id, date
          ) per_day
          group by student_id`,
    ),
    dailyGoalsOf(db, studentIds),
    holidaysOfStudents(db, studentIds, earliest, latest),
  ]);

  const byStudent = new Map(
    rows.map((row) => [
      row.studentId,
      {
        xpByDay: new Map(Object.entries(row.days)),
        lastEventAt: row.lastEventAt ? new Date(row.lastEventAt).getTime() : 0,
      },
    ]),
  );

  return students.map((student) => {
    const today = todays.get(student.sourcedId) as string;
    const studentGoals = goals.get(student.sourcedId) ?? {};
    const activity = byStudent.get(student.sourcedId) ?? { xpByDay: new Map(), lastEventAt: 0 };
    const xpToday = activity.xpByDay.get(today) ?? {};
    const weekStart = weekStartOf(today);
    const week = Array.from({ length: 7 }, (_, offset) => {
      const date = addDays(weekStart, offset);
      const xpBySubject = activity.xpByDay.get(date) ?? {};
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
      streak: streakOf({
        today,
        goals: studentGoals,
        xpByDay: activity.xpByDay,
        holidays: holidays.get(student.sourcedId) ?? new Set(),
        maxDays: STREAK_WINDOW_DAYS,
      }),
      lastActivityAt: activity.lastEventAt ? new Date(activity.lastEventAt).toISOString() : null,
    };
  });
}

/** Summaries of the students a scope sub-query names (a Guide's students, a parent's children). */
export async function summariesOf(db: Database, studentIdsQuery: SQL, now: Date): Promise<StudentSummary[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select distinct s.id from (${studentIdsQuery}) as s(id)`,
  );
  return studentSummaries(
    db,
    rows.map((row) => row.id),
    now,
  );
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
