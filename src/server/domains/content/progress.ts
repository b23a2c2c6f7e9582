import { type SQL, sql } from "drizzle-orm";
import type { CourseProgress, CourseProgressQuery, LessonCounts } from "../../../shared/contracts/content";
import { csvLine } from "../../../shared/csv";
import type { Language } from "../../../shared/languages";
import { type Database, isoInstant, queryJsonRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message, translate } from "../../lib/i18n";
import { classIdsInGuideReach } from "../rostering/scope";
import { lessonCountColumns, lessonStates, syllabusLessons } from "./progress-sql";

/**
 * A course's progress report: every student of its classes (those the caller reaches) through
 * the syllabus, lesson by lesson, summed per student, per class and per unit.
 */

const REPORT_ROLES = new Set(["teacher", "administrator"]);

type RawCounts = Omit<LessonCounts, "percentComplete" | "percentMastered">;

/** Counts with their shares in whole percent, rounded down so that 100% means every lesson. */
export function withPercents(counts: RawCounts): LessonCounts {
  const percentOf = (part: number) => (counts.lessons > 0 ? Math.floor((100 * part) / counts.lessons) : 0);
  return {
    ...counts,
    percentComplete: percentOf(counts.completed),
    percentMastered: percentOf(counts.mastered),
  };
}

interface StoredReport {
  courseFound: boolean;
  classFound: boolean;
  course: CourseProgress["course"];
  lessonCount: number;
  totals: RawCounts;
  classes: (Omit<CourseProgress["classes"][number], "counts"> & { counts: RawCounts })[];
  units: (Omit<CourseProgress["units"][number], "counts"> & { counts: RawCounts })[];
  students: (Omit<CourseProgress["students"][number], "counts"> & { counts: RawCounts })[];
}

/**
 * The report of a course for an administrator (every class) or a Guide (the classes they teach);
 * `classId` narrows the students, totals and units to one class. 404 for a course or class
 * outside the caller's reach.
 */
