import { type SQL, sql } from "drizzle-orm";
import {
  type ActivityFact,
  activityFactSchema,
  DEFAULT_INGEST_LIMITS,
  type IngestLimits,
  type IngestResult,
} from "../../../shared/contracts/activity";
import { DEFAULT_LANGUAGE, type Language } from "../../../shared/languages";
import { localDateOf } from "../../../shared/time-zone";
import { computeXp } from "../../../shared/xp-rules";
import { type Database, queryRows } from "../../db/client";
import type { Env } from "../../env";
import { type Message, message, translate } from "../../lib/i18n";
import { unstorableTextIn, validationError } from "../../lib/validation";
import { isStudent } from "../rostering/queries";
import { emitLearningEvents } from "../webhooks/learning-events";
import { markHomeSummariesChanged, rewriteHomeSummaries } from "./home-summaries";
import { xpRulesOf } from "./settings";

export function ingestLimitsFromEnv(env: Env): IngestLimits {
  return {
    maxXpPerEvent: env.INGEST_MAX_XP_PER_EVENT,
    maxActiveSecondsPerEvent: env.INGEST_MAX_ACTIVE_SECONDS_PER_EVENT,
    maxActiveSecondsPerDay: env.INGEST_MAX_ACTIVE_SECONDS_PER_DAY,
    maxAutoXpPerDay: env.INGEST_MAX_AUTO_XP_PER_DAY,
    maxPastDays: env.INGEST_MAX_PAST_DAYS,
    maxFutureMinutes: env.INGEST_MAX_FUTURE_MINUTES,
  };
}

/**
 * Why an event was held, as a person reads it on the held events' page. It is stored, and answered
 * to the app, in English; `heldReasonIn` says it again in the reader's language.
 */
function heldReason(day: string, limit: number | string, credited: number | string): Message {
  return message("activity:held.reason", { day, limit, credited });
}

// The stored English of `heldReason`, read back into its values.
const HELD_REASON =
  /^Held for review: the XP credited without review on (\d{4}-\d{2}-\d{2}) would pass ([\d.]+) \(([\d.]+) already credited\)$/;

/** A stored held reason in `language`; a text of another form is left as it was stored. */
export function heldReasonIn(stored: string, language: Language): string {
  const found = HELD_REASON.exec(stored);
  if (language === DEFAULT_LANGUAGE || !found) return stored;
  const [, day = "", limit = "", credited = ""] = found;
  return translate(heldReason(day, limit, credited), language);
}

