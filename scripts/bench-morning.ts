/**
 * A school's morning rush against the real server process, on PGlite and on PostgreSQL.
 *
 *   npm run bench:morning                                   # both databases, the full morning
 *   npm run bench:morning -- --only pglite --duration 20 --students 300 --guides 12 --parents 300
 *   npm run bench:morning -- --signed-in                    # everyone kept their session: no sign-in
 *
 * A generated school (2,000 students, 80 Guides each with a class, 2,000 parents, 60 days of
 * activity) and, during `--duration` seconds: every student signs in within the first
 * `--sign-in-window` seconds (spread out), opens their home (the summary, then the heatmap, as the
 * page does), and a little later the learning-metrics page; every Guide signs in, opens their home
 * and their class's metrics twice; every parent signs in and opens the parent home (the children's
 * summaries and the selected child's heatmap); apps post `--events-per-second` events in batches
 * through the ingestion route with a real key. Sign-in honours `Retry-After` on 503 like the web
 * app. Before the morning, a trivial route (no database) is loaded to find this machine's ceiling,
 * and every figure is also given as a ratio to it; then 50 students, 50 parents and 4 Guides use
 * the server for 10 s, unmeasured (the evening before: a server at 8:00 has been up for hours). Figures go to .tmp/bench/morning-<db>.json.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { Agent } from "undici";
import { hashToken } from "../src/server/domains/auth/service";
import { addDays, localDateOf, weekStartOf } from "../src/shared/time-zone";
import {
  figure,
  generateOnce,
  type LoadResult,
  measureLoad,
  openBenchDatabase,
  percentile,
  projectRoot,
  readBenchArgs,
  runOnBothDatabases,
  startServer,
  stopChild,
  warmFiles,
} from "./bench-lib";
import { BENCH_APP_KEY, BENCH_PASSWORD, generateSchool } from "./gen-data";

const { args, whole } = readBenchArgs({
  students: { type: "string", default: "2000" },
  guides: { type: "string", default: "80" },
  parents: { type: "string", default: "2000" },
  days: { type: "string", default: "60" },
  duration: { type: "string", default: "60" },
  "sign-in-window": { type: "string", default: "30" },
  "events-per-second": { type: "string", default: "100" },
  "signed-in": { type: "boolean", default: false },
});
const students = whole("students", 1);
const guides = whole("guides", 1);
const parents = whole("parents", 0);
const days = whole("days", 1);
const durationS = whole("duration", 5);
const signInWindowS = Math.min(whole("sign-in-window", 1), durationS);
const eventsPerSecond = whole("events-per-second", 0);
const signedIn = args["signed-in"] as boolean;

const BATCHES_PER_SECOND = 2;
/** Users still busy this long after the morning's end are counted as failed. */
const GRACE_S = 120;
const REQUEST_TIMEOUT_MS = 30_000;
const TIMEZONE = "America/New_York";
const HEATMAP_WEEKS = 18;
/** Students and parents who use the server the evening before the morning. */
const EVENING_PEOPLE = 50;
const CEILING = { connections: 50, warmupSeconds: 1, durationSeconds: 5 };

/** Request types, each with its latency target on each database (none for sign-in and ingestion). */
const TYPES = {
  "sign-in": { group: "sign-in", pglite: null, postgres: null },
  "student home": { group: "home", pglite: 300, postgres: 100 },
  "student heatmap": { group: "home", pglite: 300, postgres: 100 },
  "student metrics": { group: "metrics", pglite: 800, postgres: 300 },
  "Guide home": { group: "home", pglite: 300, postgres: 100 },
  "Guide class metrics": { group: "metrics", pglite: 800, postgres: 300 },
  "parent home": { group: "home", pglite: 300, postgres: 100 },
  "parent heatmap": { group: "home", pglite: 300, postgres: 100 },
  "ingest batch": { group: "ingest", pglite: null, postgres: null },
} as const;
type RequestType = keyof typeof TYPES;

interface TypeFigures {
  type: RequestType;
  count: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  /** 503 answers a client waited out (Retry-After) and tried again: not errors, but time lost. */
  busy: number;
  targetMs: number | null;
  passed: boolean | null;
}
interface SuiteResult {
  db: "pglite" | "postgres";
  dataset: string;
  generateSeconds: number | null;
  ceiling: LoadResult;
  signInMs: { p50: number; p95: number } | null;
  morningSeconds: number;
  requestsPerSecond: number;
  lastStudentHomeAtS: number | null;
  errorSamples: string[];
  types: TypeFigures[];
}

