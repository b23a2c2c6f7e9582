import { sql } from "drizzle-orm";
import {
  DEFAULT_RETENTION,
  RETENTION_KINDS,
  type RetentionKind,
  type RetentionRun,
  type RetentionSettings,
  retentionSettingsSchema,
} from "../../../shared/contracts/privacy";
import { type Database, queryRows } from "../../db/client";
import { getMeta, setMeta } from "../../db/meta";
import type { Logger } from "../../lib/logger";

/** Removes a kind's rows older than the given instant; answers how many went. */
export type Purge = (db: Database, olderThan: Date) => Promise<number>;

const BATCH_SIZE = 5_000;
const DAY_MS = 24 * 60 * 60 * 1000;
const DAILY_JOB = "daily";

/**
 * Deletes rows of a table older than the cut-off a batch at a time, so no statement holds locks
 * on a large table for long; `onlyWhere` keeps rows that are not done with (a condition in SQL).
 */
function purgeTable(table: string, timeColumn: string, keyColumn: string, onlyWhere = "true"): Purge {
  return async (db, olderThan) => {
    let removed = 0;
    for (;;) {
      const [result] = await queryRows<{ count: number }>(
        db,
        sql`with gone as (
              delete from ${sql.raw(table)} where ${sql.raw(keyColumn)} in (
                select ${sql.raw(keyColumn)} from ${sql.raw(table)} where ${sql.raw(timeColumn)} < ${olderThan.toISOString()}::timestamptz
                  and ${sql.raw(onlyWhere)}
                limit ${BATCH_SIZE})
              returning 1)
            select count(*)::int as count from gone`,
      );
      const count = Number(result?.count ?? 0);
      removed += count;
      if (count < BATCH_SIZE) return removed;
    }
  };
}

/**
 * What each kind of data is, table by table. Incident evidence has no tables yet: the domain that
 * brings them adds its purge here, and the daily run applies it.
 */
export const RETENTION_PURGES: Record<RetentionKind, readonly Purge[]> = {
  activity_events: [purgeTable("activity_events", "occurred_at", "id")],
  incident_evidence: [],
  analytics: [purgeTable("analytics_events", "occurred_at", "id")],
  // By creation: a delivery's attempts end within hours, and one still queued or being sent stays.
  webhook_deliveries: [
    purgeTable("webhook_deliveries", "created_at", "id", "state in ('succeeded', 'failed')"),
  ],
  audit_logs: [
    purgeTable("impersonation_audit", "created_at", "id"),
    purgeTable("roster_changes", "created_at", "id"),
    purgeTable("sensitive_access_log", "created_at", "id"),
  ],
};

/** The administrators' settings, the defaults for kinds they have not set. */
export async function retentionSettings(db: Database): Promise<RetentionSettings> {
  const stored = retentionSettingsSchema.partial().safeParse(await getMeta(db, "retention_settings"));
  return { ...DEFAULT_RETENTION, ...(stored.success ? stored.data : {}) };
}

export async function saveRetentionSettings(
  db: Database,
  settings: RetentionSettings,
): Promise<RetentionSettings> {
  await setMeta(db, "retention_settings", settings);
  return settings;
}

export async function lastRetentionRun(db: Database): Promise<RetentionRun | null> {
  const [row] = await queryRows<{
    startedAt: string | null;
    finishedAt: string | null;
    removed: Record<string, number> | null;
  }>(
    db,
    sql`select to_char(started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "startedAt",
          to_char(finished_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "finishedAt", removed
        from retention_runs where job = ${DAILY_JOB}`,
  );
  if (!row?.startedAt) return null;
  return { startedAt: row.startedAt, finishedAt: row.finishedAt, removed: row.removed };
}

/**
 * Takes today's run (UTC days) for this process, or answers false when another process or an
 * earlier start already took it: one UPDATE decides, so two processes never both win.
 */
async function claimDailyRun(db: Database, now: Date): Promise<boolean> {
  const startOfDay = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  await db.execute(sql`insert into retention_runs (job) values (${DAILY_JOB}) on conflict (job) do nothing`);
  const claimed = await queryRows<{ job: string }>(
    db,
    sql`update retention_runs set started_at = ${now.toISOString()}::timestamptz, finished_at = null, removed = null
        where job = ${DAILY_JOB} and (started_at is null or started_at < ${startOfDay.toISOString()}::timestamptz)
        returning job`,
  );
  return claimed.length === 1;
}

/**
 * The daily retention run: at most once a UTC day across processes and restarts, it removes each
 * kind's rows older than its setting. Answers the rows removed per kind, or null when the day's
 * run had already been taken.
 */
export async function runDailyRetention(
  db: Database,
  clock: () => Date,
  logger: Logger,
): Promise<Record<RetentionKind, number> | null> {
  const now = clock();
  if (!(await claimDailyRun(db, now))) return null;
  const settings = await retentionSettings(db);
  const removed = Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, 0])) as Record<
    RetentionKind,
    number
  >;
  for (const kind of RETENTION_KINDS) {
    const days = settings[kind];
    if (days === null) continue;
    const olderThan = new Date(now.getTime() - days * DAY_MS);
    for (const purge of RETENTION_PURGES[kind]) removed[kind] += await purge(db, olderThan);
  }
  await db.execute(
    sql`update retention_runs set finished_at = ${clock().toISOString()}::timestamptz, removed = ${JSON.stringify(removed)}::jsonb
        where job = ${DAILY_JOB}`,
  );
  logger.info("retention run", removed);
  return removed;
}
