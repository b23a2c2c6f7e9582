/**
 * Helpers for the benchmark scripts: their command line, child processes that are always cleaned
 * up, a server that is started and stopped like in production, the dataset generated once, and an
 * autocannon wrapper that reports p50/p95/p99.
 */
import { type ChildProcess, spawn } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import { type Database, openDatabase } from "../src/server/db/client";

export const HOST = "127.0.0.1";
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// ---------------------------------------------------------------------------------------------
// The command line.

/** What runOnBothDatabases reads: which database to run on, and the PostgreSQL child's hand-back. */
const BOTH_DATABASES_OPTIONS = {
  only: { type: "string" },
  "postgres-child": { type: "boolean", default: false },
  "result-file": { type: "string" },
} as const satisfies ParseArgsOptionsConfig;

/**
 * Reads a benchmark's command line: its own options and runOnBothDatabases's. `whole` and
 * `wholeList` read one of its options as a whole number (or a comma-separated list of them) of at
 * least `minimum`, and refuse anything else before the benchmark generates or starts anything.
 */
export function readBenchArgs<Options extends ParseArgsOptionsConfig>(options: Options) {
  const { values: args } = parseArgs({ options: { ...options, ...BOTH_DATABASES_OPTIONS } });
  const text = (name: keyof Options & string) => String((args as Record<string, unknown>)[name]);
  const isWhole = (value: number, minimum: number) => Number.isInteger(value) && value >= minimum;
  const whole = (name: keyof Options & string, minimum: number): number => {
    const value = Number(text(name));
    if (!isWhole(value, minimum)) throw new Error(`--${name} takes a whole number ≥ ${minimum}`);
    return value;
  };
  const wholeList = (name: keyof Options & string, minimum: number): number[] => {
    const values = text(name).split(",").map(Number);
    if (!values.every((value) => isWhole(value, minimum)))
      throw new Error(`--${name} takes whole numbers ≥ ${minimum}, separated by commas`);
    return values;
  };
  return { args, whole, wholeList };
}

// ---------------------------------------------------------------------------------------------
// Child processes. Each one runs in its own process group (detached), so a signal to the group
// reaches every process it started; every live group is registered for cleanup.

const liveGroups = new Set<number>();

function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: nothing left in the group
  }
}

/** Waits (bounded) until no process of the group is left; true when it is gone. */
export async function waitForGroupGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!signalGroup(pgid, 0)) return true;
    await sleep(20);
  }
  return !signalGroup(pgid, 0);
}

/** SIGTERM to every group still registered, then SIGKILL to what is left after `graceMs`. */
export async function killAllChildren(graceMs = 10_000): Promise<void> {
  const groups = [...liveGroups];
  for (const pgid of groups) signalGroup(pgid, "SIGTERM");
  await Promise.all(groups.map((pgid) => waitForGroupGone(pgid, graceMs)));
  for (const pgid of groups) {
    if (signalGroup(pgid, "SIGKILL")) console.error(`[bench] process group ${pgid} ignored SIGTERM; killed`);
    liveGroups.delete(pgid);
  }
}

/** Last resort from a synchronous `exit` handler. */
export function killAllChildrenNow(): void {
  for (const pgid of liveGroups) signalGroup(pgid, "SIGKILL");
  liveGroups.clear();
}

export interface Child {
  process: ChildProcess;
  pgid: number;
  /** Resolves with the exit code (or the signal name) once the group leader has exited. */
  exited: Promise<number | string>;
  /** The last few KB of stdout and stderr, for error messages. */
  output(): string;
}

export function startChild(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; inheritOutput?: boolean },
): Child {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: options.inheritOutput ? ["ignore", "inherit", "inherit"] : ["ignore", "pipe", "pipe"],
  });
  if (child.pid === undefined) throw new Error(`could not start ${command}`);
  const pgid = child.pid;
  liveGroups.add(pgid);

  let tail = "";
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString("utf8")).slice(-4000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);

  const exited = new Promise<number | string>((resolve) => {
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown"));
    child.once("error", (error) => {
      keep(Buffer.from(String(error)));
      resolve("spawn-error");
    });
  });
  return { process: child, pgid, exited, output: () => tail.trim() };
}

