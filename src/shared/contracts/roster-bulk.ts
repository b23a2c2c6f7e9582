import { z } from "zod";
import { invalid } from "../validation-messages";
import { flag } from "./fields";

/**
 * `POST /api/admin/roster/import?dryRun=true|false&strict=true|false`: the body is the .zip itself.
 * `strict` refuses a set with warnings as well as one with errors.
 */
export const rosterImportQuerySchema = z.object({
  dryRun: flag(invalid("dryRunTrueOrFalse")),
  strict: flag(invalid("strictTrueOrFalse")),
});

/** How the manifest says to read a file; `skipped` for files Dash does not store or does not know. */
export const FILE_MODES = ["bulk", "delta", "absent", "skipped"] as const;

export const importFileSummarySchema = z.object({
  file: z.string(),
  mode: z.enum(FILE_MODES),
  /** Data rows read (the header not counted). */
  rows: z.number(),
  created: z.number(),
  updated: z.number(),
  deleted: z.number(),
  unchanged: z.number(),
});
export type ImportFileSummary = z.infer<typeof importFileSummarySchema>;

export const importProblemSchema = z.object({
  severity: z.enum(["error", "warning"]),
  file: z.string(),
  /** 1-based line of the file (the header is line 1); null for a problem of the whole file. */
  line: z.number().nullable(),
  /** The column's header name, when the problem is in one column. */
  column: z.string().nullable(),
  message: z.string(),
  /** For warnings repeated on many rows: how many rows had it (the line is the first one). */
  occurrences: z.number().optional(),
});
export type ImportProblem = z.infer<typeof importProblemSchema>;

export const importReportSchema = z.object({
  /** True when the set had no errors (and, in a strict import, no warnings). */
  ok: z.boolean(),
  dryRun: z.boolean(),
  /** The import refused warnings as well as errors. */
  strict: z.boolean(),
  /** True when the changes were written (no errors and not a dry run). */
  applied: z.boolean(),
  /** The OneRoster version the manifest declares (or that was inferred). */
  version: z.string().nullable(),
  files: z.array(importFileSummarySchema),
  errorCount: z.number(),
  warningCount: z.number(),
  /** Errors first, then warnings; at most a few hundred of each are listed. */
  problems: z.array(importProblemSchema),
  /** True when there were more problems than `problems` lists. */
  truncated: z.boolean(),
  durationMs: z.number(),
});
export type ImportReport = z.infer<typeof importReportSchema>;

/** While an import runs the page can follow it: one JSON line per step, the last one the report. */
export const importProgressSchema = z.object({
  type: z.literal("progress"),
  phase: z.enum(["checking", "applying"]),
  file: z.string(),
  /** From 0 to 1 over both phases. */
  fraction: z.number(),
});
export type ImportProgress = z.infer<typeof importProgressSchema>;

export const importStreamLineSchema = z.discriminatedUnion("type", [
  importProgressSchema,
  z.object({ type: z.literal("report"), report: importReportSchema }),
  z.object({ type: z.literal("error"), message: z.string() }),
]);
export type ImportStreamLine = z.infer<typeof importStreamLineSchema>;
