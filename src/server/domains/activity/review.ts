import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { ActivityFact, HeldEvent, heldEventsQuerySchema } from "../../../shared/contracts/activity";
import { DEFAULT_LANGUAGE, type Language } from "../../../shared/languages";
import type { Database } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { canSeeStudent, studentIdsInReach } from "../rostering/scope";
import { emitLearningEvents } from "../webhooks/learning-events";
import { type ChangedSummaries, markHomeSummariesChanged, rewriteHomeSummaries } from "./home-summaries";
import { heldReasonIn, upsertDailyTotals } from "./ingest";
import { activityEvents, dailyIngestTotals, heldActivityEvents, learningApps, xpLedger } from "./schema";

/**
 * Events held for review: administrators review every student's, Guides their own students'.
 * Approving credits the XP through the ledger once; dismissing keeps the event out of it.
 */

const held = heldActivityEvents;

const heldEventColumns = {
  id: held.id,
  eventId: held.eventId,
  studentId: held.studentSourcedId,
  studentName: sql<string>`(select given_name || ' ' || family_name from users s where s.sourced_id = ${held.studentSourcedId})`,
  appName: learningApps.name,
  subject: held.subject,
  activityName: held.activityName,
  occurredAt: held.occurredAt,
  localDate: held.localDate,
  fact: held.fact,
  xp: held.xp,
  xpExplanation: held.xpExplanation,
  heldReason: held.heldReason,
  status: held.status,
  reviewerName: sql<
    string | null
  >`(select given_name || ' ' || family_name from users r where r.sourced_id = ${held.reviewerSourcedId})`,
  reviewNote: held.reviewNote,
  reviewedAt: held.reviewedAt,
  receivedAt: held.receivedAt,
};

/** Held events with the names a reviewer reads; callers add their own conditions. */
const selectHeld = (db: Database) =>
  db.select(heldEventColumns).from(held).leftJoin(learningApps, eq(learningApps.id, held.appId)).$dynamic();
type HeldRow = Awaited<ReturnType<typeof selectHeld>>[number];

/** A held event as its reviewer reads it, in their language. */
function toHeldEvent({ fact, ...row }: HeldRow, language: Language): HeldEvent {
  const figures = fact as ActivityFact;
  return {
    ...row,
    heldReason: heldReasonIn(row.heldReason, language),
    xp: Number(row.xp),
    occurredAt: new Date(row.occurredAt).toISOString(),
    receivedAt: new Date(row.receivedAt).toISOString(),
    reviewedAt: row.reviewedAt ? new Date(row.reviewedAt).toISOString() : null,
    activeSeconds: figures.activeSeconds,
    totalQuestions: figures.totalQuestions,
    correctQuestions: figures.correctQuestions,
  };
}

/** Whose held events the caller reviews, as a condition: every student's for administrators. */
function reviewableBy(actor: Actor): SQL {
  return actor.activeRole === "administrator"
    ? sql`true`
    : sql`${held.studentSourcedId} in (${studentIdsInReach(actor)})`;
}

/** Held events the caller may review, newest first. */
export async function listHeldEvents(
  db: Database,
  actor: Actor,
  query: z.output<typeof heldEventsQuerySchema>,
  language: Language,
) {
  const where = and(
    reviewableBy(actor),
    query.status === "all" ? undefined : eq(held.status, query.status),
    query.studentId ? eq(held.studentSourcedId, query.studentId) : undefined,
  );
  const [rows, [count]] = await Promise.all([
    selectHeld(db)
      .where(where)
      .orderBy(desc(held.receivedAt), desc(held.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ total: sql<number>`count(*)::int` }).from(held).where(where),
  ]);
  return { data: rows.map((row) => toHeldEvent(row, language)), total: count?.total ?? 0 };
}

/** One student's held events of a day, for "why this number". */
export async function heldEventsOfDay(
  db: Database,
  studentId: string,
  day: string,
  language: Language,
): Promise<HeldEvent[]> {
  const rows = await selectHeld(db)
    .where(and(eq(held.studentSourcedId, studentId), eq(held.localDate, day)))
    .orderBy(held.occurredAt, held.id);
  return rows.map((row) => toHeldEvent(row, language));
}

async function findHeldEvent(db: Database, heldId: string, language: Language): Promise<HeldEvent> {
  const [row] = await selectHeld(db).where(eq(held.id, heldId));
  if (!row) throw new AppError("not_found", message("activity:held.notFound"));
  return toHeldEvent(row, language);
}

/** Finds a held event the caller may review; someone else's student is a 403. */
async function reviewableHeldEvent(db: Database, actor: Actor, heldId: string): Promise<HeldEvent> {
  const event = await findHeldEvent(db, heldId, DEFAULT_LANGUAGE);
  if (!(await canSeeStudent(db, actor, event.studentId)))
    throw new AppError("forbidden", message("activity:students.forbidden"));
  return event;
}

/** Locks a held event inside a transaction, so two reviewers deciding at once are taken in turn. */
async function lockHeldEvent(tx: Database, heldId: string) {
  const [row] = await tx.select().from(held).where(eq(held.id, heldId)).for("update");
  if (!row) throw new AppError("not_found", message("activity:held.notFound"));
  return row;
}

