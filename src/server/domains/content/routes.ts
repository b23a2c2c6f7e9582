import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../lib/context";
import { learningRoutes } from "./learning-routes";
import { syllabusRoutes } from "./syllabus-routes";

/** /api/content: courses' syllabi, lessons and what students do with them. */
export function contentRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().route("/", syllabusRoutes(deps)).route("/", learningRoutes(deps));
}
