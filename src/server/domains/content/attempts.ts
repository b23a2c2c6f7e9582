import { type SQL, sql } from "drizzle-orm";
import type { IngestLimits } from "../../../shared/contracts/activity";
import type {
  AttemptItemResult,
  AttemptResponseInput,
  AttemptResult,
  LessonAttemptStarted,
  LessonAttemptSummary,
  LessonView,
  LessonXpOutcome,
  QtiResponseValue,
} from "../../../shared/contracts/content";
import { type Database, isoInstant, isUniqueViolation, queryRows, uuidEquals } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { ingestActivity } from "../activity/ingest";
import { xpRulesOf } from "../activity/settings";
import { DASH_LESSONS_APP_ID, ensureDashLessonsApp, lessonAttemptEventId } from "./lesson-app";
import { type ItemScore, isCorrect, scoreAttemptItem } from "./lesson-items";
import {
  answeringStudentOf,
  findLesson,
  itemsOf,
  type LessonItem,
  type LessonRecord,
  lessonReaderOf,
  lessonResources,
} from "./lessons";

/**
 * A student's attempts at a lesson. One attempt is open at a time (a partial unique index keeps
 * it so); answers are saved as they change, each scored on the server against the item as the
 * attempt shows it; finishing scores every item, closes the attempt and reports it to the XP
 * engine as an activity of the "Dash lessons" app.
 */

const round2 = (value: number) => Math.round(value * 100) / 100;
const notFound = () => new AppError("not_found", message("content:lessons.attempt.notFound"));
const alreadyFinished = () => new AppError("conflict", message("content:lessons.attempt.finished"));

interface AttemptRow {
  id: string;
  number: number;
  startedAt: string;
  finishedAt: string | null;
  scorePercent: string | number | null;
  correctItems: number;
  totalItems: number;
  mastered: boolean;
  creditedXp: string | number | null;
  creditedExplanation: string | null;
  heldStatus: "pending" | "approved" | "dismissed" | null;
  heldXp: string | number | null;
  heldExplanation: string | null;
  firstMastery: boolean;
}

/** Whether the attempt mastered the lesson with no earlier attempt having done so. */
const isFirstMastery = sql`a.mastered and not exists (select 1 from lesson_attempts b
  where b.lesson_id = a.lesson_id and b.student_sourced_id = a.student_sourced_id and b.mastered
    and b.attempt_number < a.attempt_number)`;

/** Attempts with what their XP came to, read from the engine's own tables by the event id. */
const attemptRows = (where: SQL) => sql`select a.id::text, a.attempt_number as number,
    ${isoInstant(sql`a.started_at`)} as "startedAt", ${isoInstant(sql`a.finished_at`)} as "finishedAt",
    a.score_percent as "scorePercent", a.correct_items as "correctItems", a.total_items as "totalItems", a.mastered,
    e.awarded_xp as "creditedXp", e.xp_explanation as "creditedExplanation",
    h.status as "heldStatus", h.xp as "heldXp", h.xp_explanation as "heldExplanation",
    ${isFirstMastery} as "firstMastery"
  from lesson_attempts a
    left join activity_events e on e.app_id = ${DASH_LESSONS_APP_ID}::uuid and e.event_id = a.activity_event_id
    left join held_activity_events h on h.app_id = ${DASH_LESSONS_APP_ID}::uuid and h.event_id = a.activity_event_id
  where ${where}
  order by a.attempt_number desc`;

function xpOutcomeOf(row: AttemptRow): LessonXpOutcome | null {
  if (!row.finishedAt) return null;
  if (row.creditedXp !== null)
    return { status: "credited", xp: Number(row.creditedXp), explanation: row.creditedExplanation };
  if (row.heldStatus === "pending")
    return { status: "held", xp: Number(row.heldXp), explanation: row.heldExplanation };
  if (row.heldStatus === "dismissed") return { status: "dismissed", xp: 0, explanation: row.heldExplanation };
  return { status: "notRecorded", xp: 0, explanation: null };
}

function toSummary(row: AttemptRow): LessonAttemptSummary {
  return {
    id: row.id,
    number: row.number,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    scorePercent: row.scorePercent === null ? null : Number(row.scorePercent),
    correctItems: row.correctItems,
    totalItems: row.totalItems,
    mastered: row.mastered,
    xp: xpOutcomeOf(row),
  };
}

/** A student's attempts at a lesson, newest first. */
export async function attemptSummaries(
  db: Database,
  lessonId: string,
  studentId: string,
): Promise<LessonAttemptSummary[]> {
  const rows = await queryRows<AttemptRow>(
    db,
    attemptRows(sql`a.lesson_id = ${lessonId} and a.student_sourced_id = ${studentId}`),
  );
  return rows.map(toSummary);
}

