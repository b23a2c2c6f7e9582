import type { DatabaseHandle } from "./db/client";
import type { AuthService } from "./domains/auth/service";
import { runDailyRetention } from "./domains/privacy/retention";
import type { Logger } from "./lib/logger";
import { createJobRunner, type JobRunner, pruneSucceededJobs } from "./platform/jobs/runner";

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** Succeeded runs stay this long on the Operations page; failed ones stay until removed by hand. */
const SUCCEEDED_JOBS_KEPT_DAYS = 14;

interface ServerJobDeps {
  database: Pick<DatabaseHandle, "db" | "kind" | "maintain">;
  auth: AuthService;
  logger: Logger;
  now?: () => Date;
}

/** The server's job runner with the jobs of the platform and the domains defined and scheduled. */
export function createServerJobRunner({
  database,
  auth,
  logger,
  now = () => new Date(),
}: ServerJobDeps): JobRunner {
  const { db } = database;
  const runner = createJobRunner({ db, logger, now });

  runner.define("sessions.sweep", {
    description: "Removes expired sessions and finished sign-in throttle windows.",
    handler: () => auth.sweepExpired(),
  });
  runner.schedule("sessions.sweep", { everyMs: HOUR_MS });

  runner.define("privacy.retention", {
    description: "Removes each kind of data older than its retention setting (once a UTC day).",
    timeoutMs: HOUR_MS,
    maxAttempts: 3,
    handler: async () => {
      // The run keeps its own once-a-day claim, which the privacy page reports.
      if ((await runDailyRetention(db, now, logger)) === null) logger.info("retention already ran today");
    },
  });
  runner.schedule("privacy.retention", { dailyAt: "02:00", timeZone: "UTC" });

  runner.define("jobs.prune", {
    description: `Removes runs that succeeded more than ${SUCCEEDED_JOBS_KEPT_DAYS} days ago.`,
    handler: async () => {
      const removed = await pruneSucceededJobs(
        db,
        new Date(now().getTime() - SUCCEEDED_JOBS_KEPT_DAYS * DAY_MS),
      );
      logger.info("finished jobs pruned", { removed });
    },
  });
  runner.schedule("jobs.prune", { dailyAt: "03:00", timeZone: "UTC" });

  // PostgreSQL's autovacuum does this by itself; PGlite runs no background workers.
  if (database.kind === "pglite") {
    runner.define("database.maintain", {
      description: "Reclaims the embedded database's space left by updates and refreshes its statistics.",
      timeoutMs: 15 * 60_000,
      handler: async () => {
        const started = performance.now();
        if (await database.maintain())
          logger.info("database maintained", { ms: Math.round(performance.now() - started) });
      },
    });
    runner.schedule("database.maintain", { everyMs: HOUR_MS });
  }
  return runner;
}
