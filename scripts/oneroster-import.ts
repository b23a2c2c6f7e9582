/**
 * Imports a OneRoster CSV set (a folder or a .zip) into the configured database:
 *   npm run oneroster:import -- PATH [--dry-run] [--strict]
 * Prints the report (per file: created, updated, deleted, unchanged; every problem with its file,
 * line and column) and exits 1 when the set has errors (or, with --strict, warnings), in which case nothing was changed, or
 * when the file is refused whole (not a zip, damaged, past the upload limits), with the message
 * the web page gives.
 * Stop the server first when it uses the embedded database.
 */
import { parseArgs } from "node:util";
import { configuredDatabase, openDatabase } from "../src/server/db/client";
import { formatReport, importRosterFrom } from "../src/server/domains/rostering/bulk/import";
import { readEnv } from "../src/server/env";
import { AppError } from "../src/server/lib/errors";
import { createLogger } from "../src/server/lib/logger";

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      "dry-run": { type: "boolean", default: false },
      strict: { type: "boolean", default: false },
    },
  });
  const [location] = positionals;
  if (!location || positionals.length > 1) {
    throw new Error("Usage: npm run oneroster:import -- PATH(folder or .zip) [--dry-run] [--strict]");
  }
  const env = readEnv();
  // Same lock as the server; losing it mid-way ends the process before anything is committed.
  const database = await openDatabase(
    configuredDatabase(env, createLogger(env.LOG_LEVEL), () => process.exit(1)),
  );
  try {
    await database.migrate();
    let report: Awaited<ReturnType<typeof importRosterFrom>>;
    try {
      report = await importRosterFrom(database.db, location, {
        dryRun: values["dry-run"],
        strict: values.strict,
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      process.stderr.write(`oneroster:import: ${error.message}\n`);
      return 1;
    }
    process.stdout.write(`${formatReport(report)}\n`);
    return report.ok ? 0 : 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`oneroster:import: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
