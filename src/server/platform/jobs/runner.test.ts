import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { type Database, type DatabaseHandle, openDatabase, queryRows } from "../../db/client";
import { createLogger } from "../../lib/logger";
import { withDatabase } from "../../test/global-setup";
import { createTestClock, openEmptyTestDatabase } from "../../test/harness";
import { createJobRunner, type JobDefinition, type JobRunner, pruneSucceededJobs } from "./runner";

/**
 * Two connections to one database, as two processes have: two pools on PostgreSQL; on PGlite,
 * which only one process can open, the one handle shared by both runners.
 */
async function openTwoConnections(): Promise<{
  first: DatabaseHandle;
  second: DatabaseHandle;
  dispose: () => Promise<void>;
}> {
  const template = inject("testDatabase");
  if (template.kind === "pglite") {
    const { handle, dispose } = await openEmptyTestDatabase();
    return { first: handle, second: handle, dispose };
  }
  const name = `dash_jobs_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: template.adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = withDatabase(template.adminUrl, name);
  const first = await openDatabase({ databaseUrl: url, poolSize: 3 });
  const second = await openDatabase({ databaseUrl: url, poolSize: 3 });
  await first.migrate();
  return {
    first,
    second,
    dispose: async () => {
      await first.close();
      await second.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

let connections: Awaited<ReturnType<typeof openTwoConnections>>;
let db: Database;
const clock = createTestClock(new Date("2026-11-24T08:00:00.000Z"));
const logLines: string[] = [];
const logger = createLogger("debug", (_level, line) => logLines.push(line));

function runnerOn(database: Database, runnerId: string): JobRunner {
  return createJobRunner({ db: database, logger, now: clock.now, runnerId, pollMs: 10 });
}

async function jobRow(id: number) {
  const [row] = await queryRows<{
    state: string;
    attempts: number;
    dueAt: string;
    lastError: string | null;
    lockedBy: string | null;
  }>(
    db,
    sql`select state, attempts, to_char(due_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "dueAt",
          last_error as "lastError", locked_by as "lockedBy"
        from jobs where id = ${id}`,
  );
  return row;
}

/** A handler that waits until the test lets it finish. */
function heldHandler() {
  let release: () => void = () => {};
  let started: () => void = () => {};
  const hasStarted = new Promise<void>((resolve) => {
    started = resolve;
  });
  const handler: JobDefinition["handler"] = () =>
    new Promise<void>((resolve) => {
      release = resolve;
      started();
    });
  return { handler, hasStarted, release: () => release() };
}

beforeAll(async () => {
  connections = await openTwoConnections();
  db = connections.first.db;
});
afterAll(() => connections.dispose());
beforeEach(async () => {
  await db.execute(sql`delete from jobs`);
});

describe("queued jobs", () => {
  it("retries a failing job with exponential backoff, then marks it failed and keeps it", async () => {
    const runner = runnerOn(db, "runner-a");
    let calls = 0;
    runner.define("test.flaky", {
      description: "Always fails",
      maxAttempts: 3,
      backoffMs: 1000,
      handler: async () => {
        calls += 1;
        throw new Error(`attempt ${calls} broke`);
      },
    });
    const { id } = await runner.enqueue("test.flaky", { n: 1 });
    const start = clock.now().getTime();

    expect(await runner.runDueJobs()).toBe(1);
    expect(await jobRow(id)).toMatchObject({
      state: "queued",
      attempts: 1,
      lastError: "attempt 1 broke",
      dueAt: new Date(start + 1000).toISOString(),
    });
    expect(await runner.runDueJobs()).toBe(0);
    clock.advance(999);
    expect(await runner.runDueJobs()).toBe(0);
    clock.advance(1);
    expect(await runner.runDueJobs()).toBe(1);
    // The second wait is twice the first.
    expect(await jobRow(id)).toMatchObject({
      state: "queued",
      attempts: 2,
      dueAt: new Date(clock.now().getTime() + 2000).toISOString(),
    });
    clock.advance(2000);
    expect(await runner.runDueJobs()).toBe(1);
    expect(await jobRow(id)).toMatchObject({
      state: "failed",
      attempts: 3,
      lastError: "attempt 3 broke",
      lockedBy: null,
    });
    clock.advance(60 * 60_000);
    expect(await runner.runDueJobs()).toBe(0);
    expect(calls).toBe(3);
    expect(await runner.depth()).toEqual({ queued: 0, running: 0, failed: 1 });
    expect(logLines.some((line) => line.includes('"msg":"job failed"') && line.includes("test.flaky"))).toBe(
      true,
    );
  });

  it("succeeds on a retry and hands the payload and attempt number to the handler", async () => {
    const runner = runnerOn(db, "runner-a");
    const seen: { payload: unknown; attempt: number }[] = [];
    runner.define("test.second-time", {
      description: "Fails once",
      backoffMs: 10,
      handler: async ({ payload, attempt }) => {
        seen.push({ payload, attempt });
        if (attempt === 1) throw new Error("not yet");
      },
    });
    const { id } = await runner.enqueue("test.second-time", { lesson: "fractions" });
    await runner.runDueJobs();
    clock.advance(10);
    await runner.runDueJobs();
    expect(seen).toEqual([
      { payload: { lesson: "fractions" }, attempt: 1 },
      { payload: { lesson: "fractions" }, attempt: 2 },
    ]);
    expect(await jobRow(id)).toMatchObject({ state: "succeeded", attempts: 2, lastError: null });
  });

  it("fails an attempt that runs past its timeout", async () => {
    const runner = runnerOn(db, "runner-a");
    runner.define("test.slow", {
      description: "Never finishes",
      timeoutMs: 50,
      maxAttempts: 1,
      handler: () => new Promise(() => {}),
    });
    const { id } = await runner.enqueue("test.slow");
    await runner.runDueJobs();
    expect(await jobRow(id)).toMatchObject({ state: "failed", lastError: "Timed out after 0.05 s" });
  });

  it("adds a job once per key, even when enqueued at the same time", async () => {
    const runner = runnerOn(db, "runner-a");
    const other = runnerOn(connections.second.db, "runner-b");
    for (const each of [runner, other])
      each.define("test.email", { description: "Sends one email", handler: async () => {} });
    const first = await runner.enqueue("test.email", { to: "a" }, { key: "welcome:42" });
    const again = await runner.enqueue("test.email", { to: "b" }, { key: "welcome:42" });
    expect(first.isNew).toBe(true);
    expect(again).toEqual({ id: first.id, isNew: false });

    const racing = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        (index % 2 ? runner : other).enqueue("test.email", {}, { key: "welcome:43" }),
      ),
    );
    expect(new Set(racing.map((result) => result.id)).size).toBe(1);
    expect(racing.filter((result) => result.isNew)).toHaveLength(1);
    // Without a key every enqueue is a job of its own.
    await runner.enqueue("test.email");
    await runner.enqueue("test.email");
    const [count] = await queryRows<{ count: number }>(db, sql`select count(*)::int as count from jobs`);
    expect(count?.count).toBe(4);
    expect(await runner.depth()).toEqual({ queued: 4, running: 0, failed: 0 });
  });

  it("refuses unknown job names and bad definitions", async () => {
    const runner = runnerOn(db, "runner-a");
    await expect(runner.enqueue("test.nobody")).rejects.toThrow(
      'No job is defined with the name "test.nobody"',
    );
    expect(() => runner.define("Bad Name", { description: "", handler: async () => {} })).toThrow(
      "not a valid job name",
    );
    runner.define("test.once", { description: "", handler: async () => {} });
    expect(() => runner.define("test.once", { description: "", handler: async () => {} })).toThrow(
      "defined twice",
    );
    expect(() => runner.schedule("test.once", { dailyAt: "25:00", timeZone: "UTC" })).toThrow(
      "not a time of day",
    );
    expect(() => runner.schedule("test.once", { dailyAt: "02:00", timeZone: "Mars/Olympus" })).toThrow();
    expect(() => runner.schedule("test.once", { everyMs: 10 })).toThrow("at least one second");
  });
});

describe("scheduled jobs across two runners", () => {
  it("run once per period when two runners on separate connections poll at once", async () => {
    let runs = 0;
    const define = (runner: JobRunner) => {
      runner.define("test.tick", {
        description: "Counts",
        handler: async () => {
          runs += 1;
          await new Promise((resolve) => setTimeout(resolve, 20));
        },
      });
      runner.schedule("test.tick", { everyMs: 60_000 });
      return runner;
    };
    const a = define(runnerOn(db, "runner-a"));
    const b = define(runnerOn(connections.second.db, "runner-b"));

    for (let round = 0; round < 3; round += 1)
      await Promise.all([a.runDueJobs(), b.runDueJobs(), a.runDueJobs(), b.runDueJobs()]);
    expect(runs).toBe(1);
    clock.advance(60_000);
    await Promise.all([a.runDueJobs(), b.runDueJobs()]);
    expect(runs).toBe(2);

    // The same with both runners' own polling loops.
    clock.advance(60_000);
    a.start();
    b.start();
    await expect.poll(() => runs, { timeout: 5000 }).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await Promise.all([a.stop(), b.stop()]);
    expect(runs).toBe(3);
    const [count] = await queryRows<{ count: number }>(
      db,
      sql`select count(*)::int as count from jobs where name = 'test.tick' and state = 'succeeded'`,
    );
    expect(count?.count).toBe(3);
  });

  it("catches up a missed daily run once, not once per missed day", async () => {
    const runner = runnerOn(db, "runner-a");
    let runs = 0;
    runner.define("test.daily", {
      description: "Daily",
      handler: async () => {
        runs += 1;
      },
    });
    runner.schedule("test.daily", { dailyAt: "02:00", timeZone: "Europe/Paris" });
    // 08:00 UTC is 09:00 in Paris: today's 02:00 run is due.
    await runner.runDueJobs();
    expect(runs).toBe(1);
    const [row] = await queryRows<{ key: string }>(db, sql`select key from jobs where name = 'test.daily'`);
    expect(row?.key).toBe(clock.now().toISOString().slice(0, 10));
    clock.advance(3 * 24 * 60 * 60_000);
    await runner.runDueJobs();
    await runner.runDueJobs();
    expect(runs).toBe(2);
  });
});

describe("a runner that dies or stops", () => {
  it("loses its job when the lease ends, and another runner runs it", async () => {
    const held = heldHandler();
    const a = runnerOn(db, "runner-a");
    a.define("test.report", { description: "", timeoutMs: 60_000, handler: held.handler });
    let ranOnB = 0;
    const b = runnerOn(connections.second.db, "runner-b");
    b.define("test.report", {
      description: "",
      timeoutMs: 60_000,
      handler: async () => {
        ranOnB += 1;
      },
    });
    const { id } = await a.enqueue("test.report");
    const stuck = a.runDueJobs();
    await held.hasStarted;
    expect(await jobRow(id)).toMatchObject({ state: "running", lockedBy: "runner-a", attempts: 1 });

    // While the lease holds (the timeout and a margin), nobody else takes it.
    clock.advance(60_000);
    expect(await b.runDueJobs()).toBe(0);
    clock.advance(30_000);
    expect(await b.runDueJobs()).toBe(1);
    expect(ranOnB).toBe(1);
    expect(await jobRow(id)).toMatchObject({ state: "succeeded", attempts: 2, lockedBy: null });

    // The first runner coming back late changes nothing.
    held.release();
    await stuck;
    expect(await jobRow(id)).toMatchObject({ state: "succeeded", attempts: 2 });
    expect(logLines.some((line) => line.includes("job finished after its lease was taken back"))).toBe(true);
  });

  it("marks the job failed when the runner of its last attempt died", async () => {
    const held = heldHandler();
    const a = runnerOn(db, "runner-a");
    a.define("test.last", { description: "", timeoutMs: 1000, maxAttempts: 1, handler: held.handler });
    const b = runnerOn(connections.second.db, "runner-b");
    b.define("test.last", { description: "", timeoutMs: 1000, maxAttempts: 1, handler: async () => {} });
    const { id } = await a.enqueue("test.last");
    const stuck = a.runDueJobs();
    await held.hasStarted;
    clock.advance(31_000);
    await b.runDueJobs();
    expect(await jobRow(id)).toMatchObject({
      state: "failed",
      lastError: "The process running it stopped before it finished",
    });
    held.release();
    await stuck;
  });

  it("releases the jobs still running when it stops, without counting the attempt", async () => {
    const runner = runnerOn(db, "runner-a");
    const held = heldHandler();
    runner.define("test.long", { description: "", timeoutMs: 60_000, handler: held.handler });
    const { id } = await runner.enqueue("test.long");
    runner.start();
    await held.hasStarted;
    await runner.stop(50);
    expect(await jobRow(id)).toMatchObject({ state: "queued", attempts: 0, lockedBy: null });
    held.release();

    // A runner that finishes within the grace period keeps the outcome.
    const quick = runnerOn(db, "runner-b");
    const second = heldHandler();
    quick.define("test.long", { description: "", timeoutMs: 60_000, handler: second.handler });
    quick.start();
    await second.hasStarted;
    const stopping = quick.stop(5000);
    second.release();
    await stopping;
    expect(await jobRow(id)).toMatchObject({ state: "succeeded", attempts: 1 });
  });
});

describe("housekeeping and the overview", () => {
  it("prunes succeeded runs past the cut-off and keeps failed ones", async () => {
    const runner = runnerOn(db, "runner-a");
    runner.define("test.ok", { description: "", handler: async () => {} });
    runner.define("test.bad", {
      description: "",
      maxAttempts: 1,
      handler: async () => Promise.reject(new Error("no")),
    });
    await runner.enqueue("test.ok");
    await runner.enqueue("test.bad");
    await runner.runDueJobs();
    clock.advance(1000);
    expect(await pruneSucceededJobs(db, clock.now())).toBe(1);
    expect(await runner.depth()).toEqual({ queued: 0, running: 0, failed: 1 });
  });

  it("summarises each job: schedule, latest run, counts and next run", async () => {
    const runner = runnerOn(db, "runner-a");
    runner.define("test.hourly", { description: "Hourly work", handler: async () => {} });
    runner.schedule("test.hourly", { everyMs: 60 * 60_000 });
    runner.define("test.queue", {
      description: "Queued work",
      maxAttempts: 1,
      handler: async () => Promise.reject(new Error("boom")),
    });
    const hour = 60 * 60_000;
    const nextHour = new Date((Math.floor(clock.now().getTime() / hour) + 1) * hour).toISOString();
    const tomorrow = new Date(clock.now().getTime() + 24 * hour);
    expect((await runner.overview()).map((job) => [job.name, job.lastRun, job.nextRunAt])).toEqual([
      ["test.hourly", null, nextHour],
      ["test.queue", null, null],
    ]);
    await runner.enqueue("test.queue");
    await runner.runDueJobs();
    await runner.enqueue("test.queue", {}, { runAt: tomorrow });
    const [hourly, queue] = await runner.overview();
    expect(hourly).toMatchObject({
      description: "Hourly work",
      schedule: "Every hour",
      lastRun: { outcome: "succeeded", error: null, requestedBy: null, durationMs: 0 },
      nextRunAt: nextHour,
    });
    expect(queue).toMatchObject({
      schedule: null,
      lastRun: { outcome: "failed", error: "boom" },
      queued: 1,
      failed: 1,
      nextRunAt: tomorrow.toISOString(),
    });
  });
});
