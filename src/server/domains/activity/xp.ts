import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { manualXpRequestSchema, XpDay } from "../../../shared/contracts/activity";
import type { Language } from "../../../shared/languages";
import { addDays, daysBetween, localDateOf } from "../../../shared/time-zone";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { users } from "../rostering/schema";
import { studentVisibleTo } from "../rostering/scope";
import { emitLearningEvents } from "../webhooks/learning-events";
import { type ChangedSummaries, markHomeSummariesChanged, rewriteHomeSummaries } from "./home-summaries";
import { upsertDailyTotals } from "./ingest";
import { heldEventsOfDay } from "./review";
import { activityEvents, learningApps, xpLedger } from "./schema";

export const MAX_HEATMAP_DAYS = 731;

export async function studentTimezone(db: Database, studentId: string): Promise<string> {
  const [row] = await db
    .select({ timezone: users.timezone })
    .from(users)
    .where(eq(users.sourcedId, studentId));
  if (!row) throw new AppError("not_found", message("activity:students.notFound"));
  return row.timezone;
}

/**
 * XP per day of the student's own calendar, every day of the range, from the daily totals, or null
 * when the caller may not see the student. Who may see whom is always asked of the primary: in the
 * same query when the figures come from it too, else first, and the figures from the replica (a
 * second behind at most). The totals come as one string of "day offset, XP" pairs, the cheapest
 * shape to pass on.
 */
export async function xpHeatmap(
  { db, readDb }: { db: Database; readDb: Database },
  actor: Actor,
  studentId: string,
  startDate: string,
  endDate: string,
) {
  const visible = studentVisibleTo(actor, studentId);
  if (!visible) return null;
  const figures = sql`(select string_agg((local_date - ${startDate}::date) || ' ' || xp, ',')
    from daily_student_metrics
    where student_sourced_id = ${studentId} and local_date between ${startDate} and ${endDate}) as figures`;
  const onPrimary = readDb === db;
  const [check] = await queryRows<{ allowed: boolean; figures?: string | null }>(
    db,
    sql`select ${visible} as allowed${onPrimary ? sql`, ${figures}` : sql``}`,
  );
  if (!check?.allowed) return null;
  const pairs = onPrimary
    ? check.figures
    : (await queryRows<{ figures: string | null }>(readDb, sql`select ${figures}`))[0]?.figures;
  const days = Array.from({ length: daysBetween(startDate, endDate) + 1 }, (_, offset) => ({
    date: addDays(startDate, offset),
    xpGained: 0,
  }));
  for (const pair of pairs?.split(",") ?? []) {
    const [offset, xp] = pair.split(" ");
    const day = days[Number(offset)] as { xpGained: number };
    day.xpGained = Math.round((day.xpGained + Number(xp)) * 100) / 100;
  }
  return days;
}

type ManualXp = z.output<typeof manualXpRequestSchema>;

/**
 * Awards or deducts XP by hand, with a reason, on the student's today. Retrying with the same
 * idempotency key returns the first award; reusing the key for something else is a conflict.
 */
export async function awardManualXp(db: Database, actor: Actor, input: ManualXp, now: Date) {
  return awardManualXpAs(db, actor.realUser.sourcedId, input, now);
}

/** The same, given by the person with this sourcedId: for callers without a request, like the demo seed. */
export async function awardManualXpAs(db: Database, actorSourcedId: string, input: ManualXp, now: Date) {
  const timezone = await studentTimezone(db, input.studentId);
  const localDate = localDateOf(now, timezone);
  const idempotencyKey = `manual:${actorSourcedId}:${input.idempotencyKey}`;
  const { changed, ...award } = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(xpLedger)
      .values({
        studentSourcedId: input.studentId,
        amount: input.amount,
        reason: input.reason,
        source: "manual",
        actorSourcedId,
        localDate,
        subject: input.subject,
        idempotencyKey,
        createdAt: now,
      })
      .onConflictDoNothing({ target: xpLedger.idempotencyKey })
      .returning();
    if (created) {
      await tx.execute(
        upsertDailyTotals(
          sql`values (${input.studentId}, ${localDate}::date, ${input.subject}, 'manual', ${input.amount}::numeric,
            0, 0, 0, 0, 0, 0, null::timestamptz)`,
        ),
      );
      await emitLearningEvents(
        tx as unknown as Database,
        { source: "manual", key: idempotencyKey },
        [{ studentId: input.studentId, eventId: null, subject: input.subject, localDate, xp: input.amount }],
        now,
      );
      const changed = await markHomeSummariesChanged(tx as unknown as Database, [input.studentId]);
      return { entry: created, isReplay: false, changed };
    }
    const [existing] = await tx.select().from(xpLedger).where(eq(xpLedger.idempotencyKey, idempotencyKey));
    const isSame =
      existing?.studentSourcedId === input.studentId &&
      Number(existing.amount) === input.amount &&
      existing.reason === input.reason &&
      existing.subject === input.subject;
    if (!existing || !isSame) throw new AppError("conflict", message("activity:xp.idempotencyKeyReused"));
    return { entry: existing, isReplay: true, changed: new Map() as ChangedSummaries };
  });
  await rewriteHomeSummaries(db, changed, now);
  return award;
}

