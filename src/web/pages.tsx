import type { QueryClient } from "@tanstack/react-query";
import { lazyRouteComponent, type RouteComponent } from "@tanstack/react-router";
import type { RoutePath } from "../shared/routes";
import type { AuthState } from "./features/auth/auth-state";
import { loadCatalogues } from "./lib/i18n";

/**
 * A feature's page: its code and its catalogue (the feature's namespace) load side by side, with
 * the catalogues of other features whose parts it shows (`alsoShows`).
 */
function featurePage<Name extends string>(
  feature: string,
  load: () => Promise<Record<Name, RouteComponent>>,
  exportName: Name,
  alsoShows: readonly string[] = [],
): RouteComponent {
  return lazyRouteComponent(
    () => Promise.all([load(), loadCatalogues([feature, ...alsoShows])]).then(([module]) => module),
    exportName,
  );
}

/** The pages built so far; every other route of the table shows its placeholder. Each loads on demand. */
export const pageComponents: Partial<Record<RoutePath, RouteComponent>> = {
  "/login": featurePage("auth", () => import("./features/auth/login-page"), "LoginPage"),
  "/reset-password": featurePage(
    "auth",
    () => import("./features/auth/reset-password-page"),
    "ResetPasswordPage",
  ),
  "/qti-embed": featurePage("content", () => import("./features/content/qti-embed-page"), "QtiEmbedInfoPage"),
  "/qti-embed/$qtiId": featurePage(
    "content",
    () => import("./features/content/qti-embed-page"),
    "QtiItemEmbedPage",
  ),
  "/qti-stimulus-embed": featurePage(
    "content",
    () => import("./features/content/qti-embed-page"),
    "QtiStimulusEmbedInfoPage",
  ),
  "/qti-stimulus-embed/$qtiId": featurePage(
    "content",
    () => import("./features/content/qti-embed-page"),
    "QtiStimulusEmbedPage",
  ),
  "/app/": featurePage("home", () => import("./features/home/home-page"), "HomePage", ["credentials"]),
  "/app/notifications": featurePage(
    "notifications",
    () => import("./features/notifications/notifications-page"),
    "NotificationsPage",
  ),
  "/app/preferences": featurePage(
    "notifications",
    () => import("./features/notifications/preferences-page"),
    "PreferencesPage",
  ),
  "/app/admin/roles": featurePage("admin", () => import("./features/admin/roles-page"), "RolesPage"),
  "/app/admin/credentials": featurePage(
    "admin",
    () => import("./features/admin/credentials-page"),
    "CredentialsPage",
    ["credentials", "xp"],
  ),
  "/app/admin/organizations/": featurePage(
    "admin",
    () => import("./features/admin/organizations-page"),
    "OrganizationsPage",
  ),
  "/app/admin/organizations/$orgId/hierarchy": featurePage(
    "admin",
    () => import("./features/admin/hierarchy-page"),
    "HierarchyPage",
  ),
  "/app/admin/org-explorer/$orgId": featurePage(
    "admin",
    () => import("./features/admin/org-explorer-page"),
    "OrgExplorerPage",
  ),
  "/app/admin/onboarding": featurePage(
    "admin",
    () => import("./features/admin/onboarding-page"),
    "OnboardingPage",
  ),
  "/app/admin/roster-sync": featurePage(
    "admin",
    () => import("./features/admin/roster-sync-page"),
    "RosterSyncPage",
  ),
  "/app/admin/privacy": featurePage(
    "privacy",
    () => import("./features/privacy/privacy-page"),
    "PrivacyPage",
  ),
  "/app/admin/analytics": featurePage(
    "analytics",
    () => import("./features/analytics/analytics-page"),
    "AnalyticsPage",
  ),
  "/app/admin/api-docs": featurePage(
    "api-docs",
    () => import("./features/api-docs/api-docs-page"),
    "ApiDocsPage",
  ),
  "/app/admin/operations": featurePage(
    "operations",
    () => import("./features/operations/operations-page"),
    "OperationsPage",
  ),
  "/app/flow/": featurePage("flow", () => import("./features/flow/flow-pages"), "FlowPage"),
  "/app/flow/student/$studentId": featurePage(
    "flow",
    () => import("./features/flow/flow-pages"),
    "StudentFlowPage",
    ["families", "home"],
  ),
  "/app/flow/student/$studentId/chunks": featurePage(
    "flow",
    () => import("./features/flow/flow-pages"),
    "StudentChunksPage",
  ),
  "/app/flow/cheating/pending": featurePage(
    "integrity",
    () => import("./features/integrity/queue-pages"),
    "PendingIncidentsPage",
  ),
  "/app/flow/cheating/resolved": featurePage(
    "integrity",
    () => import("./features/integrity/queue-pages"),
    "ResolvedIncidentsPage",
  ),
  "/app/dashboard-locked": featurePage(
    "integrity",
    () => import("./features/integrity/locked-page"),
    "DashboardLockedPage",
  ),
  "/app/timeback": featurePage("timeback", () => import("./features/timeback/timeback-page"), "TimebackPage"),
  "/app/xp/manual": featurePage("xp", () => import("./features/xp/manual-xp-page"), "ManualXpPage"),
  "/app/xp-stats": featurePage("xp", () => import("./features/xp/xp-stats-page"), "XpStatsPage"),
  "/app/xp-debug": featurePage("xp", () => import("./features/xp/xp-debug-page"), "XpDebugPage"),
  "/app/debug/xp": featurePage("xp", () => import("./features/xp/debug-xp-page"), "DebugXpPage"),
  "/app/daily-metrics": featurePage(
    "reports",
    () => import("./features/reports/report-page"),
    "DailyMetricsPage",
    ["xp"],
  ),
  "/app/week-report": featurePage(
    "reports",
    () => import("./features/reports/report-page"),
    "WeekReportPage",
    ["xp"],
  ),
  "/app/month-report": featurePage(
    "reports",
    () => import("./features/reports/report-page"),
    "MonthReportPage",
    ["xp"],
  ),
  "/app/session-report": featurePage(
    "reports",
    () => import("./features/reports/report-page"),
    "SessionReportPage",
    ["xp"],
  ),
  "/app/student-xp-report": featurePage(
    "reports",
    () => import("./features/reports/report-page"),
    "StudentXpReportPage",
    ["xp"],
  ),
  "/app/overall_students_subject_report": featurePage(
    "reports",
    () => import("./features/reports/report-page"),
    "SubjectReportPage",
    ["xp"],
  ),
  "/app/my-learning-report": featurePage(
    "reports",
    () => import("./features/reports/report-page"),
    "LearningReportPage",
    ["xp"],
  ),
  "/app/my-learning-report-2": featurePage(
    "reports",
    () => import("./features/reports/report-page"),
    "LearningBySubjectReportPage",
    ["xp"],
  ),
  "/app/learning-metrics": featurePage(
    "learning-metrics",
    () => import("./features/learning-metrics/learning-metrics-page"),
    "LearningMetricsPage",
  ),
  "/app/leaderboards": featurePage(
    "leaderboards",
    () => import("./features/leaderboards/leaderboards-page"),
    "LeaderboardsPage",
  ),
  "/app/class-leaderboard": featurePage(
    "leaderboards",
    () => import("./features/leaderboards/class-leaderboard-page"),
    "ClassLeaderboardPage",
  ),
  "/app/admin/leaderboards": featurePage(
    "leaderboards",
    () => import("./features/leaderboards/admin-leaderboards-page"),
    "AdminLeaderboardsPage",
  ),
  "/app/admin/manage-courses/": featurePage(
    "courses",
    () => import("./features/courses/manage-courses-page"),
    "ManageCoursesPage",
  ),
  "/app/admin/manage-courses/$sourcedId": featurePage(
    "courses",
    () => import("./features/courses/course-admin-page"),
    "CourseAdminPage",
    ["content"],
  ),
  "/app/admin/admin-section/manage-courses/create": featurePage(
    "courses",
    () => import("./features/courses/create-course-page"),
    "CreateCoursePage",
  ),
  "/app/admin/admin-section/manage-enrollments": featurePage(
    "courses",
    () => import("./features/courses/manage-enrollments-page"),
    "ManageEnrollmentsPage",
  ),
  "/app/courses/": featurePage("courses", () => import("./features/courses/courses-page"), "CoursesPage"),
  "/app/courses/$courseId/enrollments": featurePage(
    "courses",
    () => import("./features/courses/course-enrollments-page"),
    "CourseEnrollmentsPage",
  ),
  "/app/course/$courseId": featurePage(
    "courses",
    () => import("./features/courses/course-page"),
    "CoursePage",
    ["content"],
  ),
  "/course-builder/$courseId": featurePage(
    "content",
    () => import("./features/content/course-builder-page"),
    "CourseBuilderPage",
    ["home"],
  ),
  "/app/admin/lesson": featurePage(
    "content",
    () => import("./features/content/admin-lessons-page"),
    "AdminLessonsPage",
    ["home"],
  ),
  "/app/lesson/$lessonId": featurePage(
    "content",
    () => import("./features/content/lesson-page"),
    "LessonPage",
    ["home"],
  ),
  "/app/guide/required-learning": featurePage(
    "content",
    () => import("./features/content/required-learning-page"),
    "RequiredLearningPage",
    ["home", "xp"],
  ),
  "/app/admin/course-progress": featurePage(
    "content",
    () => import("./features/content/course-progress-page"),
    "CourseProgressPage",
    ["home"],
  ),
  "/app/student-resources": featurePage(
    "content",
    () => import("./features/content/student-resources-page"),
    "StudentResourcesPage",
    ["home", "xp"],
  ),
  "/app/student-resources/$studentId": featurePage(
    "content",
    () => import("./features/content/student-resources-page"),
    "StudentResourcesOfStudentPage",
    ["home", "xp"],
  ),
  "/app/surveys": featurePage(
    "surveys",
    () => import("./features/surveys/my-surveys-page"),
    "MySurveysPage",
    ["home"],
  ),
  "/app/survey/$surveyId": featurePage(
    "surveys",
    () => import("./features/surveys/survey-page"),
    "SurveyPage",
  ),
  "/app/admin/surveys": featurePage(
    "surveys",
    () => import("./features/surveys/admin-surveys-page"),
    "AdminSurveysPage",
    ["home"],
  ),
  "/app/admin/survey-responses/$surveyId": featurePage(
    "surveys",
    () => import("./features/surveys/results-page"),
    "SurveyResponsesPage",
    ["home"],
  ),
  "/admin/surveys/test-components": featurePage(
    "surveys",
    () => import("./features/surveys/test-components-page"),
    "SurveyComponentsPage",
  ),
  "/app/goals": featurePage("goals", () => import("./features/goals/goals-page"), "GoalsPage", [
    "home",
    "xp",
  ]),
  "/app/athletics": featurePage(
    "athletics",
    () => import("./features/athletics/athletics-page"),
    "AthleticsPage",
    ["home", "xp", "rewards"],
  ),
  "/app/check-chart": featurePage(
    "assessment",
    () => import("./features/assessment/check-chart-page"),
    "CheckChartPage",
    ["home", "xp"],
  ),
  "/admin/check-chart-legacy-review": featurePage(
    "assessment",
    () => import("./features/assessment/check-chart-legacy-page"),
    "CheckChartLegacyReviewPage",
    ["home"],
  ),
  "/app/admin/check-chart-test": featurePage(
    "assessment",
    () => import("./features/assessment/check-chart-test-pages"),
    "CheckChartTestPage",
    ["home"],
  ),
  "/app/admin/check-chart-simple-test": featurePage(
    "assessment",
    () => import("./features/assessment/check-chart-test-pages"),
    "CheckChartSimpleTestPage",
    ["home"],
  ),
  "/app/teacher/class/$classId": featurePage(
    "goals",
    () => import("./features/goals/class-page"),
    "ClassPage",
    ["home"],
  ),
  "/app/emporium": featurePage("rewards", () => import("./features/rewards/emporium-page"), "EmporiumPage"),
  "/app/parent-emporium": featurePage(
    "rewards",
    () => import("./features/rewards/parent-emporium-page"),
    "ParentEmporiumPage",
  ),
  "/app/my-children": featurePage(
    "families",
    () => import("./features/families/my-children-page"),
    "MyChildrenPage",
    ["home", "integrity"],
  ),
  "/app/children-progress": featurePage(
    "families",
    () => import("./features/families/children-progress-page"),
    "ChildrenProgressPage",
    ["home", "assessment", "rewards"],
  ),
  "/app/child/$childId/": featurePage(
    "families",
    () => import("./features/families/child-hub-page"),
    "ChildHubPage",
    ["home", "integrity", "rewards"],
  ),
  "/app/child/$childId/payout": featurePage(
    "rewards",
    () => import("./features/rewards/payout-page"),
    "PayoutPage",
  ),
  "/app/teacher/emporium": featurePage(
    "rewards",
    () => import("./features/rewards/teacher-emporium-page"),
    "TeacherEmporiumPage",
  ),
  "/app/teacher/rewards-management": featurePage(
    "rewards",
    () => import("./features/rewards/teacher-rewards-page"),
    "TeacherRewardsPage",
  ),
  "/app/webhook-monitor": featurePage(
    "webhooks",
    () => import("./features/webhooks/webhook-monitor-page"),
    "WebhookMonitorPage",
  ),
  "/app/emporium-monitor": featurePage(
    "rewards",
    () => import("./features/rewards/emporium-monitor-page"),
    "EmporiumMonitorPage",
  ),
  "/app/admin/rewards-management": featurePage(
    "rewards",
    () => import("./features/rewards/admin-rewards-page"),
    "AdminRewardsPage",
  ),
  "/app/admin/transactions": featurePage(
    "rewards",
    () => import("./features/rewards/transactions-page"),
    "TransactionsPage",
  ),
  "/app/admin/test-bounty-payout": featurePage(
    "rewards",
    () => import("./features/rewards/bounty-page"),
    "BountyPage",
  ),
  "/app/debug/time-hand-test": featurePage(
    "clock",
    () => import("./features/clock/time-check-page"),
    "TimeCheckPage",
    ["home", "xp"],
  ),
  "/protected": featurePage("auth", () => import("./features/auth/protected-page"), "ProtectedPage"),
  "/app/debug/rewards": featurePage(
    "rewards",
    () => import("./features/rewards/debug-rewards-page"),
    "DebugRewardsPage",
  ),
  "/app/debug/rewards-api": featurePage(
    "rewards",
    () => import("./features/rewards/debug-rewards-api-page"),
    "DebugRewardsApiPage",
  ),
  "/app/placements": featurePage(
    "assessment",
    () => import("./features/assessment/placements-page"),
    "PlacementsPage",
    ["home", "xp"],
  ),
  "/app/teacher/placements": featurePage(
    "assessment",
    () => import("./features/assessment/placements-teacher-page"),
    "TeacherPlacementsPage",
    ["home"],
  ),
  "/app/admin/placements": featurePage(
    "assessment",
    () => import("./features/assessment/placements-admin-page"),
    "AdminPlacementsPage",
    ["home"],
  ),
  "/app/student-placement-report": featurePage(
    "assessment",
    () => import("./features/assessment/placements-report-page"),
    "PlacementReportPage",
    ["home"],
  ),
  "/app/admin/screening": featurePage(
    "assessment",
    () => import("./features/assessment/screening-page"),
    "ScreeningPage",
    ["home", "xp"],
  ),
  "/app/admin/subject-tracks": featurePage(
    "assessment",
    () => import("./features/assessment/subject-tracks-page"),
    "SubjectTracksPage",
    ["home"],
  ),
  "/app/map-growth": featurePage(
    "assessment",
    () => import("./features/assessment/map-growth-pages"),
    "MapGrowthPage",
  ),
  "/app/parent-map-growth": featurePage(
    "assessment",
    () => import("./features/assessment/map-growth-pages"),
    "ParentMapGrowthPage",
    ["rewards"],
  ),
  "/app/guide/map-growth": featurePage(
    "assessment",
    () => import("./features/assessment/map-growth-pages"),
    "GuideMapGrowthPage",
  ),
  "/app/guide/map-growth/$studentId": featurePage(
    "assessment",
    () => import("./features/assessment/map-growth-pages"),
    "GuideStudentMapPage",
  ),
  "/app/map-growth-report": featurePage(
    "assessment",
    () => import("./features/assessment/map-report-pages"),
    "MapGrowthReportPage",
  ),
  "/app/map_actuals_report": featurePage(
    "assessment",
    () => import("./features/assessment/map-report-pages"),
    "MapActualsReportPage",
  ),
  "/app/admin/map-growth": featurePage(
    "assessment",
    () => import("./features/assessment/map-admin-page"),
    "MapAdminPage",
    ["xp"],
  ),
  "/app/messages": featurePage("messaging", () => import("./features/messaging/inbox-page"), "MessagesPage", [
    "content",
  ]),
  "/app/admin/chat": featurePage("messaging", () => import("./features/messaging/inbox-page"), "ChatPage", [
    "content",
  ]),
  "/app/admin/messaging": featurePage(
    "messaging",
    () => import("./features/messaging/admin-messaging-page"),
    "AdminMessagingPage",
    ["content", "notifications"],
  ),
  "/app/map-profile": featurePage(
    "assessment",
    () => import("./features/assessment/map-profile-page"),
    "MapProfilePage",
    ["xp"],
  ),
};

/** Prefetches a page's data from its search and params; the page then reads it from the query cache. */
export type PageLoader = (input: {
  queryClient: QueryClient;
  /** The caller, on a signed-in page. */
  auth?: AuthState;
  search: Record<string, unknown>;
  params: Record<string, string>;
}) => Promise<unknown>;

export const pageLoaders: Partial<Record<RoutePath, PageLoader>> = {
  "/app/": async ({ queryClient, auth }) =>
    auth && (await import("./features/home/api")).prefetchHome(queryClient, auth),
  "/app/admin/manage-courses/": async (input) =>
    (await import("./features/courses/api")).prefetchManagedCourses(input.queryClient, input.search),
  "/course-builder/$courseId": async ({ queryClient, params }) =>
    (await import("./features/content/syllabus-api")).prefetchSyllabus(queryClient, params.courseId ?? ""),
  "/qti-embed/$qtiId": async ({ queryClient, params }) =>
    (await import("./features/content/qti-api")).prefetchQtiItem(queryClient, params.qtiId ?? ""),
  "/qti-stimulus-embed/$qtiId": async ({ queryClient, params }) =>
    (await import("./features/content/qti-api")).prefetchQtiStimulus(queryClient, params.qtiId ?? ""),
};
