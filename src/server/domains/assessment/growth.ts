import {
  GROWTH_MULTIPLE_TARGET,
  type GrowthFigures,
  type GrowthWindow,
  type MapBand,
  type MapSeason,
  type MapTestEvent,
  NO_REPORTED_GROWTH,
  type ReportedGrowth,
} from "../../../shared/contracts/assessment";

/** Hart's coefficients, highest power first: Φ(−x) = e^(−x²/2) · P(x) / Q(x) for 0 ≤ x < 7.07. */
const HART_P = [
  0.0352624965998911, 0.700383064443688, 6.37396220353165, 33.912866078383, 112.079291497871,
  221.213596169931, 220.206867912376,
];
const HART_Q = [
  0.0883883476483184, 1.75566716318264, 16.064177579207, 86.7807322029461, 296.564248779674, 637.333633378831,
  793.826512519948, 440.413735824752,
];
const polynomial = (coefficients: number[], x: number) => coefficients.reduce((sum, c) => sum * x + c, 0);

/**
 * Φ(z), the standard normal distribution function, by Hart's algorithm 5666 as given by G. West,
 * "Better approximations to cumulative normal functions" (2005): close to double precision
 * (about 1e-14), where the textbook erf approximations (1.5e-7) would move a CGP at a rounding edge.
 */
export function normalCdf(z: number): number {
  const x = Math.abs(z);
  let tail: number;
  if (x > 37) tail = 0;
  else if (x < 7.07106781186547)
    tail = (Math.exp((-x * x) / 2) * polynomial(HART_P, x)) / polynomial(HART_Q, x);
  // Farther out, a continued fraction: e^(−x²/2) / (√(2π) · (x + 1/(x + 2/(x + 3/(x + 4/(x + 0.65)))))).
  else tail = Math.exp((-x * x) / 2) / (x + 1 / (x + 2 / (x + 3 / (x + 4 / (x + 0.65))))) / 2.506628274631;
  return z > 0 ? 1 - tail : tail;
}

/** A test's term: its season and school year (2025 for 2025-2026). */
type Term = Pick<MapTestEvent, "season" | "schoolYear">;

const WITHIN_A_YEAR: Partial<Record<`${MapSeason}-${MapSeason}`, GrowthWindow>> = {
  "fall-winter": "fallToWinter",
  "fall-spring": "fallToSpring",
  "winter-spring": "winterToSpring",
};
const YEAR_ON_YEAR: Record<MapSeason, GrowthWindow> = {
  fall: "fallToFall",
  winter: "winterToWinter",
  spring: "springToSpring",
};

/**
 * The NWEA growth window from one term to another: later in the same school year, or the same
 * season of the next one. Null for any other pair (backwards, two years apart, spring to fall),
 * which NWEA has no norms for.
 */
export function windowBetween(start: Term, end: Term): GrowthWindow | null {
  if (end.schoolYear === start.schoolYear) return WITHIN_A_YEAR[`${start.season}-${end.season}`] ?? null;
  if (end.schoolYear === start.schoolYear + 1 && end.season === start.season)
    return YEAR_ON_YEAR[start.season];
  return null;
}

export type Growth = GrowthFigures;

/**
 * The SD of growth the export's own figures imply: its CGI is (observed − typical) / SD. Null when
 * they cannot tell it (a CGI of 0, a missing column) or contradict each other (an SD of 0 or below,
 * as when the projection is a target that is not the norms' typical growth). The export rounds the
 * CGI to 2 decimals, so the SD is as exact as that.
 */
function impliedStandardDeviation(reported: ReportedGrowth, typical: number | null): number | null {
  const { observed, conditionalGrowthIndex: index } = reported;
  if (observed === null || typical === null || index === null || index === 0) return null;
  const standardDeviation = (observed - typical) / index;
  return standardDeviation > 0 ? standardDeviation : null;
}

/** Φ(CGI) × 100 to the nearest whole percentile (halves up), kept within NWEA's 1–99. */
function percentileOfIndex(index: number): number {
  return Math.min(99, Math.max(1, Math.round(normalCdf(index) * 100)));
}

/**
 * The growth of a student over one window. The export's figures win where it gives them (its CGI
 * and CGP come from the norms' own SD); the rest is derived. `standardDeviation` is the norms' SD
 * for this start RIT, grade and window when known from elsewhere (another student's row with the
 * same ones), used when the export's row does not imply one.
 */
export function growthOf(input: {
  startRit: number;
  endRit: number;
  reported: ReportedGrowth | null;
  standardDeviation?: number | null;
}): Growth {
  const { reported } = input;
  const observed = input.endRit - input.startRit;
  const projected = reported?.projected ?? reported?.typical ?? null;
  const typical = reported?.typical ?? reported?.projected ?? null;
  const standardDeviation =
    (reported && impliedStandardDeviation(reported, typical)) ?? input.standardDeviation ?? null;
  const conditionalGrowthIndex =
    reported?.conditionalGrowthIndex ??
    (standardDeviation !== null && typical !== null ? (observed - typical) / standardDeviation : null);
  const conditionalGrowthPercentile =
    reported?.conditionalGrowthPercentile ??
    (conditionalGrowthIndex === null ? null : percentileOfIndex(conditionalGrowthIndex));
  // A projection of 0 or less (NWEA's extrapolation at very high start RITs) has no meaningful multiple.
  const hasMultiple = projected !== null && projected > 0;
  return {
    observed,
    projected,
    typical,
    standardDeviation,
    conditionalGrowthIndex,
    conditionalGrowthPercentile,
    metProjected: projected === null ? null : observed >= projected,
    // Halves up; `+ 0` turns a rounded -0 into 0.
    multiple: hasMultiple ? Math.round((observed / projected) * 100) / 100 + 0 : null,
    // From the exact ratio: 1.996× shows as 2.00 but has not reached 2×.
    reachesTarget: hasMultiple ? observed >= GROWTH_MULTIPLE_TARGET * projected : null,
  };
}

type GrowthColumns = Partial<Record<GrowthWindow, ReportedGrowth>>;

/**
 * The growth over a window between two stored tests. NWEA writes a window's projected and observed
 * growth on the row of its end term, and its typical growth on the row of its start term.
 */
export function growthBetween(
  start: { rit: number; growth: GrowthColumns },
  end: { rit: number; growth: GrowthColumns },
  window: GrowthWindow,
): Growth {
  const atEnd = end.growth[window];
  const typical = start.growth[window]?.typical ?? atEnd?.typical ?? null;
  const reported = atEnd || typical !== null ? { ...NO_REPORTED_GROWTH, ...atEnd, typical } : null;
  return growthOf({ startRit: start.rit, endRit: end.rit, reported });
}

/** NWEA's quintile band of a percentile: below 21, 21–40, 41–60, 61–80, above 80. */
export function quintileOfPercentile(percentile: number): MapBand {
  if (percentile < 21) return "Low";
  if (percentile < 41) return "LoAvg";
  if (percentile < 61) return "Avg";
  if (percentile < 81) return "HiAvg";
  return "High";
}
