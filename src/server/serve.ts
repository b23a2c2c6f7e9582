import { existsSync } from "node:fs";
import path from "node:path";
import { serve } from "@hono/node-server";
import { createApp } from "./app";
import type { DatabaseHandle } from "./db/client";
import { createAppKeys } from "./domains/activity/apps";
import { authSettingsFromEnv, createAuthService } from "./domains/auth/service";
import type { Env } from "./env";
import type { Logger } from "./lib/logger";
import { createSecretBox } from "./lib/secret-box";
import type { StepTimer } from "./lib/step-timer";
import { type ControlChannel, serveControlChannel } from "./platform/backup/control";
import { createLocalBus, createPostgresBus } from "./platform/events/bus";
import { createLiveHub } from "./platform/live/hub";
import { registerGauge } from "./platform/metrics/metrics";
import { fileStorageFromEnv } from "./platform/storage";
import { isDatabaseEmpty, seedDemoSchool } from "./seed/demo-school";
import { createServerJobRunner } from "./server-jobs";
import { refuseDemoAccountsInProduction, resolveSecretKey } from "./startup-checks";

/** Maintenance of the embedded database can hold it for seconds: not while the server starts. */
const JOBS_START_DELAY_MS = 30_000;
/** Requests in flight get this long to finish at shutdown before their connections are closed. */
const SHUTDOWN_GRACE_MS = 5_000;

/** Migrations and, on an empty database, the demo seed; then the production checks. Once per start. */
export async function readyDatabase(database: DatabaseHandle, env: Env, logger: Logger, timer: StepTimer) {
  await database.migrate();
  timer.step("migrate");
  if (env.SEED_DEMO && (await isDatabaseEmpty(database.db))) {
    logger.info("seeding the demo school");
    // The demo's focus incidents come with drawn screenshots, stored where the server keeps files;
    // its students' app logins are sealed with the server's key.
    await seedDemoSchool(
      database.db,
      new Date(),
      fileStorageFromEnv(env),
      createSecretBox(resolveSecretKey(env, logger)),
    );
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
  // LISTEN needs a whole connection: the server itself, never a pooler in transaction mode.
  const busUrl = env.DATABASE_DIRECT_URL ?? env.DATABASE_URL;
  const bus = busUrl
    ? await createPostgresBus({ db: database.db, connectionString: busUrl, logger })
    : createLocalBus(logger);
  const auth = createAuthService(database.db, authSettingsFromEnv(env), bus);
  const live = createLiveHub({ bus, auth, logger });
  // `npm run backup` beside this server asks it for the backup: the server holds the database.
  // Without the channel (a path too long for a socket, a read-only folder) the server still serves.
  const control: ControlChannel | null =
    database.kind === "pglite"
      ? await serveControlChannel(database, env.DATA_DIR, logger).catch((error) => {
          logger.warn("backups beside this server are unavailable", { error: String(error) });
          return null;
        })
      : null;
  const storage = fileStorageFromEnv(env);
  const jobs = createServerJobRunner({
    database,
    env,
    auth,
    live,
    storage,
    secretBox,
    logger,
    nightlyBackup: { dataDir: env.DATA_DIR, hour: env.BACKUP_HOUR, keep: env.BACKUP_KEEP },
  });
  for (const state of ["queued", "running", "failed"] as const) {
    registerGauge(`dash_jobs_${state}`, `Background jobs ${state}`, async () => (await jobs.depth())[state]);
  }
  const webRoot =
    options.webRoot && existsSync(path.join(options.webRoot, "index.html")) ? options.webRoot : undefined;
  const app = createApp({
    db: database.db,
    readDb: database.readDb,
    dbKind: database.kind,
    env,
    logger,
    auth,
    bus,
    live,
    secretBox,
    storage,
    appKeys: createAppKeys(database.db, bus),
    jobs,
    webRoot,
  });
  timer.step("createApp");
  jobs.start(JOBS_START_DELAY_MS);

  // A port it cannot take (in use, not allowed) ends the start with that error: the process must
  // not stay up without serving.
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const listening = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
      listening.off("error", reject);
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
    listening.once("error", reject);
  });

  let isShuttingDown = false;
  const shutdown = (signal: string) => {
    if (isShuttingDown) return;
    isShuttingDown = true;
    logger.info("shutting down", { signal });
    // Live streams never end by themselves: closed now, their browsers reconnect (to another process).
    live.closeAll();
    // Stop taking requests and jobs, let the ones in flight finish (a job still running after the
    // grace period is released for another process), then close the database cleanly.
    const jobsStopped = jobs.stop();
    server.close(async () => {
      await jobsStopped;
      await control?.close();
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
