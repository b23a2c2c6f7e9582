import { message } from "../../lib/i18n";
import type { JobRunner } from "../../platform/jobs/runner";
import type { DomainJobDeps } from "../../server-jobs";
import { DELIVERY_TIMEOUT_MS, drainDeliveries, nextDueAt } from "./delivery";
import { onDeliveriesQueued } from "./emit";

export const DELIVER_JOB = "webhooks.deliver";
/**
 * A run delivers for this long, then hands over to a fresh run, so the process's other jobs
 * (which share its one job lane) wait no longer than that.
 */
const DRAIN_BUDGET_MS = 5_000;
/** The safety net: deliveries whose wake-up was lost (a process stopped) wait no longer than this. */
const SWEEP_EVERY_MS = 15_000;

/**
 * The delivery job. Emitting an event wakes it (a run a second later, one per second however many
 * events: by then the change's transaction has committed); a run that delivered looks once more a
 * second later (for deliveries committed while it ran); a retry wakes it when it is due; and a
 * schedule looks every 15 s whatever happened.
 */
export function defineWebhookJobs(runner: JobRunner, deps: DomainJobDeps): void {
  const { db, secretBox, logger, now } = deps;
  const wakeAt = (at: Date) => {
    const second = Math.ceil(at.getTime() / 1000) * 1000;
    return runner.enqueue(DELIVER_JOB, {}, { key: `wake:${second}`, runAt: new Date(second) });
  };
  onDeliveriesQueued((at) => {
    wakeAt(new Date(Math.max(at.getTime(), now().getTime()) + 1000)).catch((error: unknown) =>
      logger.warn("webhook delivery wake-up not queued", { error: String(error) }),
    );
  });

  runner.define(DELIVER_JOB, {
    description: message("webhooks:jobs.deliver"),
    timeoutMs: DRAIN_BUDGET_MS + 2 * DELIVERY_TIMEOUT_MS,
    maxAttempts: 3,
    backoffMs: 5_000,
    handler: async ({ signal }) => {
      const drained = await drainDeliveries(
        { db, secretBox, logger, now, workerId: runner.runnerId },
        { budgetMs: DRAIN_BUDGET_MS, signal },
      );
      if (drained.attempted > 0) logger.info("webhook deliveries sent", { ...drained });
      if (signal.aborted) return;
      if (drained.hasMore) await wakeAt(now());
      else if (drained.attempted > 0) await wakeAt(new Date(now().getTime() + 1000));
      const next = await nextDueAt(db);
      if (next && next.getTime() > now().getTime()) await wakeAt(next);
    },
  });
  runner.schedule(DELIVER_JOB, { everyMs: SWEEP_EVERY_MS });
}
