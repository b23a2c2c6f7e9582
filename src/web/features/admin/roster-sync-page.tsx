import { useQueryClient } from "@tanstack/react-query";
import { type ChangeEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ImportProblem, ImportProgress, ImportReport } from "../../../shared/contracts/roster-bulk";
import { Card, PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { TableRegion } from "../../components/ui/table-region";
import { formatNumber, shownLocale } from "../../lib/format";
import { i18next } from "../../lib/i18n";
import { importRosterZip, problemsAsCsv, ROSTER_EXPORT_URL } from "./roster-sync-api";

interface Run {
  dryRun: boolean;
  upload: number;
  progress: ImportProgress | null;
}

export function RosterSyncPage() {
  const { t } = useTranslation("admin");
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [run, setRun] = useState<Run | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [isStrict, setIsStrict] = useState(false);
  const ids = { file: useId(), fileHint: useId(), strict: useId(), strictHint: useId() };

  const chooseFile = (event: ChangeEvent<HTMLInputElement>) => {
    setFile(event.target.files?.[0] ?? null);
    setReport(null);
    setFailure(null);
  };

  async function start(dryRun: boolean) {
    if (!file || run) return;
    setReport(null);
    setFailure(null);
    setRun({ dryRun, upload: 0, progress: null });
    try {
      const result = await importRosterZip(
        file,
        { dryRun, strict: isStrict },
        {
          onUpload: (upload) => setRun((current) => current && { ...current, upload }),
          onProgress: (progress) => setRun((current) => current && { ...current, upload: 1, progress }),
        },
      );
      setReport(result);
      // Every list of people, classes and roles may have changed.
      if (result.applied) await queryClient.invalidateQueries();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setRun(null);
    }
  }

  return (
    <div>
      <PageHeader
        title={t("common:pages./app/admin/roster-sync.title")}
        description={t("rosterSync.description")}
      />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <Card>
          <h2 className="text-lg font-bold">{t("rosterSync.import.heading")}</h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            {t("rosterSync.import.description")}
          </p>
          <div className="mt-4">
            <label htmlFor={ids.file} className="text-sm font-medium">
              {t("rosterSync.import.file")}
            </label>
            <input
              id={ids.file}
              type="file"
              accept=".zip,application/zip"
              onChange={chooseFile}
              disabled={run !== null}
              aria-describedby={ids.fileHint}
              className="mt-1 block w-full rounded-lg border border-slate-300 bg-white text-sm shadow-sm file:mr-3 file:cursor-pointer file:border-0 file:border-r file:border-slate-300 file:bg-slate-100 file:px-4 file:py-2.5 file:font-semibold file:text-slate-800 focus:border-brand-600 dark:border-slate-700 dark:bg-slate-950 dark:file:border-slate-700 dark:file:bg-slate-800 dark:file:text-slate-100"
            />
            <p id={ids.fileHint} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              {t("rosterSync.import.fileHint")}
            </p>
          </div>
          <div className="mt-4 flex items-start gap-2">
            <input
              id={ids.strict}
              type="checkbox"
              checked={isStrict}
              onChange={(event) => setIsStrict(event.target.checked)}
              disabled={run !== null}
              aria-describedby={ids.strictHint}
              className="mt-0.5 size-4 rounded border-slate-300 accent-brand-600"
            />
            <div>
              <label htmlFor={ids.strict} className="text-sm font-medium">
                {t("rosterSync.import.strict")}
              </label>
              <p id={ids.strictHint} className="text-xs text-slate-600 dark:text-slate-400">
                {t("rosterSync.import.strictHint")}
              </p>
            </div>
          </div>
          <div className="mt-4 flex flex-wrap gap-2">
            <button
              type="button"
              className={buttonClass("secondary")}
              disabled={!file || run !== null}
              onClick={() => start(true)}
            >
              {t("rosterSync.import.preview")}
            </button>
            <button
              type="button"
              className={buttonClass("primary")}
              disabled={!file || run !== null}
              onClick={() => start(false)}
            >
              {t("rosterSync.import.submit")}
            </button>
          </div>
          {run && <RunProgress run={run} />}
          {failure && (
            <p
              role="alert"
              className="mt-4 rounded-lg bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
            >
              {failure}
            </p>
          )}
        </Card>
        <Card>
          <h2 className="text-lg font-bold">{t("rosterSync.export.heading")}</h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            {t("rosterSync.export.description")}
          </p>
          <a href={ROSTER_EXPORT_URL} download className={buttonClass("secondary", "mt-4 inline-block")}>
            {t("rosterSync.export.download")}
          </a>
        </Card>
      </div>
      {report && <ReportView report={report} />}
    </div>
  );
}

function RunProgress({ run }: { run: Run }) {
  const { t } = useTranslation("admin");
  const processing = run.progress
    ? t("rosterSync.progress.phase", {
        phase: run.progress.phase === "checking" ? "checking" : run.dryRun ? "counting" : "saving",
        file: run.progress.file,
      })
    : t("rosterSync.progress.waiting");
  return (
    <div className="mt-4 space-y-3" aria-live="polite">
      <ProgressBar
        label={t("rosterSync.progress.upload")}
        detail={run.upload < 1 ? t("rosterSync.progress.sending") : t("rosterSync.progress.sent")}
        value={run.upload}
      />
      <ProgressBar
        label={run.dryRun ? t("rosterSync.progress.preview") : t("rosterSync.progress.import")}
        detail={run.upload < 1 ? t("rosterSync.progress.startsAfterUpload") : processing}
        value={run.progress?.fraction ?? 0}
      />
    </div>
  );
}

function ProgressBar({ label, detail, value }: { label: string; detail: string; value: number }) {
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 100);
  const labelId = useId();
  return (
    <div>
      <div className="flex justify-between gap-2 text-sm">
        <span id={labelId} className="font-medium">
          {label}
        </span>
        <span className="text-slate-600 dark:text-slate-300">
          {detail} · {percent}%
        </span>
      </div>
      <div
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="mt-1 h-2.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
      >
        <div
          className="h-full rounded-full bg-brand-600 motion-safe:transition-[width]"
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}

function outcomeOf(report: ImportReport) {
  if (!report.ok && report.errorCount === 0) {
    return {
      tone: "error" as const,
      text: i18next.t("admin:rosterSync.outcome.refusedWarnings", { count: report.warningCount }),
    };
  }
  if (!report.ok) {
    return {
      tone: "error" as const,
      text: i18next.t("admin:rosterSync.outcome.errors", { count: report.errorCount }),
    };
  }
  if (report.dryRun) return { tone: "ok" as const, text: i18next.t("admin:rosterSync.outcome.previewOk") };
  return { tone: "ok" as const, text: i18next.t("admin:rosterSync.outcome.imported") };
}

function ReportView({ report }: { report: ImportReport }) {
  const { t } = useTranslation("admin");
  const outcome = outcomeOf(report);
  const errors = report.problems.filter((problem) => problem.severity === "error");
  const warnings = report.problems.filter((problem) => problem.severity === "warning");
  return (
    <Card className="mt-6">
      <h2 className="text-lg font-bold">
        {report.dryRun ? t("rosterSync.report.preview") : t("rosterSync.report.import")}
      </h2>
      <p
        role="status"
        className={`mt-3 rounded-lg p-3 text-sm font-medium ${
          outcome.tone === "ok"
            ? "bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
            : "bg-red-50 text-red-900 dark:bg-red-950 dark:text-red-100"
        }`}
      >
        {outcome.text}
        <span className="block text-xs font-normal">
          {t("rosterSync.report.details", {
            version: report.version ?? t("rosterSync.report.versionUnknown"),
            count: report.warningCount,
            seconds: new Intl.NumberFormat(shownLocale(), {
              minimumFractionDigits: 1,
              maximumFractionDigits: 1,
            }).format(report.durationMs / 1000),
          })}
        </span>
      </p>
      {report.files.length > 0 && <FilesTable report={report} />}
      {report.problems.length > 0 && (
        <div className="mt-6">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 className="font-bold">
              {errors.length === 0
                ? t("rosterSync.report.warnings")
                : warnings.length > 0
                  ? t("rosterSync.report.errorsAndWarnings", { count: report.errorCount })
                  : t("rosterSync.report.errors", { count: report.errorCount })}
            </h3>
            <DownloadProblems problems={report.problems} />
          </div>
          {report.truncated && (
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
              {t("rosterSync.report.truncated")}
            </p>
          )}
          <ProblemsTable problems={report.problems} />
        </div>
      )}
    </Card>
  );
}

/** A table from small tablets up; on a phone, one line of counts per file. */
function FilesTable({ report }: { report: ImportReport }) {
  const { t } = useTranslation("admin");
  const headers = ["file", "mode", "rows", "created", "updated", "removed", "unchanged"];
  const countsOf = (file: ImportReport["files"][number]) => [
    file.rows,
    file.created,
    file.updated,
    file.deleted,
    file.unchanged,
  ];
  return (
    <>
      <ul className="mt-4 divide-y divide-slate-100 text-sm sm:hidden dark:divide-slate-800">
        {report.files.map((file) => (
          <li key={file.file} className="py-2">
            <span className="font-mono text-xs">{file.file}</span>
            <span className="text-slate-600 dark:text-slate-300">
              {" "}
              · {t(`rosterSync.modes.${file.mode}`)}
            </span>
            <p className="text-xs text-slate-600 tabular-nums dark:text-slate-300">
              {t("rosterSync.files.counts", {
                rows: file.rows,
                created: file.created,
                updated: file.updated,
                removed: file.deleted,
                unchanged: file.unchanged,
              })}
            </p>
          </li>
        ))}
      </ul>
      <TableRegion label={t("rosterSync.files.caption")} className="mt-4 hidden sm:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t("rosterSync.files.caption")}</caption>
          <thead className="text-xs text-slate-500 uppercase dark:text-slate-400">
            <tr>
              {headers.map((header, index) => (
                <th key={header} scope="col" className={`py-2 pr-4 ${index > 1 ? "text-right" : ""}`}>
                  {t(`rosterSync.files.headers.${header}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {report.files.map((file) => (
              <tr key={file.file}>
                <th scope="row" className="py-2 pr-4 font-mono text-xs font-normal">
                  {file.file}
                </th>
                <td className="py-2 pr-4">{t(`rosterSync.modes.${file.mode}`)}</td>
                {countsOf(file).map((count, index) => (
                  <td key={headers[index + 2]} className="py-2 pr-4 text-right tabular-nums">
                    {formatNumber(count)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
    </>
  );
}

const problemKey = (problem: ImportProblem) =>
  `${problem.severity}|${problem.file}|${problem.line}|${problem.column}|${problem.message}`;

function SeverityBadge({ severity }: { severity: ImportProblem["severity"] }) {
  const { t } = useTranslation("admin");
  return (
    <span
      className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
        severity === "error"
          ? "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100"
          : "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100"
      }`}
    >
      {severity === "error" ? t("rosterSync.problems.error") : t("rosterSync.problems.warning")}
    </span>
  );
}

function RowCount({ problem }: { problem: ImportProblem }) {
  const { t } = useTranslation("admin");
  return problem.occurrences && problem.occurrences > 1 ? (
    <span className="text-slate-600 dark:text-slate-300">
      {" "}
      {t("rosterSync.problems.rows", { count: problem.occurrences })}
    </span>
  ) : null;
}

/** A table from small tablets up; on a phone, one block per problem, its place above its message. */
function ProblemsTable({ problems }: { problems: readonly ImportProblem[] }) {
  const { t } = useTranslation("admin");
  return (
    <>
      <ul className="mt-3 divide-y divide-slate-100 text-sm sm:hidden dark:divide-slate-800">
        {problems.map((problem) => (
          <li key={problemKey(problem)} className="py-2">
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1 font-mono text-xs">
              <SeverityBadge severity={problem.severity} />
              <span>{problem.file}</span>
              {problem.line !== null && <span>{t("rosterSync.problems.line", { line: problem.line })}</span>}
              {problem.column && <span className="break-all">{problem.column}</span>}
            </div>
            <p className="mt-1">
              {problem.message}
              <RowCount problem={problem} />
            </p>
          </li>
        ))}
      </ul>
      <TableRegion label={t("rosterSync.problems.caption")} className="mt-3 hidden sm:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t("rosterSync.problems.caption")}</caption>
          <thead className="text-xs text-slate-500 uppercase dark:text-slate-400">
            <tr>
              <th scope="col" className="py-2 pr-4">
                {t("rosterSync.problems.severity")}
              </th>
              <th scope="col" className="py-2 pr-4">
                {t("rosterSync.files.headers.file")}
              </th>
              <th scope="col" className="py-2 pr-4 text-right">
                {t("rosterSync.problems.lineHeader")}
              </th>
              <th scope="col" className="py-2 pr-4">
                {t("rosterSync.problems.column")}
              </th>
              <th scope="col" className="py-2">
                {t("rosterSync.problems.message")}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 align-top dark:divide-slate-800">
            {problems.map((problem) => (
              <tr key={problemKey(problem)}>
                <td className="py-2 pr-4">
                  <SeverityBadge severity={problem.severity} />
                </td>
                <td className="py-2 pr-4 font-mono text-xs whitespace-nowrap">{problem.file}</td>
                <td className="py-2 pr-4 text-right tabular-nums">{problem.line ?? "—"}</td>
                <td className="py-2 pr-4 font-mono text-xs">{problem.column ?? "—"}</td>
                <td className="min-w-64 py-2">
                  {problem.message}
                  <RowCount problem={problem} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
    </>
  );
}

function DownloadProblems({ problems }: { problems: readonly ImportProblem[] }) {
  const { t } = useTranslation("admin");
  const download = () => {
    const url = URL.createObjectURL(new Blob([problemsAsCsv(problems)], { type: "text/csv;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "roster-import-problems.csv";
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <button type="button" className={buttonClass("secondary")} onClick={download}>
      {t("rosterSync.problems.download")}
    </button>
  );
}
