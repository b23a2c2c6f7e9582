import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  figure,
  generateOnce,
  type LoadResult,
  measureLoad,
  runOnBothDatabases,
  signIn,
  startServer,
  stopChild,
} from "./bench-lib";
import { BENCH_PASSWORD, generateSchool } from "./gen-data";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values: args } = parseArgs({
  options: {
    students: { type: "string", default: "10000" },
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    only: { type: "string" },
    "postgres-child": { type: "boolean", default: false },
    "result-file": { type: "string" },
  },
});
const students = Number(args.students);
const load = { durationSeconds: Number(args.duration), warmupSeconds: Number(args.warmup) };
const log = (message: string) => process.stderr.write(`[bench-people] ${message}\n`);

/** What is measured: path, who asks, and the p95 it should stay under. */
const REQUESTS = [
  { name: "organizations list with counts", path: "/api/admin/orgs", as: "admin", maxP95: 100 },
  {
    name: "district tree (schools and classes)",
    path: "/api/admin/orgs/gen-district/tree",
    as: "admin",
    maxP95: 200,
  },
  {
    name: "district numbers per grade",
    path: "/api/admin/orgs/gen-district/summary",
    as: "admin",
    maxP95: 100,
  },
  {
    name: "district people, students, searched",
    path: "/api/admin/orgs/gen-district/people?role=student&search=0042",
    as: "admin",
    maxP95: 250,
  },
  {
    name: "users with roles, searched",
    path: "/api/admin/users?search=student%20004",
    as: "admin",
    maxP95: 250,
  },
  {
    name: "a Guide's onboarding classes",
    path: "/api/admin/onboarding/classes?schoolSourcedId=gen-school-1&grade=03",
    as: "guide",
    maxP95: 100,
  },
] as const;

interface Measurement {
  name: string;
  maxP95: number;
  result: LoadResult;
}
interface SuiteResult {
  db: "pglite" | "postgres";
  measurements: Measurement[];
}

const generate = (env: NodeJS.ProcessEnv, dataDir: string | null) =>
  generateOnce(env, dataDir, `.generated-${students}`, async (db) => {
    await generateSchool(db, { students, days: 1, today: new Date().toISOString().slice(0, 10) });
  });

async function runSuite(
  db: SuiteResult["db"],
  env: NodeJS.ProcessEnv,
  dataDir: string | null,
): Promise<SuiteResult> {
  log(`${db}: a district of ${students} students (reused when already there)…`);
  await generate(env, dataDir);
  const server = await startServer({ projectRoot, env: { ...env, SEED_DEMO: "false" }, timeoutMs: 180_000 });
  try {
    const cookies = {
      admin: await signIn(server.baseUrl, "bench-admin@dash.bench", BENCH_PASSWORD),
      guide: await signIn(server.baseUrl, "bench-guide@dash.bench", BENCH_PASSWORD),
    };
    const measurements: Measurement[] = [];
    for (const request of REQUESTS) {
      const url = `${server.baseUrl}${request.path}`;
      const probe = await fetch(url, { headers: { cookie: cookies[request.as] } });
      if (probe.status !== 200)
        throw new Error(`${request.path} answered ${probe.status}: ${await probe.text()}`);
      log(`${db}: ${request.name}…`);
      const result = await measureLoad({
        url,
        headers: { cookie: cookies[request.as] },
        connections: 4,
        ...load,
        serverPgid: server.child.pgid,
      });
      measurements.push({ name: request.name, maxP95: request.maxP95, result });
    }
    return { db, measurements };
  } finally {
    await stopChild(server.child);
  }
}

function report(results: SuiteResult[]) {
  const lines = [
    "",
    `## Roster pages benchmark (${new Date().toISOString()})`,
    "",
    `Dataset: ${students} students, their Guides, schools and classes from gen:data. 4 connections, ${load.warmupSeconds} s warm-up + ${load.durationSeconds} s per run.`,
    "",
    "| Database | Request | req/s | p50 ms | p95 ms | p99 ms | failed | target | |",
    "|---|---|---:|---:|---:|---:|---:|---|---|",
  ];
  for (const suite of results) {
    for (const { name, maxP95, result } of suite.measurements) {
      const passed = result.failures === 0 && result.p95 < maxP95;
      lines.push(
        `| ${suite.db} | ${name} | ${figure(result.requestsPerSecond, 0)} | ${figure(result.p50)} | ${figure(result.p95)} | ${figure(result.p99)} | ${result.failures} | p95 < ${maxP95} ms | ${passed ? "PASS" : "FAIL"} |`,
      );
    }
  }
  console.log(lines.join("\n"));
}

runOnBothDatabases({
  name: "bench-people",
  args,
  childArgs: [
    `--students=${students}`,
    `--duration=${load.durationSeconds}`,
    `--warmup=${load.warmupSeconds}`,
  ],
  runSuite,
  report,
});
