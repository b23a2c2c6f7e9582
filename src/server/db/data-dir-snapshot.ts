import { copyFilesExcept } from "./copy-files";
import { LOCK_FILE_NAME } from "./data-dir-lock";

/**
 * The embedded database's folder (`DATA_DIR`) is PostgreSQL's data directory, and Dash keeps a
 * few files of its own beside the database's: these are left out of a copy of the database.
 */
export const CONTROL_SOCKET_NAME = "control.sock";
export const BACKUPS_DIR_NAME = "backups";
export const NOT_DATABASE_FILES: ReadonlySet<string> = new Set([
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
  await copyFilesExcept(dataDir, target, NOT_DATABASE_FILES);
}
