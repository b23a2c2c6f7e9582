import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { JobOutcome, JobRun, JobSummary } from "../../../shared/contracts/jobs";
import { PageHeader } from "../../components/page-header";
import { failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { relativeTime } from "../../lib/format";
import { Loading, QueryError, Section } from "../home/parts";
import { jobsQuery, operationsKeys, runJobNow } from "./api";

const OUTCOME_LABELS: Record<JobOutcome, string> = {
  running: "Running",
  succeeded: "Succeeded",
  failed: "Failed",
  retrying: "Failed, will retry",
};

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
  const jobs = useQuery({
    ...jobsQuery,
    refetchInterval: (query) =>
      query.state.data?.data.some((job) => job.queued > 0 || job.running > 0) ? REFRESH_WHILE_BUSY_MS : false,
  });
  const [notice, setNotice] = useState<Notice | null>(null);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Operations"
        description="The jobs Dash runs by itself: when each last ran, how it went, and when it runs next."
      />
      <Section
        title="Background jobs"
        description="Scheduled jobs run once per period whichever server process gets there first. A failed attempt is retried with growing waits; after the last one the job is kept as failed."
      >
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
          <QueryError error={jobs.error} fallback="Could not load the jobs" onRetry={() => jobs.refetch()} />
        )}
        {jobs.isPending && <Loading label="Loading the jobs" />}
        {jobs.data && <JobsTable jobs={jobs.data.data} onNotice={setNotice} />}
      </Section>
    </div>
  );
}

function JobsTable({ jobs, onNotice }: { jobs: JobSummary[]; onNotice: (notice: Notice) => void }) {
  if (jobs.length === 0)
    return <p className="text-sm text-slate-600 dark:text-slate-300">No background jobs are defined.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Background jobs, their latest run and their next run</caption>
        <thead className="text-xs text-slate-500 uppercase dark:text-slate-400">
          <tr>
            <th scope="col" className="py-2 pr-4">
              Job
            </th>
            <th scope="col" className="py-2 pr-4">
              Schedule
            </th>
            <th scope="col" className="py-2 pr-4">
              Last run
            </th>
            <th scope="col" className="py-2 pr-4">
              Queued · running · failed
            </th>
            <th scope="col" className="py-2 pr-4">
              Next run
            </th>
            <th scope="col" className="py-2">
              <span className="sr-only">Actions</span>
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
              <td className="py-3 pr-4">{job.schedule ?? "When queued"}</td>
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
    </div>
  );
}

function LastRun({ run }: { run: JobRun | null }) {
  if (!run) return <span className="text-slate-600 dark:text-slate-300">Not run yet</span>;
  return (
    <div className="space-y-1">
      <span
        className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${OUTCOME_CLASSES[run.outcome]}`}
      >
        {OUTCOME_LABELS[run.outcome]}
      </span>
      <span className="block">
        <Instant value={run.startedAt} />
        {run.durationMs !== null && (
          <span className="text-slate-600 dark:text-slate-300"> · {durationLabel(run.durationMs)}</span>
        )}
      </span>
      {run.requestedBy && (
        <span className="block text-xs text-slate-600 dark:text-slate-300">Run by hand</span>
      )}
      {run.error && (
        <span className="block max-w-md text-xs break-words text-red-800 dark:text-red-300">{run.error}</span>
      )}
    </div>
  );
}

function Instant({ value }: { value: string }) {
  return (
    <time dateTime={value} title={new Date(value).toLocaleString()}>
      {relativeTime(value)}
    </time>
  );
}

function durationLabel(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

function RunNowButton({ name, onNotice }: { name: string; onNotice: (notice: Notice) => void }) {
  const queryClient = useQueryClient();
  const [isBusy, setIsBusy] = useState(false);
  async function run() {
    setIsBusy(true);
    try {
      await runJobNow(name);
      onNotice({ kind: "success", text: `${name} was queued to run now. This table updates as it runs.` });
      await queryClient.invalidateQueries({ queryKey: operationsKeys.jobs });
    } catch (error) {
      onNotice({ kind: "error", text: failureMessage(error, `Could not run ${name}. Try again.`) });
    } finally {
      setIsBusy(false);
    }
  }
  return (
    <button
      type="button"
      onClick={run}
      disabled={isBusy}
      aria-label={`Run ${name} now`}
      className={buttonClass("secondary", "whitespace-nowrap")}
    >
      {isBusy ? "Queuing…" : "Run now"}
    </button>
  );
}