const log = (message: string) => process.stderr.write(`[bench-morning] ${message}\n`);
const today = new Date().toISOString().slice(0, 10);
const dataset = `${students} students, ${guides} Guides, ${parents} parents, ${days} days`;

const generate = (env: NodeJS.ProcessEnv, dataDir: string | null) =>
  generateOnce(env, dataDir, `.generated-${students}-${guides}-${parents}-${days}-${today}`, (db) =>
    generateSchool(db, { students, days, today, guides, parents, everyoneSignsIn: true }).then(
      () => undefined,
    ),
  );

/** Sessions as if everyone had stayed signed in: rows like the ones sign-in writes. */
async function prepareSessions(env: NodeJS.ProcessEnv, dataDir: string | null, emails: string[]) {
  const database = await openBenchDatabase(env, dataDir);
  try {
    const tokens = new Map(emails.map((email) => [email, randomBytes(32).toString("base64url")]));
    const rows = [...tokens].map(([email, token]) => ({ email, token_hash: hashToken(token) }));
    await database.db.execute(sql`insert into sessions (token_hash, user_sourced_id, expires_at)
      select r.token_hash, u.sourced_id, now() + interval '1 day'
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(email text, token_hash text)
      join users u on lower(u.email) = r.email`);
    return tokens;
  } finally {
    await database.close();
  }
}

class Recorder {
  readonly samples = new Map<RequestType, number[]>();
  readonly errors = new Map<RequestType, number>();
  readonly busy = new Map<RequestType, number>();
  readonly errorSamples: string[] = [];
  completed = 0;

  record(type: RequestType, ms: number) {
    this.completed++;
    const list = this.samples.get(type) ?? [];
    list.push(ms);
    this.samples.set(type, list);
  }
  fail(type: RequestType, why: string) {
    this.errors.set(type, (this.errors.get(type) ?? 0) + 1);
    if (this.errorSamples.length < 10) this.errorSamples.push(`${type}: ${why}`);
  }
  waited(type: RequestType) {
    this.busy.set(type, (this.busy.get(type) ?? 0) + 1);
  }
}

/** Who comes and how fast: the morning, or the small evening before it. */
interface Crowd {
  name: string;
  students: number;
  guides: number;
  parents: number;
  durationS: number;
  signInWindowS: number;
  eventsPerSecond: number;
}

const morningCrowd: Crowd = {
  name: "the morning",
  students,
  guides,
  parents,
  durationS,
  signInWindowS,
  eventsPerSecond,
};

/**
 * A server at 8:00 has been up for hours: its code is compiled, its connections are open and the
 * database has read its indexes. A few people use it the evening before, unmeasured, so that the
 * morning is not measured on a server started a second earlier.
 */
const eveningCrowd: Crowd = {
  name: "the evening before",
  students: Math.min(students, EVENING_PEOPLE),
  guides: Math.min(guides, 4),
  parents: Math.min(parents, EVENING_PEOPLE),
  durationS: 10,
  signInWindowS: 5,
  eventsPerSecond: Math.min(eventsPerSecond, 20),
};

