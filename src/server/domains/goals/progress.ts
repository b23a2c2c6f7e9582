import { type SQL, sql } from "drizzle-orm";
import { mapScaleOf } from "../../../shared/contracts/assessment";
import type { Forecast, Goal, GoalKind, GoalProgress } from "../../../shared/contracts/goals";
import { PACE_SCHOOL_DAYS } from "../../../shared/contracts/goals";
import { addDays, datesAfter, localDateOf, weekStartOf } from "../../../shared/time-zone";
import { type Database, queryJsonRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { classIdsInGuideReach } from "../rostering/scope";
import {
  dailyGoalsFrom,
  goalsWith,
  holidaysOf,
  ownGoalsOf,
  storedDailyGoals,
  weeklyXpOfDailyGoals,
} from "./daily-goals";
import { forecastOf, type SchoolCalendar, schoolCalendar } from "./forecast";

/**
 * Each student's goals with their progress and forecast: the weekly XP goal (their own, else
 * their class's, else the school's daily goals on five school days) and their target goals (their
 * own and their classes'). Figures come from the daily totals, days from each student's calendar.
 */

/** A goal as goalJson reads it. */
export interface StoredGoal {
  id: string;
  kind: GoalKind;
  student_id: string | null;
  class_id: string | null;
  class_title: string | null;
  subject: string | null;
  course_id: string | null;
  course_title: string | null;
  target: number;
  baseline: number | null;
  starts_on: string;
  deadline: string | null;
  set_by_name: string | null;
  editable: boolean;
}

interface LoadedStudent {
  id: string;
  name: string;
  grades: string[];
  timezone: string;
  school_goals: unknown;
  own_subjects: string[] | null;
  own_daily_xp: number[] | null;
  goals: StoredGoal[];
  holiday_offsets: number[] | null;
  weekly_goal_id: string | null;
  /** The latest MAP RIT of each subject tested, for RIT goals. */
  latest_rits: LatestRit[] | null;
}

interface LatestRit {
  subject: string;
  rit: number;
  test_date: string;
}

export interface StudentProgress {
  id: string;
  name: string;
  grades: string[];
  timezone: string;
  today: string;
  weekly: GoalProgress;
  targets: GoalProgress[];
}

/** Whether the caller may change a goal (`g`): staff theirs to reach, a student what they set themself. */
export function editableBy(actor: Actor): SQL {
  switch (actor.activeRole) {
    case "administrator":
      return sql`true`;
    case "teacher":
      return sql`(g.student_sourced_id is not null or g.class_sourced_id in (${classIdsInGuideReach(actor)}))`;
    case "student":
      return sql`(g.student_sourced_id = ${actor.user.sourcedId} and g.set_by_sourced_id = ${actor.user.sourcedId})`;
    default:
      return sql`false`;
  }
}

/** A goal's columns as a JSON object, with its class's and course's titles and who set it. */
export function goalJson(actor: Actor): SQL {
  return sql`json_build_object('id', g.id, 'kind', g.kind, 'student_id', g.student_sourced_id,
      'class_id', g.class_sourced_id, 'class_title', c.title, 'subject', g.subject,
      'course_id', g.course_sourced_id, 'course_title', co.title, 'target', g.target, 'baseline', g.baseline,
      'starts_on', g.starts_on::text, 'deadline', g.deadline::text,
      'set_by_name', coalesce(setter.preferred_first_name, setter.given_name) || ' ' || setter.family_name,
      'editable', ${editableBy(actor)})`;
}

/** The joins goalJson reads. */
export const goalJoins = sql`left join classes c on c.sourced_id = g.class_sourced_id
  left join courses co on co.sourced_id = g.course_sourced_id
  left join users setter on setter.sourced_id = g.set_by_sourced_id`;

/** The classes a student is actively enrolled in. */
export const activeClassesOf = (student: SQL) =>
  sql`select e.class_sourced_id from enrollments e
    where e.user_sourced_id = ${student} and e.role = 'student' and e.status = 'active'`;

/**
 * A student's weekly goal, as a sub-query of its id (none: the school's, from the daily goals): their
 * own, else their classes' (the first class by title).
 */
export function weeklyGoalIdOf(student: SQL): SQL {
  return sql`select g.id from goals g left join classes c on c.sourced_id = g.class_sourced_id
    where g.kind = 'weekly_xp' and (g.student_sourced_id = ${student} or g.class_sourced_id in (${activeClassesOf(student)}))
    order by g.student_sourced_id is null, c.title, g.id limit 1`;
}

/** Progress of every student the sub-query names (the caller checked they may see them). */
export async function progressOfStudents(
  db: Database,
  actor: Actor,
  studentIds: SQL,
  now: Date,
): Promise<StudentProgress[]> {
  // Each student's today is within a day of UTC's; holidays are read from before any pace window.
  const holidaysFrom = addDays(localDateOf(now, "UTC"), -400);
  const students = await queryJsonRows<LoadedStudent>(
    db,
    sql`select u.sourced_id as id, coalesce(u.preferred_first_name, u.given_name) || ' ' || u.family_name as name,
        u.grades, u.timezone, ${storedDailyGoals} as school_goals,
        own.subjects as own_subjects, own.daily_xp as own_daily_xp, holidays.offsets as holiday_offsets,
        (${weeklyGoalIdOf(sql`u.sourced_id`)}) as weekly_goal_id,
        (select json_agg(json_build_object('subject', m.subject, 'rit', m.rit, 'test_date', m.test_date))
          from (select distinct on (r.subject) r.subject, r.rit, to_char(r.test_date, 'YYYY-MM-DD') as test_date
            from map_results r where r.student_sourced_id = u.sourced_id
            order by r.subject, r.test_date desc) m) as latest_rits,
        (select coalesce(json_agg(${goalJson(actor)} order by g.deadline nulls first, g.created_at, g.id), '[]'::json)
          from goals g ${goalJoins}
          where g.student_sourced_id = u.sourced_id
            or g.class_sourced_id in (${activeClassesOf(sql`u.sourced_id`)})) as goals
      from users u
        left join lateral (${ownGoalsOf(sql`u.sourced_id`)}) own on true
        left join lateral (${holidaysOf(sql`u.sourced_id`, holidaysFrom, "9999-12-31")}) holidays on true
      where u.sourced_id in (${studentIds})
      order by u.family_name, u.given_name, u.sourced_id`,
  );
  if (students.length === 0) return [];
  const prepared = students.map((student) => {
    const today = localDateOf(now, student.timezone);
    const dateOf = datesAfter(holidaysFrom);
    const calendar = schoolCalendar(new Set((student.holiday_offsets ?? []).map(dateOf)));
    const paceDays = calendar.daysBefore(today, PACE_SCHOOL_DAYS);
    const starts = [
      ...new Set(
        student.goals
          .filter((goal) => goal.kind === "course" || goal.kind === "units")
          .map((goal) => goal.starts_on),
      ),
    ].sort();
    return { student, today, calendar, paceDays, weekStart: weekStartOf(today), starts };
  });
  const figures = await figuresOf(
    db,
    prepared.map(({ student, today, paceDays, weekStart, starts }) => ({
      student: student.id,
      since: [weekStart, paceDays.at(-1) ?? today, ...starts].sort()[0] as string,
      week_start: weekStart,
      today,
      pace_days: paceDays,
      starts,
    })),
  );
  return prepared.map(({ student, today, calendar, weekStart }) => {
    const of = (bucket: string) => figures.get(`${student.id}|${bucket}`);
    const dailyGoals = goalsWith(
      dailyGoalsFrom(student.school_goals),
      student.own_subjects,
      student.own_daily_xp,
    );
    const weeklyGoal = weeklyGoalOf(student, dailyGoals, weekStart);
    const progress = (goal: Goal) =>
      goal.kind === "rit"
        ? ritProgressOf(goal, student.latest_rits ?? [], today)
        : progressOf(
            goal,
            goal.kind === "weekly_xp" ? of(WEEK) : of(goal.startsOn),
            of(PACE),
            today,
            calendar,
          );
    return {
      id: student.id,
      name: student.name,
      grades: student.grades,
      timezone: student.timezone,
      today,
      weekly: progress(weeklyGoal),
      targets: student.goals
        .filter((goal) => goal.kind !== "weekly_xp")
        .map((goal) => progress(goalOf(goal))),
    };
  });
}

/** XP and mastered units per subject, added up over some days. */
type Figures = { xp: Record<string, number>; units: Record<string, number> };

/** The days a student's figures are added up over: this week to today, the pace days, or since a goal's start. */
const WEEK = "week";
const PACE = "pace";

interface FigureRow {
  student: string;
  subject: string;
  /** How many of the student's goal starts fall on or before the days added up here. */
  starts: number;
  xp: number;
  units: number;
  week_xp: number;
  week_units: number;
  pace_xp: number;
  pace_units: number;
}

/**
 * Each student's figures from the daily totals, added up by the database in one pass over their
 * days (from the earliest day any figure needs, read and grouped student by student through their
 * index: joined, PostgreSQL once scanned the whole table for a class): per subject,
 * this week to today (`week`), the pace's school days (`pace`), and since each day a course or
 * units goal started (that day, as the key), from the sums between one start and the next.
 */
async function figuresOf(
  db: Database,
  windows: {
    student: string;
    since: string;
    week_start: string;
    today: string;
    pace_days: string[];
    /** In order, earliest first. */
    starts: string[];
  }[],
): Promise<Map<string, Figures>> {
  const rows = await queryJsonRows<FigureRow>(
    db,
    sql`select w.student, f.* from jsonb_to_recordset(${JSON.stringify(windows)}::jsonb) as w(student text,
        since date, week_start date, today date, pace_days date[], starts date[])
      cross join lateral (
        select d.subject, width_bucket(d.local_date, w.starts) as starts,
          sum(d.xp)::float8 as xp, sum(d.mastered_units)::int as units,
          coalesce(sum(d.xp) filter (where d.local_date between w.week_start and w.today), 0)::float8 as week_xp,
          coalesce(sum(d.mastered_units) filter (where d.local_date between w.week_start and w.today), 0)::int as week_units,
          coalesce(sum(d.xp) filter (where d.local_date = any(w.pace_days)), 0)::float8 as pace_xp,
          coalesce(sum(d.mastered_units) filter (where d.local_date = any(w.pace_days)), 0)::int as pace_units
        from daily_student_metrics d where d.student_sourced_id = w.student and d.local_date >= w.since
        group by 1, 2) f`,
  );
  const startsOf = new Map(windows.map((window) => [window.student, window.starts]));
  const figures = new Map<string, Figures>();
  const add = (key: string, subject: string, xp: number, units: number) => {
    const sums = figures.get(key) ?? { xp: {}, units: {} };
    figures.set(key, sums);
    sums.xp[subject] = (sums.xp[subject] ?? 0) + xp;
    sums.units[subject] = (sums.units[subject] ?? 0) + units;
  };
  for (const row of rows) {
    add(`${row.student}|${WEEK}`, row.subject, row.week_xp, row.week_units);
    add(`${row.student}|${PACE}`, row.subject, row.pace_xp, row.pace_units);
    // Days after the first `starts` starts count toward each of those goals.
    for (const start of (startsOf.get(row.student) ?? []).slice(0, row.starts))
      add(`${row.student}|${start}`, row.subject, row.xp, row.units);
  }
  return figures;
}

export function goalOf(stored: StoredGoal): Goal {
  return {
    id: stored.id,
    kind: stored.kind,
    source: stored.class_id ? "class" : "student",
    classId: stored.class_id,
    classTitle: stored.class_title,
    subject: stored.subject,
    courseId: stored.course_id,
    courseTitle: stored.course_title,
    target: stored.target,
    baseline: stored.baseline,
    startsOn: stored.starts_on,
    deadline: stored.deadline ?? "",
    setByName: stored.set_by_name,
    canEdit: stored.editable,
  };
}

/** The student's weekly goal this week (see weeklyGoalIdOf), or the school's from their daily goals. */
function weeklyGoalOf(student: LoadedStudent, dailyGoals: Record<string, number>, weekStart: string): Goal {
  const weekly = student.goals.find((goal) => goal.id === student.weekly_goal_id);
  const week = { startsOn: weekStart, deadline: addDays(weekStart, 6) };
  if (weekly) return { ...goalOf(weekly), ...week };
  return {
    id: null,
    kind: "weekly_xp",
    source: "school",
    classId: null,
    classTitle: null,
    subject: null,
    courseId: null,
    courseTitle: null,
    target: weeklyXpOfDailyGoals(dailyGoals),
    baseline: null,
    ...week,
    setByName: null,
    canEdit: false,
  };
}

/** What a goal counts of some figures: XP (of its subject, or all) or mastered units. */
function amountOf(goal: Goal, figures: Figures | undefined): number {
  if (!figures) return 0;
  const counted = goal.kind === "units" ? figures.units : figures.xp;
  if (goal.subject) return counted[goal.subject] ?? 0;
  return Object.values(counted).reduce((total, value) => total + value, 0);
}

/**
 * A goal's value from what it counts (a weekly goal this week's figures, a course or units goal
 * those since it started) and its forecast from the pace days' figures.
 */
function progressOf(
  goal: Goal,
  counted: Figures | undefined,
  pace: Figures | undefined,
  today: string,
  calendar: SchoolCalendar,
): GoalProgress {
  const value = Math.round(amountOf(goal, counted) * 100) / 100;
  const forecast = forecastOf({
    value,
    target: goal.target,
    today,
    deadline: goal.deadline,
    calendar,
    paceEarned: amountOf(goal, pace),
  });
  const percent = Math.max(0, Math.min(100, Math.round((value / goal.target) * 100)));
  return { ...goal, value, percent, forecast };
}

/**
 * A RIT goal's score: the latest MAP result of its subject taken since the goal was set ("Math" and
 * "Mathematics" are one subject), else the score it was set at. It moves only with tests, so it
 * has no pace: it is reached, missed once the deadline passed, or waiting for the next test.
 */
function ritProgressOf(goal: Goal, latestRits: LatestRit[], today: string): GoalProgress {
  const scale = goal.subject ? mapScaleOf(goal.subject) : null;
  const tested = latestRits
    .filter(
      (result) => scale !== null && mapScaleOf(result.subject) === scale && result.test_date >= goal.startsOn,
    )
    .sort((a, b) => b.test_date.localeCompare(a.test_date))[0];
  const value = tested?.rit ?? goal.baseline ?? 0;
  const reached = value >= goal.target;
  const forecast: Forecast = {
    status: reached
      ? "reached"
      : goal.deadline !== null && goal.deadline < today
        ? "missed"
        : "awaiting_test",
    pacePerDay: null,
    reachedOn: reached ? (tested?.test_date ?? null) : null,
    dailyNeeded: null,
    schoolDaysLeft: null,
  };
  // The share of the way from the score it was set at to the target.
  const start = goal.baseline;
  const percent =
    reached || start === null || start >= goal.target
      ? reached
        ? 100
        : 0
      : Math.max(0, Math.round(((value - start) / (goal.target - start)) * 100));
  return { ...goal, value, percent, forecast };
}