/**
 * SIGTERM to the group leader only (the server, as with `npm start` under a process manager), then
 * a bounded wait; SIGKILL to the whole group when it takes longer than `timeoutMs`. Not to the
 * group: the primary of several server processes stops them itself.
 */
export async function stopChild(
  child: Child,
  timeoutMs = 15_000,
): Promise<{ ms: number; clean: boolean; code: number | string }> {
  const started = performance.now();
  try {
    child.process.kill("SIGTERM");
  } catch {
    // already gone
  }
  const code = await Promise.race([child.exited, sleep(timeoutMs).then(() => "timeout" as const)]);
  const gone = code !== "timeout" && (await waitForGroupGone(child.pgid, 5_000));
  const ms = performance.now() - started;
  if (!gone) signalGroup(child.pgid, "SIGKILL");
  await waitForGroupGone(child.pgid, 5_000);
  liveGroups.delete(child.pgid);
  return { ms, clean: gone && code === 0, code: gone ? code : "killed after timeout" };
}

export async function runToEnd(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; inheritOutput?: boolean },
): Promise<{ code: number | string; output: string }> {
  const child = startChild(command, args, options);
  const code = await Promise.race([child.exited, sleep(options.timeoutMs).then(() => "timeout" as const)]);
  if (code === "timeout") {
    await stopChild(child);
    return { code, output: child.output() };
  }
  await waitForGroupGone(child.pgid, 5_000);
  signalGroup(child.pgid, "SIGKILL"); // anything the command left behind in its group
  liveGroups.delete(child.pgid);
  return { code, output: child.output() };
}

// ---------------------------------------------------------------------------------------------
// The Dash server.

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error("no free port"))));
    });
  });
}

export interface RunningServer {
  child: Child;
  baseUrl: string;
  /** From spawn until GET /api/health answered 200. */
  startMs: number;
  /** True when dist/index.html changed while it started, i.e. the start included a web build. */
  builtWeb: boolean;
  /** When it answered healthy (performance.now()). */
  readyAt: number;
}

function mtimeOrZero(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

export async function startServer(options: {
  projectRoot: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}): Promise<RunningServer> {
  const port = await freePort();
  const baseUrl = `http://${HOST}:${port}`;
  const env = { ...options.env, PORT: String(port), HOST, LOG_LEVEL: "warn" };
  const builtIndex = path.join(options.projectRoot, "dist", "index.html");
  const builtBefore = mtimeOrZero(builtIndex);

  const started = performance.now();
  // As `npm start` runs it: one node process, so SIGTERM reaches the server itself.
  const child = startChild(process.execPath, ["src/server/start.ts"], {
    cwd: options.projectRoot,
    env,
  });
  let exitCode: number | string | undefined;
  void child.exited.then((code) => {
    exitCode = code;
  });
  const deadline = started + options.timeoutMs;
  while (performance.now() < deadline) {
    if (exitCode !== undefined) {
      throw new Error(`the server exited (${exitCode}) before it was healthy:\n${child.output()}`);
    }
    try {
      const response = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) {
        const startMs = performance.now() - started;
        return {
          child,
          baseUrl,
          startMs,
          builtWeb: mtimeOrZero(builtIndex) !== builtBefore,
          readyAt: performance.now(),
        };
      }
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  await stopChild(child);
  throw new Error(`the server was not healthy within ${options.timeoutMs} ms:\n${child.output()}`);
}

export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
    signal: AbortSignal.timeout(30_000),
  });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`sign-in answered ${response.status}: ${body}`);
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(";")[0] ?? "")
    .find((pair) => pair.startsWith("dash_session="));
  if (!cookie) throw new Error("sign-in set no dash_session cookie");

  const me = await fetch(`${baseUrl}/api/auth/me`, {
    headers: { cookie },
    signal: AbortSignal.timeout(10_000),
  });
  const meBody = (await me.json()) as { isAuthenticated?: boolean; user?: { email?: string } | null };
  if (!meBody.isAuthenticated || meBody.user?.email?.toLowerCase() !== email) {
    throw new Error(
      `GET /api/auth/me with the new cookie did not answer as ${email}: ${JSON.stringify(meBody)}`,
    );
  }
  return cookie;
}

