import { sql } from "drizzle-orm";
import {
  type IncidentInput,
  type IncidentRecord,
  incidentBatchSchema,
  incidentInputSchema,
  MAX_SCREENSHOT_BYTES,
} from "../../../shared/contracts/integrity";
import type { Language } from "../../../shared/languages";
import { type Database, queryJsonRows, queryRows } from "../../db/client";
import { AppError, type FieldIssue } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { parseWith, validationError } from "../../lib/validation";
import type { FileStorage } from "../../platform/storage";
import { agentRecords } from "./records";

/**
 * Incidents from the monitoring agent: checked one by one, their students found by sourcedId or
 * email, their screenshots stored outside the database, and each stored once per agent and
 * `client_id`, so a resend answers the records already stored.
 */

export interface RejectedIncident {
  index: number;
  client_id: string | null;
  message: string;
  issues?: { path: string; message: string }[];
}

export interface IntakeResult {
  incidents: IncidentRecord[];
  rejected: RejectedIncident[];
}

interface Student {
  userId: string;
  sourcedId: string;
}

/** The students the agent names, by sourcedId or (in any case) email; other people are not students here. */
async function findStudents(db: Database, userIds: string[]): Promise<Map<string, string>> {
  const found = await queryJsonRows<Student>(
    db,
    sql`select given.id as "userId", u.sourced_id as "sourcedId"
      from jsonb_array_elements_text(${JSON.stringify(userIds)}::jsonb) as given(id)
      join users u on u.sourced_id = given.id or lower(u.email) = lower(given.id)
      where exists (select 1 from user_roles r where r.user_sourced_id = u.sourced_id and lower(r.role) = 'student')`,
  );
  return new Map(found.map((student) => [student.userId, student.sourcedId]));
}

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

/**
 * Stores incidents from one agent. In a batch each incident is judged on its own, and the refused
 * ones are listed with why; a single incident that is refused is the request's error.
 */
export async function intakeIncidents(
  db: Database,
  storage: FileStorage,
  agentId: string,
  body: { isBatch: boolean; items: unknown[] },
  now: Date,
  language: Language,
): Promise<IntakeResult> {
  const rejected: RejectedIncident[] = [];
  const reject = (index: number, clientId: string | null, error: unknown) => {
    if (!body.isBatch || !(error instanceof AppError)) throw error;
    rejected.push(rejection(index, clientId, error, language));
  };
  const valid: { index: number; input: IncidentInput }[] = [];
  body.items.forEach((item, index) => {
    try {
      valid.push({ index, input: parseWith(incidentInputSchema, item, language) });
    } catch (error) {
      reject(index, clientIdOf(item), error);
    }
  });
  const students = await findStudents(db, [...new Set(valid.map(({ input }) => input.user_id))]);
  const already = await storedClientIds(
    db,
    agentId,
    valid.map(({ input }) => input.client_id),
  );

  const rows: Record<string, unknown>[] = [];
  const storedKeys: string[] = [];
  for (const { index, input } of valid) {
    const studentId = students.get(input.user_id);
    if (!studentId) {
      const issue: FieldIssue = { path: "user_id", message: message("integrity:intake.unknownStudent") };
      reject(index, input.client_id, new AppError("validation_failed", issue.message, { issues: [issue] }));
      continue;
    }
    // A resend (or the same incident twice in one batch) keeps the first screenshot and stores none.
    const isNew = !already.has(input.client_id) && !rows.some((row) => row.client_id === input.client_id);
    let screenshotKey: string | null = null;
    if (isNew && input.screenshot) {
      try {
        const { bytes, contentType } = decodeScreenshot(input.screenshot);
        const stored = await storage.put(bytes, {
          folder: "evidence",
          contentType,
          accept: ["png", "jpeg"],
          maxBytes: MAX_SCREENSHOT_BYTES,
        });
        screenshotKey = stored.key;
        storedKeys.push(stored.key);
      } catch (error) {
        reject(index, input.client_id, error);
        continue;
      }
    }
    if (isNew)
      rows.push({
        student_sourced_id: studentId,
        client_id: input.client_id,
        incident_type: input.incident_type,
        confidence_score: input.confidence_score,
        app_name: input.app_name ?? null,
        detected_text: input.detected_text,
        session_id: input.session_id ?? null,
        occurred_at: input.created_at,
        screenshot_key: screenshotKey,
      });
  }

  const inserted = rows.length ? await insertIncidents(db, agentId, rows, now) : [];
  // A concurrent resend that stored the same incident first keeps its screenshot; this one's goes.
  const insertedKeys = new Set(inserted.map((row) => row.screenshotKey));
  await Promise.all(storedKeys.filter((key) => !insertedKeys.has(key)).map((key) => storage.delete(key)));

  const accepted = valid.filter(({ index }) => !rejected.some((rejection) => rejection.index === index));
  const records = await agentRecords(
    db,
    agentId,
    [...new Set(accepted.map(({ input }) => input.client_id))],
    now,
  );
  const byClientId = new Map(records.map((record) => [record.client_id, record]));
  return {
    incidents: accepted.flatMap(({ input }) => byClientId.get(input.client_id) ?? []),
    rejected: rejected.sort((a, b) => a.index - b.index),
  };
}

async function storedClientIds(db: Database, agentId: string, clientIds: string[]): Promise<Set<string>> {
  if (clientIds.length === 0) return new Set();
  const rows = await queryRows<{ clientId: string }>(
    db,
    sql`select client_id as "clientId" from integrity_incidents
      where agent_id = ${agentId}::uuid and client_id in (select jsonb_array_elements_text(${JSON.stringify(clientIds)}::jsonb))`,
  );
  return new Set(rows.map((row) => row.clientId));
}

async function insertIncidents(db: Database, agentId: string, rows: Record<string, unknown>[], now: Date) {
  return queryRows<{ screenshotKey: string | null }>(
    db,
    sql`insert into integrity_incidents (student_sourced_id, agent_id, client_id, incident_type, confidence_score,
        app_name, detected_text, session_id, occurred_at, screenshot_key, received_at)
      select b.student_sourced_id, ${agentId}::uuid, b.client_id, b.incident_type, b.confidence_score, b.app_name,
        b.detected_text, b.session_id, b.occurred_at, b.screenshot_key, ${now}
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as b(student_sourced_id text, client_id text,
        incident_type text, confidence_score numeric, app_name text, detected_text text, session_id text,
        occurred_at timestamptz, screenshot_key text)
      on conflict (agent_id, client_id) do nothing
      returning screenshot_key as "screenshotKey"`,
  );
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
