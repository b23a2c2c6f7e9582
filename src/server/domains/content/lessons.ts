import { type SQL, sql } from "drizzle-orm";
import {
  LESSON_DEFAULT_EXPECTED_XP,
  LESSON_DEFAULT_MASTERY_PERCENT,
  type LessonResource,
} from "../../../shared/contracts/content";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { classIdsInGuideReach, classIdsInReach, studentIdsInReach } from "../rostering/scope";

/**
 * A lesson is a course component whose parent is one of the course's units (a top-level
 * component); the `lessons` table adds its settings and `lesson_resources` what it holds.
 * Students take the lessons of the courses they are in (or that are assigned to them); Guides
 * preview those of their classes' courses, administrators every one.
 */

/** How the caller meets lessons: as the student taking them, or as staff previewing them. */
export type LessonReader =
  | {
      mode: "student";
      studentId: string;
      /** Staff viewing Dash as the student read along; they never answer in the student's name. */
      canAnswer: boolean;
    }
  | { mode: "preview" };

export function lessonReaderOf(actor: Actor): LessonReader {
  switch (actor.activeRole) {
    case "student":
      return { mode: "student", studentId: actor.user.sourcedId, canAnswer: !actor.session.impersonation };
    case "teacher":
    case "administrator":
      return { mode: "preview" };
    default:
      throw new AppError(
        "forbidden",
        message("common:roleForbids", { action: message("content:lessons.take.actions.open") }),
      );
  }
}

/** A student who may answer: the only one who starts, answers and finishes their attempts. */
export function answeringStudentOf(actor: Actor): string {
  const reader = lessonReaderOf(actor);
  if (reader.mode !== "student")
    throw new AppError(
      "forbidden",
      message("common:roleForbids", { action: message("content:lessons.take.actions.take") }),
    );
  if (!reader.canAnswer)
    throw new AppError("forbidden", message("content:lessons.take.viewingAsCannotAnswer"));
  return reader.studentId;
}

/**
 * Whether the caller reaches the lesson `l` (a course_components row), as SQL. A student: a class
 * of its course they are actively in, or the lesson or its course assigned to them or to one of
 * their classes. A Guide: a class of its course they teach. Viewing as someone narrows each set
 * (scope.ts).
 */
function reachesLesson(actor: Actor): SQL {
  if (actor.activeRole === "administrator") return sql`true`;
  const courseClass = (classIds: SQL) => sql`exists (select 1 from classes k
    where k.course_sourced_id = l.course_sourced_id and k.status = 'active' and k.sourced_id in (${classIds}))`;
  if (actor.activeRole === "teacher") return courseClass(classIdsInGuideReach(actor));
  const classIds = classIdsInReach(actor);
  const studentIds = studentIdsInReach(actor);
  if (actor.activeRole !== "student" || !classIds || !studentIds) return sql`false`;
  return sql`(${courseClass(classIds)} or exists (select 1 from learning_assignments a
    where a.removed_at is null
      and ((a.target_kind = 'lesson' and a.target_id = l.sourced_id)
        or (a.target_kind = 'course' and a.target_id = l.course_sourced_id))
      and ((a.assignee_kind = 'student' and a.assignee_id in (${studentIds}))
        or (a.assignee_kind = 'class' and a.assignee_id in (${classIds})))))`;
}

export interface LessonRecord {
  id: string;
  title: string;
  descriptionHtml: string | null;
  expectedXp: number;
  masteryPercent: number;
  /** The course's first subject: the subject its XP counts under. */
  subject: string;
  unit: { id: string; title: string };
  course: { id: string; title: string };
}

