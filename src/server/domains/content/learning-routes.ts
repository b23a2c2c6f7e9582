import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../lib/context";
import { assignmentsRoutes } from "./assignments-routes";
import { lessonRoutes } from "./lesson-routes";
import { progressRoutes } from "./progress-routes";
import { studentResourcesRoutes } from "./student-resources-routes";

export function learningRoutes(deps: AppDeps) {
  return (
    new Hono<AppEnv>()
      // Lessons and attempts: GET /lessons/:lessonId, POST /lessons/:lessonId/attempts,
      // GET /attempts/:attemptId, PUT /attempts/:attemptId/responses, POST /attempts/:attemptId/finish.
      .route("/", lessonRoutes(deps))
      // Required learning, progress and a student's resources: /assignments (GET, POST),
      // /assignments/mine, PATCH and DELETE /assignments/:assignmentId, GET /progress and
      // /progress.csv, GET /students/:studentId/resources, PUT and DELETE /saved-resources/:resourceId.
      .route("/", assignmentsRoutes(deps))
      .route("/", progressRoutes(deps))
      .route("/", studentResourcesRoutes(deps))
  );
}
