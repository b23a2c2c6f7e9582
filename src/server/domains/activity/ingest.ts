import { sql } from "drizzle-orm";
import { type ActivityFact, activityFactSchema, type IngestResult } from "../../../shared/contracts/activity";
import { localDateOf } from "../../../shared/time-zone";
import { computeXp } from "../../../shared/xp-rules";
import { type Database, queryRows } from "../../db/client";
import { activityEvents, dailyStudentMetrics, xpLedger } from "./schema";
import { xpRulesOf } from "./settings";

/** Events may arrive a little ahead of the server's clock, never from the future. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

type Candidate = { index: number; fact: ActivityFact };

/** One event of a request: a fact to check, or the reason it could not even be read. */
export type IngestItem = { fact: unknown } | { eventId: string | null; reason: string };

interface Student {
  sourcedId: string;
  email: string | null;
  timezone: string;
}

/** Finds the students a batch names, by sourcedId or email, in one query. Only active students count. */
async function findStudents(db: Database, facts: ActivityFact[]) {
  const ids = [...new Set(facts.flatMap((fact) => (fact.studentId ? [fact.studentId] : [])))];
  const emails = [...new Set(facts.flatMap((fact) => (fact.email ? [fact.email.toLowerCase()] : [])))];
  const rows = await queryRows<Student>(
    db,
    sql`select u.sourced_id as "sourcedId", lower(u.email) as email, u.timezone
        from users u
        where (${ids.length ? sql`u.sourced_id in ${ids}` : sql`false`}
               or ${emails.length ? sql`lower(u.email) in ${emails}` : sql`false`})
          and u.status = 'active'
          and exists (select 1 from user_roles r where r.user_sourced_id = u.sourced_id and lower(r.role) = 'student')`,
  );
  const byId = new Map(rows.map((row) => [row.sourcedId, row]));
  const byEmail = new Map(rows.flatMap((row) => (row.email ? [[row.email, row] as const] : [])));
  return (fact: ActivityFact) =>
    (fact.studentId ? byId.get(fact.studentId) : undefined) ??
    (fact.email ? byEmail.get(fact.email.toLowerCase()) : undefined);
}

/**
 * Stores a batch of activity events from one app. Each event is checked on its own: good ones are
 * stored even when others are bad, an event id the app sent before is a duplicate, and unknown
 * students are rejected. XP, the ledger and the daily totals are written in the same transaction.
 */
export async function ingestActivity(
  db: Database,
  appId: string,
  items: readonly IngestItem[],
  now: Date = new Date(),
): Promise<IngestResult> {
  const result: IngestResult = { accepted: [], duplicates: [], rejected: [] };
  const candidates: Candidate[] = [];
  const seen = new Set<string>();

  items.forEach((item, index) => {
    if ("reason" in item) {
      result.rejected.push({ index, eventId: item.eventId, reason: item.reason });
      return;
    }
    const parsed = activityFactSchema.safeParse(item.fact);
    const claimedId = (item.fact as { eventId?: unknown } | null)?.eventId;
    const eventId = typeof claimedId === "string" ? claimedId : null;
    if (!parsed.success) {
      const reason = parsed.error.issues
        .map((issue) => `${issue.path.join(".") || "event"}: ${issue.message}`)
        .join("; ");
      result.rejected.push({ index, eventId, reason });
    } else if (new Date(parsed.data.occurredAt).getTime() > now.getTime() + MAX_CLOCK_SKEW_MS) {
      result.rejected.push({ index, eventId, reason: "occurredAt: is in the future" });
    } else if (seen.has(parsed.data.eventId)) {
      result.duplicates.push({ index, eventId: parsed.data.eventId });
    } else {
      seen.add(parsed.data.eventId);
      candidates.push({ index, fact: parsed.data });
    }
  });
  if (candidates.length === 0) return sortResult(result);

  const [studentOf, rules] = await Promise.all([
    findStudents(
      db,
      candidates.map((candidate) => candidate.fact),
    ),
    xpRulesOf(db),
  ]);
  const rows = candidates.flatMap(({ index, fact }) => {
    const student = studentOf(fact);
    if (!student) {
      result.rejected.push({
        index,
        eventId: fact.eventId,
        reason: "Unknown student: no active student has this id or email",
      });
      return [];
    }
    const award = computeXp(
      {
        baseXp: fact.expectedXp ?? fact.xpEarned ?? 0,
        totalQuestions: fact.totalQuestions,
        correctQuestions: fact.correctQuestions,
        attempt: fact.attempt,
        activeSeconds: fact.activeSeconds,
        wasteSeconds: fact.wasteSeconds,
        antiPatternSeconds: fact.antiPatternSeconds,
      },
      rules,
    );
    const occurredAt = new Date(fact.occurredAt);
    return [
      { index, fact, student, award, occurredAt, localDate: localDateOf(occurredAt, student.timezone) },
    ];
  });
  if (rows.length === 0) return sortResult(result);

  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(activityEvents)
      .values(
        rows.map((row) => ({
          appId,
          eventId: row.fact.eventId,
          studentSourcedId: row.student.sourcedId,
          occurredAt: row.occurredAt,
          localDate: row.localDate,
          subject: row.fact.subject,
          activityId: row.fact.activityId,
          activityName: row.fact.activityName,
          expectedXp: row.fact.expectedXp ?? row.fact.xpEarned ?? null,
          totalQuestions: row.fact.totalQuestions,
          correctQuestions: row.fact.correctQuestions,
          masteredUnits: row.fact.masteredUnits,
          activeSeconds: row.fact.activeSeconds,
          inactiveSeconds: row.fact.inactiveSeconds,
          wasteSeconds: row.fact.wasteSeconds,
          antiPatternSeconds: row.fact.antiPatternSeconds,
          attempt: row.fact.attempt,
          awardedXp: row.award.xp,
          xpExplanation: row.award.explanation,
          receivedAt: now,
        })),
      )
      .onConflictDoNothing({ target: [activityEvents.appId, activityEvents.eventId] })
      .returning({ id: activityEvents.id, eventId: activityEvents.eventId });

    const storedIds = new Map(inserted.map((row) => [row.eventId, row.id]));
    const stored = rows.filter((row) => {
      if (storedIds.has(row.fact.eventId)) return true;
      result.duplicates.push({ index: row.index, eventId: row.fact.eventId });
      return false;
    });
    if (stored.length === 0) return;

    await tx.insert(xpLedger).values(
      stored.map((row) => ({
        studentSourcedId: row.student.sourcedId,
        amount: row.award.xp,
        reason: `${row.fact.activityName ?? row.fact.subject}: ${row.award.explanation}`,
        source: "activity" as const,
        activityEventId: storedIds.get(row.fact.eventId),
        localDate: row.localDate,
        subject: row.fact.subject,
        appId,
        idempotencyKey: `activity:${appId}:${row.fact.eventId}`,
        createdAt: now,
      })),
    );
    await addToDailyMetrics(
      tx as unknown as Database,
      stored.map((row) => ({
        studentSourcedId: row.student.sourcedId,
        localDate: row.localDate,
        subject: row.fact.subject,
        appKey: appId,
        xp: row.award.xp,
        activeSeconds: row.fact.activeSeconds,
        wasteSeconds: row.fact.wasteSeconds,
        totalQuestions: row.fact.totalQuestions,
        correctQuestions: row.fact.correctQuestions,
        masteredUnits: row.fact.masteredUnits,
        events: 1,
        lastEventAt: row.occurredAt,
      })),
    );
    for (const row of stored)
      result.accepted.push({ index: row.index, eventId: row.fact.eventId, xp: row.award.xp });
  });
  return sortResult(result);
}

