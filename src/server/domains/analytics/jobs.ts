import { sql } from "drizzle-orm";
import { z } from "zod";
import { type Database, isoInstant, queryJsonRows, queryRows } from "../../db/client";
import { getMeta, setMeta } from "../../db/meta";
import { message } from "../../lib/i18n";
import type { JobRunner } from "../../platform/jobs/runner";
import type { DomainJobDeps } from "../../server-jobs";

export const ANALYTICS_FORWARD_JOB = "analytics.forward";
const FORWARD_BATCH = 500;
/** Batches per run at most, so one run ends in time and a backlog drains over a few minutes. */
const BATCHES_PER_RUN = 40;
/**
 * Events younger than this wait for the next run: an insert still committing may hold a smaller
 * id than one already visible, and the cursor must not pass it.
 */
const SETTLE_MS = 30_000;
const FORWARD_TIMEOUT_MS = 10_000;

/** The last event id sent to the analytics host. */
const cursorSchema = z.object({ lastId: z.number().int().min(0) });

export interface ForwardedEvent {
  type: string;
  path: string;
  at: string;
  day: string;
  userId: string | null;
  role: string | null;
  schoolId: string | null;
  message: string | null;
  stack: string | null;
}

/**
 * Sends the events stored since the last run to the analytics host, a batch at a time, moving the
 * cursor after each batch the host took. A refused or failed batch throws, and the job runner
 * tries again later from the same cursor. Turned on for the first time, it starts from the events
 * stored then: history is not sent. Answers how many events were sent.
 */
export async function forwardAnalyticsEvents(
  db: Database,
  url: string,
  now: Date,
  signal?: AbortSignal,
): Promise<number> {
  const settledBefore = new Date(now.getTime() - SETTLE_MS).toISOString();
  const stored = cursorSchema.safeParse(await getMeta(db, "analytics_forward_cursor"));
  if (!stored.success) {
    const [row] = await queryRows<{ lastId: number }>(
      db,
      sql`select coalesce(max(id), 0)::int as "lastId" from analytics_events where received_at < ${settledBefore}::timestamptz`,
    );
    await setMeta(db, "analytics_forward_cursor", { lastId: Number(row?.lastId ?? 0) });
    return 0;
  }
  let lastId = stored.data.lastId;
  let sent = 0;
  for (let batch = 0; batch < BATCHES_PER_RUN && !signal?.aborted; batch++) {
    const rows = await queryJsonRows<ForwardedEvent & { id: number }>(
      db,
      sql`select e.id, e.type, e.path, ${isoInstant(sql`e.occurred_at`)} as at, to_char(e.day, 'YYYY-MM-DD') as day,
            e.user_sourced_id as "userId", e.role, e.school_sourced_id as "schoolId", e.message, e.stack
          from analytics_events e
          where e.id > ${lastId} and e.received_at < ${settledBefore}::timestamptz
          order by e.id limit ${FORWARD_BATCH}`,
    );
    if (rows.length === 0) break;
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ events: rows.map(({ id: _id, ...event }) => event) }),
      signal: signal
        ? AbortSignal.any([signal, AbortSignal.timeout(FORWARD_TIMEOUT_MS)])
        : AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`the analytics host answered ${response.status}`);
    lastId = rows[rows.length - 1]?.id ?? lastId;
    await setMeta(db, "analytics_forward_cursor", { lastId });
    sent += rows.length;
    if (rows.length < FORWARD_BATCH) break;
  }
  return sent;
}

/** With ANALYTICS_FORWARD_URL set, a job that forwards events every minute, apart from the collector. */
export function defineAnalyticsJobs(runner: JobRunner, { db, env, logger, now }: DomainJobDeps): void {
  const url = env.ANALYTICS_FORWARD_URL;
  if (!url) return;
  runner.define(ANALYTICS_FORWARD_JOB, {
    description: message("analytics:jobs.forward"),
    timeoutMs: 5 * 60_000,
    maxAttempts: 5,
    backoffMs: 60_000,
    handler: async ({ signal }) => {
      const sent = await forwardAnalyticsEvents(db, url, now(), signal);
      if (sent > 0) logger.info("analytics events forwarded", { sent });
    },
  });
  runner.schedule(ANALYTICS_FORWARD_JOB, { everyMs: 60_000 });
}
