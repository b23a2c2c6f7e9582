import { sql } from "drizzle-orm";
import {
  type IncidentInput,
  type IncidentIntakeResult,
  type IncidentRecord,
  incidentBatchSchema,
  incidentInputSchema,
  MAX_SCREENSHOT_BYTES,
  type RejectedIncident,
} from "../../../shared/contracts/integrity";
import type { Language } from "../../../shared/languages";
import { type Database, queryRows } from "../../db/client";
import { batched } from "../../lib/batched";
import { AppError, type FieldIssue } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { parseWith, validationError } from "../../lib/validation";
import type { FileStorage } from "../../platform/storage";
import { isStudent } from "../rostering/queries";
import { agentRecords, agentView, type RecordRow, recordColumns } from "./records";

/**
 * Incidents from the monitoring agent: checked one by one, their students found by sourcedId or
 * email, their screenshots stored outside the database, and each stored once per agent and
 * `client_id`, so a resend answers the records already stored.
 */

const DATA_URL = /^data:(image\/[a-z]+);base64,/i;
const PNG_START = [0x89, 0x50, 0x4e, 0x47];

/** A screenshot's bytes and declared type; its signature is checked by the storage as it lands. */
function decodeScreenshot(encoded: string): { bytes: Buffer; contentType: string } {
  const declared = DATA_URL.exec(encoded)?.[1]?.toLowerCase();
  const bytes = Buffer.from(encoded.replace(DATA_URL, ""), "base64");
  if (bytes.length === 0)
    throw new AppError("validation_failed", message("integrity:intake.screenshotNotImage"));
  if (bytes.length > MAX_SCREENSHOT_BYTES)
    throw new AppError("payload_too_large", message("validation:screenshotTooLarge"));
  const looksLikePng = PNG_START.every((byte, index) => bytes[index] === byte);
  return { bytes, contentType: declared ?? (looksLikePng ? "image/png" : "image/jpeg") };
}

function rejection(
  index: number,
  clientId: string | null,
  error: AppError,
  language: Language,
): RejectedIncident {
  const body = error.toBody(language);
  return {
    index,
    client_id: clientId,
    message: body.message,
    ...(body.issues ? { issues: body.issues } : {}),
  };
}

const clientIdOf = (item: unknown) => {
  const value = (item as { client_id?: unknown } | null)?.client_id;
  return typeof value === "string" ? value : null;
};

export type Intake = (
  agentId: string,
  body: { isBatch: boolean; items: unknown[] },
  now: Date,
  language: Language,
) => Promise<IncidentIntakeResult>;

/**
 * Stores incidents from agents. In a batch each incident is judged on its own, and the refused
 * ones are listed with why; a single incident that is refused is the request's error. The
 * screenshots land in storage first; then one statement finds the students, stores the new
 * incidents and answers their records, for all the reports that arrive together (see `batched`),
 * so a busy minute costs the database a statement per batch, not per report. A resend answers the
 * record stored first, and its screenshot (like an unknown student's) is deleted.
 */
export function createIntake(db: Database, storage: FileStorage): Intake {
  const store = batched((reports: Report[]) => insertReports(db, reports), { maxCalls: 64 });
  return async (agentId, body, now, language) => {
    const rejected: RejectedIncident[] = [];
    const reject = (index: number, clientId: string | null, error: unknown) => {
      if (!body.isBatch || !(error instanceof AppError)) throw error;
      rejected.push(rejection(index, clientId, error, language));
    };
    const valid: ValidIncident[] = [];
    for (const [index, item] of body.items.entries()) {
      try {
        const input = parseWith(incidentInputSchema, item, language);
        // The same incident twice in one batch is stored once, with the first one's screenshot.
        const isRepeat = valid.some((earlier) => earlier.input.client_id === input.client_id);
        const screenshotKey =
          input.screenshot && !isRepeat ? await storeScreenshot(storage, input.screenshot) : null;
        valid.push({ index, input, screenshotKey });
      } catch (error) {
        reject(index, clientIdOf(item), error);
      }
    }
    const { records, unknownStudents } =
      valid.length > 0
        ? await store({ agentId, incidents: valid, now })
        : { records: [], unknownStudents: [] };
    const storedKeys = new Set(records.map((record) => record.screenshotKey));
    await Promise.all(
      valid
        .filter(({ screenshotKey }) => screenshotKey && !storedKeys.has(screenshotKey))
        .map(({ screenshotKey }) => storage.delete(screenshotKey as string)),
    );
    const unknown = new Set(unknownStudents);
    for (const { index, input } of valid) {
      if (!unknown.has(input.client_id)) continue;
      const issue: FieldIssue = { path: "user_id", message: message("integrity:intake.unknownStudent") };
      reject(index, input.client_id, new AppError("validation_failed", issue.message, { issues: [issue] }));
    }
    const byClientId = new Map<string, IncidentRecord>(
      records.map(({ screenshotKey: _key, ...record }) => [record.client_id, record]),
    );
    const resent = valid.filter(
      ({ input }) => !unknown.has(input.client_id) && !byClientId.has(input.client_id),
    );
    if (resent.length > 0) {
      const earlier = await agentRecords(
        db,
        agentId,
        resent.map(({ input }) => input.client_id),
        now,
      );
      for (const record of earlier) byClientId.set(record.client_id, record);
    }
    return {
      incidents: valid.flatMap(({ input }) => byClientId.get(input.client_id) ?? []),
      rejected: rejected.sort((a, b) => a.index - b.index),
    };
  };
}