// ---------------------------------------------------------------------------------------------
// Load. autocannon ships no types; this is the part of its programmatic API used here.

interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  method?: string;
  body?: string;
  requests?: { setupRequest: (request: Record<string, unknown>) => Record<string, unknown> }[];
}
interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  "2xx": number;
  requests: { average: number; sent: number };
  latency: { p50: number; p99: number; max: number };
}
interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  on(
    event: "response",
    listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void,
  ): this;
}
const autocannon = createRequire(import.meta.url)("autocannon") as (
  options: AutocannonOptions,
) => AutocannonInstance;

export interface LoadResult {
  requestsPerSecond: number;
  completed: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Connection errors + timeouts + non-2xx answers; anything above 0 makes the run suspect. */
  failures: number;
  cpu: CpuShare | null;
}

// ---------------------------------------------------------------------------------------------
// CPU accounting from /proc (Linux; null elsewhere), to see whether other processes competed for the CPUs.

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every mainstream Linux

function machineBusySeconds(): number | null {
  try {
    const fields = (readFileSync("/proc/stat", "utf8").split("\n", 1)[0] ?? "").trim().split(/\s+/).slice(1);
    const ticks = fields.map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already in user)
    const busy = [0, 1, 2, 5, 6, 7].reduce((sum, index) => sum + (ticks[index] ?? 0), 0);
    return busy / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** CPU seconds used so far by the live processes of a process group. */
function groupCpuSeconds(pgid: number): number | null {
  try {
    let ticks = 0;
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      } catch {
        continue; // exited meanwhile
      }
      // Fields after "(comm)": state ppid pgrp ... utime (12th) stime (13th)
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue;
      ticks += Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
    }
    return ticks / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Average CPU use during a run, in cores (1 = one core busy all the time). */
export interface CpuShare {
  server: number;
  loadGenerator: number;
  /** Everything else on the machine, e.g. a PostgreSQL server, or someone else's build. */
  others: number;
}

function cpuMeter(serverPgid: number | undefined): () => CpuShare | null {
  const started = performance.now();
  const machine = machineBusySeconds();
  const server = serverPgid === undefined ? 0 : groupCpuSeconds(serverPgid);
  const self = process.cpuUsage();
  return () => {
    const elapsed = (performance.now() - started) / 1000;
    const machineNow = machineBusySeconds();
    const serverNow = serverPgid === undefined ? 0 : groupCpuSeconds(serverPgid);
    if (machine === null || machineNow === null || server === null || serverNow === null || elapsed <= 0) {
      return null;
    }
    const used = process.cpuUsage(self);
    const selfSeconds = (used.user + used.system) / 1e6;
    const serverSeconds = serverNow - server;
    const others = Math.max(0, machineNow - machine - serverSeconds - selfSeconds);
    return {
      server: serverSeconds / elapsed,
      loadGenerator: selfSeconds / elapsed,
      others: others / elapsed,
    };
  };
}

/** Opens a benchmark's database: DATABASE_URL when the run is on PostgreSQL, else its PGlite folder. */
export function openBenchDatabase(env: NodeJS.ProcessEnv, dataDir: string | null) {
  return openDatabase(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: dataDir as string });
}

/**
 * Fills a benchmark's database once. A PGlite folder is kept for the next run that names the same
 * marker (its dataset); PostgreSQL is a new throwaway cluster every run. Answers the seconds the
 * filling took, or null when the folder was reused.
 */
export async function generateOnce(
  env: NodeJS.ProcessEnv,
  dataDir: string | null,
  marker: string,
  fill: (db: Database) => Promise<void>,
): Promise<number | null> {
  const markerFile = dataDir ? path.join(dataDir, marker) : null;
  if (markerFile && existsSync(markerFile)) return null;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  const database = await openBenchDatabase(env, dataDir);
  const started = performance.now();
  try {
    await database.migrate();
    await fill(database.db);
  } finally {
    await database.close();
  }
  if (markerFile) writeFileSync(markerFile, "");
  return (performance.now() - started) / 1000;
}

