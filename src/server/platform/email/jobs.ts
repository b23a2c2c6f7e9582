import { message } from "../../lib/i18n";
import type { DomainJobDeps } from "../../server-jobs";
import type { JobRunner } from "../jobs/runner";
import { createEmailSender } from "./sender";

export const EMAIL_SEND_JOB = "email.send";
/** How often queued mail is looked for: a notification's mail leaves within this. */
const SEND_EVERY_MS = 15_000;

export function defineEmailJobs(runner: JobRunner, deps: DomainJobDeps): void {
  const sender = createEmailSender(deps);
  runner.define(EMAIL_SEND_JOB, {
    description: message("notifications:jobs.emailSend", { seconds: SEND_EVERY_MS / 1000 }),
    timeoutMs: 5 * 60_000,
    // A mail's own retries are counted on the mail; the run itself is simply tried at the next period.
    maxAttempts: 1,
    handler: async ({ signal }) => {
      const run = await sender.sendDue(signal);
      if (run.sent + run.retrying + run.failed + run.kept > 0) deps.logger.info("email sent", { ...run });
    },
  });
  runner.schedule(EMAIL_SEND_JOB, { everyMs: SEND_EVERY_MS });
}
