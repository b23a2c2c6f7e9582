import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type {
  AddRole,
  GuardianLinkRequest,
  ManagedUser,
  Relationship,
  Relationships,
  RoleAtOrg,
  UserRoleEntry,
  userListQuerySchema,
} from "../../../shared/contracts/people";
import type { PersonSummary } from "../../../shared/contracts/rostering";
import { type DashRole, dashRoleOf, roleRank, rosterRoleFor } from "../../../shared/roles";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { containsPattern, FilterError, type FilterFields, filterToSql } from "./filter";
import { grantsRole } from "./queries";
import { recordRosterChange } from "./roster-changes";

/** People as administrators manage them: search, roles at organisations, parents and guardians. */

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** The full name, preferred name, email or username contains the search text. */
export function personSearch(search: string): SQL {
  if (!search) return sql`true`;
  // One ILIKE over the fields joined by line breaks (a search holds none: its spaces are made plain)
  // costs less than one per field.
  return sql`(u.given_name || ' ' || u.family_name || chr(10) || coalesce(u.preferred_first_name, '') || chr(10)
    || coalesce(u.email, '') || chr(10) || coalesce(u.username, '')) ilike ${containsPattern(search.replace(/\s+/g, " "))}`;
}

/** Holds a roster role named `value` (1.1 or 1.2 name, any case): OneRoster's `role='student'`. */
function holdsRosterRole(operator: string, value: string, orgCondition: SQL = sql`true`): SQL {
  const holds = sql`exists (select 1 from user_roles fr where fr.user_sourced_id = u.sourced_id
    and lower(fr.role) = ${value.toLowerCase()} and ${orgCondition})`;
  if (operator === "=") return holds;
  if (operator === "!=") return sql`not ${holds}`;
  throw new FilterError("syntax", message("rostering:filter.equalOrNot", { field: "role" }));
}

/** The filterable fields of people (`u` is the users table). */
export const userFilterFields: FilterFields = {
  sourcedId: { column: sql`u.sourced_id`, kind: "text" },
  givenName: { column: sql`u.given_name`, kind: "text" },
  familyName: { column: sql`u.family_name`, kind: "text" },
  preferredFirstName: { column: sql`u.preferred_first_name`, kind: "text" },
  email: { column: sql`u.email`, kind: "text" },
  username: { column: sql`u.username`, kind: "text" },
  identifier: { column: sql`u.identifier`, kind: "text" },
  enabledUser: { column: sql`u.enabled_user`, kind: "boolean" },
  grades: { column: sql`u.grades`, kind: "textArray" },
  dateLastModified: { column: sql`u.date_last_modified`, kind: "timestamp" },
  "primaryOrg.sourcedId": { column: sql`u.primary_org_sourced_id`, kind: "text" },
  role: { build: (operator, value) => holdsRosterRole(operator, value) },
  "roles.role": { build: (operator, value) => holdsRosterRole(operator, value) },
  "roles.org.sourcedId": {
    build: (operator, value) => {
      const at = sql`exists (select 1 from user_roles fr where fr.user_sourced_id = u.sourced_id and fr.org_sourced_id = ${value})`;
      if (operator === "=") return at;
      if (operator === "!=") return sql`not ${at}`;
      throw new FilterError(
        "syntax",
        message("rostering:filter.equalOrNot", { field: "roles.org.sourcedId" }),
      );
    },
  },
};

/** Roles of people in a person summary: the Dash roles they hold (within `orgCondition` on `r`). */
export function personSummaryColumns(orgCondition: SQL = sql`true`): SQL {
  return sql`u.sourced_id as "sourcedId", u.given_name as "givenName", u.family_name as "familyName", u.email, u.grades,
    coalesce((select array_agg(distinct r.role) from user_roles r where r.user_sourced_id = u.sourced_id and ${orgCondition}), '{}') as roles`;
}

