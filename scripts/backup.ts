/**
 * Writes a backup of the embedded database:
 *   npm run backup -- FILE
 * Beside a running server on the same DATA_DIR it asks that server to write it (the server keeps
 * serving); with no server running it opens the data directory itself. On PostgreSQL it says
 * which of PostgreSQL's own tools to use and exits with 2.
 */
import { copyFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { configuredDatabase, openDatabase } from "../src/server/db/client";
import { readEnv } from "../src/server/env";
import { createLogger } from "../src/server/lib/logger";
import {
  type BackupWritten,
  postgresBackupAdvice,
  writeBackup,
} from "../src/server/platform/backup/backup-file";
import { requestBackupFromServer } from "../src/server/platform/backup/control";

/** Moves the server's file to the target, copying it when they are on different file systems. */
async function moveInto(source: string, target: string): Promise<void> {
  try {
    await rename(source, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    const partial = `${target}.partial`;
    await copyFile(source, partial);
    await rename(partial, target);
  } finally {
    await rm(source, { force: true });
  }
}

async function main(): Promise<number> {
  const [target, ...rest] = process.argv.slice(2);
  if (!target || rest.length > 0) {
    process.stderr.write("Usage: npm run backup -- FILE\n");
    return 2;
  }
  const env = readEnv();
  if (env.DATABASE_URL) {
    process.stderr.write(`backup: ${postgresBackupAdvice()}\n`);
    return 2;
  }
  const file = path.resolve(target);
  const started = performance.now();
  let written: BackupWritten | null = await requestBackupFromServer(env.DATA_DIR);
  let how = "written by the running server";
  if (written) {
    await moveInto(written.file, file);
  } else {
    how = "no server was running";
    const database = await openDatabase(
      configuredDatabase(env, createLogger(env.LOG_LEVEL), () => process.exit(1)),
    );
    try {
      written = await writeBackup(database, env.DATA_DIR, file);
    } finally {
      await database.close();
    }
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const megabytes = (written.bytes / 1024 ** 2).toFixed(1);
  process.stdout.write(
    `Wrote ${file} (${megabytes} MB in ${seconds} s, ${how}; the database paused ${written.pausedMs} ms)\n`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`backup: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
