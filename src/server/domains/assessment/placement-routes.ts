import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../lib/context";

/** Placements, placement tests, screening and subject tracks. */
export function placementRoutes(_deps: AppDeps) {
  return new Hono<AppEnv>();
}