export function toPersonSummary(row: Omit<PersonSummary, "roles"> & { roles: string[] }): PersonSummary {
  const roles = [...new Set(row.roles.map(dashRoleOf).filter((role) => role !== null))];
  return {
    sourcedId: row.sourcedId,
    givenName: row.givenName,
    familyName: row.familyName,
    email: row.email,
    grades: row.grades,
    roles: roles.sort((a, b) => roleRank(b) - roleRank(a)),
  };
}

const managedUserColumns = sql`
  u.sourced_id as "sourcedId", u.given_name as "givenName", u.family_name as "familyName",
  u.preferred_first_name as "preferredFirstName", u.email, u.username, u.status, u.grades,
  u.date_last_modified as "dateLastModified",
  po.sourced_id as "primaryOrgId", po.name as "primaryOrgName", po.type as "primaryOrgType",
  coalesce((
    select json_agg(json_build_object(
      'rosterRole', r.role, 'roleType', r.role_type, 'orgSourcedId', r.org_sourced_id,
      'orgName', o.name, 'orgType', o.type, 'beginDate', r.begin_date, 'endDate', r.end_date
    ) order by r.role_type, o.name, r.role)
    from user_roles r left join orgs o on o.sourced_id = r.org_sourced_id
    where r.user_sourced_id = u.sourced_id
  ), '[]'::json) as roles`;

interface ManagedUserRow {
  sourcedId: string;
  givenName: string;
  familyName: string;
  preferredFirstName: string | null;
  email: string | null;
  username: string | null;
  status: string;
  grades: string[];
  dateLastModified: Date | string;
  primaryOrgId: string | null;
  primaryOrgName: string | null;
  primaryOrgType: string | null;
  roles: {
    rosterRole: string;
    roleType: string;
    orgSourcedId: string;
    orgName: string | null;
    orgType: string | null;
    beginDate: string | null;
    endDate: string | null;
  }[];
}

function toManagedUser(row: ManagedUserRow): ManagedUser {
  const roles: UserRoleEntry[] = row.roles.map((entry) => ({
    role: dashRoleOf(entry.rosterRole),
    rosterRole: entry.rosterRole,
    roleType: entry.roleType === "primary" ? "primary" : "secondary",
    org: {
      sourcedId: entry.orgSourcedId,
      name: entry.orgName ?? entry.orgSourcedId,
      type: entry.orgType ?? "unknown",
    },
    beginDate: entry.beginDate,
    endDate: entry.endDate,
  }));
  return {
    sourcedId: row.sourcedId,
    givenName: row.givenName,
    familyName: row.familyName,
    preferredFirstName: row.preferredFirstName,
    email: row.email,
    username: row.username,
    status: row.status,
    grades: row.grades,
    primaryOrg: row.primaryOrgId
      ? {
          sourcedId: row.primaryOrgId,
          name: row.primaryOrgName ?? row.primaryOrgId,
          type: row.primaryOrgType ?? "unknown",
        }
      : null,
    roles,
    dateLastModified: new Date(row.dateLastModified).toISOString(),
  };
}

const USER_SORT_COLUMNS = {
  familyName: sql`lower(u.family_name), lower(u.given_name)`,
  givenName: sql`lower(u.given_name), lower(u.family_name)`,
  email: sql`lower(u.email)`,
  dateLastModified: sql`u.date_last_modified`,
} as const;

/** Active people with their roles, searched, filtered, sorted and paged. */
export async function findManagedUsers(db: Database, query: z.output<typeof userListQuerySchema>) {
  const direction = sql.raw(query.orderBy === "desc" ? "desc" : "asc");
  const holdsOneOf = query.role.length
    ? sql`exists (select 1 from user_roles hr where hr.user_sourced_id = u.sourced_id and (${sql.join(
        query.role.map((role) => grantsRole(sql`hr.role`, role)),
        sql` or `,
      )}))`
    : sql`true`;
  const rows = await queryRows<ManagedUserRow & { total: number | string }>(
    db,
    sql`select ${managedUserColumns}, count(*) over () as total
        from users u left join orgs po on po.sourced_id = u.primary_org_sourced_id
        where u.status = 'active' and ${holdsOneOf} and ${personSearch(query.search)}
          and ${filterToSql(query.filter, userFilterFields)}
        order by ${USER_SORT_COLUMNS[query.sort]} ${direction} nulls last, u.sourced_id
        limit ${query.limit} offset ${query.offset}`,
  );
  return { total: Number(rows[0]?.total ?? 0), data: rows.map(toManagedUser) };
}

