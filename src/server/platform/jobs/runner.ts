import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { type SQL, sql } from "drizzle-orm";
import { JOB_NAME_PATTERN, type JobOutcome, type JobSummary } from "../../../shared/contracts/jobs";
import { DEFAULT_LANGUAGE, type Language } from "../../../shared/languages";
import { type Database, isoInstant, queryRows } from "../../db/client";
import { type Message, translate } from "../../lib/i18n";
import type { Logger } from "../../lib/logger";
import {
  assertValidSchedule,
  describeSchedule,
  type JobSchedule,
  latestOccurrence,
  nextOccurrenceAt,
} from "./schedule";

export interface JobContext {
  jobId: number;
  payload: unknown;
  /** 1 for the first attempt. */
  attempt: number;
  /** Aborted when the job's time is up or the process stops: long handlers should stop then. */
  signal: AbortSignal;
}

export interface JobDefinition {
  /** One sentence for the administrators' Operations page: a catalogue message, or a text said as it is. */
  description: string | Message;
  handler: (context: JobContext) => Promise<void>;
  /** An attempt running longer fails (and is retried). */
  timeoutMs?: number;
  /** Attempts in all, the first included, before the job is marked failed and kept. */
  maxAttempts?: number;
  /** The wait before the second attempt; it doubles with each attempt after. */
  backoffMs?: number;
  maxBackoffMs?: number;
}

export interface EnqueueOptions {
  /** Enqueueing the same name and key again adds nothing and answers the existing job. */
  key?: string;
  /** Not before this instant (default: now). */
  runAt?: Date;
  requestedBy?: string;
}

export interface JobDepth {
  queued: number;
  running: number;
  failed: number;
}

export interface JobRunnerOptions {
  db: Database;
  logger: Logger;
  now?: () => Date;
  /** How often an idle runner looks for due jobs. */
  pollMs?: number;
  /** Jobs run at once by this process. */
  concurrency?: number;
  /** Names this runner in the jobs it holds (default: host, process id and a random part). */
  runnerId?: string;
}

interface ClaimedJob {
  id: number;
  name: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
}

const DEFAULTS = { timeoutMs: 5 * 60_000, maxAttempts: 5, backoffMs: 30_000, maxBackoffMs: 60 * 60_000 };
/** A lease outlives the job's timeout by this much, so only a runner that died loses its job. */
const LEASE_MARGIN_MS = 30_000;
const DEFAULT_STOP_GRACE_MS = 10_000;

const at = (instant: Date) => sql`${instant.toISOString()}::timestamptz`;

/**
 * The one job runner: queued and scheduled jobs, durable in the `jobs` table and run once across
 * processes. A runner claims a due job with one indexed UPDATE (`FOR UPDATE SKIP LOCKED`, so
 * runners never wait on each other) and holds it under a lease; a runner that dies loses its
 * jobs when their leases end, and another runner takes them back. No transaction stays open
 * while a handler runs: the embedded database answers one query at a time for the whole server.
 */
