import { randomUUID } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import type {
  CourseCreate,
  CourseDetail,
  CourseListQuery,
  CourseOptions,
  CourseSummary,
  CourseUpdate,
} from "../../../shared/contracts/courses";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError, type FieldIssue } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { invalidFields } from "../../lib/validation";
import { listComponents } from "./course-components";
import { containsPattern, type FilterFields, filterToSql } from "./filter";
import { direction, isoInstant, type ListPage, pageOf } from "./list";
import { boundedClassIds, classIdsInReach, studentIdsInReach } from "./scope";

/**
 * Courses, seen through the caller's relationship to them. Classes are the link: a Guide sees the
 * courses of the classes they teach, a parent or guardian those their children are enrolled in, a
 * proctor those of their schools, an administrator every course.
 */

/** The organisations where the caller holds the proctor role. */
function proctorOrgIds(userId: string): SQL {
  return sql`select r.org_sourced_id from user_roles r where r.user_sourced_id = ${userId} and lower(r.role) = 'proctor'`;
}

/** The classes (alias `k`) the caller may see, or null when their role sees none. */
export function classScope(actor: Actor): SQL | null {
  const self = actor.user.sourcedId;
  switch (actor.activeRole) {
    case "administrator":
      return sql`true`;
    case "proctor":
      return sql`k.sourced_id in (${boundedClassIds(actor, sql`select s.sourced_id from classes s where s.school_sourced_id in (${proctorOrgIds(self)})`)})`;
    default: {
      const classes = classIdsInReach(actor);
      return classes && sql`k.sourced_id in (${classes})`;
    }
  }
}

/** The courses (alias `c`) the caller may see: those of their classes, or every one for an administrator. */
function courseScope(actor: Actor, classes: SQL): SQL {
  if (actor.activeRole === "administrator") return sql`true`;
  const viaClasses = sql`c.sourced_id in (select k.course_sourced_id from classes k where ${classes})`;
  // A proctor also sees their school's courses that have no class yet.
  if (actor.activeRole === "proctor")
    return sql`(${viaClasses} or c.org_sourced_id in (${proctorOrgIds(actor.user.sourcedId)}))`;
  return viaClasses;
}

const courseFilterFields: FilterFields = {
  sourcedId: { column: sql`c.sourced_id`, kind: "text" },
  status: { column: sql`c.status`, kind: "text" },
  dateLastModified: { column: sql`c.date_last_modified`, kind: "timestamp" },
  title: { column: sql`c.title`, kind: "text" },
  courseCode: { column: sql`c.course_code`, kind: "text" },
  grades: { column: sql`c.grades`, kind: "textArray" },
  subjects: { column: sql`c.subjects`, kind: "textArray" },
  subjectCodes: { column: sql`c.subject_codes`, kind: "textArray" },
  orgSourcedId: { column: sql`c.org_sourced_id`, kind: "text" },
  schoolYearSourcedId: { column: sql`c.school_year_sourced_id`, kind: "text" },
};

const courseSortColumns: Record<CourseListQuery["sort"], SQL> = {
  title: sql`lower(c.title)`,
  courseCode: sql`lower(c.course_code)`,
  orgName: sql`lower(o.name)`,
  status: sql`c.status`,
  dateLastModified: sql`c.date_last_modified`,
};

/** The columns of a course summary; `classes` limits the classes counted to those the caller may see. */
function courseColumns(actor: Actor, classes: SQL): SQL {
  const isFamily = actor.activeRole === "parent" || actor.activeRole === "guardian";
  const learners = isFamily
    ? sql`coalesce((select json_agg(json_build_object('sourcedId', u.sourced_id, 'givenName', u.given_name,
          'familyName', u.family_name) order by u.given_name, u.family_name)
        from users u where u.sourced_id in (${studentIdsInReach(actor)})
          and exists (select 1 from enrollments e join classes k on k.sourced_id = e.class_sourced_id
            where e.user_sourced_id = u.sourced_id and e.role = 'student' and e.status = 'active'
              and k.course_sourced_id = c.sourced_id)), '[]'::json)`
    : sql`'[]'::json`;
  return sql`c.sourced_id as "sourcedId", c.status, ${isoInstant(sql`c.date_last_modified`)} as "dateLastModified",
    c.title, c.course_code as "courseCode", c.grades, c.subjects, c.org_sourced_id as "orgSourcedId",
    o.name as "orgName", c.school_year_sourced_id as "schoolYearSourcedId", y.title as "schoolYearTitle",
    (select count(*)::int from classes k where k.course_sourced_id = c.sourced_id and ${classes}) as "classCount",
    (select count(distinct e.user_sourced_id)::int from enrollments e join classes k on k.sourced_id = e.class_sourced_id
      where k.course_sourced_id = c.sourced_id and ${classes} and e.role = 'student' and e.status = 'active') as "studentCount",
    ${learners} as learners`;
}

