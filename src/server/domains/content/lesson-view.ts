import type { LessonView } from "../../../shared/contracts/content";
import type { Database } from "../../db/client";
import type { Actor } from "../../lib/context";
import { attemptSummaries, openAttemptOf } from "./attempts";
import { attemptSeed, itemForDelivery } from "./lesson-items";
import { findLesson, type LessonItem, lessonReaderOf, lessonResources } from "./lessons";

/** The seed a staff preview fixes an item's template values with: the same on every visit. */
const previewSeed = (identifier: string) => `preview:${identifier}`;

/**
 * GET /lessons/:lessonId: the lesson, its resources and, for a student, their attempts and the
 * open one's answers. Items are served for the open attempt (or for a preview) only.
 */
export async function lessonView(db: Database, actor: Actor, lessonId: string): Promise<LessonView> {
  const reader = lessonReaderOf(actor);
  const lesson = await findLesson(db, actor, lessonId);
  const [resources, attempts, open] = await Promise.all([
    lessonResources(db, lessonId),
    reader.mode === "student" ? attemptSummaries(db, lessonId, reader.studentId) : [],
    reader.mode === "student" ? openAttemptOf(db, lessonId, reader.studentId) : null,
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
    resources: resources.map((resource) =>
      resource.kind === "qti"
        ? {
            ...resource,
            items: resource.items.map((item) => {
              const seed = seedOf(item);
              return {
                identifier: item.identifier,
                title: item.title,
                rawXml: seed === null ? null : itemForDelivery(item.rawXml, seed),
              };
            }),
          }
        : resource,
    ),
    attempts,
    openAttempt: open,
    mastered: attempts.some((attempt) => attempt.mastered),
  };
}