async function storeScreenshot(storage: FileStorage, encoded: string): Promise<string> {
  const { bytes, contentType } = decodeScreenshot(encoded);
  const stored = await storage.put(bytes, {
    folder: "evidence",
    contentType,
    accept: ["png", "jpeg"],
    maxBytes: MAX_SCREENSHOT_BYTES,
  });
  return stored.key;
}

interface ValidIncident {
  index: number;
  input: IncidentInput;
  screenshotKey: string | null;
}

/** One request's valid incidents, from one agent. */
interface Report {
  agentId: string;
  incidents: ValidIncident[];
  now: Date;
}

interface StoredReport {
  records: (IncidentRecord & { screenshotKey: string | null })[];
  /** The `client_id`s whose student is unknown. */
  unknownStudents: string[];
}

/**
 * One statement for the reports of several requests: each incident's student (by sourcedId or,
 * in any case, email, each through its own index; people who are not students are not found), the
 * new incidents stored (an agent's `client_id` once), their records, and the incidents whose
 * student is unknown, each handed back to its own report.
 */
async function insertReports(db: Database, reports: Report[]): Promise<StoredReport[]> {
  const given = reports.flatMap(({ agentId, incidents, now }) =>
    incidents.map(({ input, screenshotKey }) => ({
      agent_id: agentId,
      user_id: input.user_id,
      client_id: input.client_id,
      incident_type: input.incident_type,
      confidence_score: input.confidence_score,
      app_name: input.app_name ?? null,
      detected_text: input.detected_text,
      session_id: input.session_id ?? null,
      occurred_at: input.created_at,
      screenshot_key: screenshotKey,
      received_at: now.toISOString(),
    })),
  );
  // New incidents are no strikes yet, whichever moment is asked.
  const latest = new Date(Math.max(...reports.map(({ now }) => now.getTime())));
  const [result] = await queryRows<{
    records: (RecordRow & { agentId: string; screenshotKey: string | null })[] | null;
    unknown: { agentId: string; clientId: string }[] | null;
  }>(
    db,
    sql`with given as (
        select * from jsonb_to_recordset(${JSON.stringify(given)}::jsonb) as b(agent_id uuid, user_id text,
          client_id text, incident_type text, confidence_score numeric, app_name text, detected_text text,
          session_id text, occurred_at timestamptz, screenshot_key text, received_at timestamptz)),
      found as (
        select g.*, student.id as student_id from given g
        left join lateral (
          select u.sourced_id as id from users u where u.sourced_id = g.user_id and ${isStudent(sql`u.sourced_id`)}
          union all
          select u.sourced_id from users u where lower(u.email) = lower(g.user_id) and ${isStudent(sql`u.sourced_id`)}
          limit 1) student on true),
      i as (
        insert into integrity_incidents (student_sourced_id, agent_id, client_id, incident_type, confidence_score,
          app_name, detected_text, session_id, occurred_at, screenshot_key, received_at)
        select distinct on (agent_id, client_id) student_id, agent_id, client_id, incident_type, confidence_score,
          app_name, detected_text, session_id, occurred_at, screenshot_key, received_at
        from found where student_id is not null
        on conflict (agent_id, client_id) do nothing
        returning *)
      select (select json_agg(r) from (
          select ${recordColumns(latest)}, i.agent_id as "agentId", i.screenshot_key as "screenshotKey"
          from i join users u on u.sourced_id = i.student_sourced_id
            left join integrity_lockouts l on l.id = i.lockout_id) r) as records,
        (select json_agg(json_build_object('agentId', agent_id, 'clientId', client_id))
          from found where student_id is null) as unknown`,
  );
  return reports.map(({ agentId }) => ({
    records: (result?.records ?? [])
      .filter((row) => row.agentId === agentId)
      .map(({ agentId: _agent, screenshotKey, ...row }) => ({ ...agentView(row), screenshotKey })),
    unknownStudents: (result?.unknown ?? [])
      .filter((unknown) => unknown.agentId === agentId)
      .map(({ clientId }) => clientId),
  }));
}

/** The body's incidents: `{ incidents: [...] }` (a batch), or one incident on its own. */
export function incidentsOfBody(body: unknown): { isBatch: boolean; items: unknown[] } {
  const isBatch = typeof body === "object" && body !== null && !Array.isArray(body) && "incidents" in body;
  if (!isBatch) return { isBatch, items: [body] };
  // Only the envelope is checked here: each incident is judged on its own.
  const parsed = incidentBatchSchema.safeParse(body);
  if (!parsed.success) throw validationError(parsed.error);
  return { isBatch, items: parsed.data.incidents };
}
