import { type SQL, sql } from "drizzle-orm";
import type { StudentSummary } from "../../../shared/contracts/activity";
import { addDays, datesAfter, localDateOf, weekStartOf } from "../../../shared/time-zone";
import { type Database, queryRows } from "../../db/client";
import {
  allGoalsMet,
  dailyGoalsFrom,
  goalsWith,
  holidaysOf,
  ownGoalsOf,
  storedDailyGoals,
  streakOf,
} from "../goals/daily-goals";

/** The first look back: this week, and a streak of up to two school weeks. */
const RECENT_DAYS = 14;
/** How far back a longer streak is looked for: long enough for a term's streak, short enough to stay fast. */
const STREAK_WINDOW_DAYS = 90;

interface StudentActivity {
  xpByDay: Map<string, Record<string, number>>;
  lastEventAt: number;
}

/** A student's daily totals between two dates, as the lateral sub-query `activityOf` hands them over. */
interface ActivityColumns {
  dayOffsets: number[] | null;
  subjects: string[] | null;
  xp: number[] | null;
  lastEventAt: Date | string | null;
}

/**
 * A lateral sub-query: a student's XP per day and subject between two dates, as three parallel
 * arrays (days after `from`, subjects, XP): the cheapest shape to hand over, from PGlite above all.
 */
function activityOf(student: SQL, from: string, to: string): SQL {
  return sql`select array_agg(m.local_date - ${from}::date) as "dayOffsets", array_agg(m.subject) as subjects,
      array_agg(m.xp::float8) as xp, max(m.last_event_at) as "lastEventAt"
    from daily_student_metrics m
    where m.student_sourced_id = ${student} and m.local_date between ${from}::date and ${to}::date`;
}

/** XP per day and subject; rows of several apps for the same subject are added up. */
function readActivity(columns: ActivityColumns, dateAt: (offset: number) => string): StudentActivity {
  const xpByDay = new Map<string, Record<string, number>>();
  columns.dayOffsets?.forEach((offset, index) => {
    const date = dateAt(offset);
    const subject = columns.subjects?.[index] as string;
    const day = xpByDay.get(date) ?? {};
    day[subject] = Math.round(((day[subject] ?? 0) + (columns.xp?.[index] as number)) * 100) / 100;
    xpByDay.set(date, day);
  });
  return { xpByDay, lastEventAt: columns.lastEventAt ? new Date(columns.lastEventAt).getTime() : 0 };
}

/**
 * Today, this week and the streak of each student the condition on `u` (users) names, every
 * figure in the student's own timezone, read from the daily totals. One query brings the students
 * with their last two weeks, their own goals and their holidays, which answers nearly everyone;
 * only students whose streak goes back further are read again, further back.
 */
