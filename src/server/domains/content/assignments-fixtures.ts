import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { type Database, queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";

/**
 * Lessons, resources and attempts written straight into a test database (the syllabus and the
 * lessons have their own APIs and tests): what the assignment, progress and resources tests count.
 */

export const MAPLE_MATH = demoId("course-maple-grove-Math");
export const MAPLE_SCIENCE = demoId("course-maple-grove-Science");
export const RIVERSIDE_MATH = demoId("course-riverside-Math");
export const PATEL_MATH = demoId("class-maple-grove-guide-patel-Math");
export const OKORO_MATH = demoId("class-maple-grove-guide-okoro-Math");
export const OKORO_SCIENCE = demoId("class-maple-grove-guide-okoro-Science");
export const AVA = demoId("student-ava");
export const LEO = demoId("student-leo");

/** A demo course's unit (its `index`-th top-level component). */
export const unitOf = (school: "maple-grove" | "riverside", subject: string, index: number) =>
  demoId(`component-${school}-${subject}-${index}`);

/** Adds a lesson under a unit of a course; answers its id. */
export async function addLesson(
  db: Database,
  courseId: string,
  unitId: string,
  title: string,
  sortOrder: number | null,
): Promise<string> {
  const id = `lesson-${randomUUID()}`;
  await db.execute(sql`insert into course_components (sourced_id, course_sourced_id, parent_component_sourced_id, title, sort_order)
    values (${id}, ${courseId}, ${unitId}, ${title}, ${sortOrder})`);
  return id;
}

/** Adds an article to a lesson; answers the resource's id. */
export async function addResource(db: Database, lessonId: string, title: string): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`insert into lesson_resources (lesson_id, kind, title, article_html, sort_order)
      values (${lessonId}, 'article', ${title}, '<p>Read me.</p>', 1) returning id::text as id`,
  );
  return row?.id as string;
}

/** A student's attempt at a lesson: open, or finished (mastered or not) at `finishedAt`. */
export async function addAttempt(
  db: Database,
  attempt: {
    lessonId: string;
    studentId: string;
    number?: number;
    startedAt?: Date;
    finishedAt?: Date | null;
    mastered?: boolean;
  },
) {
  const finishedAt = attempt.finishedAt ?? null;
  // Started an hour before it finished (or before now, while open) unless told.
  const startedAt = attempt.startedAt ?? new Date((finishedAt ?? new Date()).getTime() - 3_600_000);
  await db.execute(sql`insert into lesson_attempts (lesson_id, student_sourced_id, attempt_number, started_at,
      finished_at, score_percent, mastered)
    values (${attempt.lessonId}, ${attempt.studentId}, ${attempt.number ?? 1}, ${startedAt.toISOString()}::timestamptz,
      ${finishedAt ? finishedAt.toISOString() : null}::timestamptz, ${finishedAt ? (attempt.mastered ? 95 : 60) : null},
      ${Boolean(finishedAt && attempt.mastered)})`);
}

/** The active students of a class, by name. */
export async function studentsOfClass(db: Database, classId: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select e.user_sourced_id as id from enrollments e join users u on u.sourced_id = e.user_sourced_id
      where e.class_sourced_id = ${classId} and e.role = 'student' and e.status = 'active'
      order by u.family_name, u.given_name, u.sourced_id`,
  );
  return rows.map((row) => row.id);
}
