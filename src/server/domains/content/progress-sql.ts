import { type SQL, sql } from "drizzle-orm";

/**
 * The SQL blocks that progress is read with: a course's lessons as the syllabus has them, and what
 * a student's attempts say about each lesson. Assignments, the course progress report and a
 * student's resources all read them, so every page counts a lesson as done the same way.
 */

/**
 * Every lesson that is part of a syllabus: an active component whose parent is an active top-level
 * component (a unit) of the same course. Columns: lesson_id, lesson_title, lesson_order, unit_id,
 * unit_title, unit_order, course_id. Deeper components are not part of a syllabus.
 */
export function syllabusLessons(where: SQL = sql`true`): SQL {
  return sql`select l.sourced_id as lesson_id, l.title as lesson_title, l.sort_order as lesson_order,
      u.sourced_id as unit_id, u.title as unit_title, u.sort_order as unit_order, l.course_sourced_id as course_id
    from course_components l
    join course_components u on u.sourced_id = l.parent_component_sourced_id
      and u.course_sourced_id = l.course_sourced_id and u.parent_component_sourced_id is null
    where l.status = 'active' and u.status = 'active' and ${where}`;
}

/** The syllabus order of lessons of `syllabusLessons` under `alias`: units then lessons, unsorted last, then title. */
export function syllabusOrder(alias: string): SQL {
  const a = sql.raw(alias);
  return sql`${a}.unit_order nulls last, lower(${a}.unit_title), ${a}.unit_id,
    ${a}.lesson_order nulls last, lower(${a}.lesson_title), ${a}.lesson_id`;
}

/**
 * The lessons an assignment's target covers, for an assignment row under `alias`: the lesson
 * itself, or every lesson of the course.
 */
export function targetLessons(alias: string): SQL {
  const a = sql.raw(alias);
  return syllabusLessons(
    sql`((${a}.target_kind = 'lesson' and l.sourced_id = ${a}.target_id)
      or (${a}.target_kind = 'course' and l.course_sourced_id = ${a}.target_id))`,
  );
}

/**
 * What the attempts of some students say about each lesson they touched: completed (an attempt
 * finished), mastered (a finished attempt mastered it), started (an attempt is open) and the last
 * time they worked on it. Columns: student_id, lesson_id, completed, mastered, started, last_activity_at.
 */
export function lessonStates(studentIds: SQL): SQL {
  return sql`select t.student_sourced_id as student_id, t.lesson_id,
      bool_or(t.finished_at is not null) as completed,
      bool_or(t.finished_at is not null and t.mastered) as mastered,
      bool_or(t.finished_at is null) as started,
      max(greatest(t.started_at, t.finished_at)) as last_activity_at
    from lesson_attempts t where t.student_sourced_id in (${studentIds})
    group by t.student_sourced_id, t.lesson_id`;
}

/**
 * A lesson's status for a student from a `lessonStates` row under `alias` (null when none):
 * mastered, completed, in progress (an open attempt and none finished) or not started.
 */
export function lessonStatus(alias: string): SQL {
  const a = sql.raw(alias);
  return sql`(case when ${a}.mastered then 'mastered' when ${a}.completed then 'completed'
    when ${a}.started then 'in_progress' else 'not_started' end)`;
}

/**
 * Counts of lessons in each state over rows of `lessonStates` under `alias` joined to lessons
 * (a missing state is a lesson not started): `lessons`, `completed` (mastered ones included),
 * `mastered`, `inProgress`, `notStarted`. For a select list of an aggregate query.
 */
export function lessonCountColumns(alias: string, lessonColumn: SQL): SQL {
  const a = sql.raw(alias);
  return sql`count(${lessonColumn})::int as lessons,
    count(${lessonColumn}) filter (where ${a}.completed)::int as completed,
    count(${lessonColumn}) filter (where ${a}.mastered)::int as mastered,
    count(${lessonColumn}) filter (where ${a}.started and not ${a}.completed)::int as "inProgress",
    count(${lessonColumn}) filter (where coalesce(not (${a}.completed or ${a}.started), true))::int as "notStarted"`;
}

/**
 * A student's status across several lessons (an assignment's), from counts of its lessons:
 * mastered or completed when every lesson is, in progress once any is started, else not started.
 * A target with no lessons left is not started.
 */
export function statusOfCounts(lessons: SQL, completed: SQL, mastered: SQL, started: SQL): SQL {
  return sql`(case when ${lessons} > 0 and ${mastered} = ${lessons} then 'mastered'
    when ${lessons} > 0 and ${completed} = ${lessons} then 'completed'
    when ${completed} > 0 or ${started} > 0 then 'in_progress' else 'not_started' end)`;
}

/** The day it is now in a timezone (the column or value given), as a date, for due dates. */
export function todayIn(now: Date, timeZone: SQL): SQL {
  return sql`(${now.toISOString()}::timestamptz at time zone ${timeZone})::date`;
}