async function summariesWhere(db: Database, students: SQL, now: Date): Promise<StudentSummary[]> {
  // Whatever their timezone, every student's today is within a day of the UTC date.
  const utcToday = now.toISOString().slice(0, 10);
  const latest = addDays(utcToday, 1);
  const recentFrom = addDays(utcToday, -1 - RECENT_DAYS);
  const streakFrom = addDays(utcToday, -1 - STREAK_WINDOW_DAYS);
  const people = await queryRows<
    ActivityColumns & {
      sourcedId: string;
      givenName: string;
      familyName: string;
      timezone: string;
      grades: string[];
      goalSubjects: string[] | null;
      goalXp: number[] | null;
      holidayOffsets: number[] | null;
      schoolGoals: unknown;
    }
  >(
    db,
    sql`select u.sourced_id as "sourcedId", u.given_name as "givenName", u.family_name as "familyName",
            u.timezone, u.grades, a.*, g.subjects as "goalSubjects", g.daily_xp as "goalXp", h.offsets as "holidayOffsets",
            ${storedDailyGoals} as "schoolGoals"
          from users u
            left join lateral (${activityOf(sql`u.sourced_id`, recentFrom, latest)}) a on true
            left join lateral (${ownGoalsOf(sql`u.sourced_id`)}) g on true
            left join lateral (${holidaysOf(sql`u.sourced_id`, streakFrom, latest)}) h on true
          where ${students}
          order by u.family_name, u.given_name`,
  );

  const recentDates = datesAfter(recentFrom);
  const summaries = people.map((student) => {
    const today = localDateOf(now, student.timezone);
    const goals = goalsWith(dailyGoalsFrom(student.schoolGoals), student.goalSubjects, student.goalXp);
    const holidays = new Set(student.holidayOffsets?.map((offset) => addDays(streakFrom, offset)));
    const activity = readActivity(student, recentDates);
    const streakSince = (since: string) =>
      streakOf({ today, goals, xpByDay: activity.xpByDay, holidays, since });
    return {
      student,
      today,
      goals,
      activity,
      streak: streakSince(addDays(today, -RECENT_DAYS)),
      streakSince,
    };
  });

  const longer = summaries.filter((summary) => summary.streak.reachesSince);
  if (longer.length > 0) {
    const further = await queryRows<ActivityColumns & { sourcedId: string }>(
      db,
      sql`select u.sourced_id as "sourcedId", a.* from users u
            left join lateral (${activityOf(sql`u.sourced_id`, streakFrom, latest)}) a on true
          where u.sourced_id in ${longer.map((summary) => summary.student.sourcedId)}`,
    );
    const streakDates = datesAfter(streakFrom);
    const byId = new Map(further.map((row) => [row.sourcedId, readActivity(row, streakDates)]));
    for (const summary of longer) {
      summary.activity.xpByDay = byId.get(summary.student.sourcedId)?.xpByDay ?? new Map();
      summary.streak = summary.streakSince(addDays(summary.today, -STREAK_WINDOW_DAYS));
    }
  }

  return summaries.map(({ student, today, goals, activity, streak }) => {
    const xpToday = activity.xpByDay.get(today) ?? {};
    const weekStart = weekStartOf(today);
    const week = Array.from({ length: 7 }, (_, offset) => {
      const date = addDays(weekStart, offset);
      const xpBySubject = activity.xpByDay.get(date) ?? {};
      return {
        date,
        xp: sumValues(xpBySubject),
        allGoalsMet: allGoalsMet(goals, xpBySubject),
      };
    });
    return {
      sourcedId: student.sourcedId,
      givenName: student.givenName,
      familyName: student.familyName,
      grades: student.grades,
      timezone: student.timezone,
      today,
      subjects: Object.entries(goals).map(([subject, goal]) => ({
        subject,
        xp: xpToday[subject] ?? 0,
        goal,
        isComplete: (xpToday[subject] ?? 0) >= goal,
      })),
      xpToday: sumValues(xpToday),
      xpThisWeek: Math.round(week.reduce((total, day) => total + day.xp, 0) * 100) / 100,
      week,
      streak: streak.days,
      lastActivityAt: activity.lastEventAt ? new Date(activity.lastEventAt).toISOString() : null,
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

function sumValues(values: Record<string, number>): number {
  return Math.round(Object.values(values).reduce((total, value) => total + value, 0) * 100) / 100;
}

/** Per school: its students, and their XP today and this week, each student's days their own. */
const round2 = (value: number) => Math.round(value * 100) / 100;

/** Days of XP each school's trend shows, today included. */
export const SCHOOL_TREND_DAYS = 28;

/**
 * Per school: students, who learned today and this week, XP today and this week against the same
 * days of last week (a fair comparison on any weekday), and XP per day over the last four weeks.
 * Days are each student's own.
 */
export async function schoolSummaries(db: Database, now: Date) {
  const students = sql`students as (
      select u.sourced_id, r.org_sourced_id as school_id, (${now}::timestamptz at time zone u.timezone)::date as today
      from users u join user_roles r on r.user_sourced_id = u.sourced_id
      where lower(r.role) = 'student' and u.status = 'active')`;
  const [rows, days] = await Promise.all([
    queryRows<{
      sourcedId: string;
      name: string;
      students: number | string;
      activeToday: number | string;
      activeThisWeek: number | string;
      xpToday: number | string;
      xpThisWeek: number | string;
      xpLastWeekToDate: number | string;
    }>(
      db,
      sql`with ${students},
        totals as (
          select s.school_id, s.sourced_id,
            coalesce(sum(m.xp) filter (where m.local_date = s.today), 0) as xp_today,
            coalesce(sum(m.xp) filter (where m.local_date >= s.today - extract(dow from s.today)::int), 0) as xp_week,
            coalesce(sum(m.xp) filter (where m.local_date <= s.today - 7), 0) as xp_last_week,
            coalesce(bool_or(m.xp <> 0 and m.local_date >= s.today - extract(dow from s.today)::int), false) as active_week
          from students s
          left join daily_student_metrics m on m.student_sourced_id = s.sourced_id
            and m.local_date between s.today - extract(dow from s.today)::int - 7 and s.today
          group by s.school_id, s.sourced_id)
        select o.sourced_id as "sourcedId", o.name, count(t.sourced_id) as students,
          count(t.sourced_id) filter (where t.xp_today <> 0) as "activeToday",
          count(t.sourced_id) filter (where t.active_week) as "activeThisWeek",
          coalesce(sum(t.xp_today), 0) as "xpToday", coalesce(sum(t.xp_week), 0) as "xpThisWeek",
          coalesce(sum(t.xp_last_week), 0) as "xpLastWeekToDate"
        from orgs o join totals t on t.school_id = o.sourced_id
        group by o.sourced_id, o.name order by o.name`,
    ),
    queryRows<{ schoolId: string; daysAgo: number | string; xp: number | string }>(
      db,
      sql`with ${students}
        select s.school_id as "schoolId", s.today - m.local_date as "daysAgo", sum(m.xp) as xp
        from students s
        join daily_student_metrics m on m.student_sourced_id = s.sourced_id
          and m.local_date between s.today - ${SCHOOL_TREND_DAYS - 1}::int and s.today
        group by s.school_id, s.today - m.local_date`,
    ),
  ]);
  const trends = new Map<string, number[]>();
  for (const day of days) {
    const trend = trends.get(day.schoolId) ?? Array<number>(SCHOOL_TREND_DAYS).fill(0);
    const index = SCHOOL_TREND_DAYS - 1 - Number(day.daysAgo);
    trend[index] = round2((trend[index] ?? 0) + Number(day.xp));
    trends.set(day.schoolId, trend);
  }
  return rows.map((row) => ({
    sourcedId: row.sourcedId,
    name: row.name,
    students: Number(row.students),
    activeToday: Number(row.activeToday),
    activeThisWeek: Number(row.activeThisWeek),
    xpToday: round2(Number(row.xpToday)),
    xpThisWeek: round2(Number(row.xpThisWeek)),
    xpLastWeekToDate: round2(Number(row.xpLastWeekToDate)),
    dailyXp: trends.get(row.sourcedId) ?? Array<number>(SCHOOL_TREND_DAYS).fill(0),
  }));
}
