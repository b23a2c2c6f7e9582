import { message } from "../../lib/i18n";
import type { JobRunner } from "../../platform/jobs/runner";
import type { DomainJobDeps } from "../../server-jobs";
import {
  INVITE_JOB,
  inviteToRound,
  openDueRounds,
  queueInvitations,
  recentlyOpenedRounds,
  removeStaleDrafts,
} from "./rounds";

export const ROUNDS_JOB = "surveys.rounds";

/** How often rounds are opened: a survey opens within this long of its time. */
const ROUNDS_EVERY_MS = 5 * 60_000;

/**
 * The rounds job opens the rounds due (a survey's first at its opening, then one a week or month)
 * and queues the invitation of each round's audience, once per round; it also drops drafts no one
 * can submit any more. The invitation job tells the audience in the app and by email.
 */
export function defineSurveyJobs(runner: JobRunner, { db, live, logger, now }: DomainJobDeps): void {
  runner.define(ROUNDS_JOB, {
    description: message("surveys:jobs.rounds"),
    handler: async () => {
      const at = now();
      const opened = await openDueRounds(db, at);
      // Rounds opened lately are queued again: a run that stopped between opening and queueing is made up.
      await queueInvitations(runner, await recentlyOpenedRounds(db, at));
      const removed = await removeStaleDrafts(db, at);
      if (opened.length > 0 || removed > 0) logger.info("survey rounds", { opened: opened.length, removed });
    },
  });
  runner.schedule(ROUNDS_JOB, { everyMs: ROUNDS_EVERY_MS });

  runner.define(INVITE_JOB, {
    description: message("surveys:jobs.invite"),
    timeoutMs: 15 * 60_000,
    handler: async ({ payload }) => {
      const roundId = (payload as { roundId?: unknown }).roundId;
      if (typeof roundId !== "string") return;
      const told = await inviteToRound({ db, live }, roundId, now());
      logger.info("survey invitations", { roundId, told });
    },
  });
}
