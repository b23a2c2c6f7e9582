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

export interface OrgRef {
  sourcedId: string;
  type: string;
  name: string;
}

export interface RoleEntry {
  role: DashRole;
  roleType: "primary" | "secondary";
  org: OrgRef;
}

/** A role with the organisations it is held in, the primary one first (the spec's role-with-organizations entry). */
export interface RoleWithOrganizations {
  role: DashRole;
  organizations: OrgRef[];
  primaryOrgId: string | null;
}

export function rolesWithOrganizations(entries: readonly RoleEntry[]): RoleWithOrganizations[] {
  const byRole = new Map<DashRole, RoleWithOrganizations>();
  for (const entry of entries) {
    const current = byRole.get(entry.role) ?? { role: entry.role, organizations: [], primaryOrgId: null };
    if (!current.organizations.some((org) => org.sourcedId === entry.org.sourcedId)) {
      if (entry.roleType === "primary") {
        current.organizations.unshift(entry.org);
        current.primaryOrgId ??= entry.org.sourcedId;
      } else {
        current.organizations.push(entry.org);
      }
    }
    byRole.set(entry.role, current);
  }
  return [...byRole.values()].sort((a, b) => roleRank(b.role) - roleRank(a.role));
}

/** The organisations of the active role, the primary one first. */
export function activeOrganizationIds(entries: readonly RoleEntry[], activeRole: DashRole | null): string[] {
  const match = rolesWithOrganizations(entries).find((entry) => entry.role === activeRole);
  return match ? match.organizations.map((org) => org.sourcedId) : [];
}

/** Distinct roles, highest first. */
export function distinctRoles(roles: readonly DashRole[]): DashRole[] {
  return [...new Set(roles)].sort((a, b) => roleRank(b) - roleRank(a));
}

/** "Student and staff": a student who is also a teacher or an administrator. */
export function isStudentAndStaff(roles: readonly DashRole[]): boolean {
  return roles.includes("student") && (roles.includes("teacher") || roles.includes("administrator"));
}

export function parseDashRole(value: string | null | undefined): DashRole | null {
  return (DASH_ROLES as readonly string[]).includes(value ?? "") ? (value as DashRole) : null;
}

/**
 * The roles a signed-in person may act in. While impersonating, the impersonated user's roles
 * apply, without administrator: nobody gains administrator powers by viewing as someone.
 */
export function availableRoles(
  own: readonly DashRole[],
  impersonated?: readonly DashRole[] | null,
): DashRole[] {
  if (!impersonated) return distinctRoles(own);
  return distinctRoles(impersonated.filter((role) => role !== "administrator"));
}

/**
 * The active role, chosen in order: an override passed in, the impersonation's selected role,
 * the saved selection (the selectedUserRole cookie), then the highest available role. A choice
 * that is not available is skipped.
 */
export function resolveActiveRole(input: {
  available: readonly DashRole[];
  override?: string | null;
  impersonationRole?: string | null;
  saved?: string | null;
}): DashRole | null {
  for (const candidate of [input.override, input.impersonationRole, input.saved]) {
    const role = parseDashRole(candidate);
    if (role && input.available.includes(role)) return role;
  }
  return highestRole(input.available);
}

/** The roster role names (lower case) that grant a Dash role, for matching stored roles in SQL. */
export function rosterRolesOf(role: DashRole): string[] {
  return Object.entries(ROSTER_ROLE_TO_DASH_ROLE)
    .filter(([, dashRole]) => dashRole === role)
    .map(([rosterRole]) => rosterRole);
}

/**
 * How Dash writes a role into the roster: the OneRoster 1.2 name. 1.2 has no plain
 * `administrator`, so an administrator is a site, district or system administrator by the type of
 * the organisation.
 */
export function rosterRoleFor(role: DashRole, orgType: string): string {
  if (role !== "administrator") return role;
  const type = orgType.toLowerCase();
  if (type === "school" || type === "department") return "siteAdministrator";
  if (type === "district" || type === "local") return "districtAdministrator";
  return "systemAdministrator";
}
