import { sql } from "drizzle-orm";
import type { OptOutState } from "../../../shared/contracts/leaderboards";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { canSeeStudent } from "../rostering/scope";
import { viewerOf } from "./standings";

/** Which side the caller hides a student for: a parent or guardian for their child, staff for their students. */
function sideOf(actor: Actor): "family" | "staff" {
  const action = message("leaderboards:actions.hide");
  const viewer = viewerOf(actor, action);
  if (viewer === "student") throw new AppError("forbidden", message("common:roleForbids", { action }));
  return viewer;
}

async function assertMayHide(db: Database, actor: Actor, studentId: string) {
  sideOf(actor);
  if (!(await canSeeStudent(db, actor, studentId)))
    throw new AppError("not_found", message("leaderboards:studentNotFound"));
}

export async function optOutState(db: Database, actor: Actor, studentId: string): Promise<OptOutState> {
  await assertMayHide(db, actor, studentId);
  const rows = await queryRows<{ hidden_by: "family" | "staff" }>(
    db,
    sql`select hidden_by from leaderboard_opt_outs where student_sourced_id = ${studentId}`,
  );
  const hiddenByFamily = rows.some((row) => row.hidden_by === "family");
  const hiddenByStaff = rows.some((row) => row.hidden_by === "staff");
  return { studentId, hidden: hiddenByFamily || hiddenByStaff, hiddenByFamily, hiddenByStaff };
}

/** Hides a student from leaderboards, or lifts the caller's side's hiding (the other side's stays). */
export async function setOptOut(
  db: Database,
  actor: Actor,
  studentId: string,
  hidden: boolean,
): Promise<OptOutState> {
  await assertMayHide(db, actor, studentId);
  const side = sideOf(actor);
  await db.execute(
    hidden
      ? sql`insert into leaderboard_opt_outs (student_sourced_id, hidden_by, actor_sourced_id)
          values (${studentId}, ${side}, ${actor.realUser.sourcedId}) on conflict do nothing`
      : sql`delete from leaderboard_opt_outs where student_sourced_id = ${studentId} and hidden_by = ${side}`,
  );
  return optOutState(db, actor, studentId);
}
