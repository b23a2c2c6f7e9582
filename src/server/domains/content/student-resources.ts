import { type SQL, sql } from "drizzle-orm";
import type { StudentResources } from "../../../shared/contracts/content";
import { type Database, isoInstant, queryRows, uuidEquals } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { classIdsOf, studentVisibleTo } from "../rostering/scope";
import { assignmentsOfStudent } from "./assignments";
import { DASH_LESSONS_APP_ID } from "./lesson-app";
import { findLesson } from "./lessons";
import { withPercents } from "./progress";
import { lessonCountColumns, lessonStates, syllabusLessons } from "./progress-sql";

/**
 * A student's learning in one place: their courses with how far they are, what they were
 * assigned, the learning apps that serve their subjects and the resources they saved. The student
 * sees their own; their Guides, administrators and their parents and guardians see theirs.
 */

/** The courses of the classes a student is actively enrolled in. */
function courseIdsOfStudent(studentId: string): SQL {
  return sql`select k.course_sourced_id from classes k
    where k.status = 'active' and k.sourced_id in (${classIdsOf(sql`select ${studentId}::text`, "student")})`;
}

type StoredCourse = Omit<StudentResources["courses"][number], "counts"> & {
  counts: Parameters<typeof withPercents>[0];
};

/** 403 for a role that sees no student, 404 for a student outside the caller's reach. */
function visibilityOf(actor: Actor, studentId: string): SQL {
  const visible = studentVisibleTo(actor, studentId);
  if (!visible)
    throw new AppError(
      "forbidden",
      message("common:roleForbids", { action: message("content:lessons.resources.actions.see") }),
    );
  return visible;
}

/**
 * GET /students/:studentId/resources: everything the page shows, for a caller who may see the
 * student. Apps that list the subjects they serve are shown to students of those subjects, the
 * others to everyone; Dash's own lessons are the courses themselves, not an app to launch.
 */
export async function studentResources(
  db: Database,
  actor: Actor,
  studentId: string,
  now: Date,
): Promise<StudentResources> {
  const visible = visibilityOf(actor, studentId);
  const courses = courseIdsOfStudent(studentId);
  const [[row], assigned] = await Promise.all([
    queryRows<{
      allowed: boolean;
      name: string;
      givenName: string;
      courses: StoredCourse[] | null;
      apps: StudentResources["apps"] | null;
      saved: StudentResources["saved"] | null;
    }>(
      db,
      sql`with states as (${lessonStates(sql`select ${studentId}::text`)}),
        subjects as (
          select unnest(c.subjects) as subject from courses c where c.sourced_id in (${courses})
          union select unnest(k.subjects) from classes k
            where k.sourced_id in (${classIdsOf(sql`select ${studentId}::text`, "student")})
        )
        select ${visible} as allowed,
          coalesce(u.preferred_first_name, u.given_name) || ' ' || u.family_name as name,
          coalesce(u.preferred_first_name, u.given_name) as "givenName",
          (select json_agg(json_build_object('id', c.sourced_id, 'title', c.title, 'subjects', c.subjects,
              'classTitles', (select json_agg(k.title order by lower(k.title)) from classes k
                where k.course_sourced_id = c.sourced_id and k.status = 'active'
                  and k.sourced_id in (${classIdsOf(sql`select ${studentId}::text`, "student")})),
              'counts', (select row_to_json(x) from (select ${lessonCountColumns("s", sql`sl.lesson_id`)}
                from (${syllabusLessons(sql`l.course_sourced_id = c.sourced_id`)}) sl
                  left join states s on s.lesson_id = sl.lesson_id) x),
              'lastActivityAt', (select ${isoInstant(sql`max(s.last_activity_at)`)}
                from (${syllabusLessons(sql`l.course_sourced_id = c.sourced_id`)}) sl
                  join states s on s.lesson_id = sl.lesson_id))
              order by lower(c.title), c.sourced_id)
            from courses c where c.sourced_id in (${courses})) as courses,
          (select json_agg(json_build_object('id', a.id, 'name', a.name, 'icon', a.icon, 'subjects', a.subjects,
              'launchUrl', a.launch_url) order by lower(a.name), a.id)
            from learning_apps a
            where a.is_active and a.kind = 'learning' and a.launch_url is not null and a.id <> ${DASH_LESSONS_APP_ID}
              and (cardinality(a.subjects) = 0 or not exists (select 1 from subjects)
                or exists (select 1 from unnest(a.subjects) s(subject)
                  where lower(s.subject) in (select lower(subject) from subjects)))) as apps,
          (select json_agg(json_build_object('resourceId', r.id, 'title', r.title, 'kind', r.kind,
              'lessonId', sl.lesson_id, 'lessonTitle', sl.lesson_title, 'courseTitle', c.title,
              'savedAt', ${isoInstant(sql`v.saved_at`)}) order by v.saved_at desc, r.id)
            from saved_resources v
              join lesson_resources r on r.id = v.resource_id and r.removed_at is null
              join (${syllabusLessons()}) sl on sl.lesson_id = r.lesson_id
              join courses c on c.sourced_id = sl.course_id
            where v.student_sourced_id = u.sourced_id) as saved
        from users u where u.sourced_id = ${studentId}`,
    ),
    assignmentsOfStudent(db, studentId, now),
  ]);
  if (!row?.allowed) throw new AppError("not_found", message("content:lessons.resources.studentNotFound"));
  return {
    student: { id: studentId, name: row.name, givenName: row.givenName },
    today: assigned.today,
    courses: (row.courses ?? []).map((course) => ({ ...course, counts: withPercents(course.counts) })),
    assignments: assigned.assignments,
    apps: row.apps ?? [],
    saved: row.saved ?? [],
    canSave: mayKeepResources(actor, studentId),
  };
}

