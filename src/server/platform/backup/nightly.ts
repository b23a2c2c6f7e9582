import { existsSync } from "node:fs";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { DatabaseHandle } from "../../db/client";
import { BACKUPS_DIR_NAME } from "../../db/data-dir-snapshot";
import type { Logger } from "../../lib/logger";
import { type BackupWritten, writeBackup } from "./backup-file";

export interface NightlyBackupSettings {
  dataDir: string;
  /** The hour of the day (UTC) from which the day's backup is written. */
  hour: number;
  /** Nightly backups kept; 0 writes none. */
  keep: number;
}

const NIGHTLY_NAME = /^dash-\d{4}-\d{2}-\d{2}\.zip$/;
// Left by a backup that was interrupted, or requested by a command that did not take it away.
const LEFTOVER_NAME = /^(\.staging-|requested-)|\.partial-/;
const LEFTOVER_AGE_MS = 24 * 60 * 60 * 1000;

export function nightlyBackupName(now: Date): string {
  return `dash-${now.toISOString().slice(0, 10)}.zip`;
}

/**
 * The nightly backup of the embedded database into `DATA_DIR/backups`: once a UTC day, at or
 * after the configured hour, then only the newest `keep` are kept. Called every hour; answers
 * the backup written, or null when there was nothing to do (PostgreSQL, turned off, too early,
 * today's already there).
 */
export async function runNightlyBackup(
  handle: DatabaseHandle,
  now: Date,
  settings: NightlyBackupSettings,
  logger: Logger,
): Promise<BackupWritten | null> {
  if (handle.kind !== "pglite" || settings.keep === 0 || now.getUTCHours() < settings.hour) return null;
  const folder = path.join(path.resolve(settings.dataDir), BACKUPS_DIR_NAME);
  const target = path.join(folder, nightlyBackupName(now));
  if (existsSync(target)) return null;
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const written = await writeBackup(handle, settings.dataDir, target);
  logger.info("nightly backup written", {
    file: written.file,
    bytes: written.bytes,
    pausedMs: written.pausedMs,
  });

  const names = await readdir(folder);
  // The date in the name sorts them: the newest first.
  const nightly = names.filter((name) => NIGHTLY_NAME.test(name)).sort((a, b) => b.localeCompare(a));
  for (const name of nightly.slice(settings.keep)) {
    await rm(path.join(folder, name), { force: true });
    logger.info("old nightly backup removed", { file: name });
  }
  for (const name of names.filter((candidate) => LEFTOVER_NAME.test(candidate))) {
    const file = path.join(folder, name);
    const modified = (await stat(file).catch(() => null))?.mtimeMs ?? now.getTime();
    if (now.getTime() - modified > LEFTOVER_AGE_MS) await rm(file, { recursive: true, force: true });
  }
  return written;
}
