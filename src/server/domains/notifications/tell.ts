import { sql } from "drizzle-orm";
import type { Redemption } from "../../../shared/contracts/rewards";
import { type Database, queryRows } from "../../db/client";
import type { Logger } from "../../lib/logger";
import { nameOf } from "../rostering/queries";
import { type NotificationInput, type NotifyDeps, notify } from "./notify";

/**
 * What other domains tell people of, once their change has committed: who is told and with which
 * values. A notification that cannot be written is logged; it never undoes or hides the change.
 */
export interface TellDeps extends NotifyDeps {
  logger: Logger;
}

async function tell(deps: TellDeps, input: NotificationInput): Promise<void> {
  try {
    await notify(deps, input);
  } catch (error) {
    deps.logger.error("notification not written", { type: input.type, error: String(error) });
  }
}

/** A student's parents and guardians, and the student's name as notifications show it. */
async function familyOf(
  db: Database,
  studentId: string,
): Promise<{ familyIds: string[]; studentName: string }> {
  const rows = await queryRows<{ agent_id: string | null; student_name: string | null }>(
    db,
    sql`select a.agent_sourced_id as agent_id, ${nameOf(sql`${studentId}::text`)} as student_name
        from (select 1) one left join user_agents a on a.user_sourced_id = ${studentId}`,
  );
  return {
    familyIds: rows.flatMap((row) => (row.agent_id ? [row.agent_id] : [])),
    studentName: rows[0]?.student_name ?? "",
  };
}

/** A child asked to spend Alphas: their family hears of it (they approve a family's requests). */
export async function tellRedemptionRequested(deps: TellDeps, redemption: Redemption): Promise<void> {
  const { familyIds, studentName } = await familyOf(deps.db, redemption.studentId);
  await tell(deps, {
    userIds: familyIds,
    type: "redemption.requested",
    params: {
      studentId: redemption.studentId,
      studentName: redemption.student?.name ?? studentName,
      rewardName: redemption.itemName,
      price: redemption.price,
    },
    link: `/app/parent-emporium?childId=${encodeURIComponent(redemption.studentId)}`,
    dedupeKey: `redemption:${redemption.id}:requested`,
  });
}

/** A request was approved or declined: the student hears of it. */
export async function tellRedemptionDecided(deps: TellDeps, redemption: Redemption): Promise<void> {
  if (redemption.status !== "approved" && redemption.status !== "rejected") return;
  await tell(deps, {
    userIds: [redemption.studentId],
    type: "redemption.decided",
    params: {
      rewardName: redemption.itemName,
      decision: redemption.status === "approved" ? "approved" : "declined",
    },
    link: "/app/emporium",
    dedupeKey: `redemption:${redemption.id}:decided`,
  });
}

/** Tells the student (on their home) and their family (on the child's page) of the same thing. */
async function tellStudentAndFamily(
  deps: TellDeps,
  studentId: string,
  input: Omit<NotificationInput, "userIds" | "link" | "params"> & { params: Record<string, string | number> },
  studentLink: string,
) {
  const { familyIds, studentName } = await familyOf(deps.db, studentId);
  const params = { studentId, studentName, ...input.params };
  await tell(deps, { ...input, userIds: [studentId], params, link: studentLink });
  await tell(deps, {
    ...input,
    userIds: familyIds,
    params,
    link: `/app/child/${encodeURIComponent(studentId)}/`,
  });
}

/** A strike was confirmed: the student and their family hear of it. */
export async function tellStrikeConfirmed(
  deps: TellDeps,
  strike: { studentId: string; incidentId: string; activeStrikes: number },
): Promise<void> {
  await tellStudentAndFamily(
    deps,
    strike.studentId,
    {
      type: "strike.confirmed",
      params: { strikes: strike.activeStrikes },
      dedupeKey: `strike:${strike.incidentId}`,
    },
    "/app/",
  );
}

/** A student's learning was locked or unlocked: the student and their family hear of it. */
export async function tellLockoutChanged(
  deps: TellDeps,
  change: { studentId: string; state: "on" | "off"; at: Date },
): Promise<void> {
  await tellStudentAndFamily(
    deps,
    change.studentId,
    {
      type: "lockout.changed",
      params: { state: change.state },
      dedupeKey: `lockout:${change.studentId}:${change.state}:${change.at.toISOString()}`,
    },
    change.state === "on" ? "/app/dashboard-locked" : "/app/",
  );
}
