import { randomUUID } from "node:crypto";
import { createWriteStream, existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { sql } from "drizzle-orm";
import yazl from "yazl";
import { z } from "zod";
import { DEFAULT_LANGUAGE } from "../../../shared/languages";
import { type DatabaseHandle, openDatabase, queryRows } from "../../db/client";
import { BACKUPS_DIR_NAME } from "../../db/data-dir-snapshot";
import { AppError } from "../../lib/errors";
import { message, translate } from "../../lib/i18n";
import { openZipUpload, type UploadLimits } from "../../lib/uploads";
import { SECRET_KEY_FILE_NAME } from "../../startup-checks";

/**
 * A Dash backup of the embedded database: a .zip holding a manifest (first), the database's files
 * under `database/`, and the generated secret key when `DATA_DIR` has one (without it the secrets
 * Dash stores encrypted could not be read after a restore). Keep backups as safe as `DATA_DIR`.
 */
export const BACKUP_MANIFEST_NAME = "dash-backup.json";
const DATABASE_FOLDER = "database";
const BACKUP_FORMAT = "dash-backup";
const BACKUP_VERSION = 1;

const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(BACKUP_VERSION),
  createdAt: z.string(),
  /** Folders of the database, empty ones included: PostgreSQL needs them and a .zip lists only files. */
  folders: z.array(z.string()),
  hasSecretKey: z.boolean(),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

const GB = 1024 ** 3;
// A backup is the operator's own file, not an upload; still, nothing is written outside the
// target folder. PostgreSQL's files are at most 1 GB each, and its empty pages pack very well.
const BACKUP_ARCHIVE_LIMITS: UploadLimits = {
  maxArchiveEntries: 1_000_000,
  maxEntryBytes: GB,
  maxTotalBytes: 1024 * GB,
  maxCompressionRatio: Number.POSITIVE_INFINITY,
  ratioCheckAboveBytes: Number.POSITIVE_INFINITY,
  maxFolderDepth: 8,
  maxFieldBytes: 0,
  maxRecordBytes: 0,
  maxCsvRows: 0,
};

export interface BackupWritten {
  file: string;
  bytes: number;
  /** How long queries waited while the database's files were copied. */
  pausedMs: number;
}

// One backup of a data directory at a time: a second one would copy the same files for nothing.
const backupsInProgress = new Set<string>();

/**
 * Writes a backup of the open embedded database in `dataDir` to `target`. Queries wait only while
 * the files are copied into `DATA_DIR/backups`; packing them happens while the server serves.
 * The archive is written beside the target and renamed at the end, so a failed backup leaves no
 * half file under the target's name.
 */
export async function writeBackup(
  handle: DatabaseHandle,
  dataDir: string,
  target: string,
): Promise<BackupWritten> {
  const folder = path.resolve(dataDir);
  if (handle.kind !== "pglite") throw new AppError("bad_request", POSTGRES_BACKUP_ADVICE);
  if (backupsInProgress.has(folder)) throw new AppError("conflict", message("common:backup.inProgress"));
  backupsInProgress.add(folder);
  const staging = path.join(folder, BACKUPS_DIR_NAME, `.staging-${randomUUID()}`);
  const partial = `${target}.partial-${randomUUID().slice(0, 8)}`;
  try {
    await mkdir(path.dirname(staging), { recursive: true, mode: 0o700 });
    const copyStarted = performance.now();
    await handle.copyDataDirTo(staging);
    const pausedMs = Math.round(performance.now() - copyStarted);

    const entries = await readdir(staging, { recursive: true, withFileTypes: true });
    const relative = (entry: (typeof entries)[number]) =>
      path.relative(staging, path.join(entry.parentPath, entry.name)).split(path.sep).join("/");
    const keyFile = path.join(folder, SECRET_KEY_FILE_NAME);
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: new Date().toISOString(),
      folders: entries.filter((entry) => entry.isDirectory()).map(relative),
      hasSecretKey: existsSync(keyFile),
    };
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from(JSON.stringify(manifest, null, 2)), BACKUP_MANIFEST_NAME);
    if (manifest.hasSecretKey) zip.addBuffer(await readFile(keyFile), SECRET_KEY_FILE_NAME);
    for (const entry of entries)
      if (entry.isFile())
        zip.addFile(path.join(entry.parentPath, entry.name), `${DATABASE_FOLDER}/${relative(entry)}`, {
          // The fastest level: database pages pack well even so, and the server shares the CPU.
          compressionLevel: 1,
        });
    zip.end();
    await pipeline(zip.outputStream, createWriteStream(partial, { mode: 0o600 }));
    await rename(partial, target);
    return { file: target, bytes: (await stat(target)).size, pausedMs };
  } finally {
    backupsInProgress.delete(folder);
    await rm(staging, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}

const POSTGRES_BACKUP_ADVICE = message("common:backup.usePostgresTools");

/** How to back up a PostgreSQL database, for the command line (in English). */
export function postgresBackupAdvice(): string {
  return translate(POSTGRES_BACKUP_ADVICE, DEFAULT_LANGUAGE);
}

export interface BackupRestored {
  manifest: BackupManifest;
  /** Migrations the backed-up database had applied; newer ones apply when the server starts. */
  migrations: number;
}

/**
 * Restores a backup into `dataDir`, which must be empty or missing, and checks that the result
 * opens as a Dash database. On any failure nothing is left behind in `dataDir`.
 */
export async function restoreBackup(file: string, dataDir: string): Promise<BackupRestored> {
  const folder = path.resolve(dataDir);
  if (!existsSync(file)) throw new AppError("not_found", message("common:backup.noFile", { file }));
  const existing = existsSync(folder) ? await readdir(folder) : null;
  if (existing && existing.length > 0)
    throw new AppError("conflict", message("common:backup.folderNotEmpty", { folder }));
  const notBackup = (
    why: "unreadable" | "noManifest" | "badManifest" | "foreignFile" | "doesNotOpen",
    detail = "",
  ) =>
    new AppError(
      "bad_request",
      message("common:backup.notBackup", { file, why, detail, manifest: BACKUP_MANIFEST_NAME }),
    );

  let archive: Awaited<ReturnType<typeof openZipUpload>>;
  try {
    archive = await openZipUpload(file, BACKUP_ARCHIVE_LIMITS);
  } catch (error) {
    throw notBackup("unreadable", (error as Error).message);
  }
  try {
    const [first, ...rest] = archive.files;
    if (first?.path !== BACKUP_MANIFEST_NAME) throw notBackup("noManifest");
    const parsed = manifestSchema.safeParse(safeJson(await readStream(await first.open())));
    if (!parsed.success) throw notBackup("badManifest");
    const manifest = parsed.data;

    await mkdir(folder, { recursive: true, mode: 0o700 });
    try {
      for (const sub of manifest.folders)
        await mkdir(insideFolder(folder, sub), { recursive: true, mode: 0o700 });
      for (const entry of rest) {
        if (entry.path === SECRET_KEY_FILE_NAME) {
          await writeFile(path.join(folder, SECRET_KEY_FILE_NAME), await readStream(await entry.open()), {
            mode: 0o600,
          });
          continue;
        }
        if (!entry.path.startsWith(`${DATABASE_FOLDER}/`)) throw notBackup("foreignFile", entry.path);
        const destination = insideFolder(folder, entry.path.slice(DATABASE_FOLDER.length + 1));
        await mkdir(path.dirname(destination), { recursive: true, mode: 0o700 });
        await pipeline(await entry.open(), createWriteStream(destination, { mode: 0o600 }));
      }
      const migrations = await countMigrations(folder).catch((error: Error) => {
        throw notBackup("doesNotOpen", error.message);
      });
      return { manifest, migrations };
    } catch (error) {
      // Leaves the folder as it was found: missing, or empty.
      if (existing) {
        for (const name of await readdir(folder))
          await rm(path.join(folder, name), { recursive: true, force: true });
      } else {
        await rm(folder, { recursive: true, force: true });
      }
      throw error;
    }
  } finally {
    archive.close();
  }
}

function insideFolder(folder: string, relative: string): string {
  const resolved = path.resolve(folder, relative);
  if (!resolved.startsWith(`${folder}${path.sep}`))
    throw new AppError("bad_request", message("common:backup.pathOutside", { path: relative }));
  return resolved;
}

async function countMigrations(dataDir: string): Promise<number> {
  const handle = await openDatabase({ dataDir });
  try {
    const [row] = await queryRows<{ count: number }>(
      handle.db,
      sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
    );
    return row?.count ?? 0;
  } finally {
    await handle.close();
  }
}

function safeJson(text: Buffer): unknown {
  try {
    return JSON.parse(text.toString("utf8"));
  } catch {
    return null;
  }
}

async function readStream(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
