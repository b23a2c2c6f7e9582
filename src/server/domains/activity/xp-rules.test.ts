import { describe, expect, it } from "vitest";
import { computeXp, DEFAULT_XP_RULES, type XpInput } from "../../../shared/xp-rules";

const activity = (overrides: Partial<XpInput>): XpInput => ({
  baseXp: 20,
  totalQuestions: 10,
  correctQuestions: 10,
  attempt: 1,
  activeSeconds: 1200,
  wasteSeconds: 0,
  antiPatternSeconds: 0,
  ...overrides,
});

describe("computeXp", () => {
  it.each([
    ["first attempt at 100%", { correctQuestions: 10 }, 25],
    ["first attempt at 90%", { correctQuestions: 9 }, 20],
    ["first attempt at 80%", { correctQuestions: 8 }, 20],
    ["first attempt at 79%", { totalQuestions: 100, correctQuestions: 79 }, 0],
    ["first attempt at 50%", { correctQuestions: 5 }, 0],
    ["retry at 100%", { attempt: 2, correctQuestions: 10 }, 20],
    ["retry at 90%", { attempt: 3, correctQuestions: 9 }, 10],
    ["retry below 80%", { attempt: 2, correctQuestions: 7 }, 0],
    ["no questions (reading time)", { totalQuestions: 0, correctQuestions: 0 }, 20],
    ["a quarter of the time wasted", { correctQuestions: 9, activeSeconds: 900, wasteSeconds: 300 }, 15],
    ["gaming the app", { correctQuestions: 9, antiPatternSeconds: 300 }, 15],
    ["gaming with nothing earned goes negative", { correctQuestions: 2, antiPatternSeconds: 600 }, -10],
    ["zero expected XP", { baseXp: 0 }, 0],
  ])("%s", (_name, overrides, expected) => {
    expect(computeXp(activity(overrides)).xp).toBe(expected);
  });

  it("explains every step", () => {
    expect(
      computeXp(
        activity({ correctQuestions: 9, activeSeconds: 900, wasteSeconds: 300, antiPatternSeconds: 120 }),
      ).explanation,
    ).toBe(
      "expected 20 XP × 1 (first attempt, accuracy 90%) × 0.75 (25% of the time wasted) − 2 XP (2 min gaming the app) = 13 XP",
    );
    expect(computeXp(activity({ correctQuestions: 5 })).explanation).toBe(
      "expected 20 XP × 0 (accuracy 50% is below 80%) = 0 XP",
    );
  });

  it("takes other multipliers from the rules", () => {
    expect(
      computeXp(activity({ attempt: 2, correctQuestions: 9 }), { ...DEFAULT_XP_RULES, retryPassing: 0.25 })
        .xp,
    ).toBe(5);
  });
});
