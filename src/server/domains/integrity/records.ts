import { type SQL, sql } from "drizzle-orm";
import {
  INCIDENTS_PAGE_SIZE,
  type IncidentDecision,
  type IncidentDetail,
  type IncidentList,
  type IncidentRecord,
  type IncidentsQuery,
  OPEN_REVIEW_STATUSES,
  type ReviewStatus,
  STRIKE_STATUSES,
} from "../../../shared/contracts/integrity";
import { type Database, isoInstant, queryJsonRows, queryRows, uuidEquals } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { nameOf } from "../rostering/queries";
import { studentIdsOfClass } from "../rostering/scope";
import { isFamilySide, readableStudentIds, reviewableStudentIds } from "./access";
import { appealBlock, reviewBlock } from "./decisions";
import { integritySettingsOf } from "./settings";

/** Incidents as the API answers them: the spec's record, its student, evidence and history. */

const STATUSES_OF_GROUP: Record<IncidentsQuery["status"], readonly ReviewStatus[]> = {
  pending: OPEN_REVIEW_STATUSES,
  // Strikes: an appealed one still counts until the appeal is decided.
  confirmed: STRIKE_STATUSES,
  resolved: ["confirmed", "dismissed"],
};

/**
 * Whether an incident (`incident`) waits in the review queue, written out as the queue's partial
 * index is, so the planner can use it.
 */
export function isOpen(incident: SQL): SQL {
  return sql`${incident}.review_status in ${sql.raw(`(${OPEN_REVIEW_STATUSES.map((status) => `'${status}'`).join(", ")})`)}`;
}

/** A strike counts while confirmed (or appealed, until the appeal is decided) and not expired. */
export function isActiveStrike(incident: SQL, now: Date): SQL {
  return sql`(${incident}.review_status in ('confirmed', 'appealed') and ${incident}.strike_expires_at > ${now})`;
}

/** A student's strikes that count now. */
export function activeStrikesOf(studentId: SQL, now: Date): SQL {
  return sql`(select count(*)::int from integrity_incidents s
    where s.student_sourced_id = ${studentId} and ${isActiveStrike(sql`s`, now)})`;
}

export interface RecordRow extends Omit<IncidentRecord, "screenshot_url" | "can_review" | "can_appeal"> {
  has_screenshot: boolean;
}

/** A record's columns, of the incident `i`, its student `u` and its lockout `l`. */
export function recordColumns(now: Date): SQL {
  return sql`i.id, i.student_sourced_id as user_id, ${isoInstant(sql`i.occurred_at`)} as created_at,
    i.incident_type, i.confidence_score::float8 as confidence_score, i.app_name, i.detected_text,
    i.screenshot_key is not null as has_screenshot, i.cumulative_strikes, coalesce(l.code, '') as lockout_code,
    i.lockout_id is not null as locked_dashboard, i.review_status, i.client_id, i.session_id,
    ${isoInstant(sql`i.received_at`)} as received_at,
    json_build_object('sourcedId', u.sourced_id,
      'name', coalesce(u.preferred_first_name, u.given_name) || ' ' || u.family_name, 'grade', u.grades[1]) as student,
    ${isoInstant(sql`i.evidence_deleted_at`)} as evidence_deleted_at,
    ${isoInstant(sql`i.strike_expires_at`)} as strike_expires_at,
    ${isActiveStrike(sql`i`, now)} as is_active_strike, i.voided_xp::float8 as voided_xp,
    coalesce((select json_agg(json_build_object('action', d.action, 'note', d.note, 'actorId', d.actor_sourced_id,
        'actorName', coalesce(${nameOf(sql`d.actor_sourced_id`)}, d.actor_sourced_id), 'actorRole', d.actor_role,
        'at', ${isoInstant(sql`d.created_at`)}) order by d.step)
      from integrity_decisions d where d.incident_id = i.id), '[]'::json) as decisions`;
}

const recordTables = sql`integrity_incidents i join users u on u.sourced_id = i.student_sourced_id
  left join integrity_lockouts l on l.id = i.lockout_id`;

const screenshotPath = (id: string) => `/api/integrity/incidents/${id}/screenshot`;

/** Whether the caller may appeal: the student or their family, once, while the strike counts. */
function mayAppeal(actor: Actor, row: Omit<RecordRow, "has_screenshot">): boolean {
  return isFamilySide(actor) && appealBlock(row.review_status, row.is_active_strike, row.decisions) === null;
}

/** Shapes rows for the caller: evidence and the lockout code for reviewers, what they may do now. */
function toRecords(actor: Actor, rows: RecordRow[]): IncidentRecord[] {
  const isReviewer = !isFamilySide(actor);
  return rows.map(({ has_screenshot, ...row }) => ({
    ...row,
    decisions: row.decisions as IncidentDecision[],
    screenshot_url: isReviewer && has_screenshot ? screenshotPath(row.id) : null,
    lockout_code: isReviewer || actor.activeRole === "student" ? row.lockout_code : "",
    can_review: isReviewer && reviewBlock(row.review_status, row.decisions, actor.user.sourcedId) === null,
    can_appeal: mayAppeal(actor, row),
  }));
}

