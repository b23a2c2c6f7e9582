/**
 * Loopback benchmark of the real server process, on PGlite and on PostgreSQL.
 *
 *   npm run bench                        # both databases, 2 s warm-up + 10 s per run
 *   npm run bench -- --duration 5 --only pglite
 *
 * Per database: start-to-healthy on a fresh database (migrates and seeds) and on an existing one
 * (after a SIGTERM stop), then GET /api/health and GET /api/auth/me (signed in) with autocannon.
 * The PostgreSQL part re-runs this script through scripts/with-postgres.sh, which provides a
 * throwaway PostgreSQL 15 cluster in DATABASE_URL.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { isWebBuildStale } from "../src/server/build-web";
import {
  killAllChildren,
  killAllChildrenNow,
  type LoadResult,
  measureLoad,
  type RunningServer,
  runToEnd,
  signIn,
  startChild,
  startServer,
  stopChild,
} from "./bench-lib";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const EMAIL = "student@dash.demo";
const PASSWORD = "dash-demo";
const TARGET_ME_P95_MS = 10;
const TARGET_RESTART_MS = 3_000;
const START_TIMEOUT_MS = 180_000;
const WITH_POSTGRES_SKIPPED = 3;
// CPU cores used by other processes during a PGlite run above which its numbers are called disturbed.
const BUSY_MACHINE_CORES = 0.2;

type DbKind = "pglite" | "postgres";

interface SuiteResult {
  db: DbKind;
  freshStartMs: number;
  restartMs: number[];
  stopMs: number[];
  notes: string[];
  health: LoadResult;
  me: LoadResult;
}

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "50" },
    restarts: { type: "string", default: "3" },
    only: { type: "string" },
    help: { type: "boolean", default: false },
    // Internal: the PostgreSQL run inside scripts/with-postgres.sh writes its result here.
    "postgres-child": { type: "boolean", default: false },
    "result-file": { type: "string" },
  },
});

const USAGE = `Usage: npm run bench -- [--duration S] [--warmup S] [--connections N] [--restarts N]
                          [--only pglite|postgres]`;

function positive(name: string, raw: string | undefined, allowZero = false): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new Error(`--${name} must be a ${allowZero ? "non-negative" : "positive"} number, not "${raw}"`);
  }
  return value;
}

function log(message: string): void {
  console.log(`[bench${args["postgres-child"] ? ":postgres" : ""}] ${message}`);
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(value < 10 ? 2 : 1) : "n/a");
const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

const cores = (value: number | undefined) => (value === undefined ? "n/a" : value.toFixed(2));

function describeLoad(result: LoadResult): string {
  return (
    `${Math.round(result.requestsPerSecond)} req/s, p50 ${ms(result.p50)} ms, p95 ${ms(result.p95)} ms, ` +
    `p99 ${ms(result.p99)} ms, max ${ms(result.max)} ms, ${result.completed} ok, ${result.failures} failed; ` +
    `CPU cores: server ${cores(result.cpu?.server)}, autocannon ${cores(result.cpu?.loadGenerator)}, ` +
    `others ${cores(result.cpu?.others)}`
  );
}

/** Builds the web app now when it is stale, so the server's own start-up build does not run. */
async function ensureWebBuilt(): Promise<void> {
  if (!isWebBuildStale(projectRoot, path.join(projectRoot, "dist"))) return;
  log("dist/ is stale: running vite build first (not part of any measurement)");
  const vite = path.join(projectRoot, "node_modules", ".bin", "vite");
  const build = await runToEnd(vite, ["build", "--logLevel", "warn"], {
    cwd: projectRoot,
    env: process.env,
    timeoutMs: 300_000,
  });
  if (build.code !== 0) throw new Error(`vite build failed (${build.code}):\n${build.output}`);
}