/**
 * Credits a held event: stores it as an activity event, adds its XP to the ledger under the
 * reviewer's name with a key of its own (approving twice credits once) and to the daily totals.
 * Its active seconds already count in the day's totals from when it was held.
 */
export async function approveHeldEvent(
  db: Database,
  actor: Actor,
  heldId: string,
  note: string | undefined,
  now: Date,
  language: Language,
) {
  await reviewableHeldEvent(db, actor, heldId);
  const reviewer = actor.realUser.sourcedId;
  const { isReplay, changed } = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const row = await lockHeldEvent(tx, heldId);
    if (row.status === "approved") return { isReplay: true, changed: new Map() as ChangedSummaries };
    if (row.status === "dismissed") throw new AppError("conflict", message("activity:held.alreadyDismissed"));
    const fact = row.fact as ActivityFact;
    const [event] = await tx
      .insert(activityEvents)
      .values({
        appId: row.appId,
        eventId: row.eventId,
        studentSourcedId: row.studentSourcedId,
        occurredAt: row.occurredAt,
        localDate: row.localDate,
        subject: row.subject,
        activityId: fact.activityId ?? null,
        activityName: fact.activityName ?? null,
        sessionId: fact.sessionId ?? null,
        expectedXp: fact.expectedXp ?? fact.xpEarned ?? null,
        totalQuestions: fact.totalQuestions,
        correctQuestions: fact.correctQuestions,
        masteredUnits: fact.masteredUnits,
        scorePercent: fact.scorePercent ?? null,
        activeSeconds: fact.activeSeconds,
        inactiveSeconds: fact.inactiveSeconds,
        wasteSeconds: fact.wasteSeconds,
        antiPatternSeconds: fact.antiPatternSeconds,
        attempt: fact.attempt,
        awardedXp: row.xp,
        xpExplanation: row.xpExplanation,
        receivedAt: row.receivedAt,
      })
      .onConflictDoNothing()
      .returning({ id: activityEvents.id });
    const [credited] = await tx
      .insert(xpLedger)
      .values({
        studentSourcedId: row.studentSourcedId,
        amount: row.xp,
        reason: `${row.activityName ?? row.subject}: ${row.xpExplanation} (approved after review)`,
        source: "activity",
        activityEventId: event?.id ?? null,
        actorSourcedId: reviewer,
        localDate: row.localDate,
        subject: row.subject,
        appId: row.appId,
        idempotencyKey: `held:${row.id}`,
        createdAt: now,
      })
      .onConflictDoNothing({ target: xpLedger.idempotencyKey })
      .returning({ id: xpLedger.id });
    if (credited) {
      await tx.execute(
        upsertDailyTotals(
          sql`values (${row.studentSourcedId}, ${row.localDate}::date, ${row.subject}, ${row.appId}, ${row.xp}::numeric,
            ${fact.activeSeconds}::int, ${fact.wasteSeconds}::int, ${fact.totalQuestions}::int, ${fact.correctQuestions}::int,
            ${fact.masteredUnits}::int, 1, ${row.occurredAt}::timestamptz)`,
        ),
      );
      await emitLearningEvents(
        tx,
        { source: "review", appId: row.appId, key: `held:${row.id}` },
        [
          {
            studentId: row.studentSourcedId,
            eventId: row.eventId,
            subject: row.subject,
            localDate: row.localDate,
            xp: Number(row.xp),
          },
        ],
        now,
      );
    }
    await tx
      .update(held)
      .set({ status: "approved", reviewerSourcedId: reviewer, reviewNote: note || null, reviewedAt: now })
      .where(eq(held.id, heldId));
    const changed = credited
      ? await markHomeSummariesChanged(tx, [row.studentSourcedId])
      : (new Map() as ChangedSummaries);
    return { isReplay: false, changed };
  });
  await rewriteHomeSummaries(db, changed, now);
  return { event: await findHeldEvent(db, heldId, language), isReplay };
}

/** Keeps a held event out of the ledger for good, with the reviewer's reason; its seconds no longer count. */
export async function dismissHeldEvent(
  db: Database,
  actor: Actor,
  heldId: string,
  reason: string,
  now: Date,
  language: Language,
) {
  await reviewableHeldEvent(db, actor, heldId);
  const isReplay = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const row = await lockHeldEvent(tx, heldId);
    if (row.status === "dismissed") return true;
    if (row.status === "approved") throw new AppError("conflict", message("activity:held.alreadyApproved"));
    const { activeSeconds } = row.fact as ActivityFact;
    await tx
      .update(dailyIngestTotals)
      .set({ activeSeconds: sql`greatest(${dailyIngestTotals.activeSeconds} - ${activeSeconds}, 0)` })
      .where(
        and(
          eq(dailyIngestTotals.studentSourcedId, row.studentSourcedId),
          eq(dailyIngestTotals.localDate, row.localDate),
        ),
      );
    await tx
      .update(held)
      .set({
        status: "dismissed",
        reviewerSourcedId: actor.realUser.sourcedId,
        reviewNote: reason,
        reviewedAt: now,
      })
      .where(eq(held.id, heldId));
    return false;
  });
  return { event: await findHeldEvent(db, heldId, language), isReplay };
}