/** The lesson, if it exists, is active and the caller reaches it; otherwise a 404. */
export async function findLesson(db: Database, actor: Actor, lessonId: string): Promise<LessonRecord> {
  const [row] = await queryRows<
    Omit<LessonRecord, "unit" | "course" | "expectedXp"> & {
      expectedXp: string | number;
      unitId: string;
      unitTitle: string;
      courseId: string;
      courseTitle: string;
    }
  >(
    db,
    sql`select l.sourced_id as id, l.title, s.description_html as "descriptionHtml",
          coalesce(s.expected_xp, ${LESSON_DEFAULT_EXPECTED_XP}) as "expectedXp",
          coalesce(s.mastery_percent, ${LESSON_DEFAULT_MASTERY_PERCENT})::int as "masteryPercent",
          coalesce(nullif(trim(c.subjects[1]), ''), 'Other') as subject,
          u.sourced_id as "unitId", u.title as "unitTitle", c.sourced_id as "courseId", c.title as "courseTitle"
        from course_components l
          join course_components u on u.sourced_id = l.parent_component_sourced_id
            and u.parent_component_sourced_id is null and u.course_sourced_id = l.course_sourced_id
          join courses c on c.sourced_id = l.course_sourced_id
          left join lessons s on s.component_sourced_id = l.sourced_id
        where l.sourced_id = ${lessonId} and l.status = 'active' and u.status = 'active' and c.status = 'active'
          and ${reachesLesson(actor)}`,
  );
  if (!row) throw new AppError("not_found", message("content:lessons.take.notFound"));
  const { unitId, unitTitle, courseId, courseTitle, expectedXp, ...lesson } = row;
  return {
    ...lesson,
    expectedXp: Number(expectedXp),
    unit: { id: unitId, title: unitTitle },
    course: { id: courseId, title: courseTitle },
  };
}

/** A QTI item of a lesson's resource, as stored in the bank. */
export interface LessonItem {
  resourceId: string;
  identifier: string;
  title: string;
  rawXml: string;
}

type StoredResource =
  | { id: string; kind: "qti"; title: string; items: LessonItem[] }
  | Exclude<LessonResource, { kind: "qti" }>;

/**
 * The lesson's resources in their order (unsorted ones last, then as they were added), removed
 * ones left out. Items the bank no longer holds are left out of their resource.
 */
export async function lessonResources(db: Database, lessonId: string): Promise<StoredResource[]> {
  const rows = await queryRows<{
    id: string;
    kind: LessonResource["kind"];
    title: string;
    qtiItems: string[];
    articleHtml: string | null;
    videoUrl: string | null;
    appId: string | null;
    appName: string | null;
    appLaunchUrl: string | null;
  }>(
    db,
    sql`select r.id::text, r.kind, r.title, r.qti_items as "qtiItems", r.article_html as "articleHtml",
          r.video_url as "videoUrl", a.id::text as "appId", a.name as "appName", a.launch_url as "appLaunchUrl"
        from lesson_resources r left join learning_apps a on a.id = r.app_id and a.is_active
        where r.lesson_id = ${lessonId} and r.removed_at is null
        order by r.sort_order nulls last, r.created_at, r.id`,
  );
  const identifiers = [...new Set(rows.flatMap((row) => (row.kind === "qti" ? row.qtiItems : [])))];
  const documents = identifiers.length
    ? await queryRows<{ identifier: string; title: string; rawXml: string }>(
        db,
        sql`select identifier, title, raw_xml as "rawXml" from qti_documents
            where kind = 'item' and identifier in (select jsonb_array_elements_text(${JSON.stringify(identifiers)}::jsonb))`,
      )
    : [];
  const byIdentifier = new Map(documents.map((document) => [document.identifier, document]));
  return rows.map((row): StoredResource => {
    switch (row.kind) {
      case "qti":
        return {
          id: row.id,
          kind: "qti",
          title: row.title,
          // An item listed twice in a resource is one question.
          items: [...new Set(row.qtiItems)].flatMap((identifier) => {
            const document = byIdentifier.get(identifier);
            return document ? [{ resourceId: row.id, ...document }] : [];
          }),
        };
      case "article":
        return { id: row.id, kind: "article", title: row.title, html: row.articleHtml ?? "" };
      case "video":
        return { id: row.id, kind: "video", title: row.title, url: row.videoUrl };
      default: // "app"
        return {
          id: row.id,
          kind: "app",
          title: row.title,
          app: row.appId ? { id: row.appId, name: row.appName ?? "", launchUrl: row.appLaunchUrl } : null,
        };
    }
  });
}

/** Every QTI item of the lesson, in the order they are shown. */
export const itemsOf = (resources: StoredResource[]): LessonItem[] =>
  resources.flatMap((resource) => (resource.kind === "qti" ? resource.items : []));
