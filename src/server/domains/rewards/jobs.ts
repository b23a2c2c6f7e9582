import { addDays } from "../../../shared/time-zone";
import type { Database } from "../../db/client";
import { message } from "../../lib/i18n";
import type { Logger } from "../../lib/logger";
import type { JobRunner } from "../../platform/jobs/runner";
import { applyEarningRules } from "./earning";
import { expireStaleRequests } from "./redemptions";

/** The job that pays earnings as activity arrives; its payload names the students credited XP. */
export const EARN_JOB = "rewards.earn";

/** Nights the nightly run looks back over, so a night the server was down is made up. */
const CATCH_UP_DAYS = 14;

const utcDate = (instant: Date) => instant.toISOString().slice(0, 10);

export function defineRewardJobs(runner: JobRunner, db: Database, now: () => Date, logger: Logger): void {
  runner.define(EARN_JOB, {
    description: message("rewards:jobs.earn"),
    handler: async ({ payload }) => {
      const studentIds = (payload as { studentIds?: unknown }).studentIds;
      if (!Array.isArray(studentIds) || studentIds.length === 0) return;
      const today = utcDate(now());
      // A day either side of today's UTC date covers every student's own today.
      const paid = await applyEarningRules(
        db,
        { from: addDays(today, -7), to: addDays(today, 1), studentIds: studentIds.map(String) },
        now(),
      );
      if (paid > 0) logger.info("alphas earned", { students: studentIds.length, paid });
    },
  });

  runner.define("rewards.nightly", {
    description: message("rewards:jobs.nightly", { days: CATCH_UP_DAYS }),
    timeoutMs: 60 * 60_000,
    handler: async () => {
      const yesterday = addDays(utcDate(now()), -1);
      const paid = await applyEarningRules(
        db,
        { from: addDays(yesterday, 1 - CATCH_UP_DAYS), to: yesterday },
        now(),
      );
      const expired = await expireStaleRequests(db, now());
      logger.info("alphas nightly run", { paid, expired });
    },
  });
  runner.schedule("rewards.nightly", { dailyAt: "01:30", timeZone: "UTC" });
}
