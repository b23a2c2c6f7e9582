import { z } from "zod";
import { reportSearchSchema } from "./contracts/reports";
import { WEBHOOK_DELIVERY_STATES, WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT } from "./contracts/webhooks";
import { DASH_ROLES, type DashRole } from "./roles";
import {
  flag,
  idList,
  integerAtLeast,
  integerOr,
  isoDate,
  oneOf,
  oneOfOr,
  onlyTrue,
  text,
  textOr,
  timeOfDay,
} from "./search";
import {
  COURSE_SORTS,
  DEFAULT_PAGE_SIZE,
  ENROLLMENT_ROLES,
  ENROLLMENT_SORTS,
  GROWTH_WINDOWS,
  LEDGER_KINDS,
  MAX_PAGE_SIZE,
  ROSTER_STATUSES,
} from "./value-lists";

/**
 * Every page of Dash, declared once: its path, who may open it, where others are sent, and the
 * schema of its search parameters. The router is built from this table, the sidebar reads it,
 * and a test walks it for every role.
 */

type Access = "public" | "signed-in" | readonly DashRole[];

export interface PageRoute {
  path: string;
  title: string;
  /** One sentence on what the page holds. */
  summary: string;
  access: Access;
  /** Where a signed-in user without access goes (default /app). */
  deniedTo?: string;
  /** Every visit goes here instead. */
  alwaysRedirectTo?: string;
  /** Only for users whose primary organisation is the class-leaderboard organisation. */
  isClassLeaderboard?: true;
  search?: z.ZodType<Record<string, unknown>>;
  /** Shown in the sidebar under this group, to roles that may open it. */
  nav?: NavGroup;
  /** Shown in the sidebar only to these of them (a student's own report; others open it from their pages). */
  navRoles?: readonly DashRole[];
}

export const NAV_GROUPS = [
  "Home",
  "Learning",
  "Rewards",
  "Assessment",
  "Family",
  "Classroom",
  "Reports",
  "Administration",
] as const;
export type NavGroup = (typeof NAV_GROUPS)[number];

const ALL_FIVE: readonly DashRole[] = ["student", "teacher", "parent", "guardian", "administrator"];
const STAFF: readonly DashRole[] = ["administrator", "teacher"];
const ADMIN: readonly DashRole[] = ["administrator"];
const FAMILY: readonly DashRole[] = ["parent", "guardian"];
const LEARNING: readonly DashRole[] = ["student", "teacher", "administrator"];
const REVIEWERS: readonly DashRole[] = ["administrator", "teacher", "proctor"];
/** A student's own learning, and whoever may see it: their family, their Guides, administrators. */
const LEARNERS: readonly DashRole[] = ["student", "parent", "guardian", "teacher", "administrator"];