/** The student's open attempt at a lesson with the answers saved so far, or null. */
export async function openAttemptOf(
  db: Database,
  lessonId: string,
  studentId: string,
): Promise<LessonView["openAttempt"]> {
  const [open] = await queryRows<{ id: string; number: number; startedAt: string }>(
    db,
    sql`select id::text, attempt_number as number, ${isoInstant(sql`started_at`)} as "startedAt"
        from lesson_attempts
        where lesson_id = ${lessonId} and student_sourced_id = ${studentId} and finished_at is null`,
  );
  if (!open) return null;
  const responses = await queryRows<{
    resourceId: string;
    itemIdentifier: string;
    response: Record<string, QtiResponseValue>;
  }>(
    db,
    sql`select resource_id::text as "resourceId", item_identifier as "itemIdentifier", response
        from lesson_item_responses where attempt_id = ${open.id}::uuid
        order by answered_at, resource_id, item_identifier`,
  );
  return { ...open, responses };
}

/** The caller's own attempt (a student's); anyone else's, or none, is a 404. */
async function ownAttempt(db: Database, attemptId: string, studentId: string) {
  const [attempt] = await queryRows<{ id: string; lessonId: string; finishedAt: string | null }>(
    db,
    sql`select id::text, lesson_id as "lessonId", ${isoInstant(sql`finished_at`)} as "finishedAt"
        from lesson_attempts where ${uuidEquals(sql`id`, attemptId)} and student_sourced_id = ${studentId}`,
  );
  if (!attempt) throw notFound();
  return attempt;
}

/**
 * POST /lessons/:lessonId/attempts: the open attempt, started when there is none. Starts at the
 * same moment agree on one attempt: the partial unique index lets one insert through and the
 * others read it.
 */
export async function startAttempt(
  db: Database,
  actor: Actor,
  lessonId: string,
  now: Date,
): Promise<LessonAttemptStarted> {
  const studentId = answeringStudentOf(actor);
  await findLesson(db, actor, lessonId);
  for (let round = 1; ; round++) {
    try {
      const [created] = await queryRows<{ id: string; number: number }>(
        db,
        sql`insert into lesson_attempts (lesson_id, student_sourced_id, attempt_number, started_at)
            select ${lessonId}, ${studentId}, coalesce(max(attempt_number), 0) + 1, ${now.toISOString()}::timestamptz
            from lesson_attempts where lesson_id = ${lessonId} and student_sourced_id = ${studentId}
            on conflict (lesson_id, student_sourced_id) where finished_at is null do nothing
            returning id::text, attempt_number as number`,
      );
      if (created) return { ...created, isNew: true };
      const open = await openAttemptOf(db, lessonId, studentId);
      if (open) return { id: open.id, number: open.number, isNew: false };
      // The open attempt was finished in between: start the next one.
    } catch (error) {
      // Two first starts at once can also meet on the attempt number: the other one won.
      if (!isUniqueViolation(error) || round >= 3) throw error;
    }
  }
}

/**
 * PUT /attempts/:attemptId/responses: keeps the latest answer to one item of the attempt's
 * lesson, scored. Only the attempt's student, only while it is open: the attempt is locked for
 * the write, so an answer never lands after the finish that scored the attempt.
 */
export async function saveAttemptResponse(
  db: Database,
  actor: Actor,
  attemptId: string,
  input: AttemptResponseInput,
  now: Date,
): Promise<void> {
  const studentId = answeringStudentOf(actor);
  const attempt = await ownAttempt(db, attemptId, studentId);
  if (attempt.finishedAt) throw alreadyFinished();
  await findLesson(db, actor, attempt.lessonId);
  const [item] = await queryRows<{ rawXml: string }>(
    db,
    sql`select d.raw_xml as "rawXml"
        from lesson_resources r join qti_documents d on d.kind = 'item' and d.identifier = ${input.itemIdentifier}
        where ${uuidEquals(sql`r.id`, input.resourceId)} and r.lesson_id = ${attempt.lessonId}
          and r.kind = 'qti' and r.removed_at is null and ${input.itemIdentifier} = any(r.qti_items)`,
  );
  if (!item) throw new AppError("not_found", message("content:lessons.take.itemNotInLesson"));
  const scored = scoreAttemptItem(item.rawXml, attempt.id, input.itemIdentifier, input.response);
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [locked] = await queryRows<{ open: boolean }>(
      tx,
      sql`select finished_at is null as open from lesson_attempts where id = ${attempt.id}::uuid for share`,
    );
    if (!locked?.open) throw alreadyFinished();
    await tx.execute(
      sql`insert into lesson_item_responses (attempt_id, resource_id, item_identifier, response, score, max_score, answered_at)
          values (${attempt.id}::uuid, ${input.resourceId}::uuid, ${input.itemIdentifier}, ${JSON.stringify(input.response)}::jsonb,
            ${scored.score}, ${scored.maxScore}, ${now.toISOString()}::timestamptz)
          on conflict (attempt_id, resource_id, item_identifier) do update set response = excluded.response,
            score = excluded.score, max_score = excluded.max_score, answered_at = excluded.answered_at`,
    );
  });
}

