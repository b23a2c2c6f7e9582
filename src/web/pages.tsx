import { lazyRouteComponent, type RouteComponent } from "@tanstack/react-router";
import type { RoutePath } from "../shared/routes";

/** The pages built so far; every other route of the table shows its placeholder. Each loads on demand. */
export const pageComponents: Partial<Record<RoutePath, RouteComponent>> = {
  "/login": lazyRouteComponent(() => import("./features/auth/login-page"), "LoginPage"),
  "/app/": lazyRouteComponent(() => import("./features/home/home-page"), "HomePage"),
  "/app/admin/roles": lazyRouteComponent(() => import("./features/admin/roles-page"), "RolesPage"),
};
