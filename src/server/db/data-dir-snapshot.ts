import { cp, mkdir, readdir } from "node:fs/promises";
import path from "node:path";
import { LOCK_FILE_NAME } from "./data-dir-lock";

/**
 * The embedded database's folder (`DATA_DIR`) is PostgreSQL's data directory, and Dash keeps a
 * few files of its own beside the database's: these are left out of a copy of the database.
 */
export const CONTROL_SOCKET_NAME = "control.sock";
export const BACKUPS_DIR_NAME = "backups";
const NOT_DATABASE_FILES = new Set([
  LOCK_FILE_NAME,
  `${LOCK_FILE_NAME}.takeover`,
  CONTROL_SOCKET_NAME,
  BACKUPS_DIR_NAME,
  // The secret key is not the database's; a backup takes it on its own.
  "secret.key",
  // Names the process that had the database open: a copy opened later must not find it.
  "postmaster.pid",
]);

/**
 * Copies the database's files of `dataDir` into `target`. The caller makes sure no query runs
 * meanwhile: the files then form a database that opens as if its server had stopped abruptly at
 * that moment, with every committed transaction in it.
 */
export async function copyDatabaseFiles(dataDir: string, target: string): Promise<void> {
  await mkdir(target, { mode: 0o700 });
  // Entry by entry: the target may sit inside the data directory's own backups folder.
  for (const name of await readdir(dataDir)) {
    if (NOT_DATABASE_FILES.has(name)) continue;
    await cp(path.join(dataDir, name), path.join(target, name), {
      recursive: true,
      errorOnExist: true,
      force: false,
    });
  }
}
