import { sql } from "drizzle-orm";
import { queryRows } from "../src/server/db/client";
import {
  figure,
  generateOnce,
  type Measurement,
  measureLoad,
  openBenchDatabase,
  p95Measurement,
  printReport,
  projectRoot,
  readBenchArgs,
  runOnBothDatabases,
  signIn,
  startServer,
  stopChild,
  waitForStartupJobs,
} from "./bench-lib";
import { BENCH_PASSWORD, generateSchool } from "./gen-data";

/**
 * Dash's analytics collector under a school's load: signed-in students' browsers post batches of
 * events (POST /api/analytics/events, as the web app's collector sends them: page views with a
 * daily-activity event now and then) at an even pace adding up to `--rate` events a second for
 * `--duration` seconds; p50/p95/p99 of the collector's answer (202). Target: 2,000 events/s with
 * p95 under 10 ms, on PGlite and PostgreSQL.
 *   tsx scripts/bench-analytics.ts [--rate 2000] [--batch 10] [--sessions 200] [--duration 10]
 *                                  [--only pglite|postgres]
 */

const { args, whole } = readBenchArgs({
  rate: { type: "string", default: "2000" },
  batch: { type: "string", default: "10" },
  sessions: { type: "string", default: "200" },
  duration: { type: "string", default: "10" },
});
const eventsPerSecond = whole("rate", 1);
const batchSize = whole("batch", 1);
const sessions = whole("sessions", 1);
const durationSeconds = whole("duration", 1);
const TARGET_P95_MS = 10;
const WARMUP_SECONDS = 2;
const PAGES = ["/app", "/app/goals", "/app/learning-metrics", "/app/leaderboards", "/app/xp"];
const today = new Date().toISOString().slice(0, 10);
const log = (message: string) => process.stderr.write(`[bench-analytics] ${message}\n`);

interface SuiteResult {
  db: "pglite" | "postgres";
  measurements: Measurement[];
  stored: number;
}

/** A browser's batch: page views with a query string to cut, and a daily-activity event in every fifth. */
function batchOf(sent: number): string {
  const at = new Date().toISOString();
  const events = Array.from({ length: batchSize }, (_, index) => ({
    type: index === 0 && sent % 5 === 0 ? "daily_active" : "page_view",
    path: `${PAGES[(sent + index) % PAGES.length]}?view=weekly`,
    at,
  }));
  return JSON.stringify({ events });
}

async function runSuite(
  db: SuiteResult["db"],
  env: NodeJS.ProcessEnv,
  dataDir: string | null,
): Promise<SuiteResult> {
  log(`${db}: a school of ${sessions} students who sign in (reused when already there)…`);
  await generateOnce(env, dataDir, `.generated-analytics-${sessions}`, async (database) => {
    await generateSchool(database, {
      students: sessions,
      days: 1,
      today,
      everyoneSignsIn: true,
      studentsPerSchool: sessions,
    });
  });
  const database = await openBenchDatabase(env, dataDir);
  try {
    await database.migrate();
    // Every run starts from an empty table, so its figures do not depend on the runs before.
    await database.db.execute(sql`delete from analytics_events`);
    await database.db.execute(sql`delete from rate_limit_windows`);
  } finally {
    await database.close();
  }

  const server = await startServer({
    projectRoot,
    env: {
      ...env,
      SEED_DEMO: "false",
      DATA_DIR: dataDir ?? `${projectRoot}/.tmp/bench-analytics/postgres-data`,
    },
    timeoutMs: 180_000,
  });
  let measurements: Measurement[];
  try {
    const admin = await signIn(server.baseUrl, "bench-admin@dash.bench", BENCH_PASSWORD);
    await waitForStartupJobs(server, admin, log);
    log(`${db}: signing in ${sessions} students…`);
    const cookies: string[] = [];
    for (let s = 1; s <= sessions; s++)
      cookies.push(
        await signIn(
          server.baseUrl,
          s === 1 ? "bench-student@dash.bench" : `student-${s}@dash.bench`,
          BENCH_PASSWORD,
        ),
      );

    const requestsPerSecond = eventsPerSecond / batchSize;
    log(
      `${db}: ${eventsPerSecond} events/s as ${requestsPerSecond} batches/s of ${batchSize} from ${sessions} sessions, ${WARMUP_SECONDS} s warm-up + ${durationSeconds} s…`,
    );
    let sent = 0;
    const result = await measureLoad({
      url: `${server.baseUrl}/api/analytics/events`,
      method: "POST",
      headers: { "content-type": "application/json" },
      makeHeaders: () => ({ cookie: cookies[sent % cookies.length] as string }),
      makeBody: () => batchOf(sent++),
      overallRate: requestsPerSecond,
      connections: 32,
      warmupSeconds: WARMUP_SECONDS,
      durationSeconds,
      serverPgid: server.child.pgid,
    });
    log(
      `${db}: ${Math.round(result.requestsPerSecond * batchSize)} events/s, p50 ${figure(result.p50)} ms, p95 ${figure(result.p95)} ms, p99 ${figure(result.p99)} ms, ${result.failures} failed`,
    );

    measurements = [
      p95Measurement(
        `POST /api/analytics/events, ${eventsPerSecond} events/s (${requestsPerSecond} batches/s of ${batchSize})`,
        result,
        TARGET_P95_MS,
      ),
    ];
  } finally {
    await stopChild(server.child);
  }
  // Opened once the server stopped: the embedded database belongs to one process at a time.
  const check = await openBenchDatabase(env, dataDir);
  let stored = 0;
  try {
    const [row] = await queryRows<{ n: number }>(
      check.db,
      sql`select count(*)::int as n from analytics_events`,
    );
    stored = Number(row?.n ?? 0);
  } finally {
    await check.close();
  }
  return { db, stored, measurements };
}

function report(results: SuiteResult[]) {
  printReport(
    "Analytics collector benchmark",
    `Dataset: ${sessions} signed-in students. Each batch is what the web app's collector sends (page views with a query string to cut, a daily-activity event in every fifth batch); batches start at an even pace from the sessions in turn, each one multi-row insert answered 202. Events stored: ${results.map((result) => `${result.db} ${result.stored}`).join(", ")}.`,
    results,
  );
}

runOnBothDatabases({
  name: "bench-analytics",
  args,
  childArgs: [
    `--rate=${eventsPerSecond}`,
    `--batch=${batchSize}`,
    `--sessions=${sessions}`,
    `--duration=${durationSeconds}`,
  ],
  runSuite,
  report,
});