export function createJobRunner(options: JobRunnerOptions) {
  const { db, logger } = options;
  const now = options.now ?? (() => new Date());
  const pollMs = options.pollMs ?? 1000;
  const concurrency = options.concurrency ?? 1;
  const runnerId = options.runnerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const definitions = new Map<string, Required<JobDefinition>>();
  const schedules = new Map<string, JobSchedule>();
  /** Per scheduled job, the period this process already made sure of: one insert per period. */
  const ensuredPeriods = new Map<string, string>();
  const running = new Map<number, AbortController>();
  const loops: Promise<void>[] = [];
  let isStopping = false;
  let startTimer: NodeJS.Timeout | undefined;
  let wakeSleepers: (() => void)[] = [];

  function define(name: string, definition: JobDefinition): void {
    if (!JOB_NAME_PATTERN.test(name)) throw new Error(`"${name}" is not a valid job name`);
    if (definitions.has(name)) throw new Error(`The job "${name}" is defined twice`);
    definitions.set(name, { ...DEFAULTS, ...definition });
  }

  function schedule(name: string, when: JobSchedule): void {
    if (!definitions.has(name)) throw new Error(`Define the job "${name}" before scheduling it`);
    assertValidSchedule(when);
    schedules.set(name, when);
  }

  async function enqueue(
    name: string,
    payload: unknown = {},
    enqueueOptions: EnqueueOptions = {},
  ): Promise<{ id: number; isNew: boolean }> {
    const definition = definitions.get(name);
    if (!definition) throw new Error(`No job is defined with the name "${name}"`);
    const key = enqueueOptions.key ?? null;
    const [inserted] = await queryRows<{ id: number }>(
      db,
      sql`insert into jobs (name, key, payload, due_at, max_attempts, requested_by)
          values (${name}, ${key}, ${JSON.stringify(payload ?? {})}::jsonb, ${at(enqueueOptions.runAt ?? now())},
                  ${definition.maxAttempts}, ${enqueueOptions.requestedBy ?? null})
          on conflict (name, key) do nothing
          returning id`,
    );
    wake();
    if (inserted) return { id: Number(inserted.id), isNew: true };
    const [existing] = await queryRows<{ id: number }>(
      db,
      sql`select id from jobs where name = ${name} and key = ${key}`,
    );
    if (!existing) throw new Error(`The job "${name}" with key "${key}" was neither added nor found`);
    return { id: Number(existing.id), isNew: false };
  }

  /** Makes sure each schedule's current period has its job; cheap when nothing changed. */
  async function enqueueDueSchedules(): Promise<void> {
    const current = now();
    for (const [name, when] of schedules) {
      const occurrence = latestOccurrence(when, current);
      if (ensuredPeriods.get(name) === occurrence.key) continue;
      await enqueue(name, {}, { key: occurrence.key, runAt: occurrence.at });
      ensuredPeriods.set(name, occurrence.key);
    }
  }

  async function claim(): Promise<ClaimedJob | null> {
    const names = [...definitions.keys()];
    if (names.length === 0) return null;
    const current = now();
    const leaseMs = sql.join(
      [...definitions].map(
        ([name, definition]) => sql`when ${name} then ${definition.timeoutMs + LEASE_MARGIN_MS}`,
      ),
      sql` `,
    );
    const [job] = await queryRows<ClaimedJob>(
      db,
      sql`update jobs set state = 'running', attempts = attempts + 1, locked_by = ${runnerId},
            started_at = ${at(current)}, finished_at = null,
            due_at = ${at(current)} + (case name ${leaseMs} end)::int * interval '1 millisecond'
          where id = (
            select id from jobs
            where state in ('queued', 'running') and due_at <= ${at(current)}
              and name in (${sql.join(
                names.map((name) => sql`${name}`),
                sql`, `,
              )})
            order by due_at limit 1
            for update skip locked)
          returning id, name, payload, attempts, max_attempts as "maxAttempts"`,
    );
    return job ? { ...job, id: Number(job.id) } : null;
  }

  /** Records an attempt's end, if this runner still holds the job (its lease may have passed). */
  async function settle(job: ClaimedJob, set: SQL): Promise<void> {
    const settled = await queryRows<{ id: number }>(
      db,
      sql`update jobs set ${set}, locked_by = null, finished_at = ${at(now())}
          where id = ${job.id} and locked_by = ${runnerId} and state = 'running' returning id`,
    );
    if (settled.length === 0)
      logger.warn("job finished after its lease was taken back", { job: job.name, jobId: job.id });
  }

  async function runClaimed(job: ClaimedJob): Promise<void> {
    const definition = definitions.get(job.name) as Required<JobDefinition>;
    if (job.attempts > job.maxAttempts) {
      // Its last attempt's runner stopped without a word: nothing is left to try.
      await settle(
        job,
        sql`state = 'failed', last_error = ${"The process running it stopped before it finished"}`,
      );
      logger.error("job failed", { job: job.name, jobId: job.id, attempts: job.maxAttempts });
      return;
    }
    const controller = new AbortController();
    running.set(job.id, controller);
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const error = new Error(`Timed out after ${definition.timeoutMs / 1000} s`);
          controller.abort(error);
          reject(error);
        }, definition.timeoutMs);
      });
      await Promise.race([
        definition.handler({
          jobId: job.id,
          payload: job.payload,
          attempt: job.attempts,
          signal: controller.signal,
        }),
        timedOut,
      ]);
      await settle(job, sql`state = 'succeeded', last_error = null`);
      logger.info("job done", { job: job.name, jobId: job.id, ms: Math.round(performance.now() - started) });
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
      if (job.attempts < job.maxAttempts) {
        const delay = Math.min(definition.backoffMs * 2 ** (job.attempts - 1), definition.maxBackoffMs);
        await settle(
          job,
          sql`state = 'queued', last_error = ${message}, due_at = ${at(new Date(now().getTime() + delay))}`,
        );
        logger.warn("job attempt failed", {
          job: job.name,
          jobId: job.id,
          attempt: job.attempts,
          retryInMs: delay,
          error: message,
        });
      } else {
        await settle(job, sql`state = 'failed', last_error = ${message}`);
        logger.error("job failed", { job: job.name, jobId: job.id, attempts: job.attempts, error: message });
      }
    } finally {
      clearTimeout(timer);
      running.delete(job.id);
    }
  }

  /** Enqueues due scheduled runs, then runs due jobs one after another until none is left. */
  async function runDueJobs(): Promise<number> {
    await enqueueDueSchedules();
    let count = 0;
    for (let job = await claim(); job; job = await claim()) {
      await runClaimed(job);
      count += 1;
    }
    return count;
  }

  function wake(): void {
    const sleepers = wakeSleepers;
    wakeSleepers = [];
    for (const resolve of sleepers) resolve();
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      wakeSleepers.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async function loop(): Promise<void> {
    while (!isStopping) {
      let job: ClaimedJob | null = null;
      try {
        await enqueueDueSchedules();
        job = await claim();
        if (job) await runClaimed(job);
      } catch (error) {
        logger.warn("job runner poll failed", { error: String(error) });
      }
      if (!job && !isStopping) await sleep(pollMs);
    }
  }

  /** Starts polling, after `delayMs` (the server first answers the requests of its start). */
  function start(delayMs = 0): void {
    if (loops.length > 0 || startTimer) return;
    isStopping = false;
    startTimer = setTimeout(() => {
      startTimer = undefined;
      for (let index = 0; index < concurrency; index += 1) loops.push(loop());
    }, delayMs);
    startTimer.unref();
  }

  /**
   * Stops polling and waits for the running jobs; those still running after the grace period are
   * released for another runner (their attempt does not count) and their handlers aborted.
   */
  async function stop(graceMs = DEFAULT_STOP_GRACE_MS): Promise<void> {
    isStopping = true;
    clearTimeout(startTimer);
    startTimer = undefined;
    wake();
    let graceTimer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(loops),
      new Promise((resolve) => {
        graceTimer = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(graceTimer);
    loops.length = 0;
    if (running.size === 0) return;
    for (const controller of running.values()) controller.abort(new Error("The server is stopping"));
    await db.execute(
      sql`update jobs set state = 'queued', attempts = attempts - 1, locked_by = null, due_at = ${at(now())},
            started_at = null
          where locked_by = ${runnerId} and state = 'running'`,
    );
    logger.info("jobs released for another runner", { count: running.size });
  }

  async function depth(): Promise<JobDepth> {
    const rows = await queryRows<{ state: keyof JobDepth; count: number }>(
      db,
      sql`select state, count(*)::int as count from jobs where state in ('queued', 'running', 'failed') group by state`,
    );
    const counts: JobDepth = { queued: 0, running: 0, failed: 0 };
    for (const row of rows) counts[row.state] = Number(row.count);
    return counts;
  }

  /** Runs a scheduled job now, besides its schedule, for an administrator. */
  async function runNow(name: string, requestedBy: string): Promise<number> {
    const { id } = await enqueue(name, {}, { key: `manual:${randomUUID()}`, requestedBy });
    return id;
  }

  /** Every defined job with its schedule, latest run, counts and next run, described in `language`. */
  async function overview(language: Language = DEFAULT_LANGUAGE): Promise<JobSummary[]> {
    const names = [...definitions.keys()].sort();
    if (names.length === 0) return [];
    const rows = await queryRows<{
      name: string;
      startedAt: string | null;
      finishedAt: string | null;
      state: string | null;
      durationMs: number | null;
      lastError: string | null;
      requestedBy: string | null;
      queued: number | null;
      running: number | null;
      failed: number | null;
      nextDueAt: string | null;
    }>(
      db,
      // Per name, the latest run by its index and the counts by the partial index of open and
      // failed jobs: succeeded runs, the bulk of the table, are never read.
      sql`select names.name,
            ${isoInstant(sql`latest.started_at`)} as "startedAt", ${isoInstant(sql`latest.finished_at`)} as "finishedAt",
            latest.state,
            (extract(epoch from latest.finished_at - latest.started_at) * 1000)::int as "durationMs",
            latest.last_error as "lastError", latest.requested_by as "requestedBy",
            counts.queued, counts.running, counts.failed, ${isoInstant(sql`counts.next_due_at`)} as "nextDueAt"
          from (values ${sql.join(
            names.map((name) => sql`(${name})`),
            sql`, `,
          )}) as names (name)
          left join lateral (
            select started_at, finished_at, state, last_error, requested_by from jobs
            where jobs.name = names.name and started_at is not null
            order by started_at desc limit 1) latest on true
          cross join lateral (
            select count(*) filter (where state = 'queued')::int as queued,
              count(*) filter (where state = 'running')::int as running,
              count(*) filter (where state = 'failed')::int as failed,
              min(due_at) filter (where state = 'queued') as next_due_at
            from jobs where jobs.name = names.name and state in ('queued', 'running', 'failed')) counts`,
    );
    const byName = new Map(rows.map((row) => [row.name, row]));
    const current = now();
    return names.map((name) => {
      const row = byName.get(name);
      const when = schedules.get(name);
      const nextScheduled = when ? nextOccurrenceAt(when, current).toISOString() : null;
      const nextQueued = row?.nextDueAt ?? null;
      const nextRunAt = [nextQueued, nextScheduled].filter((value) => value !== null).sort()[0] ?? null;
      return {
        name,
        description: translate((definitions.get(name) as JobDefinition).description, language),
        schedule: when ? describeSchedule(when, language) : null,
        lastRun: row?.startedAt
          ? {
              startedAt: row.startedAt,
              finishedAt: row.finishedAt,
              outcome: outcomeOf(row.state),
              durationMs: row.finishedAt && row.durationMs !== null ? Number(row.durationMs) : null,
              error: row.lastError,
              requestedBy: row.requestedBy,
            }
          : null,
        queued: Number(row?.queued ?? 0),
        running: Number(row?.running ?? 0),
        failed: Number(row?.failed ?? 0),
        nextRunAt,
      };
    });
  }

  return {
    runnerId,
    define,
    schedule,
    enqueue,
    runNow,
    isScheduled: (name: string) => schedules.has(name),
    isDefined: (name: string) => definitions.has(name),
    runDueJobs,
    start,
    stop,
    depth,
    overview,
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;

function outcomeOf(state: string | null): JobOutcome {
  if (state === "succeeded" || state === "failed" || state === "running") return state;
  return "retrying";
}

/** Removes succeeded jobs finished before the cut-off; failed ones stay for a person to read. */
export async function pruneSucceededJobs(db: Database, finishedBefore: Date): Promise<number> {
  const rows = await queryRows<{ count: number }>(
    db,
    sql`with gone as (delete from jobs where state = 'succeeded' and finished_at < ${at(finishedBefore)} returning 1)
        select count(*)::int as count from gone`,
  );
  return Number(rows[0]?.count ?? 0);
}