async function runSuite(
  db: DbKind,
  serverEnv: NodeJS.ProcessEnv,
  load: { connections: number; warmupSeconds: number; durationSeconds: number; restarts: number },
): Promise<SuiteResult> {
  const notes: string[] = [];
  const stopMs: number[] = [];
  const restartMs: number[] = [];
  const start = async (label: string) => {
    await ensureWebBuilt();
    const server = await startServer({ projectRoot, env: serverEnv, timeoutMs: START_TIMEOUT_MS });
    log(`${label}: healthy after ${seconds(server.startMs)}`);
    if (server.builtWeb) notes.push(`${label} start included a web build (sources changed during the run)`);
    return server;
  };
  const stop = async (server: RunningServer, label: string) => {
    const stopped = await stopChild(server.child);
    stopMs.push(stopped.ms);
    if (!stopped.clean) {
      const output = server.child.output();
      notes.push(`${label}: SIGTERM ended the server with ${stopped.code}${output ? `:\n${output}` : ""}`);
    }
  };

  let server = await start("fresh start (migrate + seed)");
  const freshStartMs = server.startMs;
  try {
    for (let i = 1; i <= load.restarts; i++) {
      await stop(server, i === 1 ? "stop after the fresh start" : `stop after start ${i - 1}`);
      server = await start(`start ${i}/${load.restarts} on the existing database`);
      restartMs.push(server.startMs);
    }

    const cookie = await signIn(server.baseUrl, EMAIL, PASSWORD);
    const common = {
      connections: load.connections,
      warmupSeconds: load.warmupSeconds,
      durationSeconds: load.durationSeconds,
      serverPgid: server.child.pgid,
    };
    log(`GET /api/health: ${load.warmupSeconds} s warm-up + ${load.durationSeconds} s...`);
    const health = await measureLoad({ ...common, url: `${server.baseUrl}/api/health` });
    log(`GET /api/health: ${describeLoad(health)}`);
    log(`GET /api/auth/me: ${load.warmupSeconds} s warm-up + ${load.durationSeconds} s...`);
    const me = await measureLoad({ ...common, url: `${server.baseUrl}/api/auth/me`, headers: { cookie } });
    log(`GET /api/auth/me: ${describeLoad(me)}`);
    return { db, freshStartMs, restartMs, stopMs, notes, health, me };
  } finally {
    await stop(server, "final stop");
  }
}

/** Runs the PostgreSQL part of this script inside scripts/with-postgres.sh; null when skipped. */
async function runPostgresThroughWrapper(
  tmpDir: string,
  passThrough: string[],
  expectedMs: number,
): Promise<SuiteResult | null> {
  const resultFile = path.join(tmpDir, "postgres-result.json");
  const tsx = path.join(projectRoot, "node_modules", ".bin", "tsx");
  const child = startChild(
    "bash",
    [
      path.join(projectRoot, "scripts", "with-postgres.sh"),
      tsx,
      "scripts/bench.ts",
      "--postgres-child",
      "--result-file",
      resultFile,
      ...passThrough,
    ],
    { cwd: projectRoot, env: { ...process.env, DATABASE_URL: "" }, inheritOutput: true },
  );
  const timeoutMs = expectedMs + 300_000;
  const code = await Promise.race([
    child.exited,
    new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), timeoutMs).unref()),
  ]);
  if (code === "timeout") {
    await stopChild(child);
    throw new Error(`the PostgreSQL run took longer than ${seconds(timeoutMs)}; stopped it`);
  }
  await stopChild(child, 10_000); // reaps anything left in its process group
  if (code === WITH_POSTGRES_SKIPPED) return null;
  if (code !== 0) throw new Error(`the PostgreSQL run failed (exit ${code})`);
  return JSON.parse(readFileSync(resultFile, "utf8")) as SuiteResult;
}

function printReport(
  results: SuiteResult[],
  skipped: string[],
  load: { connections: number; warmupSeconds: number; durationSeconds: number },
): void {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const lines = [
    "",
    `## Dash benchmark (${new Date().toISOString()})`,
    "",
    `Node ${process.version}, ${os.cpus().length} × ${cpu}, ${os.platform()} ${os.release()}. ` +
      "Loopback 127.0.0.1; autocannon runs on the same machine as the server.",
    `${load.connections} connections, ${load.warmupSeconds} s warm-up (discarded) + ${load.durationSeconds} s measured per run.`,
    "CPU columns: average cores busy during the measured run; others = the rest of the machine " +
      "(the PostgreSQL server for postgres; anything above ~0.2 otherwise means something else competed).",
  ];
  if (results.length > 0) {
    lines.push(
      "",
      "| Database | Request | req/s | p50 ms | p95 ms | p99 ms | max ms | failed | CPU server / autocannon / others |",
      "|---|---|---:|---:|---:|---:|---:|---:|---|",
    );
    for (const result of results) {
      for (const [name, run] of [
        ["GET /api/health", result.health],
        ["GET /api/auth/me", result.me],
      ] as const) {
        lines.push(
          `| ${result.db} | ${name} | ${Math.round(run.requestsPerSecond)} | ${ms(run.p50)} | ${ms(run.p95)} | ` +
            `${ms(run.p99)} | ${ms(run.max)} | ${run.failures} | ${cores(run.cpu?.server)} / ` +
            `${cores(run.cpu?.loadGenerator)} / ${cores(run.cpu?.others)} |`,
        );
      }
    }
    lines.push(
      "",
      "| Database | Start, fresh (migrate + seed) | Start, existing data (median) | Starts on existing data | Stop (SIGTERM) |",
      "|---|---:|---:|---|---:|",
    );
    for (const result of results) {
      lines.push(
        `| ${result.db} | ${seconds(result.freshStartMs)} | ${seconds(median(result.restartMs))} | ` +
          `${result.restartMs.map(seconds).join(", ")} | ${seconds(median(result.stopMs))} |`,
      );
    }
  }
  for (const name of skipped) lines.push("", `${name}`);

  const pglite = results.find((result) => result.db === "pglite");
  lines.push("", "Targets:");
  if (pglite) {
    const meP95 = pglite.me.p95;
    const worstRestart = Math.max(...pglite.restartMs);
    lines.push(
      `- [${meP95 < TARGET_ME_P95_MS ? "x" : " "}] GET /api/auth/me p95 under ${TARGET_ME_P95_MS} ms at ` +
        `${load.connections} connections on PGlite: ${ms(meP95)} ms ${meP95 < TARGET_ME_P95_MS ? "PASS" : "FAIL"}`,
      `- [${worstRestart < TARGET_RESTART_MS ? "x" : " "}] start to healthy under ${seconds(TARGET_RESTART_MS)} ` +
        `on an existing data dir (PGlite, worst of ${pglite.restartMs.length}): ${seconds(worstRestart)} ` +
        `${worstRestart < TARGET_RESTART_MS ? "PASS" : "FAIL"}`,
    );
    const others = pglite.me.cpu?.others ?? 0;
    if (others > BUSY_MACHINE_CORES) {
      lines.push(
        `- Warning: other processes used ${cores(others)} cores during the PGlite \`me\` run, so its ` +
          "latency is not representative; run again on a quiet machine.",
      );
    }
  } else {
    lines.push("- not checked: the PGlite part did not run");
  }
  for (const result of results) {
    for (const note of result.notes) lines.push("", `Note (${result.db}): ${note}`);
  }
  console.log(lines.join("\n"));
}