export async function getManagedUser(db: Database, userId: string): Promise<ManagedUser> {
  const [row] = await queryRows<ManagedUserRow>(
    db,
    sql`select ${managedUserColumns} from users u left join orgs po on po.sourced_id = u.primary_org_sourced_id
        where u.sourced_id = ${userId} and u.status = 'active'`,
  );
  if (!row) throw new AppError("not_found", message("rostering:people.notFound"));
  return toManagedUser(row);
}

const nameOf = (user: { givenName: string; familyName: string }) => `${user.givenName} ${user.familyName}`;

/** Locks the person's row for the rest of the transaction, so two changes to their roles queue up. */
async function lockUser(tx: Transaction, userId: string): Promise<ManagedUser> {
  await tx.execute(sql`select 1 from users where sourced_id = ${userId} for update`);
  return getManagedUser(tx, userId);
}

/** The rows of a person's roles that grant `role` at `orgId`. */
const rolesAt = (user: ManagedUser, role: DashRole, orgId: string) =>
  user.roles.filter((entry) => entry.role === role && entry.org.sourcedId === orgId);

/**
 * Makes one role row primary and every other one of the person secondary; the primary
 * organisation follows. `chosen` null leaves the person without a primary role (they have none).
 */
async function setPrimary(
  tx: Transaction,
  userId: string,
  chosen: { rosterRole: string; orgSourcedId: string } | null,
  now: Date,
) {
  const isChosen = chosen
    ? sql`role = ${chosen.rosterRole} and org_sourced_id = ${chosen.orgSourcedId}`
    : sql`false`;
  await tx.execute(sql`update user_roles set role_type = case when ${isChosen} then 'primary' else 'secondary' end
    where user_sourced_id = ${userId}`);
  await tx.execute(sql`update users set primary_org_sourced_id = ${chosen?.orgSourcedId ?? null}, date_last_modified = ${now}
    where sourced_id = ${userId}`);
}

async function touchUser(tx: Transaction, userId: string, now: Date) {
  await tx.execute(sql`update users set date_last_modified = ${now} where sourced_id = ${userId}`);
}

async function findActiveOrg(tx: Transaction, orgId: string) {
  const [org] = await queryRows<{ sourcedId: string; name: string; type: string }>(
    tx,
    sql`select sourced_id as "sourcedId", name, type from orgs where sourced_id = ${orgId} and status = 'active'`,
  );
  if (!org) throw new AppError("bad_request", message("rostering:orgs.noActiveWithId", { orgId }));
  return org;
}

export async function addRole(
  db: Database,
  actor: Actor,
  userId: string,
  input: Required<AddRole>,
  now: Date,
): Promise<ManagedUser> {
  return db.transaction(async (tx) => {
    const user = await lockUser(tx, userId);
    const org = await findActiveOrg(tx, input.orgSourcedId);
    if (rolesAt(user, input.role, org.sourcedId).length)
      throw new AppError(
        "conflict",
        message("rostering:people.alreadyHolds", { person: nameOf(user), role: input.role, org: org.name }),
      );
    const rosterRole = rosterRoleFor(input.role, org.type);
    const isPrimary = input.isPrimary || !user.roles.some((entry) => entry.roleType === "primary");
    await tx.execute(sql`insert into user_roles (user_sourced_id, role, role_type, org_sourced_id)
      values (${userId}, ${rosterRole}, 'secondary', ${org.sourcedId})`);
    if (isPrimary) await setPrimary(tx, userId, { rosterRole, orgSourcedId: org.sourcedId }, now);
    else await touchUser(tx, userId, now);
    await recordRosterChange(tx, {
      actorSourcedId: actor.realUser.sourcedId,
      action: "role.add",
      targetUserSourcedId: userId,
      orgSourcedId: org.sourcedId,
      summary: message(isPrimary ? "rostering:changes.roleAddedAsPrimary" : "rostering:changes.roleAdded", {
        role: input.role,
        org: org.name,
        person: nameOf(user),
      }),
      details: { role: input.role, rosterRole, isPrimary },
      createdAt: now,
    });
    return getManagedUser(tx, userId);
  });
}

