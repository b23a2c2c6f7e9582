import type { Database, DatabaseHandle } from "./db/client";
import { defineAnalyticsJobs } from "./domains/analytics/jobs";
import type { AuthService } from "./domains/auth/service";
import { defineFamilyJobs } from "./domains/families/jobs";
import { defineIntegrityJobs } from "./domains/integrity/jobs";
import { defineLeaderboardJobs } from "./domains/leaderboards/jobs";
import { defineMessagingJobs } from "./domains/messaging/jobs";
import { runDailyRetention } from "./domains/privacy/retention";
import { defineReportJobs } from "./domains/reports/jobs";
import { defineRewardJobs } from "./domains/rewards/jobs";
import { defineSurveyJobs } from "./domains/surveys/jobs";
import { defineWebhookJobs } from "./domains/webhooks/jobs";
import type { Env } from "./env";
import { message } from "./lib/i18n";
import type { Logger } from "./lib/logger";
import { sweepRateLimitWindows } from "./lib/rate-limit";
import type { SecretBox } from "./lib/secret-box";
import { type NightlyBackupSettings, runNightlyBackup } from "./platform/backup/nightly";
import { defineEmailJobs } from "./platform/email/jobs";
import { createJobRunner, type JobRunner, pruneSucceededJobs } from "./platform/jobs/runner";
import type { LiveHub } from "./platform/live/hub";
import type { FileStorage } from "./platform/storage";

const HOUR_MS = 60 * 60 * 1000;

/** What the jobs of a domain may use. */
export interface DomainJobDeps {
  db: Database;
  env: Env;
  live: LiveHub;
  storage: FileStorage;
  logger: Logger;
  now: () => Date;
  /** Signs what a mail's links carry (the unsubscribe token), under DASH_SECRET_KEY. */
  secretBox: SecretBox;
}
/** The hour (UTC) of the night's maintenance when no backup hour is set. */
const DEFAULT_QUIET_HOUR = 2;
const DAY_MS = 24 * HOUR_MS;
/** Succeeded runs stay this long on the Operations page; failed ones stay until removed by hand. */
const SUCCEEDED_JOBS_KEPT_DAYS = 14;

interface ServerJobDeps {
  database: DatabaseHandle;
  env: Env;
  auth: AuthService;
  /** For jobs that tell people (notifications, messages) on their open pages. */
  live: LiveHub;
  /** Where evidence and pictures are kept, for the jobs that delete them. */
  storage: FileStorage;
  secretBox: SecretBox;
  /** Where and when the embedded database's nightly backup is written; none without. */
  nightlyBackup?: NightlyBackupSettings;
  logger: Logger;
  now?: () => Date;
}

/** The server's job runner with the jobs of the platform and the domains defined and scheduled. */
export function createServerJobRunner({
  database,
  env,
  auth,
  live,
  storage,
  secretBox,
  logger,
  nightlyBackup,
  now = () => new Date(),
}: ServerJobDeps): JobRunner {
  const { db } = database;
  const runner = createJobRunner({ db, logger, now });

  runner.define("sessions.sweep", {
    description: message("common:jobDescriptions.sessionsSweep"),
    handler: async () => {
      await auth.sweepExpired();
      await sweepRateLimitWindows(db, now());
    },
  });
  runner.schedule("sessions.sweep", { everyMs: HOUR_MS });

  runner.define("privacy.retention", {
    description: message("common:jobDescriptions.privacyRetention"),
    timeoutMs: HOUR_MS,
    maxAttempts: 3,
    handler: async () => {
      // The run keeps its own once-a-day claim, which the privacy page reports.
      if ((await runDailyRetention(db, now, logger)) === null) logger.info("retention already ran today");
    },
  });
  runner.schedule("privacy.retention", { dailyAt: "02:00", timeZone: "UTC" });

  runner.define("jobs.prune", {
    description: message("common:jobDescriptions.jobsPrune", { days: SUCCEEDED_JOBS_KEPT_DAYS }),
    handler: async () => {
      const removed = await pruneSucceededJobs(
        db,
        new Date(now().getTime() - SUCCEEDED_JOBS_KEPT_DAYS * DAY_MS),
      );
      logger.info("finished jobs pruned", { removed });
    },
  });
  runner.schedule("jobs.prune", { dailyAt: "03:00", timeZone: "UTC" });

  defineRewardJobs(runner, db, now, logger);
  defineLeaderboardJobs(runner, db, now, logger);
  defineIntegrityJobs(runner, db, storage, now, logger);
  const domainDeps: DomainJobDeps = { db, env, live, storage, logger, now, secretBox };
  defineEmailJobs(runner, domainDeps);
  defineFamilyJobs(runner, domainDeps);
  defineSurveyJobs(runner, domainDeps);
  defineMessagingJobs(runner, domainDeps);
  defineWebhookJobs(runner, domainDeps);
  defineAnalyticsJobs(runner, domainDeps);
  defineReportJobs(runner, domainDeps);

  // The quiet hour of the night: the embedded database's maintenance and backup run then.
  const quietHour = String(nightlyBackup?.hour ?? DEFAULT_QUIET_HOUR).padStart(2, "0");

  // PostgreSQL's autovacuum does this by itself; PGlite runs no background workers. A vacuum holds
  // the embedded database's only connection for seconds, so it runs at night, never in a morning.
  if (database.kind === "pglite") {
    runner.define("database.maintain", {
      description: message("common:jobDescriptions.databaseMaintain"),
      timeoutMs: 15 * 60_000,
      handler: async () => {
        const started = performance.now();
        if (await database.maintain())
          logger.info("database maintained", { ms: Math.round(performance.now() - started) });
      },
    });
    runner.schedule("database.maintain", { dailyAt: `${quietHour}:00`, timeZone: "UTC" });
  }

  // A PostgreSQL database is backed up with its own tools (pg_dump, base backups).
  if (database.kind === "pglite" && nightlyBackup && nightlyBackup.keep > 0) {
    runner.define("backups.nightly", {
      description: message("common:jobDescriptions.backupsNightly", { keep: nightlyBackup.keep }),
      timeoutMs: HOUR_MS,
      maxAttempts: 3,
      handler: async () => {
        await runNightlyBackup(database, now(), nightlyBackup, logger);
      },
    });
    runner.schedule("backups.nightly", { dailyAt: `${quietHour}:30`, timeZone: "UTC" });
  }
  return runner;
}
