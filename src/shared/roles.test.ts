import { describe, expect, it } from "vitest";
import {
  activeOrganizationIds,
  availableRoles,
  DASH_ROLES,
  dashRoleOf,
  highestRole,
  isAdminLevel,
  isStudentAndStaff,
  ROLE_DISPLAY_NAMES,
  type RoleEntry,
  resolveActiveRole,
  roleRank,
  rolesWithOrganizations,
} from "./roles";

describe("role vocabulary", () => {
  it.each([
    ["administrator", "administrator"],
    ["Administrator", "administrator"],
    ["districtAdministrator", "administrator"],
    ["SITEADMINISTRATOR", "administrator"],
    ["systemAdministrator", "administrator"],
    ["principal", "administrator"],
    ["teacher", "teacher"],
    ["Teacher", "teacher"],
    ["proctor", "proctor"],
    ["parent", "parent"],
    ["GUARDIAN", "guardian"],
    ["student", "student"],
    [" student ", "student"],
  ])("maps the roster role %s to %s", (rosterRole, dashRole) => {
    expect(dashRoleOf(rosterRole)).toBe(dashRole);
  });

  it.each(["aide", "relative", "counselor", "ext:coach", "", "admin"])(
    "grants nothing for %j",
    (rosterRole) => {
      expect(dashRoleOf(rosterRole)).toBeNull();
    },
  );
});

describe("ranking", () => {
  it("ranks administrator, teacher, proctor, parent, guardian, student from high to low", () => {
    const sorted = [...DASH_ROLES].sort((a, b) => roleRank(b) - roleRank(a));
    expect(sorted).toEqual(["administrator", "teacher", "proctor", "parent", "guardian", "student"]);
  });

  it("picks the highest role", () => {
    expect(highestRole(["student", "teacher"])).toBe("teacher");
    expect(highestRole(["guardian", "parent"])).toBe("parent");
    expect(highestRole(["student"])).toBe("student");
    expect(highestRole([])).toBeNull();
  });

  it("counts teacher and above as admin-level", () => {
    expect(DASH_ROLES.filter((role) => isAdminLevel(role))).toEqual(["administrator", "teacher"]);
    expect(isAdminLevel(null)).toBe(false);
  });

  it("names the teacher role Guide", () => {
    expect(ROLE_DISPLAY_NAMES).toEqual({
      administrator: "Administrator",
      teacher: "Guide",
      proctor: "Proctor",
      parent: "Parent",
      guardian: "Guardian",
      student: "Student",
    });
  });
});

describe("organisations of a role", () => {
  const org = (sourcedId: string) => ({ sourcedId, type: "school", name: sourcedId.toUpperCase() });
  const entries: RoleEntry[] = [
    { role: "teacher", roleType: "secondary", org: org("b") },
    { role: "teacher", roleType: "primary", org: org("a") },
    { role: "student", roleType: "secondary", org: org("c") },
    { role: "teacher", roleType: "secondary", org: org("b") },
  ];

  it("lists each role once, highest first, with the primary organisation first", () => {
    expect(rolesWithOrganizations(entries)).toEqual([
      { role: "teacher", organizations: [org("a"), org("b")], primaryOrgId: "a" },
      { role: "student", organizations: [org("c")], primaryOrgId: null },
    ]);
  });

  it("gives the organisations of the active role", () => {
    expect(activeOrganizationIds(entries, "teacher")).toEqual(["a", "b"]);
    expect(activeOrganizationIds(entries, "student")).toEqual(["c"]);
    expect(activeOrganizationIds(entries, "parent")).toEqual([]);
    expect(activeOrganizationIds(entries, null)).toEqual([]);
  });
});

describe("active role", () => {
  it("takes the override, then the saved choice, then the highest role, skipping unavailable ones", () => {
    const available = availableRoles(["student", "teacher"]);
    expect(available).toEqual(["teacher", "student"]);
    expect(resolveActiveRole({ available, override: "student", saved: "teacher" })).toBe("student");
    expect(resolveActiveRole({ available, saved: "student" })).toBe("student");
    expect(resolveActiveRole({ available, override: "administrator", saved: "parent" })).toBe("teacher");
    expect(resolveActiveRole({ available: [] })).toBeNull();
  });

  it("drops administrator while impersonating and lets the impersonated selection win", () => {
    expect(availableRoles(["administrator"], ["administrator", "parent"])).toEqual(["parent"]);
    const available = availableRoles(["administrator"], ["teacher", "student"]);
    expect(resolveActiveRole({ available, impersonationRole: "student", saved: "administrator" })).toBe(
      "student",
    );
    expect(resolveActiveRole({ available, saved: "administrator" })).toBe("teacher");
  });

  it("knows a student who is also staff", () => {
    expect(isStudentAndStaff(["student", "teacher"])).toBe(true);
    expect(isStudentAndStaff(["administrator", "student"])).toBe(true);
    expect(isStudentAndStaff(["student", "parent"])).toBe(false);
    expect(isStudentAndStaff(["teacher"])).toBe(false);
  });
});