const dateRange = () => ({ startDate: isoDate(), endDate: isoDate() });
const listPaging = <const Sorts extends readonly [string, ...string[]]>(
  sorts: Sorts,
  sort: Sorts[number],
  orderBy: "asc" | "desc",
) => ({
  search: textOr(""),
  page: integerOr(0, 0),
  perPage: integerOr(1, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
  sort: oneOfOr(sorts, sort),
  orderBy: oneOfOr(["asc", "desc"], orderBy),
});

/**
 * A page's search schema is built the first time the page is opened: building every one when the
 * app starts cost the first paint about 40 ms.
 */
function builtOnFirstUse<Builders extends Record<string, () => z.ZodType>>(builders: Builders) {
  return Object.fromEntries(Object.entries(builders).map(([name, build]) => [name, z.lazy(build)])) as {
    [Name in keyof Builders]: z.ZodLazy<ReturnType<Builders[Name]>>;
  };
}

export const searchSchemas = builtOnFirstUse({
  login: () =>
    z.object({
      error_description: text(),
      error: text(),
      schoolId: text(),
      role: oneOf(["student", "teacher", "administrator"]),
      redirect: text(),
    }),
  resetPassword: () => z.object({ token: text() }),
  appLayout: () => z.object({ schoolId: text() }),
  home: () =>
    z.object({
      courseId: text(),
      schoolId: text(),
      role: oneOf(["student", "teacher", "administrator"]),
    }),
  /** Every report's filters (see the reports contract). */
  report: () => reportSearchSchema,
  learningMetrics: () =>
    z.object({
      view: oneOf(["daily", "weekly", "monthly"]),
      ...dateRange(),
      studentId: text(),
      studentIds: idList(),
      allStudents: z
        .preprocess((value) => String(value), z.literal("1"))
        .optional()
        .catch(undefined),
      classId: text(),
      groupByApp: flag(),
      showDailyGoal: flag(),
      showAllMetrics: onlyTrue(),
    }),
  leaderboards: () =>
    z.object({
      scope: oneOf(["global", "class", "school", "league"]),
      tf: oneOf(["today", "week", "month", "all", "streak", "custom"]),
      cls: text(),
      school: text(),
      src: text(),
      subj: text(),
      g: text(),
      p: integerAtLeast(1),
      child: text(),
      ...dateRange(),
    }),
  adminLeaderboards: () =>
    z.object({
      scope: oneOf(["global", "school"]),
      tf: oneOf(["today", "week", "month", "all", "streak", "custom"]),
      school: text(),
      teacher: text(),
      cls: text(),
      src: text(),
      subj: text(),
      g: text(),
      ...dateRange(),
    }),
  adminRoles: () => z.object({ tab: oneOfOr(["users", "relationships"], "users") }),
  adminCredentials: () => z.object({ tab: oneOfOr(["oneroster", "apps", "logins"], "oneroster") }),
  manageCourses: () => z.object(listPaging(COURSE_SORTS, "title", "asc")),
  manageEnrollments: () =>
    z.object({
      ...listPaging(ENROLLMENT_SORTS, "beginDate", "desc"),
      // The default filter: active students.
      role: oneOfOr([...ENROLLMENT_ROLES, "all"], "student"),
      status: oneOfOr([...ROSTER_STATUSES, "all"], "active"),
      courseId: text(),
      classId: text(),
    }),
  orgExplorer: () => z.object({ tab: oneOfOr(["overview", "classes", "people"], "overview") }),
  childrenProgress: () => z.object({ childId: text() }),
  /** The conversation open in an inbox. */
  messages: () => z.object({ conversation: text() }),
  /** A week of a child's pulse (its Sunday), or the latest. */
  childPulse: () => z.object({ week: isoDate() }),
  oneStudent: () => z.object({ studentId: text() }),
  goals: () => z.object({ studentId: text(), classId: text() }),
  placements: () => z.object({ studentId: text() }),
  transactions: () =>
    z.object({
      studentId: text(),
      kind: oneOf(LEDGER_KINDS),
      from: isoDate(),
      to: isoDate(),
      page: integerOr(0, 0),
    }),
  checkChart: () =>
    z.object({
      view: oneOf(["dashboard", "create", "edit", "progress"]),
      chartId: text(),
      studentId: text(),
      classId: text(),
    }),
  mapStudents: () =>
    z.object({
      classId: text(),
      subject: text(),
      search: textOr(""),
      belowProjection: onlyTrue(),
      page: integerOr(0, 0),
    }),
  mapReport: () =>
    z.object({
      schoolYear: integerAtLeast(1990),
      window: oneOf(GROWTH_WINDOWS),
      schoolId: text(),
      classId: text(),
    }),
  mapActuals: () =>
    z.object({
      schoolYear: integerAtLeast(1990),
      schoolId: text(),
      classId: text(),
      subject: text(),
      search: textOr(""),
      page: integerOr(0, 0),
    }),
  mapAdmin: () => z.object({ tab: oneOfOr(["import", "unmatched", "terms"], "import") }),
  courseProgress: () =>
    z.object({ courseId: text(), classId: text(), view: oneOfOr(["classes", "units"], "classes") }),
  oneDate: () => z.object({ date: isoDate() }),
  /** The analytics report's days (yyyy-MM-dd; the last four weeks when absent), school and role. */
  adminAnalytics: () =>
    z.object({ from: isoDate(), to: isoDate(), schoolId: text(), role: oneOf(DASH_ROLES) }),
  flowDay: () => z.object({ date: isoDate(), classId: text() }),
  flowStudent: () => z.object({ date: isoDate(), time: timeOfDay() }),
  webhookMonitor: () =>
    z.object({
      tab: oneOfOr(["deliveries", "subscriptions", "ingestion"], "deliveries"),
      subscriptionId: text(),
      event: oneOf([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT]),
      state: oneOf(WEBHOOK_DELIVERY_STATES),
      appId: text(),
      from: isoDate(),
      to: isoDate(),
      page: integerOr(1, 1),
    }),
});

export const routes = [
  // Public and top level
  {
    path: "/login",
    title: "Sign in",
    summary: "Sign in to Dash.",
    access: "public",
    search: searchSchemas.login,
  },
  {
    path: "/reset-password",
    title: "Choose a password",
    summary: "Choose a new password with a one-time link from an administrator.",
    access: "public",
    search: searchSchemas.resetPassword,
  },
  {
    path: "/protected",
    title: "Protected",
    summary: "A page that only confirms you are signed in.",
    access: "signed-in",
  },
  {
    path: "/qti-embed",
    title: "Question",
    summary: "A stand-alone QTI question for embedding in other tools.",
    access: "public",
  },
  {
    path: "/qti-embed/$qtiId",
    title: "Question",
    summary: "A stand-alone QTI question for embedding in other tools.",
    access: "public",
  },
  {
    path: "/qti-stimulus-embed",
    title: "Passage",
    summary: "A stand-alone QTI passage for embedding in other tools.",
    access: "public",
  },
  {
    path: "/qti-stimulus-embed/$qtiId",
    title: "Passage",
    summary: "A stand-alone QTI passage for embedding in other tools.",
    access: "public",
  },
  {
    path: "/admin/check-chart-legacy-review",
    title: "Check chart legacy review",
    summary: "Map the checks of old check charts to current placements.",
    access: ADMIN,
  },
  {
    path: "/admin/surveys/test-components",
    title: "Survey components",
    summary: "Try out every kind of survey question.",
    access: ADMIN,
  },
  {
    path: "/course-builder/$courseId",
    title: "Course builder",
    summary: "Build a course's syllabus: units, lessons and their resources.",
    access: STAFF,
  },

  // The signed-in area
  {
    path: "/app/",
    title: "Home",
    summary: "Your day at a glance.",
    access: "signed-in",
    search: searchSchemas.home,
    nav: "Home",
  },
  {
    path: "/app/xp-stats",
    title: "XP stats",
    summary: "XP earned per day, subject and app.",
    access: ALL_FIVE,
    nav: "Learning",
  },
  {
    path: "/app/xp-debug",
    title: "XP debug",
    summary: "The raw events of a day and how each XP figure was computed.",
    access: STAFF,
    search: searchSchemas.oneDate,
  },
  {
    path: "/app/week-report",
    title: "Week report",
    summary: "The school's learning week in numbers.",
    access: ADMIN,
    search: searchSchemas.report,
    nav: "Reports",
  },
  {
    path: "/app/month-report",
    title: "Month report",
    summary: "The school's learning month in numbers.",
    access: ADMIN,
    search: searchSchemas.report,
    nav: "Reports",
  },
  {
    path: "/app/session-report",
    title: "Session report",
    summary: "Learning sessions across the school.",
    access: ADMIN,
    search: searchSchemas.report,
    nav: "Reports",
  },
  {
    path: "/app/webhook-monitor",
    title: "Webhook monitor",
    summary: "Deliveries of events to and from connected systems.",
    access: STAFF,
    search: searchSchemas.webhookMonitor,
  },
  {
    path: "/app/timeback",
    title: "Timeback",
    summary: "Time on task against the time saved, per day and week.",
    access: ALL_FIVE,
    nav: "Learning",
  },
  {
    path: "/app/surveys",
    title: "Surveys",
    summary: "Pulse surveys waiting for your answers.",
    access: "signed-in",
    nav: "Home",
  },
  {
    path: "/app/student-xp-report",
    title: "Student XP report",
    summary: "XP per student over a period.",
    access: ADMIN,
    search: searchSchemas.report,
    nav: "Reports",
  },
  {
    path: "/app/student-resources",
    title: "Student resources",
    summary: "Learning resources for students.",
    access: LEARNING,
  },
  {
    path: "/app/student-resources/$studentId",
    title: "Student resources",
    summary: "The learning resources of one student.",
    access: [...STAFF, ...FAMILY],
  },
  {
    path: "/app/student-placement-report",
    title: "Student placement report",
    summary: "Placements of every student by subject.",
    access: ADMIN,
    nav: "Reports",
  },
  {
    path: "/app/preferences",
    title: "Preferences",
    summary: "Your notification and display preferences.",
    access: ["parent", "guardian", "teacher", "administrator"],
  },
  {
    path: "/app/placements",
    title: "Placements",
    summary: "Starting and current grade levels per subject, and the next test to take.",
    access: LEARNING,
    search: searchSchemas.placements,
    nav: "Assessment",
  },
  {
    path: "/app/parent-map-growth",
    title: "MAP Growth",
    summary: "Your children's MAP Growth results.",
    search: searchSchemas.childrenProgress,
    access: FAMILY,
    nav: "Family",
  },
  {
    path: "/app/parent-emporium",
    title: "Emporium approvals",
    summary: "Reward requests from your children waiting for approval.",
    access: FAMILY,
    search: searchSchemas.childrenProgress,
    nav: "Family",
  },
  {
    path: "/app/overall_students_subject_report",
    title: "Subject report",
    summary: "All students' progress by subject.",
    access: ADMIN,
    search: searchSchemas.report,
    nav: "Reports",
  },
  {
    path: "/app/my-learning-report",
    title: "My learning report",
    summary: "Your learning over time: XP, mastery and goals.",
    access: LEARNERS,
    search: searchSchemas.report,
    nav: "Learning",
    navRoles: ["student"],
  },
  {
    path: "/app/my-learning-report-2",
    title: "My learning report",
    summary: "Your learning over time, by subject and app.",
    access: LEARNERS,
    search: searchSchemas.report,
  },
  {
    path: "/app/my-children",
    title: "My children",
    summary: "Each of your children and how their week is going.",
    access: FAMILY,
    nav: "Family",
  },
  {
    path: "/app/map_actuals_report",
    title: "MAP actuals report",
    summary: "MAP results against projections across the school.",
    search: searchSchemas.mapActuals,
    access: ADMIN,
    nav: "Reports",
  },
  {
    path: "/app/map-profile",
    title: "MAP profile",
    summary: "A student's MAP profile across terms and subjects.",
    search: searchSchemas.oneStudent,
    access: ADMIN,
  },
  {
    path: "/app/map-growth-report",
    title: "MAP Growth report",
    summary: "Growth against projected growth across the school.",
    search: searchSchemas.mapReport,
    access: ADMIN,
    nav: "Reports",
  },
  {
    path: "/app/map-growth",
    title: "MAP Growth",
    summary: "Your MAP Growth results by term and subject.",
    access: ["student"],
    nav: "Assessment",
  },
  {
    path: "/app/learning-metrics",
    title: "Learning metrics",
    summary: "XP, time, accuracy and mastery by day, week or month.",
    access: ALL_FIVE,
    search: searchSchemas.learningMetrics,
    nav: "Learning",
  },
  {
    path: "/app/leaderboards",
    title: "Leaderboards",
    summary: "XP rankings by class, school and league.",
    access: ["student", "teacher", "parent", "guardian"],
    search: searchSchemas.leaderboards,
    nav: "Learning",
  },
  {
    path: "/app/goals",
    title: "Goals",
    summary: "Daily and weekly goals per subject.",
    access: ["student", "administrator", "teacher"],
    search: searchSchemas.goals,
    nav: "Learning",
  },
  {
    path: "/app/emporium",
    title: "Emporium",
    summary: "The Alphas store: rewards to save up for.",
    access: ["student", "administrator", "teacher"],
    nav: "Rewards",
  },
  {
    path: "/app/emporium-monitor",
    title: "Emporium monitor",
    summary: "Every store request and where it stands.",
    access: STAFF,
    nav: "Rewards",
  },
  {
    path: "/app/dashboard-locked",
    title: "Dashboard locked",
    summary: "Your dashboard is locked; a Guide can unlock it.",
    access: ["student"],
  },
  {
    path: "/app/daily-metrics",
    title: "Daily metrics",
    summary: "The school's learning day in numbers.",
    access: ADMIN,
    search: searchSchemas.report,
    nav: "Reports",
  },
  {
    path: "/app/class-leaderboard",
    title: "Class leaderboard",
    summary: "XP rankings within your class.",
    access: ["student", "teacher"],
    isClassLeaderboard: true,
    nav: "Learning",
  },
  {
    path: "/app/children-progress",
    title: "Children's progress",
    summary: "Progress of each child by subject.",
    access: FAMILY,
    search: searchSchemas.childrenProgress,
    nav: "Family",
  },
  {
    path: "/app/check-chart",
    title: "Check chart",
    summary: "Checks by level, ticked off as they are mastered.",
    access: LEARNING,
    search: searchSchemas.checkChart,
    nav: "Assessment",
  },
  {
    path: "/app/athletics",
    title: "Athletics",
    summary: "Sports and fitness activities.",
    access: ALL_FIVE,
    // Families choose which child's log to read.
    search: searchSchemas.childrenProgress,
  },
  {
    path: "/app/app-store",
    title: "App store",
    summary: "Learning apps.",
    access: "signed-in",
    alwaysRedirectTo: "/app",
  },
  {
    path: "/app/flow/",
    title: "Flow",
    summary: "The class's learning day, hour by hour.",
    access: ALL_FIVE,
    search: searchSchemas.flowDay,
    nav: "Classroom",
  },
  {
    path: "/app/flow/student/$studentId",
    title: "Student flow",
    summary: "A timeline of one student's day.",
    access: ALL_FIVE,
    search: searchSchemas.flowStudent,
  },
  {
    path: "/app/flow/student/$studentId/chunks",
    title: "Activity chunks",
    summary: "One student's day in activity chunks.",
    access: ALL_FIVE,
    search: searchSchemas.oneDate,
  },
  {
    path: "/app/flow/cheating/pending",
    title: "Pending incidents",
    summary: "Focus incidents waiting for review, with their evidence.",
    access: REVIEWERS,
    nav: "Classroom",
  },
  {
    path: "/app/flow/cheating/resolved",
    title: "Resolved incidents",
    summary: "Focus incidents already confirmed or dismissed.",
    access: REVIEWERS,
    nav: "Classroom",
  },
  {
    path: "/app/courses/",
    title: "Courses",
    summary: "Courses and their classes.",
    access: ["administrator", "teacher", "parent", "guardian", "proctor"],
    nav: "Classroom",
  },
  {
    path: "/app/courses/$courseId/enrollments",
    title: "Course enrollments",
    summary: "Who is enrolled in a course's classes.",
    access: STAFF,
  },
  {
    path: "/app/course/$courseId",
    title: "Course",
    summary: "A course's units and lessons.",
    access: LEARNING,
  },
  {
    path: "/app/lesson/$lessonId",
    title: "Lesson",
    summary: "A lesson and its resources.",
    access: LEARNING,
  },
  { path: "/app/survey/$surveyId", title: "Survey", summary: "Answer a pulse survey.", access: "signed-in" },
  {
    path: "/app/messages",
    title: "Messages",
    summary: "Your conversations with families, Guides and the school.",
    access: ALL_FIVE,
    search: searchSchemas.messages,
  },
  {
    path: "/app/notifications",
    title: "Notifications",
    summary: "Everything Dash has told you about, newest first.",
    access: "signed-in",
  },
  {
    path: "/app/guide/required-learning",
    title: "Required learning",
    summary: "Lessons and courses assigned to students and classes, with due dates.",
    access: STAFF,
    nav: "Classroom",
  },
  {
    path: "/app/guide/map-growth",
    title: "Class MAP Growth",
    summary: "Your students' MAP Growth results.",
    search: searchSchemas.mapStudents,
    access: STAFF,
    nav: "Assessment",
  },
  {
    path: "/app/guide/map-growth/$studentId",
    title: "Student MAP Growth",
    summary: "One student's MAP Growth results.",
    access: STAFF,
  },
  {
    path: "/app/xp/manual",
    title: "Manual XP",
    summary: "Award or deduct XP for a student, with a reason.",
    access: STAFF,
    deniedTo: "/app/xp-stats",
    nav: "Learning",
  },
  {
    path: "/app/child/$childId/",
    title: "Child",
    summary: "One child's learning at a glance.",
    access: FAMILY,
    search: searchSchemas.childPulse,
  },
  {
    path: "/app/child/$childId/payout",
    title: "Child payout",
    summary: "Turn some of a child's Alphas into a real-world reward.",
    access: FAMILY,
  },
  {
    path: "/app/teacher/rewards-management",
    title: "Award Alphas",
    summary: "Award Alphas to your students.",
    access: STAFF,
    search: searchSchemas.oneStudent,
    nav: "Rewards",
  },
  {
    path: "/app/teacher/placements",
    title: "Class placements",
    summary: "Your students' placements by subject.",
    access: STAFF,
    nav: "Assessment",
  },
  {
    path: "/app/teacher/emporium",
    title: "Class emporium",
    summary: "Your students' store requests to fulfil.",
    access: STAFF,
    nav: "Rewards",
  },
  {
    path: "/app/teacher/class/$classId",
    title: "Class",
    summary: "One class: its students and their day.",
    access: STAFF,
  },
  {
    path: "/app/debug/xp",
    title: "XP debugger",
    summary: "Recompute and inspect XP for any student and day.",
    access: ADMIN,
  },
  {
    path: "/app/debug/time-hand-test",
    title: "Time hand test",
    summary: "Try time-on-task reporting by hand.",
    access: ["administrator", "student", "teacher"],
  },
  {
    path: "/app/debug/rewards-api",
    title: "Rewards API debugger",
    summary: "Call the rewards API by hand.",
    access: ADMIN,
  },
  {
    path: "/app/debug/rewards",
    title: "Rewards debugger",
    summary: "Inspect Alphas balances and ledgers.",
    access: ADMIN,
    search: searchSchemas.oneStudent,
  },

  // Administration
  {
    path: "/app/admin/transactions",
    title: "Transactions",
    summary: "Every Alphas movement, with actor and reason.",
    access: ADMIN,
    search: searchSchemas.transactions,
    nav: "Administration",
  },
  {
    path: "/app/admin/test-bounty-payout",
    title: "Test bounty payout",
    summary: "Run the earning rules for a period: see who would get what, then pay.",
    access: ADMIN,
  },
  {
    path: "/app/admin/surveys",
    title: "Survey builder",
    summary: "Create and schedule pulse surveys.",
    access: STAFF,
    nav: "Administration",
  },
  {
    path: "/app/admin/survey-responses/$surveyId",
    title: "Survey responses",
    summary: "The answers to one survey.",
    access: STAFF,
  },
  {
    path: "/app/admin/subject-tracks",
    title: "Subject tracks",
    summary: "The ordered courses of each subject and grade.",
    access: ADMIN,
    nav: "Administration",
  },
  {
    path: "/app/admin/roles",
    title: "Roles",
    summary: "People's roles, and links between parents or guardians and students.",
    access: ADMIN,
    search: searchSchemas.adminRoles,
    nav: "Administration",
  },
  {
    path: "/app/admin/roster-sync",
    title: "Roster import and export",
    summary: "Import a OneRoster CSV set from the student information system, or download the roster.",
    access: ADMIN,
    nav: "Administration",
  },
  {
    path: "/app/admin/privacy",
    title: "Privacy",
    summary: "Download or anonymise a student's data, how long data is kept, and who reached sensitive data.",
    access: ADMIN,
    nav: "Administration",
  },
  {
    path: "/app/admin/analytics",
    title: "Analytics",
    summary: "How Dash is used and where it breaks: active people by role and school, top pages, errors.",
    access: ADMIN,
    search: searchSchemas.adminAnalytics,
    nav: "Administration",
  },
  {
    path: "/app/admin/api-docs",
    title: "API reference",
    summary:
      "The API other systems call: ingestion, incidents, webhooks and their events, rewards, leaderboards and OAuth.",
    access: ADMIN,
    nav: "Administration",
  },
  {
    path: "/app/admin/operations",
    title: "Operations",
    summary: "The background jobs: when each last ran, how it went, when it runs next; run one now.",
    access: ADMIN,
    nav: "Administration",
  },
  {
    path: "/app/admin/rewards-management",
    title: "Rewards management",
    summary: "The store's items, prices and earning rules.",
    access: ADMIN,
    nav: "Administration",
  },
  {
    path: "/app/admin/organizations/",
    title: "Organizations",
    summary: "The district, its schools and their details.",
    access: STAFF,
    nav: "Administration",
  },
  {
    path: "/app/admin/organizations/$orgId/hierarchy",
    title: "Organization hierarchy",
    summary: "An organization and everything under it, as a tree.",
    access: STAFF,
  },
  {
    path: "/app/admin/org-explorer/$orgId",
    title: "Org explorer",
    summary: "An organization's schools, classes, people and numbers.",
    access: STAFF,
    search: searchSchemas.orgExplorer,
  },
  {
    path: "/app/admin/onboarding",
    title: "Onboarding",
    summary: "Add a new student with their family, school, grade and classes.",
    access: STAFF,
    nav: "Administration",
  },
  {
    path: "/app/admin/messaging",
    title: "Messaging",
    summary: "Messages to families and staff.",
    access: ADMIN,
    nav: "Administration",
  },
  {
    path: "/app/admin/map-growth",
    title: "MAP Growth results",
    summary: "Import and review MAP Growth results.",
    search: searchSchemas.mapAdmin,
    access: ADMIN,
    nav: "Assessment",
  },
  { path: "/app/admin/lesson", title: "Lessons", summary: "Create and edit lessons.", access: ADMIN },
  {
    path: "/app/admin/leaderboards",
    title: "District leaderboards",
    summary: "XP rankings across the district.",
    access: ADMIN,
    search: searchSchemas.adminLeaderboards,
    nav: "Reports",
  },
  {
    path: "/app/admin/credentials",
    title: "Credentials",
    summary: "API keys of learning apps and OneRoster clients.",
    access: ADMIN,
    search: searchSchemas.adminCredentials,
    nav: "Administration",
  },
  {
    path: "/app/admin/chat",
    title: "Chat",
    summary: "Conversations with families and staff.",
    access: ADMIN,
    search: searchSchemas.messages,
  },
  {
    path: "/app/admin/check-chart-test",
    title: "Check chart test",
    summary: "Try check chart rendering.",
    access: ADMIN,
  },
  {
    path: "/app/admin/check-chart-simple-test",
    title: "Simple check chart test",
    summary: "Try the simple check chart rendering.",
    access: ADMIN,
  },
  {
    path: "/app/admin/courses",
    title: "Courses",
    summary: "Courses.",
    access: ADMIN,
    alwaysRedirectTo: "/app/admin/manage-courses",
  },
  {
    path: "/app/admin/manage-courses/",
    title: "Manage courses",
    summary: "Every course, searchable and sortable.",
    access: ADMIN,
    search: searchSchemas.manageCourses,
    nav: "Administration",
  },
  {
    path: "/app/admin/manage-courses/$sourcedId",
    title: "Course",
    summary: "A course with its classes, components and enrollments.",
    access: ADMIN,
  },
  {
    path: "/app/admin/admin-section/manage-courses/create",
    title: "New course",
    summary: "Create a course.",
    access: ADMIN,
  },
  {
    path: "/app/admin/admin-section/manage-enrollments",
    title: "Manage enrollments",
    summary: "Enrollments: add people to classes or end their enrollment.",
    access: ADMIN,
    search: searchSchemas.manageEnrollments,
    nav: "Administration",
  },
  {
    path: "/app/admin/course-progress",
    title: "Course progress",
    summary: "Students' progress through their courses.",
    access: ADMIN,
    search: searchSchemas.courseProgress,
    nav: "Reports",
  },
  {
    path: "/app/admin/placements",
    title: "Placement tests",
    summary: "Placements of every student, and placement tests.",
    access: ADMIN,
    nav: "Assessment",
  },
  {
    path: "/app/admin/screening",
    title: "Screening",
    summary: "Screening test results for admissions.",
    access: ADMIN,
    nav: "Assessment",
  },
] as const satisfies readonly PageRoute[];

export type RoutePath = (typeof routes)[number]["path"];

export interface AccessSubject {
  activeRole: DashRole | null;
  primaryOrgId: string | null;
  classLeaderboardOrgId: string | null;
}

export type AccessDecision = { allowed: true } | { allowed: false; redirectTo: string };

/** Whether a signed-in user in their active role may open a page, or where they go instead. */
export function decideAccess(route: PageRoute, subject: AccessSubject): AccessDecision {
  if (route.alwaysRedirectTo) return { allowed: false, redirectTo: route.alwaysRedirectTo };
  const denied = { allowed: false, redirectTo: route.deniedTo ?? "/app" } as const;
  if (route.access === "public" || route.access === "signed-in") return { allowed: true };
  if (!subject.activeRole || !route.access.includes(subject.activeRole)) return denied;
  if (
    route.isClassLeaderboard &&
    (!subject.primaryOrgId || subject.primaryOrgId !== subject.classLeaderboardOrgId)
  ) {
    return denied;
  }
  return { allowed: true };
}

/** The sidebar's pages of a group for a user in their active role, in the table's order. */
export function sidebarRoutes(group: NavGroup, subject: AccessSubject): PageRoute[] {
  return (routes as readonly PageRoute[]).filter(
    (route) =>
      route.nav === group &&
      decideAccess(route, subject).allowed &&
      (!route.navRoles || (subject.activeRole !== null && route.navRoles.includes(subject.activeRole))),
  );
}

export function findRoute(path: string): PageRoute | undefined {
  return (routes as readonly PageRoute[]).find((route) => route.path === path);
}
