/**
 * Dash's role vocabulary: which roster roles count as which Dash role, how roles rank and what
 * they are called on screen. Pure functions, shared by the server and the browser.
 */

export const DASH_ROLES = ["administrator", "teacher", "proctor", "parent", "guardian", "student"] as const;
export type DashRole = (typeof DASH_ROLES)[number];

/** Rank from high to low: the order of DASH_ROLES. */
export function roleRank(role: DashRole): number {
  return DASH_ROLES.length - DASH_ROLES.indexOf(role);
}

export const ROLE_DISPLAY_NAMES: Record<DashRole, string> = {
  administrator: "Administrator",
  teacher: "Guide",
  proctor: "Proctor",
  parent: "Parent",
  guardian: "Guardian",
  student: "Student",
};

/**
 * OneRoster 1.1 and 1.2 role names (compared case-insensitively) and the Dash role they grant.
 * The 1.2 administrator family counts as administrator. Roles not listed here (aide, relative,
 * counselor, `ext:` roles…) are kept in the roster but grant nothing.
 */
const ROSTER_ROLE_TO_DASH_ROLE: Record<string, DashRole> = {
  administrator: "administrator",
  districtadministrator: "administrator",
  siteadministrator: "administrator",
  systemadministrator: "administrator",
  principal: "administrator",
  teacher: "teacher",
  proctor: "proctor",
  parent: "parent",
  guardian: "guardian",
  student: "student",
};

export function dashRoleOf(rosterRole: string): DashRole | null {
  return ROSTER_ROLE_TO_DASH_ROLE[rosterRole.trim().toLowerCase()] ?? null;
}

/** The highest-ranked of the given roles, or null when there are none. */
export function highestRole(roles: readonly DashRole[]): DashRole | null {
  let best: DashRole | null = null;
  for (const role of roles) {
    if (best === null || roleRank(role) > roleRank(best)) best = role;
  }
  return best;
}

/** Admin-level means teacher or above. */
export function isAdminLevel(role: DashRole | null | undefined): boolean {
  return role != null && roleRank(role) >= roleRank("teacher");
}
