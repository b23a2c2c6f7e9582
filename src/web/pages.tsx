import type { QueryClient } from "@tanstack/react-query";
import { lazyRouteComponent, type RouteComponent } from "@tanstack/react-router";
import type { RoutePath } from "../shared/routes";

/** The pages built so far; every other route of the table shows its placeholder. Each loads on demand. */
export const pageComponents: Partial<Record<RoutePath, RouteComponent>> = {
  "/login": lazyRouteComponent(() => import("./features/auth/login-page"), "LoginPage"),
  "/reset-password": lazyRouteComponent(
    () => import("./features/auth/reset-password-page"),
    "ResetPasswordPage",
  ),
  "/app/": lazyRouteComponent(() => import("./features/home/home-page"), "HomePage"),
  "/app/admin/roles": lazyRouteComponent(() => import("./features/admin/roles-page"), "RolesPage"),
  "/app/admin/credentials": lazyRouteComponent(
    () => import("./features/admin/credentials-page"),
    "CredentialsPage",
  ),
  "/app/admin/organizations/": lazyRouteComponent(
    () => import("./features/admin/organizations-page"),
    "OrganizationsPage",
  ),
  "/app/admin/organizations/$orgId/hierarchy": lazyRouteComponent(
    () => import("./features/admin/hierarchy-page"),
    "HierarchyPage",
  ),
  "/app/admin/org-explorer/$orgId": lazyRouteComponent(
    () => import("./features/admin/org-explorer-page"),
    "OrgExplorerPage",
  ),
  "/app/admin/onboarding": lazyRouteComponent(
    () => import("./features/admin/onboarding-page"),
    "OnboardingPage",
  ),
  "/app/admin/roster-sync": lazyRouteComponent(
    () => import("./features/admin/roster-sync-page"),
    "RosterSyncPage",
  ),
  "/app/admin/privacy": lazyRouteComponent(() => import("./features/privacy/privacy-page"), "PrivacyPage"),
  "/app/admin/operations": lazyRouteComponent(
    () => import("./features/operations/operations-page"),
    "OperationsPage",
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
  "/app/admin/manage-courses/": lazyRouteComponent(
    () => import("./features/courses/manage-courses-page"),
    "ManageCoursesPage",
  ),
  "/app/admin/manage-courses/$sourcedId": lazyRouteComponent(
    () => import("./features/courses/course-admin-page"),
    "CourseAdminPage",
  ),
  "/app/admin/admin-section/manage-courses/create": lazyRouteComponent(
    () => import("./features/courses/create-course-page"),
    "CreateCoursePage",
  ),
  "/app/admin/admin-section/manage-enrollments": lazyRouteComponent(
    () => import("./features/courses/manage-enrollments-page"),
    "ManageEnrollmentsPage",
  ),
  "/app/courses/": lazyRouteComponent(() => import("./features/courses/courses-page"), "CoursesPage"),
  "/app/courses/$courseId/enrollments": lazyRouteComponent(
    () => import("./features/courses/course-enrollments-page"),
    "CourseEnrollmentsPage",
  ),
  "/app/course/$courseId": lazyRouteComponent(() => import("./features/courses/course-page"), "CoursePage"),
  "/app/emporium": lazyRouteComponent(() => import("./features/rewards/emporium-page"), "EmporiumPage"),
  "/app/parent-emporium": lazyRouteComponent(
    () => import("./features/rewards/parent-emporium-page"),
    "ParentEmporiumPage",
  ),
  "/app/child/$childId/payout": lazyRouteComponent(
    () => import("./features/rewards/payout-page"),
    "PayoutPage",
  ),
  "/app/teacher/emporium": lazyRouteComponent(
    () => import("./features/rewards/teacher-emporium-page"),
    "TeacherEmporiumPage",
  ),
  "/app/teacher/rewards-management": lazyRouteComponent(
    () => import("./features/rewards/teacher-rewards-page"),
    "TeacherRewardsPage",
  ),
  "/app/emporium-monitor": lazyRouteComponent(
    () => import("./features/rewards/emporium-monitor-page"),
    "EmporiumMonitorPage",
  ),
  "/app/admin/rewards-management": lazyRouteComponent(
    () => import("./features/rewards/admin-rewards-page"),
    "AdminRewardsPage",
  ),
  "/app/admin/transactions": lazyRouteComponent(
    () => import("./features/rewards/transactions-page"),
    "TransactionsPage",
  ),
  "/app/admin/test-bounty-payout": lazyRouteComponent(
    () => import("./features/rewards/bounty-page"),
    "BountyPage",
  ),
  "/app/debug/rewards": lazyRouteComponent(
    () => import("./features/rewards/debug-rewards-page"),
    "DebugRewardsPage",
  ),
  "/app/debug/rewards-api": lazyRouteComponent(
    () => import("./features/rewards/debug-rewards-api-page"),
    "DebugRewardsApiPage",
  ),
};

/** Prefetches a page's data from its search and params; the page then reads it from the query cache. */
export type PageLoader = (input: {
  queryClient: QueryClient;
  search: Record<string, unknown>;
  params: Record<string, string>;
}) => Promise<unknown>;

export const pageLoaders: Partial<Record<RoutePath, PageLoader>> = {
  "/app/admin/manage-courses/": async (input) =>
    (await import("./features/courses/api")).prefetchManagedCourses(input.queryClient, input.search),
};