const courseJoins = sql`from courses c
  left join orgs o on o.sourced_id = c.org_sourced_id
  left join academic_sessions y on y.sourced_id = c.school_year_sourced_id`;

function forbiddenToList(): AppError {
  return new AppError("forbidden", message("rostering:courses.forbiddenToList"));
}

export async function findCourses(
  db: Database,
  actor: Actor,
  query: CourseListQuery,
): Promise<ListPage<CourseSummary>> {
  const classes = classScope(actor);
  if (!classes || actor.activeRole === "student") throw forbiddenToList();
  const pattern = containsPattern(query.search);
  const where = sql`${courseScope(actor, classes)} and ${filterToSql(query.filter, courseFilterFields)}
    and (${query.search} = '' or c.title ilike ${pattern} or coalesce(c.course_code, '') ilike ${pattern})`;
  const order = sql`${courseSortColumns[query.sort]} ${direction(query.orderBy)} nulls last, c.sourced_id`;
  // The counts are worked out for the page's courses only.
  return pageOf<CourseSummary>(db, {
    rows: sql`with page as (
        select c.sourced_id ${courseJoins} where ${where} order by ${order} limit ${query.limit} offset ${query.offset}
      )
      select ${courseColumns(actor, classes)} ${courseJoins}
      where c.sourced_id = any(array(select sourced_id from page)) order by ${order}`,
    count: sql`select count(*) as total ${courseJoins} where ${where}`,
  });
}

/**
 * The caller's class scope for one course they may open: an administrator any course, a Guide one
 * they teach, a student one they are enrolled in. 404 when the course does not exist, else 403.
 */
export async function openCourse(db: Database, actor: Actor, courseId: string): Promise<SQL> {
  const role = actor.activeRole;
  const classes = classScope(actor);
  if (!classes || (role !== "administrator" && role !== "teacher" && role !== "student")) {
    throw new AppError("forbidden", message("rostering:courses.forbiddenToOpen"));
  }
  const [course] = await queryRows<{ isRelated: boolean }>(
    db,
    sql`select ${courseScope(actor, classes)} as "isRelated" from courses c where c.sourced_id = ${courseId}`,
  );
  if (!course) throw new AppError("not_found", message("rostering:courses.notFound"));
  if (!course.isRelated) throw new AppError("forbidden", message("rostering:courses.notRelated"));
  return classes;
}

/** The course with the classes the caller may see, its units and (for staff) its enrollment counts. */
export async function getCourseDetail(db: Database, actor: Actor, courseId: string): Promise<CourseDetail> {
  const classes = await openCourse(db, actor, courseId);
  const [course] = await queryRows<CourseSummary>(
    db,
    sql`select ${courseColumns(actor, classes)} ${courseJoins} where c.sourced_id = ${courseId}`,
  );
  if (!course) throw new AppError("not_found", message("rostering:courses.notFound"));
  // One pass over the classes' enrollments gives each class its Guides and its number of students.
  const classRows = await queryRows<CourseDetail["classes"][number]>(
    db,
    sql`with course_classes as (
        select k.* from classes k where k.course_sourced_id = ${courseId} and ${classes}
      ), people as (
        select e.class_sourced_id,
          count(*) filter (where e.role = 'student')::int as students,
          json_agg(json_build_object('sourcedId', u.sourced_id, 'givenName', u.given_name, 'familyName', u.family_name)
            order by e.primary desc, u.family_name, u.given_name) filter (where u.sourced_id is not null) as teachers
        from enrollments e left join users u on e.role = 'teacher' and u.sourced_id = e.user_sourced_id
        where e.class_sourced_id in (select sourced_id from course_classes)
          and e.status = 'active' and e.role in ('student', 'teacher')
        group by e.class_sourced_id
      )
      select k.sourced_id as "sourcedId", k.status, k.title, k.class_code as "classCode", k.location,
        k.school_sourced_id as "schoolSourcedId", s.name as "schoolName",
        coalesce(p.teachers, '[]'::json) as teachers, coalesce(p.students, 0) as "studentCount"
      from course_classes k left join people p on p.class_sourced_id = k.sourced_id
        left join orgs s on s.sourced_id = k.school_sourced_id
      order by k.status, lower(k.title), k.sourced_id`,
  );
  const components = await listComponents(db, courseId, {
    offset: 0,
    limit: 1000,
    sort: "sortOrder",
    orderBy: "asc",
    search: "",
    filter: undefined,
  });
  const enrollmentCounts =
    actor.activeRole === "student"
      ? null
      : await queryRows<{ role: string; status: string; count: number }>(
          db,
          sql`select e.role, e.status, count(*)::int as count from enrollments e
            join classes k on k.sourced_id = e.class_sourced_id
            where k.course_sourced_id = ${courseId} and ${classes}
            group by e.role, e.status order by e.role, e.status`,
        );
  return { course, classes: classRows, components: components.data, enrollmentCounts };
}

