import type { IncidentAction, ReviewDecision, ReviewStatus } from "../../../shared/contracts/integrity";

/**
 * The review's rules, with no database: who may decide an incident now, and where a decision takes
 * it. Fairness lives here: a confirm needs a second, different reviewer (when the rule is on), an
 * appeal is decided by someone who did not confirm the strike, and an escalation by someone other
 * than the person who escalated it.
 */

export interface PastDecision {
  action: IncidentAction;
  actorId: string;
}

/** Why this person may not decide the incident now (a key of the domain's catalogue), or null. */
export type ReviewBlock = "alreadyDecided" | "confirmedByYou" | "escalatedByYou" | "appealOfYourStrike";

export function reviewBlock(
  status: ReviewStatus,
  decisions: readonly PastDecision[],
  actorId: string,
): ReviewBlock | null {
  if (status === "confirmed" || status === "dismissed") return "alreadyDecided";
  const confirmedByActor = decisions.some(
    (decision) => decision.action === "confirm" && decision.actorId === actorId,
  );
  if (status === "appealed") return confirmedByActor ? "appealOfYourStrike" : null;
  if (confirmedByActor) return "confirmedByYou";
  if (status === "escalated" && decisions.findLast((d) => d.action === "escalate")?.actorId === actorId)
    return "escalatedByYou";
  return null;
}

/**
 * Why a strike may not be appealed now (a key of the domain's catalogue), or null: only a confirmed
 * strike that still counts, and only once.
 */
export function appealBlock(
  status: ReviewStatus,
  isActiveStrike: boolean,
  decisions: readonly PastDecision[],
): "notAppealable" | "appealedAlready" | null {
  if (status !== "confirmed" || !isActiveStrike) return "notAppealable";
  if (decisions.some((decision) => decision.action === "appeal")) return "appealedAlready";
  return null;
}

/** What a decision makes of an incident: its next status, and whether a strike starts or ends. */
export interface Outcome {
  status: ReviewStatus;
  /** A new strike: the incident became `confirmed` from the queue. */
  strikes: boolean;
  /** An appeal was upheld: the strike no longer counts. */
  liftsStrike: boolean;
}

export function outcomeOf(
  status: ReviewStatus,
  decisions: readonly PastDecision[],
  decision: ReviewDecision,
  options: { secondReviewer: boolean },
): Outcome {
  if (decision === "escalate") return { status: "escalated", strikes: false, liftsStrike: false };
  if (status === "appealed") {
    // Confirming an appealed strike refuses the appeal (the strike stays); dismissing upholds it.
    return decision === "confirm"
      ? { status: "confirmed", strikes: false, liftsStrike: false }
      : { status: "dismissed", strikes: false, liftsStrike: true };
  }
  if (decision === "dismiss") return { status: "dismissed", strikes: false, liftsStrike: false };
  const earlierConfirmers = new Set(
    decisions.filter((past) => past.action === "confirm").map((past) => past.actorId),
  );
  const isFinal = !options.secondReviewer || earlierConfirmers.size >= 1;
  return isFinal
    ? { status: "confirmed", strikes: true, liftsStrike: false }
    : { status: "awaiting_second", strikes: false, liftsStrike: false };
}
