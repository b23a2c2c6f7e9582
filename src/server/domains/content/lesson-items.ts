import type { QtiItemScore, QtiResponseValue } from "../../../shared/contracts/content";
import { withoutAnswers } from "./qti/answers";
import { instantiateTemplate, scoreItem } from "./qti/scoring";

/**
 * A lesson's QTI items as an attempt meets them. A template item's random values are fixed per
 * attempt and item (the seed), so the student sees, and is scored against, the same values on
 * every visit and every save.
 */

/** The seed of an item's values within an attempt. */
export const attemptSeed = (attemptId: string, itemIdentifier: string) => `${attemptId}:${itemIdentifier}`;

/** The XML a student is shown: the item with its values fixed by `seed` and no answers in it. */
export function itemForDelivery(rawXml: string, seed: string): string {
  return withoutAnswers(instantiateTemplate(rawXml, seed));
}

/** Whether the item scores itself (one that does not, a written answer, counts 0 of 0), and its points. */
export type ItemScore = QtiItemScore;

/** Scores an answer against the item as it was shown in the attempt; no answer scores 0. */
export function scoreAttemptItem(
  rawXml: string,
  attemptId: string,
  itemIdentifier: string,
  responses: Record<string, QtiResponseValue>,
): ItemScore {
  return scoreItem(instantiateTemplate(rawXml, attemptSeed(attemptId, itemIdentifier)), responses);
}

/** An item is right when it scored every point it offers. */
export const isCorrect = ({ score, maxScore, scored }: ItemScore) =>
  scored && maxScore > 0 && score >= maxScore;
