import { type Context, Hono } from "hono";
import { z } from "zod";
import {
  lessonCreateSchema,
  lessonListQuerySchema,
  lessonSettingsSchema,
  resourceCreateSchema,
  resourceInputSchema,
  type SyllabusChange,
  syllabusHistoryQuerySchema,
  syllabusMoveSchema,
  unitChangesSchema,
  unitInputSchema,
} from "../../../shared/contracts/content";
import { currentActor, requireActiveRole } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { message } from "../../lib/i18n";
import { readJsonBody, readParams, readQuery } from "../../lib/validation";
import { answerList } from "../rostering/list";
import { findLessons, getSyllabus, SYLLABUS_EDITORS, syllabusHistory } from "./syllabus";
import {
  createLesson,
  createResource,
  createUnit,
  moveInSyllabus,
  removeLesson,
  removeResource,
  removeUnit,
  renameUnit,
  updateLesson,
  updateResource,
} from "./syllabus-changes";

const pathId = z.string().trim().min(1).max(200);
const courseParam = z.object({ courseId: pathId });
const unitParam = courseParam.extend({ unitId: pathId });
const lessonParam = courseParam.extend({ lessonId: pathId });
const resourceParam = courseParam.extend({ resourceId: pathId });

const EDIT = message("content:syllabus.actions.edit");

/**
 * /api/content: courses' syllabi and the course builder's edits. Who may read or change a course
 * is decided in the queries (see syllabus.ts); every edit answers the syllabus as it now is.
 */
export function syllabusRoutes({ db, auth }: AppDeps) {
  const editor = (c: Context<AppEnv>) => requireActiveRole(c, SYLLABUS_EDITORS, EDIT);
  const changed = (change: SyllabusChange) => ({ success: true as const, response: change });

  return new Hono<AppEnv>()
    .get("/courses/:courseId/syllabus", async (c) => {
      const { courseId } = readParams(c, courseParam);
      return c.json({
        success: true,
        response: { syllabus: await getSyllabus(db, currentActor(c), courseId) },
      });
    })
    .get("/courses/:courseId/syllabus/changes", (c) =>
      answerList(c, () => {
        const actor = editor(c);
        const { courseId } = readParams(c, courseParam);
        return syllabusHistory(db, actor, courseId, readQuery(c, syllabusHistoryQuerySchema));
      }),
    )
    .post("/courses/:courseId/syllabus/units", async (c) => {
      const actor = editor(c);
      const { courseId } = readParams(c, courseParam);
      const input = await readJsonBody(c, unitInputSchema);
      return c.json(changed(await createUnit(db, actor, courseId, input, auth.now())), 201);
    })
    .patch("/courses/:courseId/syllabus/units/:unitId", async (c) => {
      const actor = editor(c);
      const { courseId, unitId } = readParams(c, unitParam);
      const changes = await readJsonBody(c, unitChangesSchema);
      return c.json(changed(await renameUnit(db, actor, courseId, unitId, changes, auth.now())));
    })
    .delete("/courses/:courseId/syllabus/units/:unitId", async (c) => {
      const actor = editor(c);
      const { courseId, unitId } = readParams(c, unitParam);
      return c.json(changed(await removeUnit(db, actor, courseId, unitId, auth.now())));
    })
    .post("/courses/:courseId/syllabus/lessons", async (c) => {
      const actor = editor(c);
      const { courseId } = readParams(c, courseParam);
      const input = await readJsonBody(c, lessonCreateSchema);
      return c.json(changed(await createLesson(db, actor, courseId, input, auth.now())), 201);
    })
    .patch("/courses/:courseId/syllabus/lessons/:lessonId", async (c) => {
      const actor = editor(c);
      const { courseId, lessonId } = readParams(c, lessonParam);
      const changes = await readJsonBody(c, lessonSettingsSchema);
      return c.json(changed(await updateLesson(db, actor, courseId, lessonId, changes, auth.now())));
    })
    .delete("/courses/:courseId/syllabus/lessons/:lessonId", async (c) => {
      const actor = editor(c);
      const { courseId, lessonId } = readParams(c, lessonParam);
      return c.json(changed(await removeLesson(db, actor, courseId, lessonId, auth.now())));
    })
    .post("/courses/:courseId/syllabus/resources", async (c) => {
      const actor = editor(c);
      const { courseId } = readParams(c, courseParam);
      const input = await readJsonBody(c, resourceCreateSchema);
      return c.json(changed(await createResource(db, actor, courseId, input, auth.now())), 201);
    })
    .put("/courses/:courseId/syllabus/resources/:resourceId", async (c) => {
      const actor = editor(c);
      const { courseId, resourceId } = readParams(c, resourceParam);
      const input = await readJsonBody(c, resourceInputSchema);
      return c.json(changed(await updateResource(db, actor, courseId, resourceId, input, auth.now())));
    })
    .delete("/courses/:courseId/syllabus/resources/:resourceId", async (c) => {
      const actor = editor(c);
      const { courseId, resourceId } = readParams(c, resourceParam);
      return c.json(changed(await removeResource(db, actor, courseId, resourceId, auth.now())));
    })
    .post("/courses/:courseId/syllabus/move", async (c) => {
      const actor = editor(c);
      const { courseId } = readParams(c, courseParam);
      const move = await readJsonBody(c, syllabusMoveSchema);
      return c.json(changed(await moveInSyllabus(db, actor, courseId, move, auth.now())));
    })
    .get("/lessons", (c) =>
      answerList(c, () => {
        requireActiveRole(c, ["administrator"], message("content:syllabus.actions.listLessons"));
        return findLessons(db, readQuery(c, lessonListQuerySchema));
      }),
    );
}
