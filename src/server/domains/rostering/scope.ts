import { type SQL, sql } from "drizzle-orm";

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