/**
 * The role that takes over as primary when the primary one goes: the highest Dash role, in the
 * current primary organisation when possible, then by organisation name.
 */
function nextPrimary(remaining: UserRoleEntry[], primaryOrgId: string | null): UserRoleEntry | null {
  const rank = (entry: UserRoleEntry) => (entry.role ? roleRank(entry.role) : 0);
  const sorted = [...remaining].sort(
    (a, b) =>
      rank(b) - rank(a) ||
      Number(b.org.sourcedId === primaryOrgId) - Number(a.org.sourcedId === primaryOrgId) ||
      a.org.name.localeCompare(b.org.name),
  );
  return sorted[0] ?? null;
}

export async function removeRole(
  db: Database,
  actor: Actor,
  userId: string,
  input: RoleAtOrg,
  now: Date,
): Promise<ManagedUser> {
  return db.transaction(async (tx) => {
    const user = await lockUser(tx, userId);
    const removed = rolesAt(user, input.role, input.orgSourcedId);
    const org = removed[0]?.org;
    if (!org)
      throw new AppError("not_found", message("rostering:people.noSuchRole", { person: nameOf(user) }));
    const remaining = user.roles.filter((entry) => !removed.includes(entry));
    const isOwnLastAdministratorRole =
      input.role === "administrator" &&
      userId === actor.realUser.sourcedId &&
      !remaining.some((entry) => entry.role === "administrator");
    if (isOwnLastAdministratorRole)
      throw new AppError("conflict", message("rostering:people.ownLastAdministratorRole"));
    await tx.execute(sql`delete from user_roles where user_sourced_id = ${userId} and org_sourced_id = ${org.sourcedId}
      and role in ${removed.map((entry) => entry.rosterRole)}`);
    const hadPrimary = removed.some((entry) => entry.roleType === "primary");
    const successor = hadPrimary ? nextPrimary(remaining, user.primaryOrg?.sourcedId ?? null) : null;
    if (hadPrimary)
      await setPrimary(
        tx,
        userId,
        successor && { rosterRole: successor.rosterRole, orgSourcedId: successor.org.sourcedId },
        now,
      );
    else await touchUser(tx, userId, now);
    await recordRosterChange(tx, {
      actorSourcedId: actor.realUser.sourcedId,
      action: "role.remove",
      targetUserSourcedId: userId,
      orgSourcedId: org.sourcedId,
      summary: successor?.role
        ? message("rostering:changes.roleRemovedWithSuccessor", {
            role: input.role,
            org: org.name,
            person: nameOf(user),
            successorRole: successor.role,
            successorOrg: successor.org.name,
          })
        : message("rostering:changes.roleRemoved", { role: input.role, org: org.name, person: nameOf(user) }),
      details: { role: input.role, rosterRoles: removed.map((entry) => entry.rosterRole) },
      createdAt: now,
    });
    return getManagedUser(tx, userId);
  });
}