/** A figure for a report; a run too short to have one (NaN, or null once passed through JSON) shows as a dash. */
export function figure(value: number | null | undefined, digits = 2): string {
  return typeof value === "number" && Number.isFinite(value) ? value.toFixed(digits) : "–";
}

/**
 * Reads every file under a folder once, so the operating system holds them in memory as it would
 * for a server that has been running a while (this machine's memory reclaim empties the page cache
 * within minutes), and says how long that took.
 */
export function warmFiles(folder: string, log: (message: string) => void): void {
  const started = performance.now();
  const buffer = Buffer.alloc(1 << 20);
  const visit = (entry: string) => {
    const stat = statSync(entry);
    if (stat.isDirectory()) {
      for (const child of readdirSync(entry)) visit(path.join(entry, child));
      return;
    }
    // The server's control socket, left by a server that was stopped hard, is not data.
    if (!stat.isFile()) return;
    const file = openSync(entry, "r");
    try {
      while (readSync(file, buffer, 0, buffer.length, null) > 0);
    } finally {
      closeSync(file);
    }
  };
  visit(folder);
  log(
    `read ${folder} once, as a running server has it in memory: ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] ?? Number.NaN;
}

/** A warm-up run that is thrown away, then the measured run. Latency of 2xx answers only. */
export async function measureLoad(options: {
  url: string;
  headers?: Record<string, string>;
  method?: "GET" | "POST";
  body?: string;
  /** A fresh body for every request (unique event ids, for example). */
  makeBody?: () => string | Buffer;
  /** Fresh headers for every request (another signed-in person's cookie, for example). */
  makeHeaders?: () => Record<string, string>;
  /**
   * Requests per second, started at an even pace (see measurePacedLoad); as fast as the server
   * answers over `connections` when absent.
   */
  overallRate?: number;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** The server's process group, for CPU accounting. */
  serverPgid?: number;
}): Promise<LoadResult> {
  if (options.overallRate) return measurePacedLoad({ ...options, overallRate: options.overallRate });
  const { makeBody, makeHeaders } = options;
  // autocannon treats a key set to undefined as a value, so only the given options are passed.
  const base: Omit<AutocannonOptions, "duration"> = {
    url: options.url,
    connections: options.connections,
    ...(options.headers && { headers: options.headers }),
    method: options.method ?? "GET",
    ...(options.body !== undefined && { body: options.body }),
    ...((makeBody || makeHeaders) && {
      requests: [
        {
          setupRequest: (request) => ({
            ...request,
            ...(makeBody && { body: makeBody() }),
            ...(makeHeaders && {
              headers: { ...(request.headers as Record<string, string>), ...makeHeaders() },
            }),
          }),
        },
      ],
    }),
  };
  if (options.warmupSeconds > 0) await autocannon({ ...base, duration: options.warmupSeconds });

  let samples = new Float64Array(1 << 16);
  let count = 0;
  const cpu = cpuMeter(options.serverPgid);
  const run = autocannon({ ...base, duration: options.durationSeconds });
  run.on("response", (_client, statusCode, _bytes, responseTimeMs) => {
    if (statusCode < 200 || statusCode >= 300) return;
    if (count === samples.length) {
      const grown = new Float64Array(samples.length * 2);
      grown.set(samples);
      samples = grown;
    }
    samples[count++] = responseTimeMs;
  });
  const result = await run;
  const cpuShare = cpu();
  const sorted = samples.subarray(0, count).sort();
  return {
    requestsPerSecond: result.requests.average,
    completed: result["2xx"],
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: count ? (sorted[count - 1] ?? Number.NaN) : Number.NaN,
    failures: result.errors + result.timeouts + result.non2xx,
    cpu: cpuShare,
  };
}

/**
 * Requests started at an even pace, one every 1/rate seconds whether or not earlier ones were
 * answered (at most `connections` × 8 in flight), as people arrive: autocannon's own rate sends each
 * second's quota at once and then waits, which measures a burst's queue instead. The latency of a
 * request counts from when it was due, so a server falling behind shows in it.
 */
async function measurePacedLoad(options: Parameters<typeof measureLoad>[0] & { overallRate: number }) {
  const { overallRate: rate, makeBody, makeHeaders } = options;
  const maxInFlight = options.connections * 8;
  const url = new URL(options.url);
  // node:http rather than fetch: the agents it stands for run on other machines, so it should take
  // as little as it can of the CPU it shares with the server.
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const send = () =>
    new Promise<number>((resolve, reject) => {
      const body = makeBody ? makeBody() : options.body;
      const request = http.request(
        url,
        {
          agent,
          method: options.method ?? "GET",
          headers: {
            ...options.headers,
            ...makeHeaders?.(),
            ...(body !== undefined && { "content-length": Buffer.byteLength(body) }),
          },
        },
        (response) => {
          response.on("data", () => {});
          response.on("end", () => resolve(response.statusCode ?? 0));
          response.on("error", reject);
        },
      );
      request.on("error", reject);
      request.end(body);
    });
  async function run(seconds: number, record: boolean) {
    const samples: number[] = [];
    let failures = 0;
    let inFlight = 0;
    const pending: Promise<void>[] = [];
    const started = performance.now();
    const total = Math.round(seconds * rate);
    for (let index = 0; index < total; index++) {
      const due = started + (index * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (inFlight >= maxInFlight) {
        failures += 1;
        continue;
      }
      inFlight += 1;
      pending.push(
        send().then(
          (status) => {
            inFlight -= 1;
            if (status >= 200 && status < 300) samples.push(performance.now() - due);
            else failures += 1;
          },
          () => {
            inFlight -= 1;
            failures += 1;
          },
        ),
      );
    }
    await Promise.all(pending);
    const elapsed = (performance.now() - started) / 1000;
    return record ? { samples, failures, elapsed } : null;
  }
  if (options.warmupSeconds > 0) await run(options.warmupSeconds, false);
  const cpu = cpuMeter(options.serverPgid);
  const measured = (await run(options.durationSeconds, true)) as NonNullable<Awaited<ReturnType<typeof run>>>;
  const cpuShare = cpu();
  agent.destroy();
  const sorted = Float64Array.from(measured.samples).sort();
  return {
    requestsPerSecond: sorted.length / measured.elapsed,
    completed: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.length ? (sorted[sorted.length - 1] ?? Number.NaN) : Number.NaN,
    failures: measured.failures,
    cpu: cpuShare,
  };
}

// ---------------------------------------------------------------------------------------------
// A benchmark on both databases: the suite runs on PGlite in this process, then again on a
// throwaway PostgreSQL by running the same script under scripts/with-postgres.sh as a child
// (`--postgres-child`), which hands its result back in a JSON file.

export type BenchDatabase = "pglite" | "postgres";

export function runOnBothDatabases<Result>(options: {
  /** The script's name: scripts/NAME.ts, its work folder .tmp/NAME. */
  name: string;
  args: { only?: string; "postgres-child"?: boolean; "result-file"?: string };
  /** Flags the PostgreSQL child is run with, so it measures the same thing. */
  childArgs: string[];
  runSuite: (db: BenchDatabase, env: NodeJS.ProcessEnv, dataDir: string | null) => Promise<Result>;
  report: (results: Result[]) => void;
}): void {
  const { name, args, runSuite } = options;
  const log = (message: string) => process.stderr.write(`[${name}] ${message}\n`);

  async function main() {
    if (args["postgres-child"]) {
      const result = await runSuite("postgres", { ...process.env }, null);
      writeFileSync(args["result-file"] as string, JSON.stringify(result));
      return;
    }
    const results: Result[] = [];
    const workDir = path.join(projectRoot, ".tmp", name);
    mkdirSync(workDir, { recursive: true });
    if (args.only !== "postgres") {
      const dataDir = path.join(workDir, "pglite");
      results.push(
        await runSuite("pglite", { ...process.env, DATABASE_URL: "", DATA_DIR: dataDir }, dataDir),
      );
    }
    if (args.only !== "pglite") {
      log("postgres: through scripts/with-postgres.sh");
      const resultFile = path.join(workDir, "postgres-result.json");
      rmSync(resultFile, { force: true });
      const child = startChild(
        "bash",
        [
          "scripts/with-postgres.sh",
          process.execPath,
          "--import",
          "tsx",
          `scripts/${name}.ts`,
          "--postgres-child",
          `--result-file=${resultFile}`,
          ...options.childArgs,
        ],
        { cwd: projectRoot, env: { ...process.env, DATABASE_URL: "" }, inheritOutput: true },
      );
      const code = await child.exited;
      if (code === 3) log("PostgreSQL was skipped: no PostgreSQL 15 binaries");
      else if (existsSync(resultFile)) results.push(JSON.parse(readFileSync(resultFile, "utf8")) as Result);
      else throw new Error(`the PostgreSQL run failed (exit ${code})`);
    }
    options.report(results);
  }

  main().catch(async (error) => {
    process.stderr.write(
      `${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    await killAllChildren();
    process.exit(1);
  });
}

