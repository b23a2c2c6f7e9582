import { sql } from "drizzle-orm";
import { type Database, queryRows } from "../../db/client";
import { message } from "../../lib/i18n";
import type { Logger } from "../../lib/logger";
import type { JobRunner } from "../../platform/jobs/runner";
import type { FileStorage } from "../../platform/storage";
import { integritySettingsOf } from "./settings";

/** Screenshots deleted per round, so no statement holds many rows or the embedded database for long. */
const EVIDENCE_BATCH = 500;

/**
 * Deletes the screenshots kept longer than the retention period: the file first, then the key,
 * leaving the date it was deleted on the incident. A file already gone counts as deleted, so a run
 * that stopped halfway finishes the next time. Answers how many were deleted.
 */
export async function deleteExpiredEvidence(db: Database, storage: FileStorage, now: Date): Promise<number> {
  const { evidenceRetentionDays } = await integritySettingsOf(db);
  const cutoff = new Date(now.getTime() - evidenceRetentionDays * 86_400_000);
  let deleted = 0;
  for (;;) {
    const due = await queryRows<{ id: string; key: string }>(
      db,
      sql`select id, screenshot_key as key from integrity_incidents
        where screenshot_key is not null and received_at < ${cutoff}
        order by received_at limit ${EVIDENCE_BATCH}`,
    );
    if (due.length === 0) return deleted;
    await Promise.all(due.map((row) => storage.delete(row.key)));
    await db.execute(sql`update integrity_incidents set screenshot_key = null, evidence_deleted_at = ${now}
      where id in (select jsonb_array_elements_text(${JSON.stringify(due.map((row) => row.id))}::jsonb)::uuid)`);
    deleted += due.length;
  }
}

export function defineIntegrityJobs(
  runner: JobRunner,
  db: Database,
  storage: FileStorage,
  now: () => Date,
  logger: Logger,
): void {
  runner.define("integrity.evidence", {
    description: message("integrity:jobs.evidence"),
    timeoutMs: 60 * 60_000,
    handler: async () => {
      const deleted = await deleteExpiredEvidence(db, storage, now());
      if (deleted > 0) logger.info("focus incident evidence deleted", { deleted });
    },
  });
  runner.schedule("integrity.evidence", { dailyAt: "02:45", timeZone: "UTC" });
}