type MetricsDelta = typeof dailyStudentMetrics.$inferInsert & { lastEventAt: Date | null };

/** Adds deltas to the daily totals: rows of the same day, subject and app are summed first. */
export async function addToDailyMetrics(db: Database, deltas: MetricsDelta[]): Promise<void> {
  const grouped = new Map<string, MetricsDelta>();
  for (const delta of deltas) {
    const key = `${delta.studentSourcedId}|${delta.localDate}|${delta.subject}|${delta.appKey}`;
    const current = grouped.get(key);
    if (!current) {
      grouped.set(key, { ...delta });
      continue;
    }
    current.xp = Math.round(((current.xp ?? 0) + (delta.xp ?? 0)) * 100) / 100;
    current.activeSeconds = (current.activeSeconds ?? 0) + (delta.activeSeconds ?? 0);
    current.wasteSeconds = (current.wasteSeconds ?? 0) + (delta.wasteSeconds ?? 0);
    current.totalQuestions = (current.totalQuestions ?? 0) + (delta.totalQuestions ?? 0);
    current.correctQuestions = (current.correctQuestions ?? 0) + (delta.correctQuestions ?? 0);
    current.masteredUnits = (current.masteredUnits ?? 0) + (delta.masteredUnits ?? 0);
    current.events = (current.events ?? 0) + (delta.events ?? 0);
    if (delta.lastEventAt && (!current.lastEventAt || delta.lastEventAt > current.lastEventAt))
      current.lastEventAt = delta.lastEventAt;
  }
  // Rows go in key order, so concurrent batches lock shared totals in the same order and never deadlock.
  const ordered = [...grouped.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, row]) => row);
  const m = dailyStudentMetrics;
  await db
    .insert(m)
    .values(ordered)
    .onConflictDoUpdate({
      target: [m.studentSourcedId, m.localDate, m.subject, m.appKey],
      set: {
        xp: sql`${m.xp} + excluded.xp`,
        activeSeconds: sql`${m.activeSeconds} + excluded.active_seconds`,
        wasteSeconds: sql`${m.wasteSeconds} + excluded.waste_seconds`,
        totalQuestions: sql`${m.totalQuestions} + excluded.total_questions`,
        correctQuestions: sql`${m.correctQuestions} + excluded.correct_questions`,
        masteredUnits: sql`${m.masteredUnits} + excluded.mastered_units`,
        events: sql`${m.events} + excluded.events`,
        lastEventAt: sql`greatest(${m.lastEventAt}, excluded.last_event_at)`,
      },
    });
}

function sortResult(result: IngestResult): IngestResult {
  const byIndex = (a: { index: number }, b: { index: number }) => a.index - b.index;
  return {
    accepted: result.accepted.sort(byIndex),
    duplicates: result.duplicates.sort(byIndex),
    rejected: result.rejected.sort(byIndex),
  };
}
