import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { JobOutcome, JobRun, JobSummary } from "../../../shared/contracts/jobs";
import { PageHeader } from "../../components/page-header";
import { failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { TableRegion } from "../../components/ui/table-region";
import { instantLabel, relativeTime, shownLocale } from "../../lib/format";
import { i18next } from "../../lib/i18n";
import { Loading, QueryError, Section } from "../home/parts";
import { jobsQuery, operationsKeys, runJobNow } from "./api";

const OUTCOME_CLASSES: Record<JobOutcome, string> = {
  running: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-100",
  succeeded: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100",
  failed: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100",
  retrying: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100",
};

/** While a job waits or runs, the table refreshes itself this often. */
const REFRESH_WHILE_BUSY_MS = 3000;

type Notice = { kind: "success" | "error"; text: string };

/** The administrators' view of Dash's background jobs. */
export function OperationsPage() {
  const { t } = useTranslation("operations");
  const jobs = useQuery({
    ...jobsQuery,
    refetchInterval: (query) =>
      query.state.data?.data.some((job) => job.queued > 0 || job.running > 0) ? REFRESH_WHILE_BUSY_MS : false,
  });
  const [notice, setNotice] = useState<Notice | null>(null);
  return (
    <div className="space-y-6">
      <PageHeader title={t("common:pages./app/admin/operations.title")} description={t("description")} />
      <Section title={t("jobs.title")} description={t("jobs.description")}>
        <div aria-live="polite" className="mb-3">
          {notice && (
            <p
              className={
                notice.kind === "success"
                  ? "rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100"
                  : "rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
              }
            >
              {notice.text}
            </p>
          )}
        </div>
        {jobs.isError && (
          <QueryError error={jobs.error} fallback={t("jobs.loadFailed")} onRetry={() => jobs.refetch()} />
        )}
        {jobs.isPending && <Loading label={t("jobs.loading")} />}
        {jobs.data && <JobsTable jobs={jobs.data.data} onNotice={setNotice} />}
      </Section>
    </div>
  );
}

function JobsTable({ jobs, onNotice }: { jobs: JobSummary[]; onNotice: (notice: Notice) => void }) {
  const { t } = useTranslation("operations");
  if (jobs.length === 0)
    return <p className="text-sm text-slate-600 dark:text-slate-300">{t("jobs.none")}</p>;
  return (
    <TableRegion label={t("jobs.caption")}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{t("jobs.caption")}</caption>
        <thead className="text-xs text-slate-500 uppercase dark:text-slate-400">
          <tr>
            <th scope="col" className="py-2 pr-4">
              {t("jobs.job")}
            </th>
            <th scope="col" className="py-2 pr-4">
              {t("jobs.schedule")}
            </th>
            <th scope="col" className="py-2 pr-4">
              {t("jobs.lastRun")}
            </th>
            <th scope="col" className="py-2 pr-4">
              {t("jobs.counts")}
            </th>
            <th scope="col" className="py-2 pr-4">
              {t("jobs.nextRun")}
            </th>
            <th scope="col" className="py-2">
              <span className="sr-only">{t("jobs.actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {jobs.map((job) => (
            <tr key={job.name} className="align-top">
              <th scope="row" className="py-3 pr-4 font-normal">
                <span className="font-mono font-semibold">{job.name}</span>
                <span className="block text-xs text-slate-600 dark:text-slate-300">{job.description}</span>
              </th>
              <td className="py-3 pr-4">{job.schedule ?? t("jobs.whenQueued")}</td>
              <td className="py-3 pr-4">
                <LastRun run={job.lastRun} />
              </td>
              <td className="py-3 pr-4 whitespace-nowrap tabular-nums">
                {job.queued} · {job.running} · {job.failed}
              </td>
              <td className="py-3 pr-4 whitespace-nowrap">
                {job.nextRunAt ? <Instant value={job.nextRunAt} /> : "—"}
              </td>
              <td className="py-3">{job.schedule && <RunNowButton name={job.name} onNotice={onNotice} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

function LastRun({ run }: { run: JobRun | null }) {
  const { t } = useTranslation("operations");
  if (!run) return <span className="text-slate-600 dark:text-slate-300">{t("jobs.notRunYet")}</span>;
  return (
    <div className="space-y-1">
      <span
        className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${OUTCOME_CLASSES[run.outcome]}`}
      >
        {t(`outcome.${run.outcome}`)}
      </span>
      <span className="block">
        <Instant value={run.startedAt} />
        {run.durationMs !== null && (
          <span className="text-slate-600 dark:text-slate-300"> · {durationLabel(run.durationMs)}</span>
        )}
      </span>
      {run.requestedBy && (
        <span className="block text-xs text-slate-600 dark:text-slate-300">{t("jobs.byHand")}</span>
      )}
      {run.error && (
        <span className="block max-w-md text-xs break-words text-red-800 dark:text-red-300">{run.error}</span>
      )}
    </div>
  );
}

function Instant({ value }: { value: string }) {
  return (
    <time dateTime={value} title={instantLabel(value)}>
      {relativeTime(value)}
    </time>
  );
}

/** "850 ms", "2.5 s", "3 min", with the shown language's digits. */
function durationLabel(ms: number): string {
  const number = (value: number, digits: number) =>
    new Intl.NumberFormat(shownLocale(), {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(value);
  if (ms < 1000) return i18next.t("operations:duration.milliseconds", { value: number(ms, 0) });
  if (ms < 60_000) return i18next.t("operations:duration.seconds", { value: number(ms / 1000, 1) });
  return i18next.t("operations:duration.minutes", { value: number(Math.round(ms / 60_000), 0) });
}

function RunNowButton({ name, onNotice }: { name: string; onNotice: (notice: Notice) => void }) {
  const { t } = useTranslation("operations");
  const queryClient = useQueryClient();
  const [isBusy, setIsBusy] = useState(false);
  async function run() {
    setIsBusy(true);
    try {
      await runJobNow(name);
      onNotice({ kind: "success", text: t("runNow.queued", { name }) });
      await queryClient.invalidateQueries({ queryKey: operationsKeys.jobs });
    } catch (error) {
      onNotice({ kind: "error", text: failureMessage(error, t("runNow.failed", { name })) });
    } finally {
      setIsBusy(false);
    }
  }
  return (
    <button
      type="button"
      onClick={run}
      disabled={isBusy}
      aria-label={t("runNow.label", { name })}
      className={buttonClass("secondary", "whitespace-nowrap")}
    >
      {isBusy ? t("runNow.queuing") : t("runNow.button")}
    </button>
  );
}
