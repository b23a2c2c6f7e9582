import path from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { createApp } from "./app";
import { ensureWebBuild } from "./build-web";
import { configuredDatabase, openDatabase } from "./db/client";
import { authSettingsFromEnv, createAuthService } from "./domains/auth/service";
import { readEnv } from "./env";
import { keepServingOnUncaughtErrors } from "./lib/last-resort";
import { createLogger } from "./lib/logger";
import { createSecretBox } from "./lib/secret-box";
import { type ControlChannel, serveControlChannel } from "./platform/backup/control";
import { registerGauge } from "./platform/metrics/metrics";
import { fileStorageFromEnv } from "./platform/storage";
import { isDatabaseEmpty, seedDemoSchool } from "./seed/demo-school";
import { createServerJobRunner } from "./server-jobs";
import { refuseDemoAccountsInProduction, resolveSecretKey } from "./startup-checks";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const JOBS_START_DELAY_MS = 30_000;
const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
type StopSignal = keyof typeof SIGNAL_EXIT_CODES;

/** Until the server listens, a signal ends the start-up at once (the exit releases the lock). */
function stopDuringStartup(signal: StopSignal) {
  process.stderr.write(`Dash stopped during start-up (${signal})\n`);
  process.exit(SIGNAL_EXIT_CODES[signal]);
}

async function main() {
  for (const signal of Object.keys(SIGNAL_EXIT_CODES) as StopSignal[]) process.on(signal, stopDuringStartup);
  const env = readEnv();
  const logger = createLogger(env.LOG_LEVEL);
  keepServingOnUncaughtErrors(logger);
  const started = performance.now();
  const secretBox = createSecretBox(resolveSecretKey(env, logger));

  // `--api-only` (used by `npm run dev`, where Vite serves the pages) skips the web build.
  const distDir = path.join(projectRoot, "dist");
  const hasWebApp =
    !process.argv.includes("--api-only") && (await ensureWebBuild(projectRoot, distDir, logger));
  const webRoot = hasWebApp ? distDir : undefined;

  // Another process now writes to the embedded database, or its thread crashed or hung: stop at
  // once, without closing it.
  const database = await openDatabase(configuredDatabase(env, logger, () => process.exit(1)));
  await database.migrate();
  if (env.SEED_DEMO && (await isDatabaseEmpty(database.db))) {
    logger.info("seeding the demo school");
    await seedDemoSchool(database.db);
  }
  await refuseDemoAccountsInProduction(database.db, env);
  // `npm run backup` beside this server asks it for the backup: the server holds the database.
  // Without the channel (a path too long for a socket, a read-only folder) the server still serves.
  const control: ControlChannel | null =
    database.kind === "pglite"
      ? await serveControlChannel(database, env.DATA_DIR, logger).catch((error) => {
          logger.warn("backups beside this server are unavailable", { error: String(error) });
          return null;
        })
      : null;

  const auth = createAuthService(database.db, authSettingsFromEnv(env));
  const jobs = createServerJobRunner({
    database,
    auth,
    logger,
    nightlyBackup: { dataDir: env.DATA_DIR, hour: env.BACKUP_HOUR, keep: env.BACKUP_KEEP },
  });
  for (const state of ["queued", "running", "failed"] as const) {
    registerGauge(`dash_jobs_${state}`, `Background jobs ${state}`, async () => (await jobs.depth())[state]);
  }
  const app = createApp({
    db: database.db,
    readDb: database.readDb,
    dbKind: database.kind,
    env,
    logger,
    auth,
    secretBox,
    storage: fileStorageFromEnv(env),
    jobs,
    webRoot,
  });
  // Maintenance of the embedded database can hold it for seconds: not while the server starts.
  jobs.start(JOBS_START_DELAY_MS);

  const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
    logger.info("listening", {
      url: `http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${info.port}`,
      db: database.kind,
      startupMs: Math.round(performance.now() - started),
    });
  });

  let isShuttingDown = false;
  const shutdown = (signal: StopSignal) => {
    if (isShuttingDown) return;
    isShuttingDown = true;
    logger.info("shutting down", { signal });
    // Stop taking requests and jobs, let the ones in flight finish (a job still running after the
    // grace period is released for another process), then close the database cleanly.
    const jobsStopped = jobs.stop();
    server.close(async () => {
      await jobsStopped;
      await control?.close();
      await database.close();
      logger.info("stopped");
      process.exit(0);
    });
    setTimeout(() => {
      if ("closeAllConnections" in server) server.closeAllConnections();
    }, 5000).unref();
  };
  for (const signal of Object.keys(SIGNAL_EXIT_CODES) as StopSignal[]) {
    process.off(signal, stopDuringStartup);
    process.on(signal, shutdown);
  }
}

main().catch((error) => {
  process.stderr.write(`Dash could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
