import { useQueryClient } from "@tanstack/react-query";
import { FileUp } from "lucide-react";
import { type ReactNode, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { TableRegion } from "../../components/ui/table-region";
import { Section } from "../home/parts";
import { SuccessNote } from "../rewards/admin-form";

/** What every import of the assessment answers, dry run or not. */
export interface ImportOutcome {
  dryRun: boolean;
  applied: boolean;
  errors: { line: number; column: string | null; message: string }[];
}

/**
 * A file import in two steps: check the file (a dry run that stores nothing and lists every bad
 * line), then import it. Nothing is stored unless every row can be.
 */
export function ImportPanel<Report extends ImportOutcome>({
  title,
  description,
  accept,
  upload,
  changesOf,
  summaryOf,
  refresh,
  details,
}: {
  title: string;
  /** The file the import takes, said for people. */
  description: ReactNode;
  accept: string;
  upload: (file: File, dryRun: boolean) => Promise<Report>;
  /** How many stored rows the import changes (or would). */
  changesOf: (report: Report) => number;
  /** The report's counts in a sentence. */
  summaryOf: (report: Report) => string;
  /** The queries an applied import changes. */
  refresh: readonly (readonly unknown[])[];
  /** More of the report below the outcome (rows waiting for a match, say). */
  details?: (report: Report) => ReactNode;
}) {
  const { t } = useTranslation("assessment");
  const queryClient = useQueryClient();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<Report | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  async function send(dryRun: boolean) {
    if (!file) return setProblem(t("import.chooseFile"));
    setIsBusy(true);
    setProblem(null);
    try {
      const result = await upload(file, dryRun);
      setReport(result);
      if (result.applied) {
        await Promise.all(refresh.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
        setFile(null);
        if (input.current) input.current.value = "";
      }
    } catch (error) {
      setReport(null);
      setProblem(failureMessage(error, t("import.failed")));
    } finally {
      setIsBusy(false);
    }
  }

  const canApply = report?.dryRun && report.errors.length === 0 && changesOf(report) > 0 && file;
  return (
    <Section title={title} description={description}>
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-0 flex-1 sm:flex-none">
          <label htmlFor={inputId} className="text-sm font-medium">
            {t("import.file")}
          </label>
          <input
            id={inputId}
            ref={input}
            type="file"
            accept={accept}
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setReport(null);
              setProblem(null);
            }}
            className="mt-1 block w-full text-sm file:mr-3 file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-3 file:py-2 file:font-semibold dark:file:border-slate-700 dark:file:bg-slate-900 dark:file:text-slate-100"
          />
        </div>
        <button
          type="button"
          disabled={isBusy || !file}
          onClick={() => void send(true)}
          className={buttonClass("secondary", "inline-flex items-center gap-2")}
        >
          <FileUp aria-hidden="true" className="size-4" />
          {isBusy ? t("import.working") : t("import.check")}
        </button>
        {canApply && (
          <button
            type="button"
            disabled={isBusy}
            onClick={() => void send(false)}
            className={buttonClass("primary")}
          >
            {t("import.apply", { count: changesOf(report) })}
          </button>
        )}
      </div>
      {problem && (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {problem}
        </p>
      )}
      <div role="status" className="mt-4">
        {report && (
          <Outcome report={report} changes={changesOf(report)} summary={summaryOf(report)}>
            {details?.(report)}
          </Outcome>
        )}
      </div>
    </Section>
  );
}

function Outcome({
  report,
  changes,
  summary,
  children,
}: {
  report: ImportOutcome;
  changes: number;
  summary: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation("assessment");
  if (report.errors.length > 0)
    return (
      <div className="space-y-3">
        <p className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {t("import.refused", { count: report.errors.length, summary })}
        </p>
        <ImportErrors errors={report.errors} />
      </div>
    );
  return (
    <div className="space-y-3">
      {report.applied ? (
        <SuccessNote>{t("import.applied", { count: changes, summary })}</SuccessNote>
      ) : (
        <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm dark:bg-slate-800">
          {changes === 0 ? t("import.nothingToChange", { summary }) : t("import.ready", { summary })}
        </p>
      )}
      {children}
    </div>
  );
}

function ImportErrors({ errors }: { errors: ImportOutcome["errors"] }) {
  const { t } = useTranslation("assessment");
  return (
    <TableRegion label={t("import.errors")} maxHeight="max-h-80">
      <table className="w-full min-w-[28rem] text-left text-sm">
        <caption className="sr-only">{t("import.errors")}</caption>
        <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold">
              {t("import.line")}
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              {t("import.column")}
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              {t("import.problem")}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {errors.map((error) => (
            <tr key={`${error.line}-${error.column}-${error.message}`}>
              <td className="px-3 py-2 tabular-nums">{error.line}</td>
              <td className="px-3 py-2">{error.column ?? "—"}</td>
              <td className="px-3 py-2">{error.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
