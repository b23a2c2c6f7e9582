import { existsSync } from "node:fs";
import path from "node:path";
import { serve } from "@hono/node-server";
import { createApp } from "./app";
import type { DatabaseHandle } from "./db/client";
import { authSettingsFromEnv, createAuthService } from "./domains/auth/service";
import { runDailyRetention } from "./domains/privacy/retention";
import type { Env } from "./env";
import type { Logger } from "./lib/logger";
import { sweepRateLimitWindows } from "./lib/rate-limit";
import { createSecretBox } from "./lib/secret-box";
import type { StepTimer } from "./lib/step-timer";
import { createLocalBus, createPostgresBus } from "./platform/events/bus";
import { createLiveHub } from "./platform/live/hub";
import { isDatabaseEmpty, seedDemoSchool } from "./seed/demo-school";
import { refuseDemoAccountsInProduction, resolveSecretKey } from "./startup-checks";

const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** Requests in flight get this long to finish at shutdown before their connections are closed. */
const SHUTDOWN_GRACE_MS = 5_000;

/** Migrations and, on an empty database, the demo seed; then the production checks. Once per start. */
export async function readyDatabase(database: DatabaseHandle, env: Env, logger: Logger, timer: StepTimer) {
  await database.migrate();
  timer.step("migrate");
  if (env.SEED_DEMO && (await isDatabaseEmpty(database.db))) {
    logger.info("seeding the demo school");
    await seedDemoSchool(database.db);
  }
  await refuseDemoAccountsInProduction(database.db, env);
  timer.step("seedCheck");
}

/**
 * One server process on an open (and readied) database: the bus, the app and the port. Resolves
 * once listening, with the shutdown to run on SIGTERM or SIGINT.
 */
export async function serveRequests(options: {
  env: Env;
  logger: Logger;
  timer: StepTimer;
  database: DatabaseHandle;
  /** The built web app's folder, when there is one to serve. */
  webRoot: string | undefined;
}): Promise<{ shutdown: (signal: string) => void }> {
  const { env, logger, timer, database } = options;
  const secretBox = createSecretBox(resolveSecretKey(env, logger));
  const bus = env.DATABASE_URL
    ? await createPostgresBus({ db: database.db, connectionString: env.DATABASE_URL, logger })
    : createLocalBus(logger);
  const auth = createAuthService(database.db, authSettingsFromEnv(env), bus);
  const live = createLiveHub({ bus, auth, logger });
  const webRoot =
    options.webRoot && existsSync(path.join(options.webRoot, "index.html")) ? options.webRoot : undefined;
  const app = createApp({
    db: database.db,
    dbKind: database.kind,
    env,
    logger,
    auth,
    bus,
    live,
    secretBox,
    webRoot,
  });
  timer.step("createApp");

  const sweep = setInterval(async () => {
    await auth.sweepExpired().catch((error) => logger.warn("session sweep failed", { error: String(error) }));
    await sweepRateLimitWindows(database.db, new Date()).catch((error) =>
      logger.warn("rate limit sweep failed", { error: String(error) }),
    );
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

  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const listening = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
      timer.step("listen");
      logger.info("listening", {
        url: `http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${info.port}`,
        db: database.kind,
        pid: process.pid,
        startupMs: timer.total(),
        steps: timer.steps,
      });
      resolve(listening);
    });
  });

  let isShuttingDown = false;
  const shutdown = (signal: string) => {
    if (isShuttingDown) return;
    isShuttingDown = true;
    logger.info("shutting down", { signal });
    clearInterval(sweep);
    // Live streams never end by themselves: closed now, their browsers reconnect (to another process).
    live.closeAll();
    // Stop taking requests, let the ones in flight finish, then close the database cleanly.
    server.close(async () => {
      await bus.close();
      await database.close();
      logger.info("stopped");
      process.exit(0);
    });
    setTimeout(() => {
      if ("closeAllConnections" in server) server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS).unref();
  };
  return { shutdown };
}
