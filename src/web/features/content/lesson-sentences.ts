import type { TFunction } from "i18next";
import type { AttemptResult } from "../../../shared/contracts/content";
import { formatNumber, formatXp } from "../../lib/format";

/** A finished attempt in sentences a child reads: the score, the XP, mastery, and why the XP is what it is. */

/** The result's sentences, in the order they are read. */
export function resultSentences(result: AttemptResult, t: TFunction<"content">): string[] {
  const { attempt } = result;
  const xp = attempt.xp ?? { status: "notRecorded" as const, xp: 0, explanation: null };
  const figures = { correct: attempt.correctItems, total: attempt.totalItems, xp: formatXp(xp.xp) };
  const hasQuestions = attempt.totalItems > 0;
  const sentences: string[] = [];
  if (xp.status === "credited")
    sentences.push(
      t(hasQuestions ? "lessons.attempt.result.rightAndEarned" : "lessons.attempt.result.earned", figures),
    );
  else {
    sentences.push(
      t(hasQuestions ? "lessons.attempt.result.right" : "lessons.attempt.result.finished", figures),
    );
    sentences.push(t(`lessons.attempt.result.${xp.status}`, figures));
  }
  if (attempt.mastered)
    sentences.push(
      t(
        result.firstMastery ? "lessons.attempt.result.masteredFirst" : "lessons.attempt.result.masteredAgain",
      ),
    );
  else
    sentences.push(
      t("lessons.attempt.result.notMastered", {
        goal: result.masteryPercent,
        score: formatNumber(attempt.scorePercent ?? 0, 0),
      }),
    );
  return sentences;
}

/** Why the XP is what it is, in a child's words: the engine's rules that shaped this attempt's figure. */
export function xpHint(result: AttemptResult, t: TFunction<"content">): string | null {
  const { attempt } = result;
  if (attempt.xp?.status !== "credited" && attempt.xp?.status !== "held") return null;
  if (attempt.totalItems === 0) return null;
  const accuracy = (100 * attempt.correctItems) / attempt.totalItems;
  if (accuracy < result.accuracyFloorPercent)
    return t("lessons.attempt.hint.belowFloor", { floor: result.accuracyFloorPercent });
  if (attempt.number > 1) return t("lessons.attempt.hint.retry");
  if (attempt.correctItems === attempt.totalItems) return t("lessons.attempt.hint.perfectFirst");
  return null;
}
