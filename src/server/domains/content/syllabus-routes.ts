import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../lib/context";

export function syllabusRoutes(_deps: AppDeps) {
  return new Hono<AppEnv>();
}
