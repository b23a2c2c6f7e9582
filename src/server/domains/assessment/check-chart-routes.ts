import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../lib/context";

/** Check charts: charts, their levels and checks, observations and the legacy review. */
export function checkChartRoutes(_deps: AppDeps) {
  return new Hono<AppEnv>();
}
