import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../lib/context";

export function learningRoutes(_deps: AppDeps) {
  return new Hono<AppEnv>();
}
