import { sql } from "drizzle-orm";
import type { IngestResult } from "../../../shared/contracts/activity";
import type { Database } from "../../db/client";
import { AppError } from "../../lib/errors";
import type { Logger } from "../../lib/logger";

/** A reason is kept up to its first colon (the field or the rule), so reasons count together. */
const REASON_LIMIT = 120;
/** The reason a held event is counted under: stored, credited only once a person approves. */
export const HELD_REASON = "held for review";

export interface IngestRequestRecord {
  appId: string;
  endpoint: "activity" | "caliper";
  statusCode: number;
  durationMs: number;
  /** The answer of a request that was read; absent for one refused whole (its status says why). */
  result?: IngestResult;
  /** Why a request was refused whole (a bad body). */
  refusal?: string;
}

/**
 * Why a request was refused whole, as the log counts it: the first field a 400 names (`events`),
 * else the error's English message, else the status.
 */
export function refusalOf(error: Error | undefined, status: number): string {
  const issue = error instanceof AppError ? error.details.issues?.[0] : undefined;
  if (issue) return `${issue.path || "body"}: invalid`;
  return error?.message ?? `HTTP ${status}`;
}

/** "activeSeconds: the student's day … would have more" → "activeSeconds". */
export function reasonKeyOf(reason: string): string {
  const colon = reason.indexOf(":");
  return (colon > 0 ? reason.slice(0, colon) : reason).trim().slice(0, REASON_LIMIT) || "unknown";
}

/** The counts of a request for the log: held events are stored, so they count as accepted, with their reason. */
export function countsOf(record: Pick<IngestRequestRecord, "result" | "refusal">) {
  const reasons: Record<string, number> = {};
  const add = (reason: string, count = 1) => {
    const key = reasonKeyOf(reason);
    reasons[key] = (reasons[key] ?? 0) + count;
  };
  if (record.refusal) add(record.refusal);
  const result = record.result;
  for (const rejected of result?.rejected ?? []) add(rejected.reason);
  if (result?.held.length) reasons[HELD_REASON] = result.held.length;
  return {
    accepted: (result?.accepted.length ?? 0) + (result?.held.length ?? 0),
    duplicates: result?.duplicates.length ?? 0,
    rejected: result?.rejected.length ?? 0,
    reasons,
  };
}

/**
 * Writes one line of the ingestion log, in one statement. A line that cannot be written is
 * logged: the app's events are stored either way.
 */
export async function recordIngestRequest(
  db: Database,
  logger: Logger,
  record: IngestRequestRecord,
  receivedAt: Date,
): Promise<void> {
  const counts = countsOf(record);
  try {
    await db.execute(
      sql`insert into ingest_requests (app_id, endpoint, received_at, status_code, accepted, duplicates,
            rejected, reasons, duration_ms)
          values (${record.appId}::uuid, ${record.endpoint}, ${receivedAt}, ${record.statusCode},
            ${counts.accepted}, ${counts.duplicates}, ${counts.rejected}, ${JSON.stringify(counts.reasons)}::jsonb,
            ${Math.max(0, Math.round(record.durationMs))})`,
    );
  } catch (error) {
    logger.error("ingestion log line not written", { appId: record.appId, error: String(error) });
  }
}