export async function courseProgress(
  db: Database,
  actor: Actor,
  query: CourseProgressQuery,
): Promise<CourseProgress> {
  if (!REPORT_ROLES.has(actor.activeRole ?? ""))
    throw new AppError(
      "forbidden",
      message("common:roleForbids", { action: message("content:lessons.progress.actions.see") }),
    );
  const isAdministrator = actor.activeRole === "administrator";
  const classReach = isAdministrator ? sql`true` : sql`k.sourced_id in (${classIdsInGuideReach(actor)})`;
  const chosen = query.classId ? sql`m.class_id = ${query.classId}` : sql`true`;
  // Counts over rows of the grid: `from` names them as `g`, with their condition.
  const countsOf = (from: SQL) =>
    sql`(select json_build_object('lessons', x.lessons, 'completed', x.completed, 'mastered', x.mastered,
        'inProgress', x."inProgress", 'notStarted', x."notStarted")
      from (select ${lessonCountColumns("g", sql`g.lesson_id`)} from ${from}) x)`;
  const [report] = await queryJsonRows<StoredReport>(
    db,
    sql`with course as (select c.sourced_id, c.title, c.subjects from courses c where c.sourced_id = ${query.courseId}),
      scoped_classes as (
        select k.sourced_id, k.title from classes k
        where k.course_sourced_id = ${query.courseId} and k.status = 'active' and ${classReach}
      ),
      members as (
        select distinct e.class_sourced_id as class_id, e.user_sourced_id as student_id from enrollments e
        where e.class_sourced_id in (select sourced_id from scoped_classes) and e.role = 'student' and e.status = 'active'
      ),
      chosen as (select distinct m.student_id from members m where ${chosen}),
      lessons as (${syllabusLessons(sql`l.course_sourced_id = ${query.courseId}`)}),
      states as (${lessonStates(sql`select student_id from members`)}),
      grid as (
        select st.student_id, l.lesson_id, l.unit_id, s.completed, s.mastered, s.started, s.last_activity_at
        from (select distinct student_id from members) st cross join lessons l
          left join states s on s.student_id = st.student_id and s.lesson_id = l.lesson_id
      ),
      chosen_grid as (select g.* from grid g where g.student_id in (select student_id from chosen))
      select exists (select 1 from course)
          and ${isAdministrator ? sql`true` : sql`exists (select 1 from scoped_classes)`} as "courseFound",
        ${query.classId ? sql`exists (select 1 from scoped_classes where sourced_id = ${query.classId})` : sql`true`} as "classFound",
        (select json_build_object('id', c.sourced_id, 'title', c.title, 'subjects', c.subjects) from course c) as course,
        (select count(*)::int from lessons) as "lessonCount",
        ${countsOf(sql`chosen_grid g`)} as totals,
        (select coalesce(json_agg(json_build_object('id', k.sourced_id, 'title', k.title,
            'students', (select count(*)::int from members m where m.class_id = k.sourced_id),
            'counts', ${countsOf(sql`grid g where g.student_id in (select m.student_id from members m where m.class_id = k.sourced_id)`)})
            order by lower(k.title), k.sourced_id), '[]'::json)
          from scoped_classes k) as classes,
        (select coalesce(json_agg(json_build_object('id', u.unit_id, 'title', u.unit_title,
            'counts', ${countsOf(sql`chosen_grid g where g.unit_id = u.unit_id`)})
            order by u.unit_order nulls last, lower(u.unit_title), u.unit_id), '[]'::json)
          from (select distinct unit_id, unit_title, unit_order from lessons) u) as units,
        (select coalesce(json_agg(json_build_object('id', p.student_id, 'name', p.name,
            'classIds', (select json_agg(m.class_id order by m.class_id) from members m where m.student_id = p.student_id),
            'counts', ${countsOf(sql`chosen_grid g where g.student_id = p.student_id`)},
            'lastActivityAt', (select ${isoInstant(sql`max(g.last_activity_at)`)} from chosen_grid g where g.student_id = p.student_id))
            order by lower(p.family_name), lower(p.given_name), p.student_id), '[]'::json)
          from (select ch.student_id, u.family_name, coalesce(u.preferred_first_name, u.given_name) as given_name,
              coalesce(u.preferred_first_name, u.given_name) || ' ' || u.family_name as name
            from chosen ch join users u on u.sourced_id = ch.student_id) p) as students`,
  );
  if (!report?.courseFound)
    throw new AppError("not_found", message("content:lessons.progress.courseNotFound"));
  if (!report.classFound) throw new AppError("not_found", message("content:lessons.progress.classNotFound"));
  return {
    course: report.course,
    lessonCount: report.lessonCount,
    totals: withPercents(report.totals),
    classes: report.classes.map((entry) => ({ ...entry, counts: withPercents(entry.counts) })),
    units: report.units.map((entry) => ({ ...entry, counts: withPercents(entry.counts) })),
    students: report.students.map((entry) => ({ ...entry, counts: withPercents(entry.counts) })),
  };
}

const say = (key: string, language: Language) =>
  translate(message(`content:lessons.progress.csv.${key}`), language);

/** The report's students as a spreadsheet, one row each, as the page's table shows them. */
export function* courseProgressCsv(report: CourseProgress, language: Language): Generator<string> {
  const classTitles = new Map(report.classes.map((entry) => [entry.id, entry.title]));
  yield csvLine(
    [
      "studentId",
      "student",
      "classes",
      "lessons",
      "completed",
      "mastered",
      "inProgress",
      "notStarted",
      "percentComplete",
      "percentMastered",
      "lastActivityAt",
    ].map((key) => say(key, language)),
  );
  for (const student of report.students)
    yield csvLine([
      student.id,
      student.name,
      student.classIds.map((id) => classTitles.get(id) ?? id).join("; "),
      student.counts.lessons,
      student.counts.completed,
      student.counts.mastered,
      student.counts.inProgress,
      student.counts.notStarted,
      student.counts.percentComplete,
      student.counts.percentMastered,
      student.lastActivityAt,
    ]);
}