/** The organisations and school years a course can belong to: the choices of the course form. */
export async function courseOptions(db: Database): Promise<CourseOptions> {
  const [orgs, schoolYears] = await Promise.all([
    queryRows<CourseOptions["orgs"][number]>(
      db,
      sql`select sourced_id as "sourcedId", name, type from orgs where status = 'active'
        order by case when type = 'district' then 0 else 1 end, lower(name) limit 1000`,
    ),
    queryRows<CourseOptions["schoolYears"][number]>(
      db,
      sql`select sourced_id as "sourcedId", title from academic_sessions
        where type = 'schoolYear' and status = 'active' order by start_date desc limit 100`,
    ),
  ]);
  return { orgs, schoolYears };
}

/** Refuses references to an organisation or a school year that is not in the roster. */
async function checkCourseReferences(
  db: Database,
  refs: { orgSourcedId?: string; schoolYearSourcedId?: string | null },
): Promise<void> {
  const [found] = await queryRows<{ hasOrg: boolean; hasYear: boolean }>(
    db,
    sql`select exists (select 1 from orgs where sourced_id = ${refs.orgSourcedId ?? null} and status = 'active') as "hasOrg",
      exists (select 1 from academic_sessions where sourced_id = ${refs.schoolYearSourcedId ?? null}
        and type = 'schoolYear') as "hasYear"`,
  );
  const issues: FieldIssue[] = [];
  if (refs.orgSourcedId !== undefined && !found?.hasOrg)
    issues.push({ path: "orgSourcedId", message: message("rostering:courses.noActiveOrg") });
  if (refs.schoolYearSourcedId && !found?.hasYear)
    issues.push({ path: "schoolYearSourcedId", message: message("rostering:courses.noSchoolYear") });
  if (issues.length > 0) throw invalidFields(issues);
}

/** Answers a course by id as an administrator sees it in lists. */
async function courseSummaryById(db: Database, actor: Actor, courseId: string): Promise<CourseSummary> {
  const [course] = await queryRows<CourseSummary>(
    db,
    sql`select ${courseColumns(actor, sql`true`)} ${courseJoins} where c.sourced_id = ${courseId}`,
  );
  if (!course) throw new AppError("not_found", message("rostering:courses.notFound"));
  return course;
}

export async function createCourse(
  db: Database,
  actor: Actor,
  input: CourseCreate,
  now: Date,
): Promise<CourseSummary> {
  await checkCourseReferences(db, input);
  const sourcedId = randomUUID();
  await db.execute(
    sql`insert into courses (sourced_id, status, date_last_modified, title, course_code, grades, subjects,
        org_sourced_id, school_year_sourced_id)
      values (${sourcedId}, 'active', ${now.toISOString()}, ${input.title}, ${input.courseCode},
        ${textArray(input.grades)}, ${textArray(input.subjects)}, ${input.orgSourcedId}, ${input.schoolYearSourcedId})`,
  );
  return courseSummaryById(db, actor, sourcedId);
}

export async function updateCourse(
  db: Database,
  actor: Actor,
  courseId: string,
  changes: CourseUpdate,
  now: Date,
): Promise<CourseSummary> {
  await checkCourseReferences(db, changes);
  const assignments: SQL[] = [sql`date_last_modified = ${now.toISOString()}`];
  if (changes.title !== undefined) assignments.push(sql`title = ${changes.title}`);
  if (changes.courseCode !== undefined) assignments.push(sql`course_code = ${changes.courseCode}`);
  if (changes.grades !== undefined) assignments.push(sql`grades = ${textArray(changes.grades)}`);
  if (changes.subjects !== undefined) assignments.push(sql`subjects = ${textArray(changes.subjects)}`);
  if (changes.orgSourcedId !== undefined) assignments.push(sql`org_sourced_id = ${changes.orgSourcedId}`);
  if (changes.schoolYearSourcedId !== undefined)
    assignments.push(sql`school_year_sourced_id = ${changes.schoolYearSourcedId}`);
  if (changes.status !== undefined) assignments.push(sql`status = ${changes.status}`);
  const updated = await queryRows<{ sourcedId: string }>(
    db,
    sql`update courses set ${sql.join(assignments, sql`, `)} where sourced_id = ${courseId}
      returning sourced_id as "sourcedId"`,
  );
  if (updated.length === 0) throw new AppError("not_found", message("rostering:courses.notFound"));
  return courseSummaryById(db, actor, courseId);
}

/** A text[] parameter: each element bound, so both drivers send the same thing. */
export function textArray(values: readonly string[]): SQL {
  if (values.length === 0) return sql`'{}'::text[]`;
  return sql`array[${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )}]::text[]`;
}
