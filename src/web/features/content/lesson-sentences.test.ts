import type { TFunction } from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import type { AttemptResult, LessonXpOutcome } from "../../../shared/contracts/content";
import { i18next, loadCatalogues, startI18n } from "../../lib/i18n";
import { resultSentences, xpHint } from "./lesson-sentences";

let en: TFunction<"content">;
let es: TFunction<"content">;

beforeAll(async () => {
  await startI18n("en");
  await loadCatalogues(["content"]);
  await i18next.loadLanguages("es");
  await loadCatalogues(["content"]);
  en = i18next.getFixedT("en", "content");
  es = i18next.getFixedT("es", "content");
});

function result(
  figures: { number?: number; correct: number; total: number; score: number | null; mastered: boolean },
  xp: LessonXpOutcome,
  firstMastery = false,
): AttemptResult {
  return {
    lessonId: "lesson-1",
    attempt: {
      id: "attempt-1",
      number: figures.number ?? 1,
      startedAt: "2026-11-27T14:00:00.000Z",
      finishedAt: "2026-11-27T14:10:00.000Z",
      scorePercent: figures.score,
      correctItems: figures.correct,
      totalItems: figures.total,
      mastered: figures.mastered,
      xp,
    },
    firstMastery,
    masteryPercent: 80,
    expectedXp: 10,
    accuracyFloorPercent: 80,
    items: [],
  };
}

const credited = (xp: number): LessonXpOutcome => ({ status: "credited", xp, explanation: "…" });

describe("a finished attempt in words", () => {
  it("says the score, the XP and the mastery in one breath", () => {
    const mastered = result({ correct: 5, total: 6, score: 83.33, mastered: true }, credited(9), true);
    expect(resultSentences(mastered, en).join(" ")).toBe(
      "You got 5 of 6 right and earned 9 XP. You mastered this lesson!",
    );
    expect(resultSentences(mastered, es).join(" ")).toBe(
      "Acertaste 5 de 6 y ganaste 9 XP. ¡Dominaste esta lección!",
    );
    expect(xpHint(mastered, en)).toBeNull();
  });

  it("says what mastery takes, and why no XP came, when the score is short", () => {
    const short = result({ correct: 3, total: 6, score: 50, mastered: false }, credited(0));
    expect(resultSentences(short, en)).toEqual([
      "You got 3 of 6 right and earned 0 XP.",
      "To master this lesson, get 80% or more. This time you got 50%.",
    ]);
    expect(xpHint(short, en)).toBe("To earn XP, get at least 80% of the questions right.");
  });

  it("says XP waiting for a Guide, or not added, instead of XP earned", () => {
    const held = result(
      { correct: 6, total: 6, score: 100, mastered: true },
      { status: "held", xp: 12.5, explanation: "…" },
    );
    expect(resultSentences(held, en)).toEqual([
      "You got 6 of 6 right.",
      "Your 12 XP is waiting for a Guide to approve it.",
      "You mastered this lesson again.",
    ]);
    expect(xpHint(held, en)).toBe("All right on the first try earns bonus XP!");
    const dismissed = result(
      { correct: 6, total: 6, score: 100, mastered: true },
      { status: "dismissed", xp: 0, explanation: null },
    );
    expect(resultSentences(dismissed, en)[1]).toBe("A Guide looked at this try and did not add XP for it.");
    expect(xpHint(dismissed, en)).toBeNull();
  });

  it("tells a later try that it earns less, and a lesson without questions that it is done", () => {
    const retry = result({ number: 2, correct: 6, total: 6, score: 100, mastered: true }, credited(10));
    expect(xpHint(retry, en)).toBe("A try after the first one earns less XP than a first try.");
    const reading = result({ correct: 0, total: 0, score: null, mastered: true }, credited(10), true);
    expect(resultSentences(reading, en).join(" ")).toBe(
      "You finished the lesson and earned 10 XP. You mastered this lesson!",
    );
    expect(xpHint(reading, en)).toBeNull();
  });
});
