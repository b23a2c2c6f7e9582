import os from "node:os";
import { sql } from "drizzle-orm";
import { queryRows } from "../src/server/db/client";
import { createApiClient } from "../src/server/domains/oauth/clients";
import { ONEROSTER_BASE_PATH, ONEROSTER_SCOPES } from "../src/shared/contracts/api-clients";
import {
  figure,
  generateOnce,
  type LoadResult,
  measureLoad,
  openBenchDatabase,
  projectRoot,
  readBenchArgs,
  runOnBothDatabases,
  startServer,
  stopChild,
  warmFiles,
} from "./bench-lib";
import { generateSchool } from "./gen-data";

const { args, whole, wholeList } = readBenchArgs({
  students: { type: "string", default: "97000" },
  duration: { type: "string", default: "10" },
  warmup: { type: "string", default: "2" },
  connections: { type: "string", default: "1,4" },
});
const students = whole("students", 1);
const connectionCounts = wholeList("connections", 1);
const load = { durationSeconds: whole("duration", 1), warmupSeconds: whole("warmup", 0) };
const TARGET_P95_MS = 100;
const CLIENT = { clientId: "bench-sis", clientSecret: "bench-sis-secret" };
const REQUEST = `${ONEROSTER_BASE_PATH}/users?limit=1000&filter=${encodeURIComponent("role='student'")}`;

interface SuiteResult {
  db: "pglite" | "postgres";
  users: number;
  generateSeconds: number | null;
  runs: { connections: number; result: LoadResult }[];
  /** Pages of 1,000 students: whether the middle and the last page answered as expected. */
  deepPagesChecked: boolean;
}

const log = (message: string) => process.stderr.write(`[bench-oneroster] ${message}\n`);

/** Fills the database once (kept between runs for the same size) and registers the API client. */
const generate = (env: NodeJS.ProcessEnv, dataDir: string | null) =>
  generateOnce(env, dataDir, `.generated-oneroster-${students}`, async (db) => {
    // One day of activity is the least gen:data makes; the roster is what matters here.
    await generateSchool(db, { students, days: 1, today: new Date().toISOString().slice(0, 10) });
    await createApiClient(
      db,
      { name: "Benchmark SIS", scopes: [ONEROSTER_SCOPES.core], createdBy: null },
      CLIENT,
    );
  });

async function countUsers(env: NodeJS.ProcessEnv, dataDir: string | null): Promise<number> {
  const database = await openBenchDatabase(env, dataDir);
  try {
    const [row] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from users`);
    return row?.n ?? 0;
  } finally {
    await database.close();
  }
}

async function fetchToken(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: CLIENT.clientId,
      client_secret: CLIENT.clientSecret,
    }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (response.status !== 200 || !body.access_token)
    throw new Error(`the token request answered ${response.status}: ${JSON.stringify(body)}`);
  return body.access_token;
}

/** The first, a middle and the last page answer 1,000, 1,000 and the rest, with the same total. */
async function checkPages(baseUrl: string, token: string): Promise<boolean> {
  const page = async (offset: number) => {
    const response = await fetch(`${baseUrl}${REQUEST}&offset=${offset}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await response.json()) as { users?: unknown[] };
    return {
      status: response.status,
      count: body.users?.length ?? -1,
      total: Number(response.headers.get("x-total-count")),
    };
  };
  const first = await page(0);
  const lastOffset = Math.floor((first.total - 1) / 1000) * 1000;
  const middle = await page(Math.floor(first.total / 2000) * 1000);
  const last = await page(lastOffset);
  return (
    first.status === 200 &&
    first.total === students &&
    first.count === 1000 &&
    middle.count === 1000 &&
    last.count === first.total - lastOffset
  );
}

async function runSuite(
  db: SuiteResult["db"],
  env: NodeJS.ProcessEnv,
  dataDir: string | null,
): Promise<SuiteResult> {
  log(`${db}: generating ${students} students and their teachers (reused when already there)…`);
  const generateSeconds = await generate(env, dataDir);
  const users = await countUsers(env, dataDir);
  if (dataDir) warmFiles(dataDir, log);
  const server = await startServer({ projectRoot, env: { ...env, SEED_DEMO: "false" }, timeoutMs: 180_000 });
  try {
    const token = await fetchToken(server.baseUrl);
    const deepPagesChecked = await checkPages(server.baseUrl, token);
    const runs: SuiteResult["runs"] = [];
    for (const connections of connectionCounts) {
      log(`${db}: ${users} users; loading ${REQUEST} with ${connections} connection(s)…`);
      const result = await measureLoad({
        url: `${server.baseUrl}${REQUEST}`,
        headers: { authorization: `Bearer ${token}` },
        connections,
        ...load,
        serverPgid: server.child.pgid,
      });
      runs.push({ connections, result });
    }
    return { db, users, generateSeconds, runs, deepPagesChecked };
  } finally {
    await stopChild(server.child);
  }
}

function report(results: SuiteResult[]) {
  const lines = [
    "",
    `## OneRoster REST benchmark (${new Date().toISOString()})`,
    "",
    `GET ${decodeURIComponent(REQUEST)} with a bearer token (pages of about 520 KB), ${load.warmupSeconds} s warm-up + ${load.durationSeconds} s per run. Target p95 < ${TARGET_P95_MS} ms. "Other CPU" is what other processes used meanwhile, in cores (of ${os.cpus().length}).`,
    "",
    "| Database | users | connections | req/s | p50 ms | p95 ms | p99 ms | failed | server CPU | other CPU | pages checked | gen:data | |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|",
  ];
  for (const suite of results) {
    for (const { connections, result: r } of suite.runs) {
      const passed = r.failures === 0 && suite.deepPagesChecked && r.p95 < TARGET_P95_MS;
      lines.push(
        `| ${suite.db} | ${suite.users} | ${connections} | ${figure(r.requestsPerSecond, 1)} | ${figure(r.p50, 1)} | ${figure(r.p95, 1)} | ${figure(r.p99, 1)} | ${r.failures} | ${r.cpu?.server.toFixed(2) ?? "?"} | ${r.cpu?.others.toFixed(2) ?? "?"} | ${suite.deepPagesChecked ? "yes" : "NO"} | ${suite.generateSeconds === null ? "reused" : `${suite.generateSeconds.toFixed(1)} s`} | ${passed ? "PASS" : "FAIL"} |`,
      );
    }
  }
  console.log(lines.join("\n"));
}

runOnBothDatabases({
  name: "bench-oneroster",
  args,
  childArgs: [
    `--students=${students}`,
    `--duration=${load.durationSeconds}`,
    `--warmup=${load.warmupSeconds}`,
    `--connections=${args.connections}`,
  ],
  runSuite,
  report,
});
