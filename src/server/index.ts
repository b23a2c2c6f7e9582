import path from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { createApp } from "./app";
import { ensureWebBuild } from "./build-web";
import { configuredDatabase, openDatabase } from "./db/client";
import { authSettingsFromEnv, createAuthService } from "./domains/auth/service";
import { runDailyRetention } from "./domains/privacy/retention";
import { readEnv } from "./env";
import { keepServingOnUncaughtErrors } from "./lib/last-resort";
import { createLogger } from "./lib/logger";
import { createSecretBox } from "./lib/secret-box";
import { isDatabaseEmpty, seedDemoSchool } from "./seed/demo-school";
import { refuseDemoAccountsInProduction, resolveSecretKey } from "./startup-checks";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
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

  const auth = createAuthService(database.db, authSettingsFromEnv(env));
  const app = createApp({
    db: database.db,
    dbKind: database.kind,
    env,
    logger,
    auth,
    secretBox,
    webRoot,
  });
  const sweep = setInterval(async () => {
    await auth.sweepExpired().catch((error) => logger.warn("session sweep failed", { error: String(error) }));
    // Runs once a day whichever process gets there first; the other sweeps find it taken.
    await runDailyRetention(database.db, () => new Date(), logger).catch((error) =>
      logger.warn("retention run failed", { error: String(error) }),
    );
    const maintenanceStarted = performance.now();
    try {
      if (await database.maintain())
        logger.info("database maintained", { ms: Math.round(performance.now() - maintenanceStarted) });
    } catch (error) {
      logger.warn("database maintenance failed", { error: String(error) });
    }
  }, SWEEP_INTERVAL_MS);
  sweep.unref();

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
    clearInterval(sweep);
    // Stop taking requests, let the ones in flight finish, then close the database cleanly.
    server.close(async () => {
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
