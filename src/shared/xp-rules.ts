/**
 * How an activity turns into XP (1 XP = 1 minute of focused, mastered learning). Pure, so every
 * figure can be recomputed and explained.
 */
export interface XpRules {
  /** Below this accuracy an activity earns nothing. */
  accuracyFloor: number;
  firstAttemptPerfect: number;
  firstAttemptPassing: number;
  retryPerfect: number;
  retryPassing: number;
  /** XP taken away per minute of gaming the app (anti-pattern time). */
  gamingPenaltyPerMinute: number;
}

export const DEFAULT_XP_RULES: XpRules = {
  accuracyFloor: 0.8,
  firstAttemptPerfect: 1.25,
  firstAttemptPassing: 1,
  retryPerfect: 1,
  retryPassing: 0.5,
  gamingPenaltyPerMinute: 1,
};

export interface XpInput {
  /** The XP the activity is worth when done well: the app's expected XP, else what it reports as earned. */
  baseXp: number;
  totalQuestions: number;
  correctQuestions: number;
  attempt: number;
  activeSeconds: number;
  wasteSeconds: number;
  antiPatternSeconds: number;
}

export interface XpAward {
  xp: number;
  explanation: string;
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const percent = (share: number) => `${Math.round(share * 100)}%`;
const minutes = (seconds: number) => `${round2(seconds / 60)} min`;

export function computeXp(input: XpInput, rules: XpRules = DEFAULT_XP_RULES): XpAward {
  const steps: string[] = [`expected ${round2(input.baseXp)} XP`];
  let multiplier = 1;
  if (input.totalQuestions > 0) {
    const accuracy = input.correctQuestions / input.totalQuestions;
    const isPerfect = input.correctQuestions === input.totalQuestions;
    const isRetry = input.attempt > 1;
    if (accuracy < rules.accuracyFloor) {
      multiplier = 0;
      steps.push(`× 0 (accuracy ${percent(accuracy)} is below ${percent(rules.accuracyFloor)})`);
    } else {
      multiplier = isRetry
        ? isPerfect
          ? rules.retryPerfect
          : rules.retryPassing
        : isPerfect
          ? rules.firstAttemptPerfect
          : rules.firstAttemptPassing;
      steps.push(
        `× ${multiplier} (${isRetry ? `attempt ${input.attempt}` : "first attempt"}, accuracy ${percent(accuracy)})`,
      );
    }
  } else {
    steps.push("× 1 (no questions)");
  }

  let xp = input.baseXp * multiplier;
  const focusedSeconds = input.activeSeconds + input.wasteSeconds;
  if (input.wasteSeconds > 0 && focusedSeconds > 0 && xp > 0) {
    const wasteShare = input.wasteSeconds / focusedSeconds;
    xp *= 1 - wasteShare;
    steps.push(`× ${round2(1 - wasteShare)} (${percent(wasteShare)} of the time wasted)`);
  }
  if (input.antiPatternSeconds > 0) {
    const penalty = (input.antiPatternSeconds / 60) * rules.gamingPenaltyPerMinute;
    xp -= penalty;
    steps.push(`− ${round2(penalty)} XP (${minutes(input.antiPatternSeconds)} gaming the app)`);
  }
  const awarded = round2(xp) || 0;
  return { xp: awarded, explanation: `${steps.join(" ")} = ${awarded} XP` };
}
