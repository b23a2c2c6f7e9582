import { type SQL, sql } from "drizzle-orm";
import type { AuthUser, UserRole } from "../../../shared/contracts/auth";
import { type DashRole, dashRoleOf, rosterRoleFor, rosterRolesOf } from "../../../shared/roles";
import { type Database, queryRows } from "../../db/client";

/** The columns of a user's profile, with their roles and org names gathered in the same row. */
export const userProfileColumns = sql`
  u.sourced_id as "sourcedId", u.email, u.given_name as "givenName", u.family_name as "familyName",
  u.primary_org_sourced_id as "primaryOrgSourcedId",
  coalesce((
    select json_agg(json_build_object(
      'role', r.role, 'roleType', r.role_type,
      'orgSourcedId', r.org_sourced_id, 'orgType', o.type, 'orgName', o.name
    ) order by r.role_type, r.role, r.org_sourced_id)
    from user_roles r left join orgs o on o.sourced_id = r.org_sourced_id
    where r.user_sourced_id = u.sourced_id
  ), '[]'::json) as roles`;

/** Only users that may sign in: active in the roster and enabled. */
export const isActiveUser = sql`u.status = 'active' and u.enabled_user`;

export interface UserProfileRow {
  sourcedId: string;
  email: string | null;
  givenName: string;
  familyName: string;
  primaryOrgSourcedId: string | null;
  roles: {
    role: string;
    roleType: string;
    orgSourcedId: string;
    orgType: string | null;
    orgName: string | null;
  }[];
}

/**
 * Shapes a profile row as the API's user: roster role names become Dash roles, roles that grant
 * nothing are left out, and primary roles come first.
 */
export function toAuthUser(row: UserProfileRow): AuthUser {
  const roles: UserRole[] = [];
  for (const entry of row.roles) {
    const role = dashRoleOf(entry.role);
    if (!role) continue;
    roles.push({
      role,
      roleType: entry.roleType === "primary" ? "primary" : "secondary",
      // An org missing from the roster still shows, named by its id, rather than hiding the role.
      org: {
        sourcedId: entry.orgSourcedId,
        type: entry.orgType ?? "unknown",
        name: entry.orgName ?? entry.orgSourcedId,
      },
    });
  }
  roles.sort((a, b) => Number(b.roleType === "primary") - Number(a.roleType === "primary"));
  return {
    sourcedId: row.sourcedId,
    email: row.email,
    givenName: row.givenName,
    familyName: row.familyName,
    roles,
    primaryOrg: row.primaryOrgSourcedId ? { sourcedId: row.primaryOrgSourcedId } : null,
  };
}

export async function findUserProfile(db: Database, where: SQL): Promise<UserProfileRow | undefined> {
  const [row] = await queryRows<UserProfileRow>(
    db,
    sql`select ${userProfileColumns} from users u where ${where} limit 1`,
  );
  return row;
}

/** The roster role in `column` grants this Dash role (any OneRoster name for it, in any case). */
export function grantsRole(column: SQL, role: DashRole): SQL {
  const names = rosterRolesOf(role);
  // Rosters mostly hold the standard spellings: those match without lower(), which costs far more.
  const spellings = [
    ...new Set([...names, ...["school", "district", "state"].map((type) => rosterRoleFor(role, type))]),
  ];
  return sql`(${column} in ${spellings} or lower(${column}) in ${names})`;
}

/** Whether the person in `userId` is a student: a roster role of student, in any case. */
export function isStudent(userId: SQL): SQL {
  return sql`exists (select 1 from user_roles student_role
    where student_role.user_sourced_id = ${userId} and lower(student_role.role) = 'student')`;
}

/** The display name of the user row `u` of a query that already reads it. */
export const displayNameOfU = sql`(coalesce(u.preferred_first_name, u.given_name) || ' ' || u.family_name)`;

/**
 * A roster's first grade ("KG", "K", "03") as a level, 0 for kindergarten, null for any other: the
 * SQL side of gradeLevelOf in the assessment contracts.
 */
export function gradeLevelOfGrades(grades: SQL): SQL {
  // The pattern alone decides the cast: SQL does not promise to test an AND's sides in order.
  return sql`(case when ${grades}[1] ~ '^(0?[0-9]|1[0-2])$' then ${grades}[1]::int
    when upper(${grades}[1]) in ('KG', 'K') then 0 end)`;
}

/** `SQL` for a person's display name, for lists that name students and actors. */
export function nameOf(userId: SQL): SQL {
  return sql`(select coalesce(n.preferred_first_name, n.given_name) || ' ' || n.family_name
    from users n where n.sourced_id = ${userId})`;
}
