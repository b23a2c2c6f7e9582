import { type SQL, sql } from "drizzle-orm";
import type { ImpersonationViewerRole } from "../../../shared/contracts/auth";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { grantsRole, isStudent } from "./queries";

/**
 * Who a person may see, as SQL sub-queries of user ids, so every query can put the caller's
 * relationship to the data in its own WHERE clause.
 */

/** Students with an active enrollment in a class the Guide actively teaches. */
export function studentIdsOfGuide(guideId: string): SQL {
  return sql`select s.user_sourced_id from enrollments t
    join enrollments s on s.class_sourced_id = t.class_sourced_id
    where t.user_sourced_id = ${guideId} and t.role = 'teacher' and t.status = 'active'
      and s.role = 'student' and s.status = 'active'`;
}

/** A Guide's students and those students' parents and guardians. */
export function peopleIdsOfGuide(guideId: string): SQL {
  const students = studentIdsOfGuide(guideId);
  return sql`${students} union select a.agent_sourced_id from user_agents a where a.user_sourced_id in (${students})`;
}

/** The students a parent or guardian is linked to. */
export function childIdsOfAgent(agentId: string): SQL {
  return sql`select a.user_sourced_id from user_agents a where a.agent_sourced_id = ${agentId}`;
}

/** Classes people are actively enrolled in with a role. */
export function classIdsOf(userIds: SQL, role: "teacher" | "student"): SQL {
  return sql`select e.class_sourced_id from enrollments e
    where e.user_sourced_id in (${userIds}) and e.role = ${role} and e.status = 'active'`;
}

/** The classes a Guide actively teaches. */
export function classIdsOfGuide(guideId: string): SQL {
  return classIdsOf(sql`select ${guideId}::text`, "teacher");
}

/**
 * Whom a person may view Dash as, as a condition on `u.sourced_id`: anyone but themself for an
 * administrator (while they still hold the role), a Guide's students and those students' families.
 * Checked when viewing starts and again on every session lookup, so losing the relationship ends it.
 */
export function mayViewAs(viewerId: string, viewerRole: ImpersonationViewerRole): SQL {
  if (viewerRole === "administrator") {
    return sql`(u.sourced_id <> ${viewerId} and exists (select 1 from user_roles r
      where r.user_sourced_id = ${viewerId} and ${grantsRole(sql`r.role`, "administrator")}))`;
  }
  return sql`u.sourced_id in (${peopleIdsOfGuide(viewerId)})`;
}

/**
 * The Guide whose own reach bounds the caller's: set while a Guide views Dash as someone, so that
 * what they read or change is the intersection of their scope and the viewed person's. An
 * administrator viewing as someone gets the viewed person's scope.
 */
function boundingGuideOf(actor: Actor): string | null {
  const impersonation = actor.session.impersonation;
  return impersonation && impersonation.viewerRole !== "administrator" ? actor.realUser.sourcedId : null;
}

/** `ids`, limited to what the bounding Guide reaches themself (see boundingGuideOf). */
export function bounded(actor: Actor, ids: SQL, reachOfGuide: (guideId: string) => SQL): SQL {
  const guideId = boundingGuideOf(actor);
  return guideId ? sql`(${ids}) intersect (${reachOfGuide(guideId)})` : ids;
}

/**
 * The students the caller may see in their active role, as a sub-query of ids; null for none. Every
 * query about students goes through this (or canSeeStudent), so viewing as someone never widens it.
 */
export function studentIdsInReach(actor: Actor): SQL | null {
  const self = actor.user.sourcedId;
  switch (actor.activeRole) {
    case "student":
      return bounded(actor, sql`select ${self}::text`, studentIdsOfGuide);
    case "parent":
    case "guardian":
      return bounded(actor, childIdsOfAgent(self), studentIdsOfGuide);
    case "teacher":
      return bounded(actor, studentIdsOfGuide(self), studentIdsOfGuide);
    case "administrator":
      return sql`select r.user_sourced_id from user_roles r where lower(r.role) = 'student'`;
    default:
      return null;
  }
}

/** The people a Guide reaches (their students and those students' families), bounded likewise. */
export function peopleIdsInGuideReach(actor: Actor): SQL {
  return bounded(actor, peopleIdsOfGuide(actor.user.sourcedId), peopleIdsOfGuide);
}

/** The classes a Guide teaches, bounded likewise. */
export function classIdsInGuideReach(actor: Actor): SQL {
  return bounded(actor, classIdsOfGuide(actor.user.sourcedId), classIdsOfGuide);
}

/** `classIds`, limited to the bounding Guide's classes while a Guide views Dash as someone. */
export function boundedClassIds(actor: Actor, classIds: SQL): SQL {
  return bounded(actor, classIds, classIdsOfGuide);
}

/** The classes a Guide teaches, a student is in, or a parent's children are in; bounded likewise. */
export function classIdsInReach(actor: Actor): SQL | null {
  if (actor.activeRole === "teacher") return classIdsInGuideReach(actor);
  if (actor.activeRole !== "student" && actor.activeRole !== "parent" && actor.activeRole !== "guardian")
    return null;
  const students = studentIdsInReach(actor);
  return students && boundedClassIds(actor, classIdsOf(students, "student"));
}

/**
 * Whether the caller, in their active role, may see a student's data: the student themself, one
 * of their parents or guardians, one of their Guides, or an administrator. As a condition, for a
 * query that reads the student's data in the same round trip; null when the role sees no one.
 */
export function studentVisibleTo(actor: Actor, studentId: string): SQL | null {
  const reach = studentIdsInReach(actor);
  if (!reach) return null;
  return sql`(${isStudent(sql`${studentId}`)} and ${studentId} in (${reach}))`;
}

/** The same, asked on its own. */
export async function canSeeStudent(db: Database, actor: Actor, studentId: string): Promise<boolean> {
  const visible = studentVisibleTo(actor, studentId);
  if (!visible) return false;
  const [row] = await queryRows<{ allowed: boolean }>(db, sql`select ${visible} as allowed`);
  return Boolean(row?.allowed);
}

/** The schools people belong to: their roles' organisations and their primary ones. */
export function schoolIdsOf(userIds: SQL): SQL {
  return sql`select r.org_sourced_id from user_roles r where r.user_sourced_id in (${userIds})
    union select u.primary_org_sourced_id from users u
      where u.sourced_id in (${userIds}) and u.primary_org_sourced_id is not null`;
}

/** Students actively enrolled in a class. */
export function studentIdsOfClass(classId: string): SQL {
  return sql`select e.user_sourced_id from enrollments e
    where e.class_sourced_id = ${classId} and e.role = 'student' and e.status = 'active'`;
}

/** Whether the caller, as a Guide, teaches a class (bounded while viewing as someone). */
export async function teachesClass(db: Database, actor: Actor, classId: string): Promise<boolean> {
  const [row] = await queryRows<{ teaches: boolean }>(
    db,
    sql`select ${classId} in (${classIdsInGuideReach(actor)}) as teaches`,
  );
  return Boolean(row?.teaches);
}

/** Students with a role at an organisation under any of the roots (or the roots themselves). */
export function studentIdsUnder(roots: SQL): SQL {
  return sql`with recursive below (id) as (
      select o.sourced_id from orgs o where o.sourced_id in (${roots})
      union select o.sourced_id from orgs o join below b on o.parent_sourced_id = b.id)
    select r.user_sourced_id from user_roles r where r.org_sourced_id in (select id from below) and lower(r.role) = 'student'`;
}
