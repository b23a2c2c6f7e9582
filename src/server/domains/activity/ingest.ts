import { type SQL, sql } from "drizzle-orm";
import { type ActivityFact, activityFactSchema, type IngestResult } from "../../../shared/contracts/activity";
import { localDateOf } from "../../../shared/time-zone";
import { computeXp } from "../../../shared/xp-rules";
import { type Database, queryRows } from "../../db/client";
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
  // Both lists travel as one JSON parameter each: a thousand separate parameters cost more to bind than to search.
  const rows = await queryRows<Student>(
    db,
    sql`select u.sourced_id as "sourcedId", lower(u.email) as email, u.timezone
        from users u
        where (u.sourced_id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))
               or lower(u.email) in (select jsonb_array_elements_text(${JSON.stringify(emails)}::jsonb)))
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

  const stored = await storeEvents(db, appId, rows, now);
  for (const row of rows) {
    if (stored.has(row.fact.eventId))
      result.accepted.push({ index: row.index, eventId: row.fact.eventId, xp: row.award.xp });
    else result.duplicates.push({ index: row.index, eventId: row.fact.eventId });
  }
  return sortResult(result);
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
  const batch = rows.map(({ fact, student, award, occurredAt, localDate }) => ({
    event_id: fact.eventId,
    student_sourced_id: student.sourcedId,
    occurred_at: occurredAt.toISOString(),
    local_date: localDate,
    subject: fact.subject,
    activity_id: fact.activityId ?? null,
    activity_name: fact.activityName ?? null,
    expected_xp: fact.expectedXp ?? fact.xpEarned ?? null,
    total_questions: fact.totalQuestions,
    correct_questions: fact.correctQuestions,
    mastered_units: fact.masteredUnits,
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
            activity_id text, activity_name text, expected_xp numeric, total_questions int, correct_questions int,
            mastered_units int, active_seconds int, inactive_seconds int, waste_seconds int, anti_pattern_seconds int,
            attempt int, awarded_xp numeric, xp_explanation text, reason text)),
        events as (
          insert into activity_events (app_id, event_id, student_sourced_id, occurred_at, local_date, subject,
            activity_id, activity_name, expected_xp, total_questions, correct_questions, mastered_units,
            active_seconds, inactive_seconds, waste_seconds, anti_pattern_seconds, attempt, awarded_xp,
            xp_explanation, received_at)
          select ${appId}::uuid, event_id, student_sourced_id, occurred_at, local_date, subject, activity_id,
            activity_name, expected_xp, total_questions, correct_questions, mastered_units, active_seconds,
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
  };
}
