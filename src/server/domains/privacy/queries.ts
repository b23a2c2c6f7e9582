import { sql } from "drizzle-orm";
import { type Database, queryRows } from "../../db/client";
import { childIdsOfAgent } from "../rostering/scope";

const holdsStudentRole = sql`exists (select 1 from user_roles r where r.user_sourced_id = u.sourced_id and lower(r.role) = 'student')`;

/** Whether this id is a student's (any status: a removed student's data can still be asked for). */
export async function studentExists(db: Database, studentId: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 from users u where u.sourced_id = ${studentId} and ${holdsStudentRole}`,
  );
  return rows.length > 0;
}

/** Whether the student is linked to this parent or guardian, checked in the query itself. */
export async function childOfAgent(db: Database, agentId: string, childId: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 from users u where u.sourced_id = ${childId} and u.sourced_id in (${childIdsOfAgent(agentId)})
          and ${holdsStudentRole}`,
  );
  return rows.length > 0;
}
