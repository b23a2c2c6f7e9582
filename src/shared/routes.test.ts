import { describe, expect, it } from "vitest";
import { availableRoles, DASH_ROLES, type DashRole, resolveActiveRole } from "./roles";
import { decideAccess, findRoute, type PageRoute, routes } from "./routes";

/**
 * Walks every route for every role. The expectations below restate the specification's guards
 * (section 6) independently of the route table, so a change to either shows up here.
 */
const ALL_FIVE: DashRole[] = ["student", "teacher", "parent", "guardian", "administrator"];
const STAFF: DashRole[] = ["administrator", "teacher"];
const ADMIN: DashRole[] = ["administrator"];
const FAMILY: DashRole[] = ["parent", "guardian"];
const EVERYONE: DashRole[] = [...DASH_ROLES];

const SPEC_GUARDS: Record<string, DashRole[]> = {
  "/app/timeback": ALL_FIVE,
  "/app/learning-metrics": ALL_FIVE,
  "/app/flow/": ALL_FIVE,
  "/app/leaderboards": ["student", "teacher", "parent", "guardian"],
  "/app/goals": ["student", "administrator", "teacher"],
  "/app/emporium": ["student", "administrator", "teacher"],
  "/app/children-progress": FAMILY,
  "/app/parent-map-growth": FAMILY,
  "/app/parent-emporium": FAMILY,
  "/app/child/$childId/": FAMILY,
  "/app/xp-debug": STAFF,
  "/app/webhook-monitor": STAFF,
  "/app/emporium-monitor": STAFF,
  "/app/preferences": ["parent", "guardian", "teacher", "administrator"],
  "/app/map-profile": ADMIN,
  "/app/daily-metrics": ADMIN,
  "/app/week-report": ADMIN,
  "/app/month-report": ADMIN,
  "/app/session-report": ADMIN,
  "/app/student-xp-report": ADMIN,
  "/app/debug/xp": ADMIN,
  "/app/debug/rewards-api": ADMIN,
  "/app/debug/rewards": ADMIN,
  "/app/admin/transactions": ADMIN,
  "/app/admin/test-bounty-payout": ADMIN,
  "/app/admin/subject-tracks": ADMIN,
  "/app/admin/roles": ADMIN,
  "/app/admin/rewards-management": ADMIN,
  "/app/admin/messaging": ADMIN,
  "/app/admin/map-growth": ADMIN,
  "/app/admin/lesson": ADMIN,
  "/app/admin/leaderboards": ADMIN,
  "/app/admin/credentials": ADMIN,
  "/app/admin/chat": ADMIN,
  "/app/admin/manage-courses/": ADMIN,
  "/app/admin/manage-courses/$sourcedId": ADMIN,
  "/app/admin/admin-section/manage-courses/create": ADMIN,
  "/app/admin/admin-section/manage-enrollments": ADMIN,
  "/app/admin/surveys": STAFF,
  "/app/admin/organizations/": STAFF,
  "/app/admin/onboarding": STAFF,
  "/app/admin/org-explorer/$orgId": STAFF,
  "/app/admin/organizations/$orgId/hierarchy": STAFF,
  "/app/teacher/rewards-management": STAFF,
  "/app/teacher/placements": STAFF,
  "/app/teacher/emporium": STAFF,
  "/app/xp/manual": STAFF,
  "/app/debug/time-hand-test": ["administrator", "student", "teacher"],
  "/app/courses/": EVERYONE.filter((role) => role !== "student"),
  "/app/": EVERYONE,
};

const SCHOOL = "school-1";
const OTHER_SCHOOL = "school-2";

interface Scenario {
  name: string;
  own: DashRole[];
  impersonated?: DashRole[];
  saved?: string;
  primaryOrgId?: string;
  expectedRole: DashRole | null;
}

const scenarios: Scenario[] = [
  ...DASH_ROLES.map((role) => ({ name: `a ${role}`, own: [role], expectedRole: role })),
  {
    name: "a Guide and student acting as Guide (highest role)",
    own: ["student", "teacher"],
    expectedRole: "teacher",
  },
  {
    name: "a Guide and student acting as student",
    own: ["student", "teacher"],
    saved: "student",
    expectedRole: "student",
  },
  {
    name: "a student whose saved role is not theirs",
    own: ["student"],
    saved: "administrator",
    expectedRole: "student",
  },
  {
    name: "an administrator viewing as a student",
    own: ["administrator"],
    impersonated: ["student"],
    expectedRole: "student",
  },
  {
    name: "an administrator viewing as a parent",
    own: ["administrator"],
    impersonated: ["parent"],
    saved: "administrator",
    expectedRole: "parent",
  },
  {
    name: "a Guide viewing as a student",
    own: ["teacher"],
    impersonated: ["student"],
    expectedRole: "student",
  },
  {
    name: "an administrator viewing as another administrator (no administrator powers)",
    own: ["administrator"],
    impersonated: ["administrator", "teacher"],
    expectedRole: "teacher",
  },
];

