import { type SQL, sql } from "drizzle-orm";
import type { DashRole } from "../../../shared/roles";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";

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

/**
 * Whether the caller, in their active role, may see a student's data: the student themself, one
 * of their parents or guardians, one of their Guides, or an administrator.
 */
export async function canSeeStudent(db: Database, actor: Actor, studentId: string): Promise<boolean> {
  const self = actor.user.sourcedId;
  const isStudent = sql`exists (select 1 from user_roles r where r.user_sourced_id = ${studentId} and lower(r.role) = 'student')`;
  const relation: Partial<Record<DashRole, SQL>> = {
    student: sql`${studentId} = ${self}`,
    parent: sql`${studentId} in (${childIdsOfAgent(self)})`,
    guardian: sql`${studentId} in (${childIdsOfAgent(self)})`,
    teacher: sql`${studentId} in (${studentIdsOfGuide(self)})`,
    administrator: sql`true`,
  };
  const condition = actor.activeRole ? relation[actor.activeRole] : undefined;
  if (!condition) return false;
  const [row] = await queryRows<{ allowed: boolean }>(
    db,
    sql`select (${isStudent} and ${condition}) as allowed`,
  );
  return Boolean(row?.allowed);
}

/** Students actively enrolled in a class. */
export function studentIdsOfClass(classId: string): SQL {
  return sql`select e.user_sourced_id from enrollments e
    where e.class_sourced_id = ${classId} and e.role = 'student' and e.status = 'active'`;
}

/** Whether a Guide actively teaches a class. */
export async function teachesClass(db: Database, guideId: string, classId: string): Promise<boolean> {
  const [row] = await queryRows<{ teaches: boolean }>(
    db,
    sql`select exists (select 1 from enrollments e where e.class_sourced_id = ${classId} and e.user_sourced_id = ${guideId}
          and e.role = 'teacher' and e.status = 'active') as teaches`,
  );
  return Boolean(row?.teaches);
}