async function main(): Promise<number> {
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const load = {
    durationSeconds: positive("duration", args.duration),
    warmupSeconds: positive("warmup", args.warmup, true),
    connections: Math.round(positive("connections", args.connections)),
    restarts: Math.round(positive("restarts", args.restarts)),
  };
  const only = args.only;
  if (only !== undefined && only !== "pglite" && only !== "postgres") {
    throw new Error(`--only must be pglite or postgres, not "${only}"\n${USAGE}`);
  }

  if (args["postgres-child"]) {
    const databaseUrl = process.env.DATABASE_URL;
    if (!databaseUrl || !args["result-file"])
      throw new Error("--postgres-child needs DATABASE_URL and --result-file");
    const result = await runSuite("postgres", { ...process.env, DATABASE_URL: databaseUrl }, load);
    writeFileSync(args["result-file"], JSON.stringify(result));
    return 0;
  }

  mkdirSync(path.join(projectRoot, ".tmp"), { recursive: true });
  const tmpDir = mkdtempSync(path.join(projectRoot, ".tmp", "bench-"));
  tmpDirToRemove = tmpDir;
  const results: SuiteResult[] = [];
  const skipped: string[] = [];
  try {
    await ensureWebBuilt();
    if (only !== "postgres") {
      log("PGlite");
      const dataDir = path.join(tmpDir, "pglite-data");
      // DATABASE_URL is emptied so a value from the caller's shell cannot switch the server away from PGlite.
      const env = { ...process.env, DATABASE_URL: "", DATA_DIR: dataDir };
      results.push(await runSuite("pglite", env, load));
    }
    if (only !== "pglite") {
      log("PostgreSQL (through scripts/with-postgres.sh)");
      const passThrough = [
        `--duration=${load.durationSeconds}`,
        `--warmup=${load.warmupSeconds}`,
        `--connections=${load.connections}`,
        `--restarts=${load.restarts}`,
      ];
      const expectedMs = 4 * (load.warmupSeconds + load.durationSeconds) * 1000;
      const postgres = await runPostgresThroughWrapper(tmpDir, passThrough, expectedMs);
      if (postgres) results.push(postgres);
      else
        skipped.push(
          "PostgreSQL was skipped: no PostgreSQL 15 binaries (scripts/with-postgres.sh exited 3).",
        );
    }
  } finally {
    rmSync(tmpDir, { recursive: true, force: true });
  }
  printReport(results, skipped, load);
  return 0;
}

let tmpDirToRemove: string | undefined;
let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: stopping child processes`);
    void killAllChildren().finally(() => {
      if (tmpDirToRemove) rmSync(tmpDirToRemove, { recursive: true, force: true });
      process.exit(signal === "SIGINT" ? 130 : 143);
    });
  });
}
process.on("exit", killAllChildrenNow);

main()
  .then(async (code) => {
    await killAllChildren();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    console.error(`[bench] failed: ${error instanceof Error ? error.message : String(error)}`);
    await killAllChildren();
    process.exit(1);
  });