describe.each(scenarios)("$name", (scenario) => {
  const available = availableRoles(scenario.own, scenario.impersonated ?? null);
  const activeRole = resolveActiveRole({ available, saved: scenario.saved });

  it("acts in the expected role", () => {
    expect(activeRole).toBe(scenario.expectedRole);
  });

  it.each((routes as readonly PageRoute[]).map((route) => [route.path, route] as const))(
    "%s",
    (_path, route) => {
      const decision = decideAccess(route, {
        activeRole,
        primaryOrgId: scenario.primaryOrgId ?? OTHER_SCHOOL,
        classLeaderboardOrgId: SCHOOL,
      });
      const specRoles = SPEC_GUARDS[route.path];
      if (route.alwaysRedirectTo) {
        expect(decision).toEqual({ allowed: false, redirectTo: route.alwaysRedirectTo });
      } else if (route.access === "public" || route.access === "signed-in") {
        expect(decision).toEqual({ allowed: true });
      } else if (specRoles) {
        const isAllowed = activeRole !== null && specRoles.includes(activeRole);
        const deniedTo = route.path === "/app/xp/manual" ? "/app/xp-stats" : "/app";
        expect(decision).toEqual(isAllowed ? { allowed: true } : { allowed: false, redirectTo: deniedTo });
      } else {
        // Routes the specification leaves open follow their table entry, and deny to /app.
        const isAllowed = activeRole !== null && (route.access as readonly DashRole[]).includes(activeRole);
        if (route.isClassLeaderboard) expect(decision).toEqual({ allowed: false, redirectTo: "/app" });
        else expect(decision).toEqual(isAllowed ? { allowed: true } : { allowed: false, redirectTo: "/app" });
      }
    },
  );
});

describe("special routes", () => {
  const subject = (activeRole: DashRole, primaryOrgId = SCHOOL) => ({
    activeRole,
    primaryOrgId,
    classLeaderboardOrgId: SCHOOL,
  });

  it("always sends app-store to /app and admin/courses to manage-courses", () => {
    expect(decideAccess(findRoute("/app/app-store") as PageRoute, subject("student"))).toEqual({
      allowed: false,
      redirectTo: "/app",
    });
    expect(decideAccess(findRoute("/app/admin/courses") as PageRoute, subject("administrator"))).toEqual({
      allowed: false,
      redirectTo: "/app/admin/manage-courses",
    });
  });

  it("opens the class leaderboard only to students and Guides of the configured organisation", () => {
    const route = findRoute("/app/class-leaderboard") as PageRoute;
    expect(decideAccess(route, subject("student"))).toEqual({ allowed: true });
    expect(decideAccess(route, subject("teacher"))).toEqual({ allowed: true });
    expect(decideAccess(route, subject("student", OTHER_SCHOOL))).toEqual({
      allowed: false,
      redirectTo: "/app",
    });
    expect(decideAccess(route, subject("administrator"))).toEqual({ allowed: false, redirectTo: "/app" });
    expect(
      decideAccess(route, { activeRole: "student", primaryOrgId: null, classLeaderboardOrgId: SCHOOL }),
    ).toEqual({
      allowed: false,
      redirectTo: "/app",
    });
  });

  it("sends students away from the courses index and others without manual XP to xp-stats", () => {
    expect(decideAccess(findRoute("/app/courses/") as PageRoute, subject("student"))).toEqual({
      allowed: false,
      redirectTo: "/app",
    });
    expect(decideAccess(findRoute("/app/xp/manual") as PageRoute, subject("parent"))).toEqual({
      allowed: false,
      redirectTo: "/app/xp-stats",
    });
  });

  it("declares every path once", () => {
    const paths = routes.map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of Object.keys(SPEC_GUARDS)) expect(findRoute(path), path).toBeDefined();
  });
});
