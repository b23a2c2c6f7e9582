import { type SQL, sql } from "drizzle-orm";
import type { Actor } from "../../lib/context";
import { grantsRole } from "../rostering/queries";
import {
  childIdsOfAgent,
  peopleIdsOfGuide,
  schoolIdsOf,
  studentIdsOfGuide,
  studentIdsUnder,
} from "../rostering/scope";

/**
 * Who may write to whom, as SQL, so that every send checks it in the statement that stores the
 * message. In the caller's active role:
 * - a parent or guardian: their children's Guides, and the school office (the administrators of a
 *   child's school or of a district above it);
 * - a Guide: the families of their students, their students (when the student's school lets
 *   students write), and staff;
 * - an administrator: staff, and the families of students in the organisations they administer;
 * - a student, when their school lets students write: their Guides. Never another student.
 * Writing is two-way: whoever may be written to may answer by the same rules from their side.
 */

/** A contact row: `id`, how they are related (`relation`) and through whom (`about`: a child or school id). */
type ContactRows = SQL;

/** Users who hold a staff role (Guide or administrator). */
const STAFF_IDS = sql`select r.user_sourced_id from user_roles r
  where ${grantsRole(sql`r.role`, "teacher")} or ${grantsRole(sql`r.role`, "administrator")}`;

/** Students whose school lets its students write to their Guides (messaging_settings). */
export function studentsAllowedToWrite(studentIds: SQL): SQL {
  return sql`select r.user_sourced_id from user_roles r
    join messaging_settings m on m.org_sourced_id = r.org_sourced_id and m.students_may_write
    where lower(r.role) = 'student' and r.user_sourced_id in (${studentIds})`;
}

/** Guides actively teaching the students, each with the student (`about`). */
function guidesOf(studentIds: SQL): ContactRows {
  return sql`select t.user_sourced_id as id, 'guide' as relation, s.user_sourced_id as about
    from enrollments s join enrollments t on t.class_sourced_id = s.class_sourced_id
    where s.user_sourced_id in (${studentIds}) and s.role = 'student' and s.status = 'active'
      and t.role = 'teacher' and t.status = 'active'`;
}

/** The administrators of the students' schools, or of an organisation above one, each with the school. */
function officesOf(studentIds: SQL): ContactRows {
  return sql`select r.user_sourced_id as id, 'office' as relation, chain.school_id as about
    from (with recursive up (school_id, org_id) as (
        select o.sourced_id, o.sourced_id from orgs o where o.sourced_id in (${schoolIdsOf(studentIds)})
        union select up.school_id, o.parent_sourced_id from up join orgs o on o.sourced_id = up.org_id
          where o.parent_sourced_id is not null)
      select school_id, org_id from up) chain
    join user_roles r on r.org_sourced_id = chain.org_id
    where ${grantsRole(sql`r.role`, "administrator")}`;
}

/** The parents and guardians of the students, each with the student. */
function familiesOf(studentIds: SQL): ContactRows {
  return sql`select a.agent_sourced_id as id, 'family' as relation, a.user_sourced_id as about
    from user_agents a where a.user_sourced_id in (${studentIds})`;
}

function staffBut(selfId: string): ContactRows {
  return sql`select s.user_sourced_id as id, 'staff' as relation, null::text as about
    from (${STAFF_IDS}) s where s.user_sourced_id <> ${selfId}`;
}

/** The organisations where the person is an administrator. */
function administeredOrgIds(adminId: string): SQL {
  return sql`select r.org_sourced_id from user_roles r
    where r.user_sourced_id = ${adminId} and ${grantsRole(sql`r.role`, "administrator")}`;
}

/**
 * Everyone the caller may write to in their active role, as rows of (id, relation, about); null
 * when the role writes to no one. The person whose view applies is the one who writes.
 */
export function contactRows(actor: Actor): ContactRows | null {
  const self = actor.user.sourcedId;
  switch (actor.activeRole) {
    case "parent":
    case "guardian": {
      const children = childIdsOfAgent(self);
      return sql`${guidesOf(children)} union ${officesOf(children)}`;
    }
    case "teacher": {
      const students = studentIdsOfGuide(self);
      return sql`${familiesOf(students)}
        union select s.user_sourced_id as id, 'student' as relation, null::text as about
          from (${studentsAllowedToWrite(students)}) s where s.user_sourced_id <> ${self}
        union ${staffBut(self)}`;
    }
    case "administrator":
      return sql`${staffBut(self)} union ${familiesOf(studentIdsUnder(administeredOrgIds(self)))}`;
    case "student":
      return sql`select g.id, g.relation, null::text as about from (${guidesOf(sql`select ${self}::text`)}) g
        where exists (${studentsAllowedToWrite(sql`select ${self}::text`)}) and g.id <> ${self}`;
    default:
      return null;
  }
}

/** Whether the caller may write to the person in `userId` (an active account they reach by the rules). */
export function mayWriteTo(actor: Actor, userId: SQL): SQL {
  const rows = contactRows(actor);
  if (!rows) return sql`false`;
  return sql`(${userId} in (select c.id from (${rows}) c)
    and exists (select 1 from users w where w.sourced_id = ${userId} and w.status = 'active' and w.enabled_user))`;
}

/**
 * The Guide who views Dash as someone else, when one does: while they do, they read only what lies
 * in their own reach, and write nothing. (An administrator viewing as someone reads what that
 * person reads, and writes nothing either: a message is always sent in one's own name.)
 */
export function viewingGuideOf(actor: Actor): string | null {
  const impersonation = actor.session.impersonation;
  return impersonation && impersonation.viewerRole !== "administrator" ? actor.realUser.sourcedId : null;
}

/**
 * A conversation (`conversationId`, a column or value) is visible to the caller: they are in it,
 * and while a Guide views Dash as them, everyone else in it is within that Guide's reach.
 */
export function conversationVisibleTo(actor: Actor, conversationId: SQL): SQL {
  const member = sql`exists (select 1 from conversation_members me
    where me.conversation_id = ${conversationId} and me.user_sourced_id = ${actor.user.sourcedId})`;
  const guide = viewingGuideOf(actor);
  if (!guide) return member;
  return sql`(${member} and not exists (select 1 from conversation_members o
    where o.conversation_id = ${conversationId}
      and o.user_sourced_id not in (select ${actor.user.sourcedId}::text union select ${guide}::text
        union ${peopleIdsOfGuide(guide)})))`;
}
