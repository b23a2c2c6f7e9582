import { sql } from "drizzle-orm";
import { type Database, queryRows } from "../../db/client";
import { isStudent } from "../rostering/queries";
import { childIdsOfAgent } from "../rostering/scope";

const holdsStudentRole = isStudent(sql`u.sourced_id`);

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
