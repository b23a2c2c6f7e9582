import { addDays } from "../src/shared/time-zone";
import {
  figure,
  generateOnce,
  type LoadResult,
  measureLoad,
  projectRoot,
  readBenchArgs,
  runOnBothDatabases,
  signIn,
  startServer,
  stopChild,
  warmFiles,
} from "./bench-lib";
import { BENCH_APP_KEY, BENCH_PASSWORD, generateSchool } from "./gen-data";

const { args, whole, wholeList } = readBenchArgs({
  students: { type: "string", default: "10000" },
  days: { type: "string", default: "180" },
  duration: { type: "string", default: "10" },
  warmup: { type: "string", default: "2" },
  connections: { type: "string", default: "1,4" },
});
const students = whole("students", 1);
const days = whole("days", 1);
const load = { durationSeconds: whole("duration", 1), warmupSeconds: whole("warmup", 0) };
const connectionCounts = wholeList("connections", 1);
const EVENTS_PER_REQUEST = 1000;
const INGESTION_CONNECTIONS = 4;

interface Measurement {
  name: string;
  connections: number;
  target: string;
  result: LoadResult | null;
  eventsPerSecond?: number;
  passed: boolean | null;
}
interface SuiteResult {
  db: "pglite" | "postgres";
  generateSeconds: number | null;
  measurements: Measurement[];
}

const log = (message: string) => process.stderr.write(`[bench-learning] ${message}\n`);
const today = new Date().toISOString().slice(0, 10);
const randomStudent = () => `gen-student-${1 + Math.floor(Math.random() * students)}`;

/** The dataset, kept between runs of the same size on the same day (its last day is today). */
const generate = (env: NodeJS.ProcessEnv, dataDir: string | null) =>
  generateOnce(env, dataDir, `.generated-${students}-${days}-${today}`, async (db) => {
    await generateSchool(db, { students, days, today });
  });

async function runSuite(
  db: SuiteResult["db"],
  env: NodeJS.ProcessEnv,
  dataDir: string | null,
): Promise<SuiteResult> {
  log(`${db}: generating ${students} students × ${days} days (reused when already there)…`);
  const generateSeconds = await generate(env, dataDir);
  if (dataDir) warmFiles(dataDir, log);
  const server = await startServer({ projectRoot, env: { ...env, SEED_DEMO: "false" }, timeoutMs: 180_000 });
  try {
    const admin = await signIn(server.baseUrl, "bench-admin@dash.bench", BENCH_PASSWORD);
    const guide = await signIn(server.baseUrl, "bench-guide@dash.bench", BENCH_PASSWORD);
    const common = { ...load, serverPgid: server.child.pgid };
    const measurements: Measurement[] = [];
    const measure = async (
      name: string,
      target: string,
      maxP95: number,
      options: Omit<Parameters<typeof measureLoad>[0], "connections">,
    ) => {
      for (const connections of connectionCounts) {
        log(`${db}: ${name}, ${connections} connection(s)…`);
        const result = await measureLoad({ ...options, connections });
        measurements.push({
          name,
          connections,
          target,
          result,
          passed: result.failures === 0 && result.p95 < maxP95,
        });
      }
    };

    await measure("heatmap, one student, one year", "p95 < 20 ms", 20, {
      ...common,
      url: `${server.baseUrl}/api/learning-metrics/analytics-xp-heatmap`,
      method: "POST",
      headers: { cookie: admin, "content-type": "application/json" },
      makeBody: () =>
        JSON.stringify({
          userId: randomStudent(),
          startDate: addDays(today, -364),
          endDate: today,
          timezone: "America/New_York",
        }),
    });
    const metricsUrl = `${server.baseUrl}/api/learning-metrics?classId=gen-class-1&view=daily&startDate=${addDays(today, -29)}&endDate=${today}`;
    const probe = await fetch(metricsUrl, { headers: { cookie: guide } });
    await probe.arrayBuffer();
    if (probe.status === 200) {
      await measure("learning metrics, class of 30, one month", "p95 < 50 ms", 50, {
        ...common,
        url: metricsUrl,
        headers: { cookie: guide },
      });
    } else {
      measurements.push({
        name: "learning metrics, class of 30, one month",
        connections: 0,
        target: `not measured: answered ${probe.status}`,
        result: null,
        passed: null,
      });
    }
    await measure("Guide home, 30 students", "p95 < 50 ms", 50, {
      ...common,
      url: `${server.baseUrl}/api/guide/students`,
      headers: { cookie: guide },
    });

    log(`${db}: ingestion, ${EVENTS_PER_REQUEST} events a request…`);
    let sequence = 0;
    const occurredAt = new Date(Date.now() - 3600_000).toISOString();
    const ingestion = await measureLoad({
      ...common,
      connections: INGESTION_CONNECTIONS,
      url: `${server.baseUrl}/api/ingest/activity`,
      method: "POST",
      headers: { authorization: `Bearer ${BENCH_APP_KEY}`, "content-type": "application/json" },
      makeBody: () => {
        const batch = ++sequence;
        const events = Array.from({ length: EVENTS_PER_REQUEST }, (_, index) => ({
          eventId: `bench-${process.pid}-${batch}-${index}`,
          studentId: randomStudent(),
          occurredAt,
          subject: "Math",
          expectedXp: 15,
          totalQuestions: 10,
          correctQuestions: 9,
          activeSeconds: 900,
        }));
        return JSON.stringify({ events });
      },
    });
    const eventsPerSecond = Math.round((ingestion.completed * EVENTS_PER_REQUEST) / load.durationSeconds);
    measurements.push({
      name: `ingestion, ${EVENTS_PER_REQUEST} events a request`,
      connections: INGESTION_CONNECTIONS,
      target: "≥ 5,000 events/s",
      result: ingestion,
      eventsPerSecond,
      passed: ingestion.failures === 0 && eventsPerSecond >= 5000,
    });
    return { db, generateSeconds, measurements };
  } finally {
    await stopChild(server.child);
  }
}

function report(results: SuiteResult[]) {
  const lines = [
    "",
    `## Learning activity benchmark (${new Date().toISOString()})`,
    "",
    `Dataset: ${students} students × ${days} days (school days only, 4 subjects), generated by gen:data. ${load.warmupSeconds} s warm-up + ${load.durationSeconds} s per run.`,
    "",
    "| Database | Request | connections | req/s | events/s | p50 ms | p95 ms | p99 ms | failed | target | |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|",
  ];
  for (const suite of results) {
    for (const m of suite.measurements) {
      const r = m.result;
      const cells = r
        ? [
            figure(r.requestsPerSecond, 0),
            m.eventsPerSecond?.toString() ?? "",
            figure(r.p50),
            figure(r.p95),
            figure(r.p99),
            String(r.failures),
          ]
        : ["", "", "", "", "", ""];
      const verdict = m.passed === null ? "" : m.passed ? "PASS" : "FAIL";
      lines.push(
        `| ${suite.db} | ${m.name} | ${m.connections || ""} | ${cells.join(" | ")} | ${m.target} | ${verdict} |`,
      );
    }
    if (suite.generateSeconds !== null)
      lines.push(`| ${suite.db} | gen:data | | | | | | | | ${suite.generateSeconds.toFixed(1)} s | |`);
  }
  console.log(lines.join("\n"));
}

runOnBothDatabases({
  name: "bench-learning",
  args,
  childArgs: [
    `--students=${students}`,
    `--days=${days}`,
    `--duration=${load.durationSeconds}`,
    `--warmup=${load.warmupSeconds}`,
    `--connections=${args.connections}`,
  ],
  runSuite,
  report,
});