/** Why an event's own figures are not believable, or null: checked before any student-day is read. */
function implausibility(fact: ActivityFact, now: Date, limits: IngestLimits): string | null {
  const occurredAt = new Date(fact.occurredAt).getTime();
  if (occurredAt > now.getTime() + limits.maxFutureMinutes * 60_000)
    return `occurredAt: is in the future (more than ${limits.maxFutureMinutes} minutes ahead of the server's clock)`;
  if (occurredAt < now.getTime() - limits.maxPastDays * 86_400_000)
    return `occurredAt: is more than ${limits.maxPastDays} days in the past`;
  const xpField = fact.expectedXp !== undefined ? "expectedXp" : "xpEarned";
  const xp = fact.expectedXp ?? fact.xpEarned ?? 0;
  if (xp > limits.maxXpPerEvent)
    return `${xpField}: ${xp} XP is more than one event may carry (at most ${limits.maxXpPerEvent})`;
  if (fact.activeSeconds > limits.maxActiveSecondsPerEvent)
    return `activeSeconds: ${fact.activeSeconds} seconds is more than one event may report (at most ${limits.maxActiveSecondsPerEvent})`;
  return null;
}

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
  // Both lists travel as one JSON parameter each: a thousand separate parameters cost more to bind than to search.
  const rows = await queryRows<Student>(
    db,
    sql`select u.sourced_id as "sourcedId", lower(u.email) as email, u.timezone
        from users u
        where (u.sourced_id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))
               or lower(u.email) in (select jsonb_array_elements_text(${JSON.stringify(emails)}::jsonb)))
          and u.status = 'active'
          and ${isStudent(sql`u.sourced_id`)}`,
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
 * students and implausible figures are rejected. Events past the XP a student-day may earn
 * without review are held for a person to approve. XP, the ledger, the daily totals and the held
 * events are written in one transaction.
 */
export async function ingestActivity(
  db: Database,
  appId: string,
  items: readonly IngestItem[],
  now: Date = new Date(),
  limits: IngestLimits = DEFAULT_INGEST_LIMITS,
  /** Told, after the commit, which students were credited XP (live updates of their homes). */
  onCredited: (studentIds: string[]) => Promise<void> = async () => {},
): Promise<IngestResult> {
  const result: IngestResult = { accepted: [], duplicates: [], rejected: [], held: [] };
  const candidates: Candidate[] = [];
  const seen = new Set<string>();

  items.forEach((item, index) => {
    if ("reason" in item) {
      result.rejected.push({ index, eventId: item.eventId, reason: item.reason });
      return;
    }
    const claimedId = (item.fact as { eventId?: unknown } | null)?.eventId;
    const eventId = typeof claimedId === "string" ? claimedId : null;
    // PostgreSQL cannot store these strings at all; caught here, they cost one event, not the batch.
    const unstorable = unstorableTextIn(item.fact);
    if (unstorable) {
      result.rejected.push({ index, eventId, reason: unstorable });
      return;
    }
    const parsed = activityFactSchema.safeParse(item.fact);
    const problem = parsed.success ? implausibility(parsed.data, now, limits) : null;
    if (!parsed.success) {
      // In English, as app developers read it: the shared schema names its messages by catalogue keys.
      const { issues = [] } = validationError(parsed.error).details;
      const reason = issues
        .map((issue) => `${issue.path || "event"}: ${translate(issue.message, DEFAULT_LANGUAGE)}`)
        .join("; ");
      result.rejected.push({ index, eventId, reason });
    } else if (problem) {
      result.rejected.push({ index, eventId, reason: problem });
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

  const { outcomes, credited, changed } = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const stored = await storeBatch(tx, appId, rows, now, limits);
    const acceptedRows = rows.filter((_, position) => stored[position]?.kind === "accepted");
    const creditedIds = acceptedRows.map((row) => row.student.sourcedId);
    await emitLearningEvents(
      tx,
      { source: "activity", appId },
      acceptedRows.map((row) => ({
        studentId: row.student.sourcedId,
        eventId: row.fact.eventId,
        subject: row.fact.subject,
        localDate: row.localDate,
        xp: row.award.xp,
      })),
      now,
    );
    return {
      outcomes: stored,
      credited: creditedIds,
      changed: await markHomeSummariesChanged(tx, creditedIds),
    };
  });
  await rewriteHomeSummaries(db, changed, now);
  rows.forEach((row, position) => {
    const outcome = outcomes[position] as Outcome;
    const eventId = row.fact.eventId;
    if (outcome.kind === "accepted") result.accepted.push({ index: row.index, eventId, xp: row.award.xp });
    else if (outcome.kind === "held")
      result.held.push({
        index: row.index,
        eventId,
        heldId: outcome.heldId,
        xp: row.award.xp,
        reason: outcome.reason,
      });
    else if (outcome.kind === "rejected")
      result.rejected.push({ index: row.index, eventId, reason: outcome.reason });
    else result.duplicates.push({ index: row.index, eventId });
  });
  if (credited.length) await onCredited(credited);
  return sortResult(result);
}

type Outcome =
  | { kind: "accepted" | "duplicate" }
  | { kind: "rejected"; reason: string }
  | { kind: "held"; heldId: string; reason: string };

interface DayTotals {
  student: string;
  day: string;
  activeSeconds: number;
  autoCreditedXp: number;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * Checks the batch against its student-days and writes it, inside the caller's transaction. The
 * student-days' rows in daily_ingest_totals are created (from what is already recorded) and
 * locked first, in key order, so a concurrent batch for the same student-day waits for this one
 * and then sees its figures. Answers each row's outcome, in the order of `rows`.
 */
async function storeBatch(
  tx: Database,
  appId: string,
  rows: ScoredEvent[],
  now: Date,
  limits: IngestLimits,
): Promise<Outcome[]> {
  const keyOf = (student: string, day: string) => `${student}|${day}`;
  const days = [
    ...new Map(
      rows.map((row) => [
        keyOf(row.student.sourcedId, row.localDate),
        { student: row.student.sourcedId, day: row.localDate },
      ]),
    ).values(),
  ];
  const dayList = JSON.stringify(days);
  await tx.execute(
    sql`insert into daily_ingest_totals (student_sourced_id, local_date, active_seconds, auto_credited_xp)
        select d.student, d.day,
          coalesce((select sum(m.active_seconds) from daily_student_metrics m
                    where m.student_sourced_id = d.student and m.local_date = d.day), 0),
          coalesce((select sum(l.amount) from xp_ledger l
                    where l.student_sourced_id = d.student and l.local_date = d.day and l.source = 'activity'
                      and l.actor_sourced_id is null and l.amount > 0), 0)
        from jsonb_to_recordset(${dayList}::jsonb) as d(student text, day date)
        order by d.student, d.day
        on conflict (student_sourced_id, local_date) do nothing`,
  );
  const locked = await queryRows<{
    student: string;
    day: string;
    activeSeconds: number;
    autoCreditedXp: string;
  }>(
    tx,
    sql`select student_sourced_id as student, to_char(local_date, 'YYYY-MM-DD') as day,
          active_seconds as "activeSeconds", auto_credited_xp as "autoCreditedXp"
        from daily_ingest_totals
        where (student_sourced_id, local_date) in
          (select d.student, d.day from jsonb_to_recordset(${dayList}::jsonb) as d(student text, day date))
        order by student_sourced_id, local_date
        for update`,
  );
  const planned = new Map<string, DayTotals>(
    locked.map((row) => [
      keyOf(row.student, row.day),
      { ...row, autoCreditedXp: Number(row.autoCreditedXp) },
    ]),
  );
  const final = new Map([...planned].map(([key, totals]) => [key, { ...totals }]));

  const known = await queryRows<{ eventId: string }>(
    tx,
    sql`with ids as (select jsonb_array_elements_text(${JSON.stringify(rows.map((row) => row.fact.eventId))}::jsonb) as id)
        select event_id as "eventId" from activity_events where app_id = ${appId}::uuid and event_id in (select id from ids)
        union select event_id from held_activity_events where app_id = ${appId}::uuid and event_id in (select id from ids)`,
  );
  const knownIds = new Set(known.map((row) => row.eventId));

  const decisions: Outcome[] = rows.map((row) => {
    if (knownIds.has(row.fact.eventId)) return { kind: "duplicate" };
    const totals = planned.get(keyOf(row.student.sourcedId, row.localDate)) as DayTotals;
    if (totals.activeSeconds + row.fact.activeSeconds > limits.maxActiveSecondsPerDay)
      return {
        kind: "rejected",
        reason: `activeSeconds: the student's day ${row.localDate} would have more than ${limits.maxActiveSecondsPerDay} active seconds (${totals.activeSeconds} already recorded)`,
      };
    totals.activeSeconds += row.fact.activeSeconds;
    if (row.award.xp > 0 && totals.autoCreditedXp + row.award.xp > limits.maxAutoXpPerDay)
      return {
        kind: "held",
        heldId: "",
        reason: translate(
          heldReason(row.localDate, limits.maxAutoXpPerDay, round2(totals.autoCreditedXp)),
          DEFAULT_LANGUAGE,
        ),
      };
    totals.autoCreditedXp = round2(totals.autoCreditedXp + Math.max(row.award.xp, 0));
    return { kind: "accepted" };
  });

  const stored = await storeEvents(
    tx,
    appId,
    rows.filter((_, position) => decisions[position]?.kind === "accepted"),
    now,
  );
  const heldIds = await storeHeldEvents(
    tx,
    appId,
    rows.flatMap((row, position) => {
      const decision = decisions[position] as Outcome;
      return decision.kind === "held" ? [{ ...row, heldReason: decision.reason }] : [];
    }),
    now,
  );

  // The stored totals follow what was written: an event another batch stored first is a duplicate.
  const outcomes = rows.map((row, position): Outcome => {
    const decision = decisions[position] as Outcome;
    const totals = final.get(keyOf(row.student.sourcedId, row.localDate)) as DayTotals;
    if (decision.kind === "accepted") {
      if (!stored.has(row.fact.eventId)) return { kind: "duplicate" };
      totals.activeSeconds += row.fact.activeSeconds;
      totals.autoCreditedXp = round2(totals.autoCreditedXp + Math.max(row.award.xp, 0));
    } else if (decision.kind === "held") {
      const heldId = heldIds.get(row.fact.eventId);
      if (!heldId) return { kind: "duplicate" };
      totals.activeSeconds += row.fact.activeSeconds;
      return { ...decision, heldId };
    }
    return decision;
  });
  await tx.execute(
    sql`update daily_ingest_totals t set active_seconds = d.active_seconds, auto_credited_xp = d.auto_credited_xp
        from jsonb_to_recordset(${JSON.stringify(
          [...final.values()].map((totals) => ({
            student: totals.student,
            day: totals.day,
            active_seconds: totals.activeSeconds,
            auto_credited_xp: totals.autoCreditedXp,
          })),
        )}::jsonb) as d(student text, day date, active_seconds int, auto_credited_xp numeric)
        where t.student_sourced_id = d.student and t.local_date = d.day`,
  );
  return outcomes;
}

/** Writes the held events of a batch; answers their ids by event id (replays are left out). */
async function storeHeldEvents(
  tx: Database,
  appId: string,
  rows: (ScoredEvent & { heldReason: string })[],
  now: Date,
): Promise<Map<string, string>> {
  if (rows.length === 0) return new Map();
  const batch = rows.map(({ fact, student, award, occurredAt, localDate, heldReason }) => ({
    event_id: fact.eventId,
    student_sourced_id: student.sourcedId,
    occurred_at: occurredAt.toISOString(),
    local_date: localDate,
    subject: fact.subject,
    activity_name: fact.activityName ?? null,
    fact,
    xp: award.xp,
    xp_explanation: award.explanation,
    held_reason: heldReason,
  }));
  const inserted = await queryRows<{ id: string; eventId: string }>(
    tx,
    sql`insert into held_activity_events (app_id, event_id, student_sourced_id, occurred_at, local_date, subject,
          activity_name, fact, xp, xp_explanation, held_reason, received_at)
        select ${appId}::uuid, event_id, student_sourced_id, occurred_at, local_date, subject, activity_name, fact, xp,
          xp_explanation, held_reason, ${now}::timestamptz
        from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as b(event_id text, student_sourced_id text,
          occurred_at timestamptz, local_date date, subject text, activity_name text, fact jsonb, xp numeric,
          xp_explanation text, held_reason text)
        on conflict (app_id, event_id) do nothing
        returning id, event_id as "eventId"`,
  );
  return new Map(inserted.map((row) => [row.eventId, row.id]));
}

interface ScoredEvent {
  fact: ActivityFact;
  student: Student;
  award: { xp: number; explanation: string };
  occurredAt: Date;
  localDate: string;
}

/**
 * Writes the events, their ledger entries and the daily totals in one statement, so they land
 * together or not at all. The batch travels as a single JSON parameter: binding thousands of
 * parameters, and building the statement that holds them, would cost more than the writes.
 * Answers the event ids that were new; the others were sent before.
 */
async function storeEvents(
  db: Database,
  appId: string,
  rows: ScoredEvent[],
  now: Date,
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const batch = rows.map(({ fact, student, award, occurredAt, localDate }) => ({
    event_id: fact.eventId,
    student_sourced_id: student.sourcedId,
    occurred_at: occurredAt.toISOString(),
    local_date: localDate,
    subject: fact.subject,
    activity_id: fact.activityId ?? null,
    activity_name: fact.activityName ?? null,
    session_id: fact.sessionId ?? null,
    expected_xp: fact.expectedXp ?? fact.xpEarned ?? null,
    total_questions: fact.totalQuestions,
    correct_questions: fact.correctQuestions,
    mastered_units: fact.masteredUnits,
    score_percent: fact.scorePercent ?? null,
    active_seconds: fact.activeSeconds,
    inactive_seconds: fact.inactiveSeconds,
    waste_seconds: fact.wasteSeconds,
    anti_pattern_seconds: fact.antiPatternSeconds,
    attempt: fact.attempt,
    awarded_xp: award.xp,
    xp_explanation: award.explanation,
    reason: `${fact.activityName ?? fact.subject}: ${award.explanation}`,
  }));
  const inserted = await queryRows<{ eventId: string }>(
    db,
    sql`with batch as (
          select * from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as b(
            event_id text, student_sourced_id text, occurred_at timestamptz, local_date date, subject text,
            activity_id text, activity_name text, session_id text, expected_xp numeric, total_questions int,
            correct_questions int, mastered_units int, score_percent numeric, active_seconds int, inactive_seconds int, waste_seconds int,
            anti_pattern_seconds int, attempt int, awarded_xp numeric, xp_explanation text, reason text)),
        events as (
          insert into activity_events (app_id, event_id, student_sourced_id, occurred_at, local_date, subject,
            activity_id, activity_name, session_id, expected_xp, total_questions, correct_questions, mastered_units,
            score_percent, active_seconds, inactive_seconds, waste_seconds, anti_pattern_seconds, attempt, awarded_xp,
            xp_explanation, received_at)
          select ${appId}::uuid, event_id, student_sourced_id, occurred_at, local_date, subject, activity_id,
            activity_name, session_id, expected_xp, total_questions, correct_questions, mastered_units, score_percent, active_seconds,
            inactive_seconds, waste_seconds, anti_pattern_seconds, attempt, awarded_xp, xp_explanation, ${now}::timestamptz
          from batch
          on conflict (app_id, event_id) do nothing
          returning id, event_id, student_sourced_id, occurred_at, local_date, subject, awarded_xp, active_seconds,
            waste_seconds, total_questions, correct_questions, mastered_units),
        ledger as (
          insert into xp_ledger (student_sourced_id, amount, reason, source, activity_event_id, local_date, subject,
            app_id, idempotency_key, created_at)
          select e.student_sourced_id, e.awarded_xp, b.reason, 'activity', e.id, e.local_date, e.subject,
            ${appId}::uuid, 'activity:' || ${appId} || ':' || e.event_id, ${now}::timestamptz
          from events e join batch b on b.event_id = e.event_id),
        totals as (
          ${upsertDailyTotals(sql`select student_sourced_id, local_date, subject, ${appId}, sum(awarded_xp),
              sum(active_seconds), sum(waste_seconds), sum(total_questions), sum(correct_questions),
              sum(mastered_units), count(*), max(occurred_at)
            from events group by student_sourced_id, local_date, subject
            order by student_sourced_id, local_date, subject`)})
        select event_id as "eventId" from events`,
  );
  return new Set(inserted.map((row) => row.eventId));
}

/**
 * Adds the rows of a query (student, day, subject, app key, XP, active and waste seconds, questions,
 * correct answers, mastered units, events, last event) to the daily totals. Callers send rows in
 * key order, so concurrent writers lock shared totals in the same order and never deadlock.
 */
export function upsertDailyTotals(rows: SQL): SQL {
  return sql`insert into daily_student_metrics (student_sourced_id, local_date, subject, app_key, xp,
      active_seconds, waste_seconds, total_questions, correct_questions, mastered_units, events, last_event_at)
    ${rows}
    on conflict (student_sourced_id, local_date, subject, app_key) do update set
      xp = daily_student_metrics.xp + excluded.xp,
      active_seconds = daily_student_metrics.active_seconds + excluded.active_seconds,
      waste_seconds = daily_student_metrics.waste_seconds + excluded.waste_seconds,
      total_questions = daily_student_metrics.total_questions + excluded.total_questions,
      correct_questions = daily_student_metrics.correct_questions + excluded.correct_questions,
      mastered_units = daily_student_metrics.mastered_units + excluded.mastered_units,
      events = daily_student_metrics.events + excluded.events,
      last_event_at = greatest(daily_student_metrics.last_event_at, excluded.last_event_at)`;
}

function sortResult(result: IngestResult): IngestResult {
  const byIndex = (a: { index: number }, b: { index: number }) => a.index - b.index;
  return {
    accepted: result.accepted.sort(byIndex),
    duplicates: result.duplicates.sort(byIndex),
    rejected: result.rejected.sort(byIndex),
    held: result.held.sort(byIndex),
  };
}
