import { Hono } from "hono";
import {
  componentCreateSchema,
  componentListQuerySchema,
  componentOrderSchema,
  componentUpdateSchema,
  courseCreateSchema,
  courseListQuerySchema,
  courseUpdateSchema,
  enrollmentCreateSchema,
  enrollmentEndSchema,
  enrollmentListQuerySchema,
} from "../../../shared/contracts/courses";
import { currentActor, requireActiveRole } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { message } from "../../lib/i18n";
import { readJsonBody, readQuery } from "../../lib/validation";
import {
  createComponent,
  listComponents,
  removeComponent,
  reorderComponents,
  updateComponent,
} from "./course-components";
import {
  courseOptions,
  createCourse,
  findCourses,
  getCourseDetail,
  openCourse,
  updateCourse,
} from "./courses";
import { addEnrollment, endEnrollment, findEnrollments } from "./enrollments";
import { answerList } from "./list";

const ADMIN = ["administrator"] as const;

/** Courses, their components and enrollments. Who sees what is decided in the queries themselves. */
export function courseRoutes({ db, auth }: AppDeps) {
  return new Hono<AppEnv>()
    .get("/courses", (c) =>
      answerList(c, () => findCourses(db, currentActor(c), readQuery(c, courseListQuerySchema))),
    )
    .post("/courses", async (c) => {
      const actor = requireActiveRole(c, ADMIN, message("rostering:actions.createCourses"));
      const input = await readJsonBody(c, courseCreateSchema);
      return c.json({ success: true, data: await createCourse(db, actor, input, auth.now()) }, 201);
    })
    .get("/course-options", async (c) => {
      requireActiveRole(c, ADMIN, message("rostering:actions.editCourses"));
      return c.json({ success: true, data: await courseOptions(db) });
    })
    .get("/courses/:courseId", async (c) => {
      const data = await getCourseDetail(db, currentActor(c), c.req.param("courseId"));
      return c.json({ success: true, data });
    })
    .patch("/courses/:courseId", async (c) => {
      const actor = requireActiveRole(c, ADMIN, message("rostering:actions.editCourses"));
      const changes = await readJsonBody(c, courseUpdateSchema);
      return c.json({
        success: true,
        data: await updateCourse(db, actor, c.req.param("courseId"), changes, auth.now()),
      });
    })
    .get("/courses/:courseId/components", (c) =>
      answerList(c, async () => {
        const courseId = c.req.param("courseId");
        await openCourse(db, currentActor(c), courseId);
        return listComponents(db, courseId, readQuery(c, componentListQuerySchema));
      }),
    )
    .post("/courses/:courseId/components", async (c) => {
      requireActiveRole(c, ADMIN, message("rostering:actions.editComponents"));
      const input = await readJsonBody(c, componentCreateSchema);
      const data = await createComponent(db, c.req.param("courseId"), input, auth.now());
      return c.json({ success: true, data }, 201);
    })
    .put("/courses/:courseId/components/order", async (c) => {
      requireActiveRole(c, ADMIN, message("rostering:actions.editComponents"));
      const { componentIds } = await readJsonBody(c, componentOrderSchema);
      await reorderComponents(db, c.req.param("courseId"), componentIds, auth.now());
      return c.json({ success: true });
    })
    .patch("/courses/:courseId/components/:componentId", async (c) => {
      requireActiveRole(c, ADMIN, message("rostering:actions.editComponents"));
      const changes = await readJsonBody(c, componentUpdateSchema);
      const { courseId, componentId } = c.req.param();
      return c.json({
        success: true,
        data: await updateComponent(db, courseId, componentId, changes, auth.now()),
      });
    })
    .delete("/courses/:courseId/components/:componentId", async (c) => {
      requireActiveRole(c, ADMIN, message("rostering:actions.editComponents"));
      const { courseId, componentId } = c.req.param();
      await removeComponent(db, courseId, componentId, auth.now());
      return c.json({ success: true });
    })
    .get("/enrollments", (c) =>
      answerList(c, () => findEnrollments(db, currentActor(c), readQuery(c, enrollmentListQuerySchema))),
    )
    .post("/enrollments", async (c) => {
      requireActiveRole(c, ADMIN, message("rostering:actions.enrollPeople"));
      const input = await readJsonBody(c, enrollmentCreateSchema);
      return c.json({ success: true, data: await addEnrollment(db, input, auth.now()) }, 201);
    })
    .post("/enrollments/:enrollmentId/end", async (c) => {
      requireActiveRole(c, ADMIN, message("rostering:actions.endEnrollments"));
      const { endDate } = await readJsonBody(c, enrollmentEndSchema);
      const data = await endEnrollment(db, c.req.param("enrollmentId"), endDate, auth.now());
      // A Guide viewing Dash as a student of that class loses the right at the next request.
      await auth.forgetEveryone();
      return c.json({ success: true, data });
    });
}
