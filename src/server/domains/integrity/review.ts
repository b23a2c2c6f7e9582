import { sql } from "drizzle-orm";
import type { ReviewRequest, ReviewStatus } from "../../../shared/contracts/integrity";
import { type Database, queryRows, uuidEquals } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import type { ChangedSummaries } from "../activity/home-summaries";
import { restoreVoidedXp, voidSessionXp } from "../activity/xp";
import { studentIdsInReach } from "../rostering/scope";
import { emitWebhookEvent } from "../webhooks/emit";
import { isFamilySide, reviewableStudentIds } from "./access";
import { appealBlock, outcomeOf, type PastDecision, reviewBlock } from "./decisions";
import { closeLockout, lockIfDue } from "./lockout";
import { activeStrikesOf } from "./records";
import { integritySettingsOf } from "./settings";

/** What a decision changed that others must hear of once it committed. */
export interface DecisionEffects {
  studentId: string;
  /** The student's dashboard was locked or unlocked: their sessions must be read again. */
  lockChanged: boolean;
  changedSummaries: ChangedSummaries;
  /** A strike was confirmed, and the student's active strikes with it: the student and family are told. */
  strike: { incidentId: string; activeStrikes: number } | null;
}

interface LockedIncident {
  studentId: string;
  status: ReviewStatus;
  sessionId: string | null;
  decisions: PastDecision[];
}

/**
 * Takes the student's lock (so strikes are counted one decision at a time, in any number of
 * processes) and reads the incident as it is now, with its decisions.
 */
async function lockIncident(tx: Database, id: string, studentIds: ReturnType<typeof sql>) {
  const [found] = await queryRows<{ studentId: string }>(
    tx,
    sql`select i.student_sourced_id as "studentId" from integrity_incidents i
      where ${uuidEquals(sql`i.id`, id)} and i.student_sourced_id in (${studentIds})`,
  );
  if (!found) throw new AppError("not_found", message("integrity:incidentNotFound"));
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`integrity:${found.studentId}`}, 0))`);
  const [incident] = await queryRows<LockedIncident>(
    tx,
    sql`select i.student_sourced_id as "studentId", i.review_status as status, i.session_id as "sessionId",
        coalesce((select json_agg(json_build_object('action', d.action, 'actorId', d.actor_sourced_id)
          order by d.step) from integrity_decisions d where d.incident_id = i.id), '[]'::json) as decisions
      from integrity_incidents i where i.id = ${id}::uuid for update`,
  );
  return incident as LockedIncident;
}

async function countActiveStrikes(tx: Database, studentId: string, now: Date): Promise<number> {
  const [counted] = await queryRows<{ strikes: number }>(
    tx,
    sql`select ${activeStrikesOf(sql`${studentId}::text`, now)} as strikes`,
  );
  return counted?.strikes ?? 0;
}

async function recordDecision(
  tx: Database,
  id: string,
  actor: Actor,
  entry: { action: string; note: string; status: ReviewStatus },
  now: Date,
) {
  await tx.execute(sql`with decided as (
      update integrity_incidents set review_status = ${entry.status}, decided_at = ${now} where id = ${id}::uuid)
    insert into integrity_decisions (incident_id, step, action, note, actor_sourced_id, actor_role, created_at)
    select ${id}::uuid, count(*) + 1, ${entry.action}, ${entry.note}, ${actor.realUser.sourcedId}, ${actor.activeRole}, ${now}
    from integrity_decisions where incident_id = ${id}::uuid`);
}

/**
 * A reviewer confirms, dismisses or escalates an incident with a note. A confirm that makes a
 * strike counts the student's active strikes, locks their dashboard at the threshold (where lockout
 * is on) and voids the session's XP (when the rule says so); dismissing an appealed strike lifts
 * it, gives the XP back and unlocks a dashboard that falls below the threshold.
 */
export async function reviewIncident(
  db: Database,
  actor: Actor,
  id: string,
  request: ReviewRequest,
  now: Date,
): Promise<DecisionEffects> {
  const reviewable = reviewableStudentIds(actor);
  if (!reviewable) throw new AppError("forbidden", message("integrity:reviewForbidden"));
  const settings = await integritySettingsOf(db);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const incident = await lockIncident(tx, id, reviewable);
    const block = reviewBlock(incident.status, incident.decisions, actor.realUser.sourcedId);
    if (block) throw new AppError("conflict", message(`integrity:blocked.${block}`));
    const outcome = outcomeOf(incident.status, incident.decisions, request.decision, settings);
    await recordDecision(
      tx,
      id,
      actor,
      { action: request.decision, note: request.note, status: outcome.status },
      now,
    );
    const effects: DecisionEffects = {
      studentId: incident.studentId,
      lockChanged: false,
      changedSummaries: new Map(),
      strike: null,
    };
    if (outcome.strikes) {
      const expiresAt = new Date(now.getTime() + settings.strikeExpiryDays * 86_400_000);
      await tx.execute(sql`update integrity_incidents set struck_at = ${now}, strike_expires_at = ${expiresAt}
        where id = ${id}::uuid`);
      const strikes = await countActiveStrikes(tx, incident.studentId, now);
      const lockoutId = await lockIfDue(tx, incident.studentId, id, strikes, settings.strikeThreshold, now);
      let voidedXp = 0;
      if (settings.voidSessionXp && incident.sessionId) {
        const voiding = { incidentId: id, studentId: incident.studentId, sessionId: incident.sessionId };
        const { voided, changed } = await voidSessionXp(tx, voiding, now);
        voidedXp = voided;
        effects.changedSummaries = changed;
      }
      await tx.execute(sql`update integrity_incidents set cumulative_strikes = ${strikes},
          lockout_id = ${lockoutId}::uuid, voided_xp = ${voidedXp} where id = ${id}::uuid`);
      effects.lockChanged = lockoutId !== null;
      effects.strike = { incidentId: id, activeStrikes: strikes };
      await emitWebhookEvent(
        tx,
        "incident.confirmed",
        { incidentId: id, studentId: incident.studentId, activeStrikes: strikes, lockoutId },
        { at: now, key: id },
      );
    }
    if (outcome.liftsStrike) {
      effects.changedSummaries = await restoreVoidedXp(tx, id, now);
      if ((await countActiveStrikes(tx, incident.studentId, now)) < settings.strikeThreshold) {
        const unlocking = {
          actorId: actor.realUser.sourcedId,
          note: request.note,
          reason: "appeal",
          withCode: false,
        } as const;
        effects.lockChanged = await closeLockout(tx, incident.studentId, unlocking, now);
      }
    }
    return effects;
  });
}

/**
 * The student or their family appeals a strike with a note, once, while it counts: it goes back to
 * the queue for someone who did not confirm it. The strike counts until the appeal is decided.
 */
export async function appealIncident(db: Database, actor: Actor, id: string, note: string, now: Date) {
  if (!isFamilySide(actor)) throw new AppError("forbidden", message("integrity:appealForbidden"));
  const reach = studentIdsInReach(actor);
  if (!reach) throw new AppError("forbidden", message("integrity:appealForbidden"));
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const incident = await lockIncident(tx, id, reach);
    const [strike] = await queryRows<{ active: boolean }>(
      tx,
      sql`select strike_expires_at > ${now} as active from integrity_incidents where id = ${id}::uuid`,
    );
    const block = appealBlock(incident.status, Boolean(strike?.active), incident.decisions);
    if (block) throw new AppError("conflict", message(`integrity:${block}`));
    await recordDecision(tx, id, actor, { action: "appeal", note, status: "appealed" }, now);
  });
}
