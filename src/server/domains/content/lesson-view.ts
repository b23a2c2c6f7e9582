import { sql } from "drizzle-orm";
import type { LessonView } from "../../../shared/contracts/content";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { attemptSummaries, openAttemptOf } from "./attempts";
import { attemptSeed, itemForDelivery } from "./lesson-items";
import { findLesson, type LessonItem, lessonReaderOf, lessonResources } from "./lessons";
import { mayKeepResources } from "./student-resources";

/** The seed a staff preview fixes an item's template values with: the same on every visit. */
const previewSeed = (identifier: string) => `preview:${identifier}`;

/** The lesson's resources the student keeps for later. */
async function savedResourceIds(db: Database, lessonId: string, studentId: string): Promise<Set<string>> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select v.resource_id::text as id from saved_resources v
        join lesson_resources r on r.id = v.resource_id
      where r.lesson_id = ${lessonId} and v.student_sourced_id = ${studentId}`,
  );
  return new Set(rows.map((row) => row.id));
}

/**
 * GET /lessons/:lessonId: the lesson, its resources and, for a student, their attempts, the open
 * one's answers and the resources they keep. Items are served for the open attempt (or for a
 * preview) only.
 */
export async function lessonView(db: Database, actor: Actor, lessonId: string): Promise<LessonView> {
  const reader = lessonReaderOf(actor);
  const lesson = await findLesson(db, actor, lessonId);
  const [resources, attempts, open, saved] = await Promise.all([
    lessonResources(db, lessonId),
    reader.mode === "student" ? attemptSummaries(db, lessonId, reader.studentId) : [],
    reader.mode === "student" ? openAttemptOf(db, lessonId, reader.studentId) : null,
    reader.mode === "student" ? savedResourceIds(db, lessonId, reader.studentId) : new Set<string>(),
  ]);
  const seedOf = (item: LessonItem) =>
    reader.mode === "preview"
      ? previewSeed(item.identifier)
      : open
        ? attemptSeed(open.id, item.identifier)
        : null;
  return {
    lesson,
    mode: reader.mode,
    canAnswer: reader.mode === "student" && reader.canAnswer,
    canSave: reader.mode === "student" && mayKeepResources(actor, reader.studentId),
    resources: resources.map((resource) =>
      resource.kind === "qti"
        ? {
            ...resource,
            saved: saved.has(resource.id),
            items: resource.items.map((item) => {
              const seed = seedOf(item);
              return {
                identifier: item.identifier,
                title: item.title,
                rawXml: seed === null ? null : itemForDelivery(item.rawXml, seed),
              };
            }),
          }
        : { ...resource, saved: saved.has(resource.id) },
    ),
    attempts,
    openAttempt: open,
    mastered: attempts.some((attempt) => attempt.mastered),
  };
}
