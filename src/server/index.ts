import path from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { createApp } from "./app";
import { ensureWebBuild } from "./build-web";
import { openDatabase } from "./db/client";
import { authSettingsFromEnv, createAuthService } from "./domains/auth/service";
import { readEnv } from "./env";
import { createLogger } from "./lib/logger";
import { isDatabaseEmpty, seedDemoSchool } from "./seed/demo-school";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

async function main() {
  const env = readEnv();
  const logger = createLogger(env.LOG_LEVEL);
  // Last resort: an error no request caught (a client gone mid-body, a stream failing after its
  // answer began) is logged and the server keeps serving everyone else.
  const describe = (error: unknown) =>
    error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.on("uncaughtException", (error) => logger.error("uncaught exception", { error: describe(error) }));
  process.on("unhandledRejection", (reason) =>
    logger.error("unhandled rejection", { error: describe(reason) }),
  );
  const started = performance.now();

  // `--api-only` (used by `npm run dev`, where Vite serves the pages) skips the web build.
  const distDir = path.join(projectRoot, "dist");
  const hasWebApp =
    !process.argv.includes("--api-only") && (await ensureWebBuild(projectRoot, distDir, logger));
  const webRoot = hasWebApp ? distDir : undefined;

  const database = await openDatabase(
    env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
  );
  await database.migrate();
  if (env.SEED_DEMO && (await isDatabaseEmpty(database.db))) {
    logger.info("seeding the demo school");
    await seedDemoSchool(database.db);
  }

  const auth = createAuthService(database.db, authSettingsFromEnv(env));
  const app = createApp({ db: database.db, dbKind: database.kind, env, logger, auth, webRoot });
  const sweep = setInterval(async () => {
    await auth.sweepExpired().catch((error) => logger.warn("session sweep failed", { error: String(error) }));
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
  const shutdown = (signal: string) => {
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
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

main().catch((error) => {
  process.stderr.write(`Dash could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