export async function makeRolePrimary(
  db: Database,
  actor: Actor,
  userId: string,
  input: RoleAtOrg,
  now: Date,
): Promise<ManagedUser> {
  return db.transaction(async (tx) => {
    const user = await lockUser(tx, userId);
    const [chosen] = rolesAt(user, input.role, input.orgSourcedId);
    if (!chosen)
      throw new AppError("not_found", message("rostering:people.noSuchRole", { person: nameOf(user) }));
    const primaries = user.roles.filter((entry) => entry.roleType === "primary");
    const isAlreadySo =
      primaries.length === 1 &&
      primaries[0] === chosen &&
      user.primaryOrg?.sourcedId === chosen.org.sourcedId;
    if (isAlreadySo) return user;
    await setPrimary(tx, userId, { rosterRole: chosen.rosterRole, orgSourcedId: chosen.org.sourcedId }, now);
    await recordRosterChange(tx, {
      actorSourcedId: actor.realUser.sourcedId,
      action: "role.primary",
      targetUserSourcedId: userId,
      orgSourcedId: chosen.org.sourcedId,
      summary: message("rostering:changes.rolePrimary", {
        role: input.role,
        org: chosen.org.name,
        person: nameOf(user),
      }),
      details: { role: input.role, rosterRole: chosen.rosterRole },
      createdAt: now,
    });
    return getManagedUser(tx, userId);
  });
}

// ---------------------------------------------------------------- parents and guardians

async function relatedPeople(db: Database, ids: SQL): Promise<PersonSummary[]> {
  const rows = await queryRows<Parameters<typeof toPersonSummary>[0]>(
    db,
    sql`select ${personSummaryColumns()} from users u where u.status = 'active' and u.sourced_id in (${ids})
        order by lower(u.family_name), lower(u.given_name), u.sourced_id`,
  );
  return rows.map(toPersonSummary);
}

export async function getRelationships(db: Database, userId: string): Promise<Relationships> {
  const person = await getManagedUser(db, userId);
  const [agents, children] = await Promise.all([
    relatedPeople(db, sql`select a.agent_sourced_id from user_agents a where a.user_sourced_id = ${userId}`),
    relatedPeople(db, sql`select a.user_sourced_id from user_agents a where a.agent_sourced_id = ${userId}`),
  ]);
  return { person, agents, children };
}

async function relationshipEnds(tx: Transaction, input: Relationship) {
  if (input.studentSourcedId === input.agentSourcedId)
    throw new AppError("bad_request", message("rostering:people.ownParent"));
  const student = await getManagedUser(tx, input.studentSourcedId).catch(() => null);
  if (!student)
    throw new AppError(
      "bad_request",
      message("rostering:people.noActiveWithId", { personId: input.studentSourcedId }),
    );
  const agent = await getManagedUser(tx, input.agentSourcedId).catch(() => null);
  if (!agent)
    throw new AppError(
      "bad_request",
      message("rostering:people.noActiveWithId", { personId: input.agentSourcedId }),
    );
  return { student, agent };
}

const agentKind = (agent: ManagedUser) =>
  agent.roles.some((entry) => entry.role === "parent")
    ? "parent"
    : agent.roles.some((entry) => entry.role === "guardian")
      ? "guardian"
      : null;

/** Links a parent or guardian to a student (OneRoster `agents`). */
export async function linkAgent(db: Database, actor: Actor, input: Relationship, now: Date) {
  await db.transaction((tx) => linkAgentIn(tx, actor, input, now));
}

async function linkAgentIn(tx: Transaction, actor: Actor, input: Relationship, now: Date) {
  const { student, agent } = await relationshipEnds(tx, input);
  if (!student.roles.some((entry) => entry.role === "student"))
    throw new AppError("bad_request", message("rostering:people.notStudent", { person: nameOf(student) }));
  const kind = agentKind(agent);
  if (!kind)
    throw new AppError(
      "bad_request",
      message("rostering:people.notParentOrGuardian", { person: nameOf(agent) }),
    );
  const inserted = await queryRows(
    tx,
    sql`insert into user_agents (user_sourced_id, agent_sourced_id) values (${student.sourcedId}, ${agent.sourcedId})
        on conflict do nothing returning user_sourced_id`,
  );
  if (!inserted.length)
    throw new AppError(
      "conflict",
      message("rostering:people.alreadyLinked", { agent: nameOf(agent), student: nameOf(student) }),
    );
  await touchUser(tx, student.sourcedId, now);
  await touchUser(tx, agent.sourcedId, now);
  await recordRosterChange(tx, {
    actorSourcedId: actor.realUser.sourcedId,
    action: "agent.link",
    targetUserSourcedId: student.sourcedId,
    summary: message("rostering:changes.agentLinked", {
      agent: nameOf(agent),
      kind,
      student: nameOf(student),
    }),
    details: { agentSourcedId: agent.sourcedId },
    createdAt: now,
  });
}