function readableOrNone(actor: Actor): SQL {
  const readable = readableStudentIds(actor);
  if (!readable) throw new AppError("forbidden", message("integrity:forbidden"));
  return readable;
}

/** The incidents of a group the caller may read, a page at a time: the queue oldest first, decisions newest first. */
export async function listIncidents(
  db: Database,
  actor: Actor,
  query: IncidentsQuery,
  now: Date,
): Promise<IncidentList> {
  const readable = readableOrNone(actor);
  const statuses = STATUSES_OF_GROUP[query.status];
  const conditions = [
    sql`i.review_status in ${statuses}`,
    sql`i.student_sourced_id in (${readable})`,
    query.studentId ? sql`i.student_sourced_id = ${query.studentId}` : null,
    query.sessionId ? sql`i.session_id = ${query.sessionId}` : null,
    query.classId ? sql`i.student_sourced_id in (${studentIdsOfClass(query.classId)})` : null,
  ].filter((condition): condition is SQL => condition !== null);
  const where = sql.join(conditions, sql` and `);
  const order =
    query.status === "pending"
      ? sql`i.occurred_at asc, i.id`
      : sql`coalesce(i.decided_at, i.received_at) desc, i.id`;
  const offset = (query.page - 1) * INCIDENTS_PAGE_SIZE;
  const [rows, [count]] = await Promise.all([
    queryJsonRows<RecordRow>(
      db,
      sql`select ${recordColumns(now)} from ${recordTables} where ${where}
        order by ${order} limit ${INCIDENTS_PAGE_SIZE} offset ${offset}`,
    ),
    queryRows<{ total: number }>(
      db,
      sql`select count(*)::int as total from integrity_incidents i where ${where}`,
    ),
  ]);
  return {
    incidents: toRecords(actor, rows),
    total: count?.total ?? 0,
    page: query.page,
    pageSize: INCIDENTS_PAGE_SIZE,
  };
}

/** One incident the caller may read, or a 404 (the same whether it is missing or not theirs). */
export async function readIncident(
  db: Database,
  actor: Actor,
  id: string,
  now: Date,
): Promise<IncidentRecord> {
  const readable = readableOrNone(actor);
  const [row] = await queryJsonRows<RecordRow>(
    db,
    sql`select ${recordColumns(now)} from ${recordTables}
      where ${uuidEquals(sql`i.id`, id)} and i.student_sourced_id in (${readable})`,
  );
  if (!row) throw new AppError("not_found", message("integrity:incidentNotFound"));
  return toRecords(actor, [row])[0] as IncidentRecord;
}

const HISTORY_LENGTH = 10;

/** An incident with the student's other recent incidents, their strikes and the threshold. */
export async function incidentDetail(
  db: Database,
  actor: Actor,
  id: string,
  now: Date,
): Promise<IncidentDetail> {
  const incident = await readIncident(db, actor, id, now);
  const [history, [strikes], settings] = await Promise.all([
    queryJsonRows<RecordRow>(
      db,
      sql`select ${recordColumns(now)} from ${recordTables}
        where i.student_sourced_id = ${incident.user_id} and i.id <> ${incident.id}::uuid
        order by i.occurred_at desc limit ${HISTORY_LENGTH}`,
    ),
    queryRows<{ count: number }>(db, sql`select ${activeStrikesOf(sql`${incident.user_id}`, now)} as count`),
    integritySettingsOf(db),
  ]);
  return {
    incident,
    history: toRecords(actor, history),
    activeStrikes: strikes?.count ?? 0,
    threshold: settings.strikeThreshold,
  };
}

/** The screenshot's storage key, for a reviewer of the student only; a 404 for anyone else. */
export async function screenshotKeyFor(db: Database, actor: Actor, id: string): Promise<string> {
  const reviewable = reviewableStudentIds(actor);
  const [row] = reviewable
    ? await queryRows<{ key: string | null }>(
        db,
        sql`select i.screenshot_key as key from integrity_incidents i
          where ${uuidEquals(sql`i.id`, id)} and i.student_sourced_id in (${reviewable})`,
      )
    : [];
  if (!row?.key) throw new AppError("not_found", message("integrity:screenshotNotFound"));
  return row.key;
}

/**
 * The records an agent stored, by its own ids, as intake answers them: the screenshot's address is
 * Dash's own (only reviewers can open it), and nothing a person may do or read out.
 */
export async function agentRecords(
  db: Database,
  agentId: string,
  clientIds: string[],
  now: Date,
): Promise<IncidentRecord[]> {
  if (clientIds.length === 0) return [];
  const rows = await queryJsonRows<RecordRow>(
    db,
    sql`select ${recordColumns(now)} from ${recordTables}
      where i.agent_id = ${agentId}::uuid
        and i.client_id in (select jsonb_array_elements_text(${JSON.stringify(clientIds)}::jsonb))`,
  );
  return rows.map(agentView);
}

/** A record as the agent that reported it reads it. */
export function agentView({ has_screenshot, ...row }: RecordRow): IncidentRecord {
  return {
    ...row,
    screenshot_url: has_screenshot ? screenshotPath(row.id) : null,
    lockout_code: "",
    can_review: false,
    can_appeal: false,
  };
}
