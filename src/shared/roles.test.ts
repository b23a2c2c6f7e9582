import { describe, expect, it } from "vitest";
import { DASH_ROLES, dashRoleOf, highestRole, isAdminLevel, ROLE_DISPLAY_NAMES, roleRank } from "./roles";

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
