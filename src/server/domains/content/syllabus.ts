import { type SQL, sql } from "drizzle-orm";
import {
  LESSON_DEFAULT_EXPECTED_XP,
  LESSON_DEFAULT_MASTERY_PERCENT,
  type LessonListQuery,
  type LessonListRow,
  type Syllabus,
  type SyllabusHistoryEntry,
} from "../../../shared/contracts/content";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { containsPattern } from "../rostering/filter";
import { isoInstant, type ListPage, pageOf } from "../rostering/list";
import { classIdsInGuideReach, classIdsInReach } from "../rostering/scope";

/**
 * A course's syllabus is its components: units at the top, lessons inside a unit, with the
 * lesson's settings (`lessons`) and resources (`lesson_resources`) beside them. Deeper components
 * are not part of it. Every level lists in sortOrder, unsorted ones last, then by title.
 */

/** Roles that build syllabi. */
export const SYLLABUS_EDITORS = ["administrator", "teacher"] as const;

/**
 * The courses (alias `c`) whose syllabus the caller may read: every course for an administrator,
 * the courses of the classes a Guide teaches, and those of the classes a student is actively
 * enrolled in (both bounded while a Guide views Dash as someone). Null: their role reads none.
 */
function readableCourses(actor: Actor): SQL | null {
  if (actor.activeRole === "administrator") return sql`true`;
  if (actor.activeRole !== "teacher" && actor.activeRole !== "student") return null;
  const classes = classIdsInReach(actor);
  return (
    classes &&
    sql`c.sourced_id in (select k.course_sourced_id from classes k where k.sourced_id in (${classes}))`
  );
}

/** The courses whose syllabus the caller may change: any for an administrator, a Guide's own. */
export function editableCourses(actor: Actor): SQL | null {
  if (actor.activeRole === "administrator") return sql`true`;
  if (actor.activeRole !== "teacher") return null;
  return sql`c.sourced_id in (select k.course_sourced_id from classes k where k.sourced_id in (${classIdsInGuideReach(actor)}))`;
}

export function courseNotFound(): AppError {
  return new AppError("not_found", message("content:syllabus.courseNotFound"));
}

/** The order of every level of the syllabus (alias `x`): sortOrder, unsorted last, then title. */
const inOrder = (alias: string, id: string) =>
  sql.raw(`${alias}.sort_order nulls last, lower(${alias}.title), ${alias}.${id}`);

const resourceJson = sql`json_build_object('id', r.id::text, 'kind', r.kind, 'title', r.title,
  'sortOrder', r.sort_order, 'qtiItems', r.qti_items, 'qtiTest', r.qti_test, 'articleHtml', r.article_html,
  'videoUrl', r.video_url, 'appId', r.app_id::text, 'appName', a.name, 'launchUrl', a.launch_url)`;

const lessonJson = sql`json_build_object('sourcedId', l.sourced_id, 'title', l.title, 'sortOrder', l.sort_order,
  'expectedXp', coalesce(s.expected_xp, ${LESSON_DEFAULT_EXPECTED_XP})::float8,
  'masteryPercent', coalesce(s.mastery_percent, ${LESSON_DEFAULT_MASTERY_PERCENT}),
  'descriptionHtml', s.description_html,
  'resources', coalesce((select json_agg(${resourceJson} order by ${inOrder("r", "id")})
    from lesson_resources r left join learning_apps a on a.id = r.app_id
    where r.lesson_id = l.sourced_id and r.removed_at is null), '[]'::json))`;

const unitJson = sql`json_build_object('sourcedId', u.sourced_id, 'title', u.title, 'sortOrder', u.sort_order,
  'lessons', coalesce((select json_agg(${lessonJson} order by ${inOrder("l", "sourced_id")})
    from course_components l left join lessons s on s.component_sourced_id = l.sourced_id
    where l.parent_component_sourced_id = u.sourced_id and l.course_sourced_id = u.course_sourced_id
      and l.status = 'active'), '[]'::json))`;

