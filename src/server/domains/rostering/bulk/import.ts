import { sql } from "drizzle-orm";
import type { ImportProgress, ImportReport } from "../../../../shared/contracts/roster-bulk";
import type { Language } from "../../../../shared/languages";
import type { Database } from "../../../db/client";
import { type FileSet, openFileSet } from "../../../lib/file-set";
import { emitWebhookEvent } from "../../webhooks/emit";
import { applyRosterSet } from "./apply";
import { checkRosterSet } from "./check";
import { ProblemLog } from "./problems";
import { fileNameOf, STORED_FILES, type StoredFile } from "./spec";

export interface ImportOptions {
  /** Check and count everything, then roll back: nothing changes. */
  dryRun?: boolean;
  /** Refuse the set when it has warnings too (a dangling reference kept, a row left out, a 1.0 status read). */
  strict?: boolean;
  /** The administrator importing over HTTP: the import must not lock them out. */
  protectUserId?: string;
  /** The language the report's problems are said in (English by default). */
  language?: Language;
  onProgress?: (progress: ImportProgress) => void;
}

/** Thrown inside the transaction to undo a dry run once its counts are known. */
class DryRunRollback extends Error {}

/**
 * Imports a OneRoster CSV set, all or nothing: a first pass checks everything and reports every
 * problem; only when there is no error does a second pass write the set in one transaction.
 */
export async function importRosterSet(
  db: Database,
  source: FileSet,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const started = performance.now();
  const dryRun = options.dryRun ?? false;
  const strict = options.strict ?? false;
  const problems = new ProblemLog();
  const progress = progressTracker(source, options.onProgress);

  const plan = await checkRosterSet(db, source, problems, {
    protectUserId: options.protectUserId,
    onBytes: (file, bytes) => progress("checking", file, bytes),
  });
  const isRefused = problems.hasErrors || (strict && problems.warningCount > 0);
  let applied = false;
  if (!isRefused) {
    try {
      await db.transaction(async (tx) => {
        await applyRosterSet(tx as unknown as Database, plan, {
          now: new Date(),
          onBytes: (file, bytes) => progress("applying", file, bytes),
        });
        if (dryRun) throw new DryRunRollback();
        await emitWebhookEvent(tx as unknown as Database, "roster.imported", {
          version: plan.version,
          files: plan.summaries.map(({ file, created, updated, deleted, unchanged }) => ({
            file,
            created,
            updated,
            deleted,
            unchanged,
          })),
        });
      });
      applied = true;
      // The planner should know the new roster at once: autovacuum takes a while to notice, and
      // PGlite has none.
      await db.execute(sql`analyze`);
    } catch (error) {
      if (!(error instanceof DryRunRollback)) throw error;
    }
  }
  return {
    ok: !isRefused,
    dryRun,
    strict,
    applied,
    version: plan.version,
    files: plan.summaries,
    errorCount: problems.errorCount,
    warningCount: problems.warningCount,
    problems: problems.list(options.language),
    truncated: problems.isTruncated,
    durationMs: Math.round(performance.now() - started),
  };
}

/** Opens a folder or .zip and imports it; a source that cannot be opened is reported like any error. */
export async function importRosterFrom(
  db: Database,
  location: string,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const source = await openFileSet(location);
  try {
    return await importRosterSet(db, source, options);
  } finally {
    await source.close();
  }
}

/** Turns bytes read per file into one fraction over both passes (each pass reads every stored file once). */
function progressTracker(source: FileSet, listener: ImportOptions["onProgress"]) {
  const sizes = new Map<string, number>(
    source.entries.map((entry) => [entry.name.toLowerCase(), entry.bytes]),
  );
  const sizeOf = (file: StoredFile) => sizes.get(fileNameOf(file).toLowerCase()) ?? 0;
  const total = Math.max(
    1,
    STORED_FILES.reduce((sum, file) => sum + sizeOf(file), 0),
  );
  const done = { checking: new Map<StoredFile, number>(), applying: new Map<StoredFile, number>() };
  return (phase: ImportProgress["phase"], file: StoredFile, bytes: number) => {
    if (!listener) return;
    done[phase].set(file, Math.min(bytes, sizeOf(file)));
    const read = (map: Map<StoredFile, number>) => [...map.values()].reduce((sum, value) => sum + value, 0);
    const fraction = (read(done.checking) + read(done.applying)) / (2 * total);
    listener({ type: "progress", phase, file: fileNameOf(file), fraction: Math.min(1, fraction) });
  };
}

/** The report as text, for the command line. */
export function formatReport(report: ImportReport): string {
  const lines: string[] = [];
  const outcome = !report.ok
    ? report.errorCount === 0
      ? "Nothing was imported: the import is strict and the set has warnings."
      : "Nothing was imported: fix the errors below and try again."
    : report.dryRun
      ? "Dry run: the set is valid; nothing was changed."
      : "Imported.";
  lines.push(`OneRoster ${report.version ?? "(version unknown)"} set. ${outcome}`);
  if (report.files.length > 0) {
    const header = ["file", "mode", "rows", "created", "updated", "deleted", "unchanged"];
    const rows = report.files.map((file) => [
      file.file,
      file.mode,
      ...[file.rows, file.created, file.updated, file.deleted, file.unchanged].map(String),
    ]);
    const widths = header.map((title, index) =>
      Math.max(title.length, ...rows.map((row) => (row[index] ?? "").length)),
    );
    const format = (cells: string[]) =>
      cells
        .map((cell, index) =>
          index < 2 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0),
        )
        .join("  ");
    lines.push("", format(header), ...rows.map(format));
  }
  lines.push(
    "",
    `${report.errorCount} error(s), ${report.warningCount} warning(s) in ${(report.durationMs / 1000).toFixed(1)} s`,
  );
  for (const problem of report.problems) {
    const place = [
      problem.file,
      problem.line === null ? null : `line ${problem.line}`,
      problem.column === null ? null : `column ${problem.column}`,
    ]
      .filter(Boolean)
      .join(", ");
    const times = problem.occurrences && problem.occurrences > 1 ? ` (${problem.occurrences} rows)` : "";
    lines.push(`${problem.severity === "error" ? "ERROR" : "warning"}  ${place}: ${problem.message}${times}`);
  }
  if (report.truncated) lines.push("… and more problems not listed.");
  return lines.join("\n");
}
