/**
 * Writes the embedded database as SQL for a new, empty PostgreSQL database, to move a school:
 *   npm run export:postgres -- FILE.sql
 *   psql -v ON_ERROR_STOP=1 -f FILE.sql "$DATABASE_URL"
 * Stop the server first: the export opens DATA_DIR itself, and writes made after it would stay behind.
 */
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { configuredDatabase, openDatabase } from "../src/server/db/client";
import { readEnv } from "../src/server/env";
import { createLogger } from "../src/server/lib/logger";
import { postgresSql } from "../src/server/platform/backup/postgres-export";

async function main(): Promise<number> {
  const [target, ...rest] = process.argv.slice(2);
  if (!target || rest.length > 0) {
    process.stderr.write("Usage: npm run export:postgres -- FILE.sql\n");
    return 2;
  }
  const env = readEnv();
  if (env.DATABASE_URL) {
    process.stderr.write(
      "export:postgres: DATABASE_URL is set: Dash already runs on PostgreSQL; unset it to export the embedded database of DATA_DIR\n",
    );
    return 2;
  }
  const file = path.resolve(target);
  const database = await openDatabase(
    configuredDatabase(env, createLogger(env.LOG_LEVEL), () => process.exit(1)),
  );
  // Written beside the target and renamed at the end: a failed export leaves no half script.
  const partial = `${file}.partial`;
  try {
    await database.migrate();
    await pipeline(Readable.from(postgresSql(database.db)), createWriteStream(partial, { mode: 0o600 }));
    await rename(partial, file);
  } finally {
    await rm(partial, { force: true });
    await database.close();
  }
  process.stdout.write(
    `Wrote ${file}; load it into a new, empty PostgreSQL database with\n  psql -v ON_ERROR_STOP=1 -f ${file} "$DATABASE_URL"\nthen start Dash with DATABASE_URL set\n`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`export:postgres: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