/** Links that Guides asked for when onboarding, waiting for an administrator, oldest first. */
export async function listGuardianLinkRequests(db: Database): Promise<GuardianLinkRequest[]> {
  const rows = await queryRows<{
    id: string;
    studentSourcedId: string;
    studentName: string;
    agentSourcedId: string;
    agentName: string;
    requestedBySourcedId: string;
    requestedByName: string | null;
    requestedAt: Date | string;
  }>(
    db,
    sql`select r.id, r.student_sourced_id as "studentSourcedId", s.given_name || ' ' || s.family_name as "studentName",
          r.agent_sourced_id as "agentSourcedId", a.given_name || ' ' || a.family_name as "agentName",
          r.requested_by as "requestedBySourcedId", g.given_name || ' ' || g.family_name as "requestedByName",
          r.requested_at as "requestedAt"
        from guardian_link_requests r
        join users s on s.sourced_id = r.student_sourced_id
        join users a on a.sourced_id = r.agent_sourced_id
        left join users g on g.sourced_id = r.requested_by
        where r.status = 'pending'
        order by r.requested_at, r.id
        limit 500`,
  );
  return rows.map((row) => ({
    id: row.id,
    student: { sourcedId: row.studentSourcedId, name: row.studentName },
    agent: { sourcedId: row.agentSourcedId, name: row.agentName },
    requestedBy: {
      sourcedId: row.requestedBySourcedId,
      name: row.requestedByName ?? row.requestedBySourcedId,
    },
    requestedAt: new Date(row.requestedAt).toISOString(),
  }));
}

/** Approves (links the two) or refuses a pending request; a request is decided once. */
export async function decideGuardianLinkRequest(
  db: Database,
  actor: Actor,
  requestId: string,
  decision: "approve" | "refuse",
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [request] = await queryRows<Relationship>(
      tx,
      sql`update guardian_link_requests set status = ${decision === "approve" ? "approved" : "refused"},
            decided_by = ${actor.realUser.sourcedId}, decided_at = ${now}
          where id = ${requestId} and status = 'pending'
          returning student_sourced_id as "studentSourcedId", agent_sourced_id as "agentSourcedId"`,
    );
    if (!request) throw new AppError("not_found", message("rostering:people.noLinkRequest"));
    if (decision === "approve") await linkAgentIn(tx, actor, request, now);
  });
}

export async function unlinkAgent(db: Database, actor: Actor, input: Relationship, now: Date) {
  await db.transaction(async (tx) => {
    const { student, agent } = await relationshipEnds(tx, input);
    const deleted = await queryRows(
      tx,
      sql`delete from user_agents where user_sourced_id = ${student.sourcedId} and agent_sourced_id = ${agent.sourcedId}
          returning user_sourced_id`,
    );
    if (!deleted.length)
      throw new AppError(
        "not_found",
        message("rostering:people.notLinked", { agent: nameOf(agent), student: nameOf(student) }),
      );
    await touchUser(tx, student.sourcedId, now);
    await touchUser(tx, agent.sourcedId, now);
    await recordRosterChange(tx, {
      actorSourcedId: actor.realUser.sourcedId,
      action: "agent.unlink",
      targetUserSourcedId: student.sourcedId,
      summary: message("rostering:changes.agentUnlinked", { agent: nameOf(agent), student: nameOf(student) }),
      details: { agentSourcedId: agent.sourcedId },
      createdAt: now,
    });
  });
}
