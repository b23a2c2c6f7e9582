import { type SQL, sql } from "drizzle-orm";
import type { Actor } from "../../lib/context";
import { bounded, studentIdsInReach, studentIdsOfGuide } from "../rostering/scope";

/**
 * Who may do what with a student's incidents, as sub-queries of student ids so every query puts
 * the caller's relationship to the data in its own WHERE clause.
 *
 * Reviewers are the student's Guides, the proctors of the student's school and administrators;
 * they see the evidence and decide. The student and their family see the strikes and decisions
 * (never the screenshots) and may appeal. Guides and administrators unlock dashboards.
 */

/** Students enrolled (by role) at the schools where a person is a proctor. */
function studentIdsOfProctor(proctorId: string): SQL {
  return sql`select s.user_sourced_id from user_roles s
    where lower(s.role) = 'student' and s.org_sourced_id in (
      select p.org_sourced_id from user_roles p where p.user_sourced_id = ${proctorId} and lower(p.role) = 'proctor')`;
}

/** The students whose incidents the caller reviews in their active role; null for none. */
export function reviewableStudentIds(actor: Actor): SQL | null {
  switch (actor.activeRole) {
    case "teacher":
    case "administrator":
      return studentIdsInReach(actor);
    case "proctor":
      return bounded(actor, studentIdsOfProctor(actor.user.sourcedId), studentIdsOfGuide);
    default:
      return null;
  }
}

/** The student themself and their family: they read strikes and decisions, and appeal. */
export function isFamilySide(actor: Actor): boolean {
  return actor.activeRole === "student" || actor.activeRole === "parent" || actor.activeRole === "guardian";
}

/** The students whose incidents the caller may read: those they review, or their own or their children. */
export function readableStudentIds(actor: Actor): SQL | null {
  return isFamilySide(actor) ? studentIdsInReach(actor) : reviewableStudentIds(actor);
}

/** Guides unlock their students, administrators anyone. */
export function unlockableStudentIds(actor: Actor): SQL | null {
  return actor.activeRole === "teacher" || actor.activeRole === "administrator"
    ? studentIdsInReach(actor)
    : null;
}
