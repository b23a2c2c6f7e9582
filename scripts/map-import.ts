/**
 * Imports an NWEA MAP Growth export into the configured database:
 *   npm run map:import -- FILE [--dry-run]
 * FILE is AssessmentResults.csv, the combined data file, or the CDF package as a .zip. Prints the
 * counts, every row no student matched and every row refused with its line and reason; exits 1
 * when a row was refused (then nothing was stored) or the file is refused whole.
 * Stop the server first when it uses the embedded database.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { configuredDatabase, openDatabase } from "../src/server/db/client";
import { importMapExport } from "../src/server/domains/assessment/map-import";
import { readEnv } from "../src/server/env";
import { AppError } from "../src/server/lib/errors";
import { openFileSet } from "../src/server/lib/file-set";
import { createLogger } from "../src/server/lib/logger";

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { "dry-run": { type: "boolean", default: false } },
  });
  const [file] = positionals;
  if (!file || positionals.length > 1)
    throw new Error("Usage: npm run map:import -- FILE(.csv or .zip) [--dry-run]");
  const env = readEnv();
  const database = await openDatabase(
    configuredDatabase(env, createLogger(env.LOG_LEVEL), () => process.exit(1)),
  );
  try {
    await database.migrate();
    const files = await openFileSet(file, { singleFile: { name: path.basename(file) } });
    try {
      const report = await importMapExport(database.db, files, {
        dryRun: values["dry-run"],
        actorId: "map:import",
        fileName: path.basename(file),
        now: new Date(),
        language: "en",
      });
      const { rows } = report;
      const lines = [
        `${report.dryRun ? "Dry run: nothing stored." : report.applied ? "Imported." : "Nothing stored: some rows were refused."}`,
        `Rows read ${rows.read}, imported ${rows.imported}, updated ${rows.updated}, unchanged ${rows.unchanged}, unmatched ${rows.unmatched}, refused ${rows.rejected}`,
        ...report.unmatched.map((row) =>
          `unmatched line ${row.line}: StudentID ${row.studentId} ${row.name ?? ""} ${row.school ?? ""}`.trim(),
        ),
        ...report.errors.map(
          (error) => `line ${error.line}${error.column ? ` ${error.column}` : ""}: ${error.message}`,
        ),
      ];
      process.stdout.write(`${lines.join("\n")}\n`);
      return report.errors.length > 0 ? 1 : 0;
    } finally {
      await files.close();
    }
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    process.stderr.write(`map:import: ${error.message}\n`);
    return 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`map:import: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