async function runMorning(
  baseUrl: string,
  db: SuiteResult["db"],
  sessions: Map<string, string> | null,
  crowd: Crowd = morningCrowd,
): Promise<Omit<SuiteResult, "db" | "dataset" | "generateSeconds" | "ceiling" | "signInMs">> {
  const recorder = new Recorder();
  const started = performance.now();
  const elapsedS = () => (performance.now() - started) / 1000;
  const at = (seconds: number) => sleep(Math.max(0, seconds * 1000 - (performance.now() - started)));
  const morningEnds = started + crowd.durationS * 1000;
  let lastStudentHomeAtS: number | null = null;
  // Each person's device keeps its own connection, as browsers do: no limit per origin.
  const clients = new Agent({ connections: null, keepAliveTimeout: 60_000 });

  /**
   * One request; a non-2xx answer (and 304, which has no body) is read and judged here. Requests go
   * through undici's own client, not `fetch`: the load generator shares this machine's cores with
   * the server, and `fetch`'s web streams cost it several times more per request.
   */
  async function call(
    type: RequestType,
    path: string,
    init: { cookie?: string; method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<unknown> {
    for (;;) {
      const begun = performance.now();
      let status: number;
      let headers: Record<string, string | string[] | undefined>;
      let text: string;
      try {
        const response = await clients.request({
          origin: baseUrl,
          path,
          method: init.method ?? (init.body === undefined ? "GET" : "POST"),
          headers: {
            ...(init.cookie && { cookie: init.cookie }),
            ...(init.body !== undefined && { "content-type": "application/json" }),
            "accept-encoding": "gzip",
            ...init.headers,
          },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        ({ statusCode: status, headers } = response);
        const body = Buffer.from(await response.body.arrayBuffer());
        text = (headers["content-encoding"] === "gzip" ? gunzipSync(body) : body).toString("utf8");
      } catch (error) {
        const cause =
          error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : "";
        recorder.fail(type, `${error instanceof Error ? error.message : String(error)}${cause}`);
        return null;
      }
      const ms = performance.now() - begun;
      const retryAfter = headers["retry-after"];
      if (status === 503 && retryAfter !== undefined) {
        recorder.waited(type);
        await sleep(Number(retryAfter) * 1000);
        continue;
      }
      if (status < 200 || status >= 300) {
        recorder.fail(type, `${status} ${text.slice(0, 200)}`);
        return null;
      }
      recorder.record(type, ms);
      const setCookie = headers["set-cookie"] ?? [];
      return type === "sign-in" ? [setCookie].flat() : text ? JSON.parse(text) : null;
    }
  }

  async function signIn(email: string): Promise<string | null> {
    const prepared = sessions?.get(email);
    if (prepared) return `dash_session=${prepared}`;
    const cookies = (await call("sign-in", "/api/auth/login", {
      body: { email, password: BENCH_PASSWORD },
    })) as string[] | null;
    const cookie = cookies
      ?.map((header) => header.split(";")[0] ?? "")
      .find((pair) => pair.startsWith("dash_session="));
    return cookie ?? null;
  }

  const heatmapOf = (studentId: string) => {
    const localToday = localDateOf(new Date(), TIMEZONE);
    return {
      userId: studentId,
      startDate: addDays(weekStartOf(localToday), -7 * (HEATMAP_WEEKS - 1)),
      endDate: localToday,
      timezone: TIMEZONE,
    };
  };
  const metricsPath = (extra: Record<string, string>) => {
    const localToday = localDateOf(new Date(), TIMEZONE);
    const params = new URLSearchParams({
      view: "daily",
      startDate: addDays(localToday, -29),
      endDate: localToday,
      groupBy: "subject",
      ...extra,
    });
    return `/api/learning-metrics?${params}`;
  };
  const spread = (count: number, windowS: number) =>
    Array.from({ length: count }, () => Math.random() * windowS);

  async function student(n: number, startS: number) {
    await at(startS);
    const email = n === 1 ? "bench-student@dash.bench" : `student-${n}@dash.bench`;
    const cookie = await signIn(email);
    if (!cookie) return;
    const id = `gen-student-${n}`;
    if (!(await call("student home", `/api/students/${id}/home`, { cookie }))) return;
    lastStudentHomeAtS = Math.max(lastStudentHomeAtS ?? 0, elapsedS());
    await call("student heatmap", "/api/learning-metrics/analytics-xp-heatmap", {
      cookie,
      body: heatmapOf(id),
    });
    await sleep(5_000 + Math.random() * 10_000);
    await call("student metrics", metricsPath({}), { cookie });
  }

  async function guide(n: number, startS: number) {
    await at(startS);
    const cookie = await signIn(n === 1 ? "bench-guide@dash.bench" : `guide-${n}@dash.bench`);
    if (!cookie) return;
    if (!(await call("Guide home", "/api/guide/students", { cookie }))) return;
    await sleep(3_000 + Math.random() * 5_000);
    await call("Guide class metrics", metricsPath({ classId: `gen-class-${n}` }), { cookie });
    await sleep(10_000 + Math.random() * 10_000);
    await call("Guide class metrics", metricsPath({ classId: `gen-class-${n}`, view: "weekly" }), { cookie });
  }

  async function parent(n: number, startS: number) {
    await at(startS);
    const cookie = await signIn(`parent-${n}@dash.bench`);
    if (!cookie) return;
    if (!(await call("parent home", "/api/parent/children/summary", { cookie }))) return;
    await call("parent heatmap", "/api/learning-metrics/analytics-xp-heatmap", {
      cookie,
      body: heatmapOf(`gen-student-${n}`),
    });
  }

  async function apps() {
    const perBatch = Math.ceil(crowd.eventsPerSecond / BATCHES_PER_SECOND);
    let batch = 0;
    const inFlight: Promise<unknown>[] = [];
    while (perBatch > 0 && performance.now() < morningEnds) {
      batch++;
      const events = Array.from({ length: perBatch }, (_, index) => ({
        eventId: `morning-${process.pid}-${started}-${batch}-${index}`,
        studentId: `gen-student-${1 + Math.floor(Math.random() * crowd.students)}`,
        occurredAt: new Date(Date.now() - Math.floor(Math.random() * 600_000)).toISOString(),
        subject: ["Math", "Reading", "Language", "Science"][index % 4],
        expectedXp: 10,
        totalQuestions: 10,
        correctQuestions: 8,
        activeSeconds: 300,
      }));
      inFlight.push(
        call("ingest batch", "/api/ingest/activity", {
          body: { events },
          headers: { authorization: `Bearer ${BENCH_APP_KEY}` },
        }),
      );
      await at(batch / BATCHES_PER_SECOND);
    }
    await Promise.all(inFlight);
  }

  log(
    `${db}: ${crowd.name}: ${crowd.students} students sign in within ${crowd.signInWindowS} s, ${crowd.guides} Guides, ${crowd.parents} parents, ${crowd.eventsPerSecond} events/s, ${crowd.durationS} s${signedIn ? " (sessions kept: no sign-in)" : ""}…`,
  );
  const everyone = Promise.all([
    ...spread(crowd.students, crowd.signInWindowS).map((startS, index) => student(index + 1, startS)),
    ...spread(crowd.guides, crowd.signInWindowS).map((startS, index) => guide(index + 1, startS)),
    ...spread(crowd.parents, Math.max(crowd.durationS - 10, 1)).map((startS, index) =>
      parent(index + 1, startS),
    ),
    apps(),
  ]);
  const finished = await Promise.race([
    everyone.then(() => true),
    at(crowd.durationS + GRACE_S).then(() => false),
  ]);
  if (!finished) recorder.errorSamples.push(`some users were still busy ${GRACE_S} s after the morning`);
  const morningSeconds = elapsedS();
  await clients.destroy();

  const types = (Object.keys(TYPES) as RequestType[]).map((type): TypeFigures => {
    const sorted = Float64Array.from(recorder.samples.get(type) ?? []).sort();
    const errors = recorder.errors.get(type) ?? 0;
    const targetMs = TYPES[type][db];
    const p95 = percentile(sorted, 95);
    return {
      type,
      count: sorted.length,
      p50: percentile(sorted, 50),
      p95,
      p99: percentile(sorted, 99),
      errors,
      busy: recorder.busy.get(type) ?? 0,
      targetMs,
      passed: targetMs === null ? null : errors === 0 && sorted.length > 0 && p95 < targetMs,
    };
  });
  return {
    morningSeconds,
    requestsPerSecond: recorder.completed / morningSeconds,
    lastStudentHomeAtS,
    errorSamples: recorder.errorSamples,
    types,
  };
}

/** What one sign-in costs on its own (scrypt), a few after each other. */
async function measureSignIn(baseUrl: string): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (let n = 0; n < 10; n++) {
    const begun = performance.now();
    const response = await fetch(`${baseUrl}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "bench-admin@dash.bench", password: BENCH_PASSWORD }),
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`the sign-in probe answered ${response.status}`);
    times.push(performance.now() - begun);
  }
  const sorted = Float64Array.from(times).sort();
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

async function runSuite(
  db: SuiteResult["db"],
  env: NodeJS.ProcessEnv,
  dataDir: string | null,
): Promise<SuiteResult> {
  log(`${db}: generating ${dataset} (reused when already there)…`);
  const generateSeconds = await generate(env, dataDir);
  const emails = [
    ...Array.from({ length: students }, (_, i) =>
      i === 0 ? "bench-student@dash.bench" : `student-${i + 1}@dash.bench`,
    ),
    ...Array.from({ length: guides }, (_, i) =>
      i === 0 ? "bench-guide@dash.bench" : `guide-${i + 1}@dash.bench`,
    ),
    ...Array.from({ length: parents }, (_, i) => `parent-${i + 1}@dash.bench`),
  ];
  const sessions = signedIn ? await prepareSessions(env, dataDir, emails) : null;
  if (dataDir) warmFiles(dataDir, log);
  const server = await startServer({ projectRoot, env: { ...env, SEED_DEMO: "false" }, timeoutMs: 180_000 });
  try {
    log(`${db}: the ceiling: GET /api/config (no database), ${CEILING.connections} connections…`);
    const ceiling = await measureLoad({
      ...CEILING,
      url: `${server.baseUrl}/api/config`,
      serverPgid: server.child.pgid,
    });
    const signInMs = signedIn ? null : await measureSignIn(server.baseUrl);
    await runMorning(server.baseUrl, db, sessions, eveningCrowd);
    const morning = await runMorning(server.baseUrl, db, sessions);
    const result: SuiteResult = { db, dataset, generateSeconds, ceiling, signInMs, ...morning };
    const folder = path.join(projectRoot, ".tmp", "bench");
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      path.join(folder, `morning-${db}.json`),
      JSON.stringify({ at: new Date().toISOString(), signedIn, ...result }, null, 2),
    );
    return result;
  } finally {
    await stopChild(server.child);
  }
}

function report(results: SuiteResult[]) {
  const lines = [
    "",
    `## The morning rush (${new Date().toISOString()})`,
    "",
    `Dataset: ${dataset} (school days, 4 subjects), generated by gen:data. ${durationS} s: students sign in within ${signInWindowS} s, ${eventsPerSecond} events/s from apps${signedIn ? "; everyone kept their session (no sign-in)" : ""}. Latency of answered requests; "× ceiling" divides by the trivial route's figure.`,
  ];
  for (const suite of results) {
    const c = suite.ceiling;
    lines.push(
      "",
      `### ${suite.db}`,
      "",
      `Ceiling (GET /api/config, no database, ${CEILING.connections} connections): ${figure(c.requestsPerSecond, 0)} req/s, p50 ${figure(c.p50)} ms, p95 ${figure(c.p95)} ms, p99 ${figure(c.p99)} ms.` +
        (suite.signInMs
          ? ` One sign-in alone: p50 ${figure(suite.signInMs.p50, 0)} ms, p95 ${figure(suite.signInMs.p95, 0)} ms.`
          : ""),
      `Morning: ${suite.morningSeconds.toFixed(0)} s, ${figure(suite.requestsPerSecond, 0)} req/s (${figure((100 * suite.requestsPerSecond) / c.requestsPerSecond, 1)} % of the ceiling's rate); last student home answered at ${figure(suite.lastStudentHomeAtS, 0)} s.`,
      "",
      "| request | count | p50 ms | p95 ms | p99 ms | p50 × ceiling | p95 × ceiling | errors | 503 waited | target p95 | |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    );
    for (const t of suite.types) {
      if (t.count === 0 && t.errors === 0) continue;
      const verdict = t.passed === null ? "" : t.passed ? "PASS" : "FAIL";
      lines.push(
        `| ${t.type} | ${t.count} | ${figure(t.p50, 0)} | ${figure(t.p95, 0)} | ${figure(t.p99, 0)} | ${figure(t.p50 / c.p50, 0)} | ${figure(t.p95 / c.p95, 0)} | ${t.errors} | ${t.busy} | ${t.targetMs === null ? "" : `< ${t.targetMs} ms`} | ${verdict} |`,
      );
    }
    if (suite.errorSamples.length > 0) lines.push("", ...suite.errorSamples.map((sample) => `- ${sample}`));
    if (suite.generateSeconds !== null)
      lines.push("", `gen:data took ${suite.generateSeconds.toFixed(1)} s.`);
  }
  console.log(lines.join("\n"));
}

runOnBothDatabases({
  name: "bench-morning",
  args,
  childArgs: [
    `--students=${students}`,
    `--guides=${guides}`,
    `--parents=${parents}`,
    `--days=${days}`,
    `--duration=${durationS}`,
    `--sign-in-window=${signInWindowS}`,
    `--events-per-second=${eventsPerSecond}`,
    ...(signedIn ? ["--signed-in"] : []),
  ],
  runSuite,
  report,
});