/** The whole tree in one round trip, or null when the course is not one whose syllabus `reach` opens. */
async function selectSyllabus(db: Database, courseId: string, reach: SQL): Promise<Syllabus | null> {
  const [row] = await queryRows<{ syllabus: Syllabus }>(
    db,
    sql`select json_build_object(
        'course', json_build_object('sourcedId', c.sourced_id, 'title', c.title, 'subjects', c.subjects, 'grades', c.grades),
        'units', coalesce((select json_agg(${unitJson} order by ${inOrder("u", "sourced_id")})
          from course_components u
          where u.course_sourced_id = c.sourced_id and u.parent_component_sourced_id is null and u.status = 'active'),
          '[]'::json)
      ) as syllabus
      from courses c where c.sourced_id = ${courseId} and ${reach}`,
  );
  return row?.syllabus ?? null;
}

/** A course's syllabus as the caller may read it; 404 when it is not theirs to read. */
export async function getSyllabus(db: Database, actor: Actor, courseId: string): Promise<Syllabus> {
  const reach = readableCourses(actor);
  const syllabus = reach && (await selectSyllabus(db, courseId, reach));
  if (!syllabus) throw courseNotFound();
  return syllabus;
}

/**
 * A syllabus's history, newest first, for those who may edit the course (404 otherwise). Titles
 * are the unit's, lesson's or resource's as it now is, removed ones included.
 */
export async function syllabusHistory(
  db: Database,
  actor: Actor,
  courseId: string,
  page: { offset: number; limit: number },
): Promise<ListPage<SyllabusHistoryEntry>> {
  const editable = editableCourses(actor);
  const [course] = editable
    ? await queryRows(db, sql`select 1 from courses c where c.sourced_id = ${courseId} and ${editable}`)
    : [];
  if (!course) throw courseNotFound();
  const from = sql`from syllabus_changes h where h.course_sourced_id = ${courseId}`;
  return pageOf<SyllabusHistoryEntry>(db, {
    rows: sql`select h.id::text as id, ${isoInstant(sql`h.at`)} as at,
        json_build_object('sourcedId', h.actor_sourced_id,
          'name', coalesce((select p.given_name || ' ' || p.family_name from users p where p.sourced_id = h.actor_sourced_id), h.actor_sourced_id)) as actor,
        h.action, h.target_kind as "targetKind", h.target_id as "targetId",
        case when h.target_kind = 'resource'
          then (select r.title from lesson_resources r where r.id::text = h.target_id)
          else (select k.title from course_components k where k.sourced_id = h.target_id) end as "targetTitle",
        h.details
      ${from}
      order by h.id desc
      limit ${page.limit} offset ${page.offset}`,
    count: sql`select count(*) as total ${from}`,
  });
}

/**
 * admin/lesson: every active lesson of every course (a lesson's unit is a top-level component of
 * the same course), with how many resources it has and how many students have tried it.
 */
export async function findLessons(db: Database, query: LessonListQuery): Promise<ListPage<LessonListRow>> {
  const pattern = containsPattern(query.search);
  const from = sql`from course_components l
    join course_components u on u.sourced_id = l.parent_component_sourced_id
      and u.course_sourced_id = l.course_sourced_id and u.parent_component_sourced_id is null and u.status = 'active'
    join courses c on c.sourced_id = l.course_sourced_id
    left join lessons s on s.component_sourced_id = l.sourced_id
    where l.status = 'active'
      and (${query.courseId ?? null}::text is null or l.course_sourced_id = ${query.courseId ?? null})
      and (${query.search} = '' or l.title ilike ${pattern} or u.title ilike ${pattern} or c.title ilike ${pattern})`;
  return pageOf<LessonListRow>(db, {
    rows: sql`select l.sourced_id as "sourcedId", l.title, c.sourced_id as "courseId", c.title as "courseTitle",
        u.sourced_id as "unitId", u.title as "unitTitle",
        (select count(*)::int from lesson_resources r where r.lesson_id = l.sourced_id and r.removed_at is null) as "resourceCount",
        coalesce(s.expected_xp, ${LESSON_DEFAULT_EXPECTED_XP})::float8 as "expectedXp",
        coalesce(s.mastery_percent, ${LESSON_DEFAULT_MASTERY_PERCENT}) as "masteryPercent",
        s.description_html as "descriptionHtml",
        (select count(distinct t.student_sourced_id)::int from lesson_attempts t where t.lesson_id = l.sourced_id) as "studentsAttempted",
        ${isoInstant(sql`s.updated_at`)} as "updatedAt"
      ${from}
      order by lower(c.title), c.sourced_id, ${inOrder("u", "sourced_id")}, ${inOrder("l", "sourced_id")}
      limit ${query.limit} offset ${query.offset}`,
    count: sql`select count(*) as total ${from}`,
  });
}
