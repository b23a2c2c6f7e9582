import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../lib/context";

export function qtiRoutes(_deps: AppDeps) {
  return new Hono<AppEnv>();
}
