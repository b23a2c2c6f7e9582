import { apiErrorSchema } from "../../../shared/contracts/errors";
import {
  type ImportProblem,
  type ImportProgress,
  type ImportReport,
  importStreamLineSchema,
} from "../../../shared/contracts/roster-bulk";
import { csvText } from "../../../shared/csv";
import { ApiRequestError } from "../../lib/http";
import { i18next } from "../../lib/i18n";

export const ROSTER_EXPORT_URL = "/api/admin/roster/export";

export interface ImportListeners {
  /** From 0 to 1 while the .zip is sent. */
  onUpload: (fraction: number) => void;
  onProgress: (progress: ImportProgress) => void;
}

/**
 * Sends the .zip to the import with XMLHttpRequest, whose upload events give the upload's
 * progress (fetch has none); the answer is JSON lines of progress, then the report.
 */
export function importRosterZip(
  file: File,
  options: { dryRun: boolean; strict: boolean },
  listeners: ImportListeners,
): Promise<ImportReport> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    let readUpTo = 0;
    let report: ImportReport | null = null;
    let failure: string | null = null;

    const readLines = (isComplete: boolean) => {
      const text = request.responseText;
      const end = isComplete ? text.length : text.lastIndexOf("\n") + 1;
      for (const line of text.slice(readUpTo, end).split("\n")) {
        if (!line.trim()) continue;
        const parsed = importStreamLineSchema.safeParse(JSON.parse(line));
        if (!parsed.success) continue;
        if (parsed.data.type === "progress") listeners.onProgress(parsed.data);
        else if (parsed.data.type === "report") report = parsed.data.report;
        else failure = parsed.data.message;
      }
      readUpTo = Math.max(readUpTo, end);
    };

    const query = new URLSearchParams({ dryRun: String(options.dryRun), strict: String(options.strict) });
    request.open("POST", `/api/admin/roster/import?${query}`);
    request.setRequestHeader("Accept", "application/x-ndjson");
    request.setRequestHeader("Content-Type", "application/zip");
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) listeners.onUpload(event.loaded / event.total);
    };
    request.upload.onload = () => listeners.onUpload(1);
    request.onprogress = () => {
      if (request.status === 200) readLines(false);
    };
    request.onload = () => {
      if (request.status !== 200) {
        reject(errorOf(request));
        return;
      }
      readLines(true);
      if (report) resolve(report);
      else reject(new ApiRequestError(failure ?? i18next.t("admin:rosterImport.noReport"), 500, "internal"));
    };
    request.onerror = () =>
      reject(new ApiRequestError(i18next.t("admin:rosterImport.uploadFailed"), 0, "network"));
    request.send(file);
  });
}

function errorOf(request: XMLHttpRequest): ApiRequestError {
  try {
    const body = apiErrorSchema.parse(JSON.parse(request.responseText));
    return new ApiRequestError(body.message, request.status, body.code);
  } catch {
    return new ApiRequestError(
      request.statusText || i18next.t("common:requestFailed", { status: request.status }),
      request.status,
      "http_error",
    );
  }
}

/** The report's problems as CSV, to fix the set in a spreadsheet. */
export function problemsAsCsv(problems: readonly ImportProblem[]): string {
  const lines = [["severity", "file", "line", "column", "message", "rows"]];
  for (const problem of problems) {
    lines.push([
      problem.severity,
      problem.file,
      problem.line === null ? "" : String(problem.line),
      problem.column ?? "",
      problem.message,
      String(problem.occurrences ?? 1),
    ]);
  }
  return csvText(lines);
}
