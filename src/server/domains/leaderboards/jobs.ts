import { localDateOf, SCHOOL_TIME_ZONE, weekStartOf } from "../../../shared/time-zone";
import type { Database } from "../../db/client";
import { message } from "../../lib/i18n";
import type { Logger } from "../../lib/logger";
import type { JobRunner } from "../../platform/jobs/runner";
import { placeLeagues } from "./leagues";

/**
 * Places the school week's leagues from last week's standings. It runs every night and places a
 * week once, so the first night of a week does the work and a night the server was down is made
 * up the next; two processes running it at once place the week once.
 */
export function defineLeaderboardJobs(
  runner: JobRunner,
  db: Database,
  now: () => Date,
  logger: Logger,
): void {
  runner.define("leaderboards.leagues", {
    description: message("leaderboards:jobs.leagues"),
    handler: async () => {
      const weekStart = weekStartOf(localDateOf(now(), SCHOOL_TIME_ZONE));
      const placed = await placeLeagues(db, weekStart);
      if (placed > 0) logger.info("leagues placed", { weekStart, placed });
    },
  });
  runner.schedule("leaderboards.leagues", { dailyAt: "00:15", timeZone: SCHOOL_TIME_ZONE });
}