/**
 * A student keeps resources for themself: not their family or staff, and not staff viewing Dash
 * as the student (what a student keeps is theirs to choose).
 */
export function mayKeepResources(actor: Actor, studentId: string): boolean {
  return actor.activeRole === "student" && actor.user.sourcedId === studentId && !actor.session.impersonation;
}

function assertMayKeep(actor: Actor) {
  if (!mayKeepResources(actor, actor.user.sourcedId))
    throw new AppError(
      "forbidden",
      message(
        actor.activeRole === "student"
          ? "content:lessons.resources.notWhileViewingAs"
          : "content:lessons.resources.onlyStudents",
      ),
    );
}

/** Keeps a resource for later: one of a lesson the student may open. Keeping it again changes nothing. */
export async function saveResource(db: Database, actor: Actor, resourceId: string, now: Date) {
  assertMayKeep(actor);
  const [resource] = await queryRows<{ lessonId: string }>(
    db,
    sql`select r.lesson_id as "lessonId" from lesson_resources r
      where ${uuidEquals(sql`r.id`, resourceId)} and r.removed_at is null`,
  );
  if (!resource) throw new AppError("not_found", message("content:lessons.resources.resourceNotFound"));
  // The lesson as the student reaches it (their courses' lessons and those assigned to them), or a 404.
  await findLesson(db, actor, resource.lessonId);
  await db.execute(sql`insert into saved_resources (student_sourced_id, resource_id, saved_at)
    values (${actor.user.sourcedId}, ${resourceId}::uuid, ${now.toISOString()}::timestamptz)
    on conflict (student_sourced_id, resource_id) do nothing`);
}

/** Lets go of a kept resource (also one of a lesson no longer open to the student). */
export async function unsaveResource(db: Database, actor: Actor, resourceId: string) {
  assertMayKeep(actor);
  const removed = await queryRows<{ id: string }>(
    db,
    sql`delete from saved_resources
      where student_sourced_id = ${actor.user.sourcedId} and ${uuidEquals(sql`resource_id`, resourceId)}
      returning resource_id::text as id`,
  );
  if (removed.length === 0)
    throw new AppError("not_found", message("content:lessons.resources.resourceNotFound"));
}