/** A ledger entry as the history and the day's view show it, with who gave a manual one. */
const ledgerEntryColumns = {
  id: xpLedger.id,
  amount: xpLedger.amount,
  reason: xpLedger.reason,
  source: xpLedger.source,
  subject: xpLedger.subject,
  localDate: xpLedger.localDate,
  createdAt: xpLedger.createdAt,
  actorName: sql<
    string | null
  >`(select given_name || ' ' || family_name from users a where a.sourced_id = ${xpLedger.actorSourcedId})`,
};

/**
 * A student's XP entries, newest first, with who gave manual ones and, for learning, what the
 * activity was and how it went (so a child's page can say it in a sentence).
 */
export async function xpHistory(db: Database, studentId: string, page: { limit: number; offset: number }) {
  const e = activityEvents;
  return db
    .select({
      ...ledgerEntryColumns,
      activity: {
        name: e.activityName,
        totalQuestions: e.totalQuestions,
        correctQuestions: e.correctQuestions,
        attempt: e.attempt,
        activeSeconds: e.activeSeconds,
        wasteSeconds: e.wasteSeconds,
        antiPatternSeconds: e.antiPatternSeconds,
      },
    })
    .from(xpLedger)
    .leftJoin(e, eq(e.id, xpLedger.activityEventId))
    .where(eq(xpLedger.studentSourcedId, studentId))
    .orderBy(desc(xpLedger.createdAt), desc(xpLedger.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** How many XP entries a student has. */
export async function xpHistoryTotal(db: Database, studentId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<number | string>`count(*)` })
    .from(xpLedger)
    .where(eq(xpLedger.studentSourcedId, studentId));
  return Number(row?.total ?? 0);
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * One student's day (their own calendar) for "why this number": every raw event with the XP it
 * earned and the stored explanation, the manual entries, and the totals per subject.
 */
export async function xpDay(
  db: Database,
  studentId: string,
  date: string | undefined,
  now: Date,
  language: Language,
) {
  const [student] = await db
    .select({
      sourcedId: users.sourcedId,
      givenName: users.givenName,
      familyName: users.familyName,
      timezone: users.timezone,
    })
    .from(users)
    .where(eq(users.sourcedId, studentId));
  if (!student) throw new AppError("not_found", message("activity:students.notFound"));
  const today = localDateOf(now, student.timezone);
  const day = date ?? today;
  const e = activityEvents;
  const [events, manual, stored, held] = await Promise.all([
    db
      .select({
        id: e.id,
        eventId: e.eventId,
        appName: learningApps.name,
        subject: e.subject,
        activityId: e.activityId,
        activityName: e.activityName,
        occurredAt: e.occurredAt,
        totalQuestions: e.totalQuestions,
        correctQuestions: e.correctQuestions,
        activeSeconds: e.activeSeconds,
        wasteSeconds: e.wasteSeconds,
        antiPatternSeconds: e.antiPatternSeconds,
        attempt: e.attempt,
        expectedXp: e.expectedXp,
        awardedXp: e.awardedXp,
        xpExplanation: e.xpExplanation,
      })
      .from(e)
      .leftJoin(learningApps, eq(learningApps.id, e.appId))
      .where(and(eq(e.studentSourcedId, studentId), eq(e.localDate, day)))
      .orderBy(asc(e.occurredAt), asc(e.id)),
    db
      .select(ledgerEntryColumns)
      .from(xpLedger)
      .where(
        and(
          eq(xpLedger.studentSourcedId, studentId),
          eq(xpLedger.localDate, day),
          eq(xpLedger.source, "manual"),
        ),
      )
      .orderBy(asc(xpLedger.createdAt), asc(xpLedger.id)),
    queryRows<{ subject: string; xp: string | number }>(
      db,
      sql`select subject, sum(xp) as xp from daily_student_metrics
          where student_sourced_id = ${studentId} and local_date = ${day} group by subject`,
    ),
    heldEventsOfDay(db, studentId, day, language),
  ]);

  const totals = new Map<string, { subject: string; eventXp: number; manualXp: number; totalXp: number }>();
  const totalOf = (subject: string) => {
    let entry = totals.get(subject);
    if (!entry) {
      entry = { subject, eventXp: 0, manualXp: 0, totalXp: 0 };
      totals.set(subject, entry);
    }
    return entry;
  };
  for (const event of events) totalOf(event.subject).eventXp += Number(event.awardedXp);
  for (const entry of manual) totalOf(entry.subject).manualXp += Number(entry.amount);
  for (const row of stored) totalOf(row.subject).totalXp += Number(row.xp);

  const result: XpDay = {
    student: { ...student, today },
    date: day,
    events: events.map((event) => ({
      ...event,
      occurredAt: new Date(event.occurredAt).toISOString(),
      expectedXp: event.expectedXp === null ? null : Number(event.expectedXp),
      awardedXp: Number(event.awardedXp),
      accuracy: event.totalQuestions > 0 ? event.correctQuestions / event.totalQuestions : null,
    })),
    manual: manual.map((entry) => ({
      ...entry,
      amount: Number(entry.amount),
      createdAt: new Date(entry.createdAt).toISOString(),
    })),
    held,
    totals: [...totals.values()]
      .map((entry) => ({
        subject: entry.subject,
        eventXp: round2(entry.eventXp),
        manualXp: round2(entry.manualXp),
        totalXp: round2(entry.totalXp),
      }))
      .sort((a, b) => a.subject.localeCompare(b.subject)),
    totalXp: round2(stored.reduce((sum, row) => sum + Number(row.xp), 0)),
  };
  return result;
}

/**
 * Voids the XP a student earned in one learning session of an app, after a focus incident naming
 * that session was confirmed: a negative ledger entry per event, each keyed by the incident and
 * the event, for events not already voided by another incident. Runs inside the caller's
 * transaction; answers the XP voided and the summaries to rewrite once it commits.
 */
export async function voidSessionXp(
  tx: Database,
  voiding: { incidentId: string; studentId: string; sessionId: string },
  now: Date,
): Promise<{ voided: number; changed: ChangedSummaries }> {
  const rows = await queryRows<{ xp: string | number | null }>(
    tx,
    sql`with voided as (
        insert into xp_ledger (student_sourced_id, amount, reason, source, activity_event_id, local_date, subject,
          app_id, idempotency_key, created_at)
        select e.student_sourced_id, -e.awarded_xp, ${VOIDED_REASON}, 'integrity', e.id, e.local_date, e.subject,
          e.app_id, 'integrity:' || ${voiding.incidentId} || ':void:' || e.id, ${now}
        from activity_events e
        where e.student_sourced_id = ${voiding.studentId} and e.session_id = ${voiding.sessionId}
          and e.awarded_xp > 0
          and (select coalesce(sum(v.amount), 0) from xp_ledger v
            where v.activity_event_id = e.id and v.source = 'integrity') = 0
        order by e.local_date, e.subject, e.app_id
        on conflict (idempotency_key) do nothing
        returning student_sourced_id, local_date, subject, app_id, amount),
      totals as (
        ${upsertDailyTotals(sql`select student_sourced_id, local_date, subject, app_id::text, sum(amount), 0, 0, 0, 0, 0, 0,
            null::timestamptz from voided group by 1, 2, 3, 4 order by 1, 2, 3, 4`)})
      select -sum(amount) as xp from voided`,
  );
  const voided = Number(rows[0]?.xp ?? 0);
  const changed = voided > 0 ? await markHomeSummariesChanged(tx, [voiding.studentId]) : new Map();
  return { voided, changed };
}

/** Gives back the XP an incident voided, when its strike is lifted on appeal. */
export async function restoreVoidedXp(
  tx: Database,
  incidentId: string,
  now: Date,
): Promise<ChangedSummaries> {
  const restored = await queryRows<{ studentId: string }>(
    tx,
    sql`with restored as (
        insert into xp_ledger (student_sourced_id, amount, reason, source, activity_event_id, local_date, subject,
          app_id, idempotency_key, created_at)
        select v.student_sourced_id, -v.amount, ${RESTORED_REASON}, 'integrity', v.activity_event_id, v.local_date,
          v.subject, v.app_id, 'integrity:' || ${incidentId} || ':restore:' || v.activity_event_id, ${now}
        from xp_ledger v
        where v.idempotency_key like ${`integrity:${incidentId}:void:%`}
        order by v.local_date, v.subject, v.app_id
        on conflict (idempotency_key) do nothing
        returning student_sourced_id, local_date, subject, app_id, amount),
      totals as (
        ${upsertDailyTotals(sql`select student_sourced_id, local_date, subject, app_id::text, sum(amount), 0, 0, 0, 0, 0, 0,
            null::timestamptz from restored group by 1, 2, 3, 4 order by 1, 2, 3, 4`)})
      select distinct student_sourced_id as "studentId" from restored`,
  );
  return markHomeSummariesChanged(
    tx,
    restored.map((row) => row.studentId),
  );
}

// The ledger keeps a reason per entry as written; the history names the source beside it.
const VOIDED_REASON = "Voided: a focus incident in this session was confirmed";
const RESTORED_REASON = "Given back: the focus incident was lifted on appeal";
