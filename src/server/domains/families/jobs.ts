import { message } from "../../lib/i18n";
import type { JobRunner } from "../../platform/jobs/runner";
import type { DomainJobDeps } from "../../server-jobs";
import { deliverWeeklyPulses, PULSE_SCHEDULE } from "./pulse-delivery";

/** The job that builds and sends the weekly pulse. */
export const PULSE_JOB = "families.pulse";

export function defineFamilyJobs(runner: JobRunner, { db, live, logger, now }: DomainJobDeps): void {
  runner.define(PULSE_JOB, {
    description: message("families:pulse.job"),
    timeoutMs: 30 * 60_000,
    handler: async () => {
      const delivery = await deliverWeeklyPulses({ db, live }, now());
      logger.info("weekly pulse delivered", { ...delivery });
    },
  });
  runner.schedule(PULSE_JOB, PULSE_SCHEDULE);
}
