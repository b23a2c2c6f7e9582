/**
 * Writes the roster of the configured database as a OneRoster 1.2 bulk CSV set in a .zip:
 *   npm run oneroster:export -- PATH.zip
 * Stop the server first when it uses the embedded database.
 */
import { createWriteStream } from "node:fs";
import { rename } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { configuredDatabase, openDatabase } from "../src/server/db/client";
import { exportRosterZip } from "../src/server/domains/rostering/bulk/export";
import { readEnv } from "../src/server/env";
import { createLogger } from "../src/server/lib/logger";

async function main() {
  const [target, ...rest] = process.argv.slice(2);
  if (!target || rest.length > 0 || !target.toLowerCase().endsWith(".zip")) {
    throw new Error("Usage: npm run oneroster:export -- PATH.zip");
  }
  const env = readEnv();
  const database = await openDatabase(
    configuredDatabase(env, createLogger(env.LOG_LEVEL), () => process.exit(1)),
  );
  try {
    await database.migrate();
    // Written beside the target and renamed at the end: a failed export leaves no half archive.
    const partial = `${target}.partial`;
    await pipeline(exportRosterZip(database.db), createWriteStream(partial));
    await rename(partial, target);
    process.stdout.write(`Wrote ${target}\n`);
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  process.stderr.write(`oneroster:export: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