type StoredResponse = {
  resourceId: string;
  itemIdentifier: string;
  response: Record<string, QtiResponseValue>;
};
const responseKey = (resourceId: string, itemIdentifier: string) => `${resourceId}\n${itemIdentifier}`;

async function storedResponses(db: Database, attemptId: string) {
  const rows = await queryRows<StoredResponse & { score: string | number; maxScore: string | number }>(
    db,
    sql`select resource_id::text as "resourceId", item_identifier as "itemIdentifier", response, score,
          max_score as "maxScore"
        from lesson_item_responses where attempt_id = ${attemptId}::uuid`,
  );
  return new Map(rows.map((row) => [responseKey(row.resourceId, row.itemIdentifier), row]));
}

/** The attempt's figures from its items' scores: unscored items count in none of them. */
function totalsOf(scores: ItemScore[], masteryPercent: number) {
  const counted = scores.filter((score) => score.scored);
  const points = counted.reduce((sum, score) => sum + score.score, 0);
  const available = counted.reduce((sum, score) => sum + score.maxScore, 0);
  const scorePercent = available > 0 ? round2((100 * Math.min(points, available)) / available) : null;
  return {
    totalItems: counted.length,
    correctItems: counted.filter(isCorrect).length,
    scorePercent,
    // A lesson with nothing to score (reading, watching) is mastered by going through it.
    mastered: scorePercent === null || scorePercent >= masteryPercent,
  };
}

export interface FinishContext {
  db: Database;
  now: Date;
  limits: IngestLimits;
  /** Told, after the commit, which students were credited XP (live updates, Alphas). */
  onCredited: (studentIds: string[]) => Promise<void>;
}

/**
 * POST /attempts/:attemptId/finish: scores every item of the lesson (an unanswered one scores 0
 * of its points), closes the attempt with its figures in one transaction under the attempt's
 * lock, then reports it to the XP engine. Finishing again changes nothing and answers the same
 * result; it reports the attempt again, which the engine takes as a duplicate (or, should the
 * first report have been lost, as the report).
 */
export async function finishAttempt(
  context: FinishContext,
  actor: Actor,
  attemptId: string,
  reportedActiveSeconds: number,
): Promise<AttemptResult> {
  const { db, now, limits } = context;
  const studentId = answeringStudentOf(actor);
  const attempt = await ownAttempt(db, attemptId, studentId);
  const lesson = await findLesson(db, actor, attempt.lessonId);
  if (!attempt.finishedAt) {
    const items = itemsOf(await lessonResources(db, lesson.id));
    await db.transaction(async (transaction) => {
      const tx = transaction as unknown as Database;
      const [locked] = await queryRows<{ startedAt: string; finished: boolean }>(
        tx,
        sql`select ${isoInstant(sql`started_at`)} as "startedAt", finished_at is not null as finished
            from lesson_attempts where id = ${attempt.id}::uuid for update`,
      );
      if (!locked || locked.finished) return;
      const responses = await storedResponses(tx, attempt.id);
      const scores = items.map((item) => ({
        item,
        ...scoreAttemptItem(
          item.rawXml,
          attempt.id,
          item.identifier,
          responses.get(responseKey(item.resourceId, item.identifier))?.response ?? {},
        ),
      }));
      const totals = totalsOf(scores, lesson.masteryPercent);
      // The page's count, but never more than the time since the start, nor than one event may carry.
      const wallSeconds = Math.max(0, Math.floor((now.getTime() - Date.parse(locked.startedAt)) / 1000));
      const activeSeconds = Math.min(reportedActiveSeconds, wallSeconds, limits.maxActiveSecondsPerEvent);
      const answered = scores.filter(({ item }) =>
        responses.has(responseKey(item.resourceId, item.identifier)),
      );
      if (answered.length > 0)
        await tx.execute(
          sql`update lesson_item_responses r set score = s.score, max_score = s.max_score
              from jsonb_to_recordset(${JSON.stringify(
                answered.map(({ item, score, maxScore }) => ({
                  resource_id: item.resourceId,
                  item_identifier: item.identifier,
                  score,
                  max_score: maxScore,
                })),
              )}::jsonb) as s(resource_id uuid, item_identifier text, score numeric, max_score numeric)
              where r.attempt_id = ${attempt.id}::uuid and r.resource_id = s.resource_id
                and r.item_identifier = s.item_identifier`,
        );
      await tx.execute(
        sql`update lesson_attempts set finished_at = ${now.toISOString()}::timestamptz,
              score_percent = ${totals.scorePercent}, correct_items = ${totals.correctItems},
              total_items = ${totals.totalItems}, mastered = ${totals.mastered}, active_seconds = ${activeSeconds},
              activity_event_id = ${lessonAttemptEventId(attempt.id)}
            where id = ${attempt.id}::uuid`,
      );
    });
  }
  await reportAttempt(context, lesson, attempt.id);
  return resultOf(db, lesson, attempt.id);
}