/** One load measured against its target. */
export interface Measurement {
  name: string;
  target: string;
  result: LoadResult;
  passed: boolean;
}

/** A load's figures judged against a p95 target. */
export function p95Measurement(name: string, result: LoadResult, targetMs: number): Measurement {
  return {
    name,
    target: `p95 < ${targetMs} ms`,
    result,
    passed: result.failures === 0 && result.p95 < targetMs,
  };
}

/**
 * A report: its title and dataset line, then a table of each database's measurements (and any
 * rows of other figures a benchmark adds, in the same columns).
 */
export function printReport(
  title: string,
  dataset: string,
  suites: { db: string; measurements: Measurement[]; otherRows?: string[] }[],
): void {
  const lines = [
    "",
    `## ${title} (${new Date().toISOString()})`,
    "",
    dataset,
    "",
    "| Database | Measure | req/s | p50 ms | p95 ms | p99 ms | failed | target | |",
    "|---|---|---:|---:|---:|---:|---:|---|---|",
  ];
  for (const suite of suites) {
    for (const { name, target, result: r, passed } of suite.measurements) {
      const cells = [figure(r.requestsPerSecond, 0), figure(r.p50), figure(r.p95), figure(r.p99)];
      lines.push(
        `| ${suite.db} | ${name} | ${cells.join(" | ")} | ${r.failures} | ${target} | ${passed ? "PASS" : "FAIL"} |`,
      );
    }
    lines.push(...(suite.otherRows ?? []));
  }
  console.log(lines.join("\n"));
}

/** The server starts its job runner this long after it listens (serve.ts). */
const JOBS_START_DELAY_MS = 30_000;

/**
 * Waits until the jobs a new server runs at once (the nightly runs it finds not yet done today, on a
 * freshly generated database) have finished, so a measurement sees a school day's server, not its
 * first night's catch-up. Asks the administrators' job list until nothing is queued or running.
 */
export async function waitForStartupJobs(
  server: RunningServer,
  adminCookie: string,
  log: (message: string) => void,
): Promise<void> {
  await sleep(Math.max(0, server.readyAt + JOBS_START_DELAY_MS + 3_000 - performance.now()));
  log("waiting for the jobs a new server runs at once…");
  const deadline = performance.now() + 15 * 60_000;
  let quietPolls = 0;
  while (performance.now() < deadline && quietPolls < 2) {
    const response = await fetch(`${server.baseUrl}/api/admin/jobs`, { headers: { cookie: adminCookie } });
    const { data } = (await response.json()) as { data: { queued: number; running: number }[] };
    quietPolls = data.every((job) => job.queued === 0 && job.running === 0) ? quietPolls + 1 : 0;
    await sleep(1_000);
  }
}
