import cluster, { type Worker } from "node:cluster";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureWebBuild } from "./build-web";
import { configuredDatabase, openDatabase } from "./db/client";
import { type Env, readEnv } from "./env";
import { keepServingOnUncaughtErrors } from "./lib/last-resort";
import { createLogger, type Logger } from "./lib/logger";
import { createStepTimer, type StepTimer } from "./lib/step-timer";

// The database starts opening before the server's own modules (serve.ts) are readied: PGlite's
// start, the longest step, runs on a thread of its own meanwhile.

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const distDir = path.join(projectRoot, "dist");
const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
type StopSignal = keyof typeof SIGNAL_EXIT_CODES;
const STOP_SIGNALS = Object.keys(SIGNAL_EXIT_CODES) as StopSignal[];
/** `--api-only` (used by `npm run dev`, where Vite serves the pages) serves no web app. */
const isApiOnly = process.argv.includes("--api-only");
/** A server process that ended is replaced after this long, so one that fails at once cannot spin. */
const REPLACE_WORKER_AFTER_MS = 1_000;
/** How long the server processes get to finish their requests and stop before they are killed. */
const STOP_WORKERS_WITHIN_MS = 10_000;

/** Until the server listens, a signal ends the start-up at once (the exit releases the lock). */
function stopDuringStartup(signal: StopSignal) {
  process.stderr.write(`Dash stopped during start-up (${signal})\n`);
  process.exit(SIGNAL_EXIT_CODES[signal]);
}

function onStopSignals(handler: (signal: StopSignal) => void) {
  for (const signal of STOP_SIGNALS) {
    process.off(signal, stopDuringStartup);
    process.on(signal, handler);
  }
}

async function main() {
  for (const signal of STOP_SIGNALS) process.on(signal, stopDuringStartup);
  const env = readEnv();
  const logger = createLogger(env.LOG_LEVEL);
  keepServingOnUncaughtErrors(logger);
  const timer = createStepTimer();
  // Forked server processes find the web app built and the database readied by the primary.
  if (cluster.isWorker) return startServer(env, logger, timer, { readiesDatabase: false });
  if (!isApiOnly) await ensureWebBuild(projectRoot, distDir, logger);
  timer.step("webBuildCheck");
  if (env.WORKERS > 1) {
    const [database, { readyDatabase }, { resolveSecretKey }] = await Promise.all([
      openConfiguredDatabase(env, logger),
      import("./serve"),
      import("./startup-checks"),
    ]);
    timer.step("loadAndOpen");
    // Here, not in each server process: a missing key in production stops the start once.
    resolveSecretKey(env, logger);
    await readyDatabase(database, env, logger, timer);
    await database.close();
    return superviseWorkers(env, logger);
  }
  return startServer(env, logger, timer, { readiesDatabase: true });
}

function openConfiguredDatabase(env: Env, logger: Logger) {
  // Another process now writes to the embedded database: stop at once, without closing it.
  return openDatabase(configuredDatabase(env, logger, () => process.exit(1)));
}

async function startServer(
  env: Env,
  logger: Logger,
  timer: StepTimer,
  options: { readiesDatabase: boolean },
) {
  const [database, { readyDatabase, serveRequests }] = await Promise.all([
    openConfiguredDatabase(env, logger),
    import("./serve"),
  ]);
  timer.step("loadAndOpen");
  if (options.readiesDatabase) await readyDatabase(database, env, logger, timer);
  const { shutdown } = await serveRequests({
    env,
    logger,
    timer,
    database,
    webRoot: isApiOnly ? undefined : distDir,
  });
  onStopSignals(shutdown);
}

/**
 * The primary of `WORKERS` server processes sharing the port (node:cluster): forks them, replaces
 * one that ends, and on SIGTERM or SIGINT stops them all, each finishing its requests first. When
 * a process ends before any has ever served (a port in use, a database it cannot reach), the next
 * would end the same way: the primary stops instead, after that process's error.
 */
async function superviseWorkers(env: Env, logger: Logger) {
  let isShuttingDown = false;
  let hasServed = false;
  const replacements = new Set<NodeJS.Timeout>();
  cluster.on("listening", () => {
    hasServed = true;
  });
  cluster.on("exit", (worker: Worker, code, signal) => {
    if (isShuttingDown) return;
    if (!hasServed) {
      isShuttingDown = true;
      logger.error("no server process could start; stopping", { pid: worker.process.pid, code, signal });
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill("SIGKILL");
      process.exit(1);
    }
    logger.warn("server process ended; starting another", { pid: worker.process.pid, code, signal });
    const timer = setTimeout(() => {
      replacements.delete(timer);
      if (!isShuttingDown) cluster.fork();
    }, REPLACE_WORKER_AFTER_MS);
    replacements.add(timer);
  });
  // A scrape of /metrics reaches one process, which asks this one to add up every process's figures.
  const { answerClusterMetricsRequests } = await import("./platform/metrics/cluster");
  answerClusterMetricsRequests();
  for (let index = 0; index < env.WORKERS; index++) cluster.fork();
  logger.info("started server processes", { workers: env.WORKERS });

  onStopSignals((signal) => {
    if (isShuttingDown) return;
    isShuttingDown = true;
    for (const timer of replacements) clearTimeout(timer);
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => !!worker);
    logger.info("shutting down", { signal, workers: workers.length });
    let running = workers.length;
    const stopped = () => {
      logger.info("stopped");
      process.exit(0);
    };
    if (running === 0) stopped();
    for (const worker of workers) {
      worker.once("exit", () => {
        running--;
        if (running === 0) stopped();
      });
      // A terminal's Ctrl+C reaches them as well; a second signal changes nothing.
      worker.process.kill("SIGTERM");
    }
    setTimeout(() => {
      for (const worker of workers) if (!worker.isDead()) worker.process.kill("SIGKILL");
    }, STOP_WORKERS_WITHIN_MS).unref();
  });
}

main().catch((error) => {
  process.stderr.write(`Dash could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
