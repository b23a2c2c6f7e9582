import { type SQL, sql } from "drizzle-orm";
import type { Forecast, Goal, GoalKind, GoalProgress } from "../../../shared/contracts/goals";
import { PACE_SCHOOL_DAYS } from "../../../shared/contracts/goals";
import { addDays, datesAfter, localDateOf, weekStartOf } from "../../../shared/time-zone";
import { type Database, queryJsonRows, queryRows } from "../../db/client";
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
import { forecastOf, schoolCalendar, schoolDaysBefore } from "./forecast";

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
    const isSchoolDay = schoolCalendar(new Set((student.holiday_offsets ?? []).map(dateOf)));
    const paceDays = schoolDaysBefore(today, PACE_SCHOOL_DAYS, isSchoolDay);
    const since = [weekStartOf(today), paceDays.at(-1) ?? today].sort()[0] as string;
    return { student, today, isSchoolDay, since };
  });
  const figures = await figuresOf(
    db,
    prepared.map(({ student, since }) => ({ student: student.id, since })),
    prepared.flatMap(({ student }) =>
      student.goals
        .filter((goal) => goal.kind === "course" || goal.kind === "units")
        .map((goal) => ({ student: student.id, since: goal.starts_on })),
    ),
  );
  return prepared.map(({ student, today, isSchoolDay }) => {
    const days = figures.days.get(student.id) ?? new Map<string, DayFigures>();
    const sinceStart = (goal: Goal) => figures.totals.get(`${student.id}|${goal.startsOn}`);
    const dailyGoals = goalsWith(
      dailyGoalsFrom(student.school_goals),
      student.own_subjects,
      student.own_daily_xp,
    );
    const weekStart = weekStartOf(today);
    const weeklyGoal = weeklyGoalOf(student, dailyGoals, weekStart);
    const progress = (goal: Goal) => progressOf(goal, days, sinceStart(goal), today, isSchoolDay);
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

/** XP and mastered units per subject (of a day, or since a day). */
type DayFigures = { xp: Record<string, number>; units: Record<string, number> };

/**
 * The daily totals of `w.student` from `w.since`, read through the student's index. `offset 0`
 * keeps the sub-query for each student: joined, PostgreSQL took the list for a hundred students
 * and scanned the whole table (270 ms for a class).
 */
const daysOfStudentSince = sql`cross join lateral (
  select d.student_sourced_id, d.local_date, d.subject, d.xp, d.mastered_units from daily_student_metrics d
  where d.student_sourced_id = w.student and d.local_date >= w.since offset 0) d`;

interface FigureRow {
  student: string;
  date: string;
  subject: string;
  xp: number;
  units: number;
}

/**
 * From the daily totals: each student's figures per day from their `since` (the week and the pace
 * window: a few weeks), and their totals from each `since` of `totals` (the days course and units
 * goals started), added up by the database rather than sent day by day.
 */
async function figuresOf(
  db: Database,
  recent: { student: string; since: string }[],
  totals: { student: string; since: string }[],
) {
  const [result] = await queryRows<{ days: FigureRow[] | null; totals: FigureRow[] | null }>(
    db,
    sql`select
        (select json_agg(f) from (
          select d.student_sourced_id as student, d.local_date::text as date, d.subject,
            sum(d.xp)::float8 as xp, sum(d.mastered_units)::int as units
          from jsonb_to_recordset(${JSON.stringify(recent)}::jsonb) as w(student text, since date)
            ${daysOfStudentSince}
          group by 1, 2, 3) f) as days,
        (select json_agg(f) from (
          select d.student_sourced_id as student, w.since::text as date, d.subject,
            sum(d.xp)::float8 as xp, sum(d.mastered_units)::int as units
          from (select distinct * from jsonb_to_recordset(${JSON.stringify(totals)}::jsonb) as w(student text, since date)) w
            ${daysOfStudentSince}
          group by 1, 2, 3) f) as totals`,
  );
  const add = (map: Map<string, DayFigures>, key: string, row: FigureRow) => {
    const figures = map.get(key) ?? { xp: {}, units: {} };
    map.set(key, figures);
    figures.xp[row.subject] = row.xp;
    figures.units[row.subject] = row.units;
  };
  const days = new Map<string, Map<string, DayFigures>>();
  for (const row of result?.days ?? []) {
    const ofStudent = days.get(row.student) ?? new Map<string, DayFigures>();
    days.set(row.student, ofStudent);
    add(ofStudent, row.date, row);
  }
  const since = new Map<string, DayFigures>();
  for (const row of result?.totals ?? []) add(since, `${row.student}|${row.date}`, row);
  return { days, totals: since };
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

/** What a goal counts on a day: XP (of its subject, or all) or mastered units. */
function amountOf(goal: Goal, day: DayFigures | undefined): number {
  if (!day) return 0;
  const figures = goal.kind === "units" ? day.units : day.xp;
  if (goal.subject) return figures[goal.subject] ?? 0;
  return Object.values(figures).reduce((total, value) => total + value, 0);
}

function progressOf(
  goal: Goal,
  days: Map<string, DayFigures>,
  sinceStart: DayFigures | undefined,
  today: string,
  isSchoolDay: (date: string) => boolean,
): GoalProgress {
  if (goal.kind === "rit") {
    // The score moves with MAP results; until a test after the goal, it is the score it was set at.
    const value = goal.baseline ?? 0;
    const forecast: Forecast = {
      status: value >= goal.target ? "reached" : goal.deadline < today ? "missed" : "awaiting_test",
      pacePerDay: null,
      reachedOn: null,
      dailyNeeded: null,
      schoolDaysLeft: null,
    };
    return { ...goal, value, percent: value >= goal.target ? 100 : 0, forecast };
  }
  let value = 0;
  // A weekly goal counts the week's days; a course or units goal everything since it was set.
  if (goal.kind === "weekly_xp") {
    for (const [date, day] of days) if (date >= goal.startsOn && date <= today) value += amountOf(goal, day);
  } else value = amountOf(goal, sinceStart);
  value = Math.round(value * 100) / 100;
  const forecast = forecastOf({
    value,
    target: goal.target,
    today,
    deadline: goal.deadline,
    isSchoolDay,
    amountOn: (date) => amountOf(goal, days.get(date)),
  });
  const percent = Math.max(0, Math.min(100, Math.round((value / goal.target) * 100)));
  return { ...goal, value, percent, forecast };
}