/**
 * Reports a finished attempt as an activity event of the Dash lessons app, from what the attempt
 * stored: the same fact each time, under the same event id, so only the first report counts.
 */
async function reportAttempt(
  { db, now, limits, onCredited }: FinishContext,
  lesson: LessonRecord,
  attemptId: string,
) {
  const [row] = await queryRows<{
    studentId: string;
    number: number;
    finishedAt: string;
    eventId: string;
    scorePercent: string | number | null;
    correctItems: number;
    totalItems: number;
    activeSeconds: number;
    firstMastery: boolean;
  }>(
    db,
    sql`select a.student_sourced_id as "studentId", a.attempt_number as number,
          ${isoInstant(sql`a.finished_at`)} as "finishedAt", a.activity_event_id as "eventId",
          a.score_percent as "scorePercent", a.correct_items as "correctItems", a.total_items as "totalItems",
          a.active_seconds as "activeSeconds", ${isFirstMastery} as "firstMastery"
        from lesson_attempts a where a.id = ${attemptId}::uuid and a.finished_at is not null`,
  );
  if (!row) return;
  const fact = {
    eventId: row.eventId,
    studentId: row.studentId,
    occurredAt: row.finishedAt,
    subject: lesson.subject.slice(0, 100),
    activityId: lesson.id,
    activityName: lesson.title.slice(0, 300),
    expectedXp: lesson.expectedXp,
    totalQuestions: row.totalItems,
    correctQuestions: row.correctItems,
    masteredUnits: row.firstMastery ? 1 : 0,
    ...(row.scorePercent !== null && { scorePercent: Number(row.scorePercent) }),
    activeSeconds: row.activeSeconds,
    attempt: row.number,
  };
  await ensureDashLessonsApp(db);
  await ingestActivity(db, DASH_LESSONS_APP_ID, [{ fact }], now, limits, onCredited);
}

/** A finished attempt's result: its figures, its XP, and each item of the lesson right or not. */
async function resultOf(db: Database, lesson: LessonRecord, attemptId: string): Promise<AttemptResult> {
  const [[row], responses, resources, rules] = await Promise.all([
    queryRows<AttemptRow>(db, attemptRows(sql`a.id = ${attemptId}::uuid`)),
    storedResponses(db, attemptId),
    lessonResources(db, lesson.id),
    xpRulesOf(db),
  ]);
  if (!row?.finishedAt) throw new AppError("conflict", message("content:lessons.attempt.open"));
  const items = itemsOf(resources).map((item: LessonItem): AttemptItemResult => {
    const stored = responses.get(responseKey(item.resourceId, item.identifier));
    // Whether the item scores itself, and the points of one left unanswered, from the item itself.
    const scoring = scoreAttemptItem(item.rawXml, attemptId, item.identifier, stored?.response ?? {});
    const figures = stored
      ? { score: Number(stored.score), maxScore: Number(stored.maxScore), scored: scoring.scored }
      : scoring;
    return {
      resourceId: item.resourceId,
      itemIdentifier: item.identifier,
      title: item.title,
      answered: Boolean(stored),
      scored: figures.scored,
      score: figures.score,
      maxScore: figures.maxScore,
      correct: isCorrect(figures),
    };
  });
  return {
    lessonId: lesson.id,
    attempt: toSummary(row),
    firstMastery: row.firstMastery,
    masteryPercent: lesson.masteryPercent,
    expectedXp: lesson.expectedXp,
    accuracyFloorPercent: Math.round(rules.accuracyFloor * 100),
    items,
  };
}

/** GET /attempts/:attemptId: a finished attempt's result, for its student. */
export async function attemptResult(db: Database, actor: Actor, attemptId: string): Promise<AttemptResult> {
  const reader = lessonReaderOf(actor);
  if (reader.mode !== "student") throw notFound();
  const attempt = await ownAttempt(db, attemptId, reader.studentId);
  const lesson = await findLesson(db, actor, attempt.lessonId);
  return resultOf(db, lesson, attempt.id);
}
