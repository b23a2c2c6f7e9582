import { lazyRouteComponent, type RouteComponent } from "@tanstack/react-router";
import type { RoutePath } from "../shared/routes";

/** The pages built so far; every other route of the table shows its placeholder. Each loads on demand. */
export const pageComponents: Partial<Record<RoutePath, RouteComponent>> = {
  "/login": lazyRouteComponent(() => import("./features/auth/login-page"), "LoginPage"),
  "/app/": lazyRouteComponent(() => import("./features/home/home-page"), "HomePage"),
  "/app/admin/roles": lazyRouteComponent(() => import("./features/admin/roles-page"), "RolesPage"),
  "/app/admin/roster-sync": lazyRouteComponent(
    () => import("./features/admin/roster-sync-page"),
    "RosterSyncPage",
  ),
  "/app/flow/": lazyRouteComponent(() => import("./features/flow/flow-pages"), "FlowPage"),
  "/app/flow/student/$studentId": lazyRouteComponent(
    () => import("./features/flow/flow-pages"),
    "StudentFlowPage",
  ),
  "/app/flow/student/$studentId/chunks": lazyRouteComponent(
    () => import("./features/flow/flow-pages"),
    "StudentChunksPage",
  ),
  "/app/timeback": lazyRouteComponent(() => import("./features/timeback/timeback-page"), "TimebackPage"),
  "/app/xp/manual": lazyRouteComponent(() => import("./features/xp/manual-xp-page"), "ManualXpPage"),
  "/app/xp-stats": lazyRouteComponent(() => import("./features/xp/xp-stats-page"), "XpStatsPage"),
  "/app/xp-debug": lazyRouteComponent(() => import("./features/xp/xp-debug-page"), "XpDebugPage"),
  "/app/debug/xp": lazyRouteComponent(() => import("./features/xp/debug-xp-page"), "DebugXpPage"),
  "/app/learning-metrics": lazyRouteComponent(
    () => import("./features/learning-metrics/learning-metrics-page"),
    "LearningMetricsPage",
  ),
};
