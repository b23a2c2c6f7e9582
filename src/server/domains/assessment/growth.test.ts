import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import {
  type MapSeason,
  NO_REPORTED_GROWTH,
  type ReportedGrowth,
} from "../../../shared/contracts/assessment";
import { growthOf, normalCdf, quintileOfPercentile, windowBetween } from "./growth";

const NONE = NO_REPORTED_GROWTH;
const reported = (figures: Partial<ReportedGrowth>): ReportedGrowth => ({ ...NONE, ...figures });

describe("Φ, the normal distribution function", () => {
  it("matches published values to 9 decimals", () => {
    expect(normalCdf(0)).toBe(0.5);
    expect(normalCdf(1)).toBeCloseTo(0.8413447461, 9);
    expect(normalCdf(-1.96)).toBeCloseTo(0.0249978951, 9);
    expect(normalCdf(2.5)).toBeCloseTo(0.9937903347, 9);
    expect(normalCdf(-3)).toBeCloseTo(0.001349898, 9);
  });

  it("is symmetric and keeps its far tails", () => {
    for (const z of [0.3, 1.4, 2.8, 6, 9]) expect(normalCdf(z) + normalCdf(-z)).toBeCloseTo(1, 14);
    // Φ(−8) = 6.22096e-16: the tail is still a number, not 0.
    expect(normalCdf(-8) / 6.22096057427178e-16).toBeCloseTo(1, 6);
    expect(normalCdf(-40)).toBe(0);
    expect(normalCdf(40)).toBe(1);
  });
});

describe("the growth window between two terms", () => {
  const term = (season: "fall" | "winter" | "spring", schoolYear: number) => ({ season, schoolYear });

  it("runs forward within a school year", () => {
    expect(windowBetween(term("fall", 2024), term("winter", 2024))).toBe("fallToWinter");
    expect(windowBetween(term("fall", 2024), term("spring", 2024))).toBe("fallToSpring");
    expect(windowBetween(term("winter", 2024), term("spring", 2024))).toBe("winterToSpring");
  });

  it("runs from a season to the same season of the next school year", () => {
    expect(windowBetween(term("fall", 2024), term("fall", 2025))).toBe("fallToFall");
    expect(windowBetween(term("winter", 2024), term("winter", 2025))).toBe("winterToWinter");
    expect(windowBetween(term("spring", 2024), term("spring", 2025))).toBe("springToSpring");
  });

  it("refuses any other pair of terms", () => {
    // Spring of one school year to the fall of the next: the summer, which NWEA has no norms for.
    expect(windowBetween(term("spring", 2024), term("fall", 2025))).toBeNull();
    expect(windowBetween(term("spring", 2024), term("fall", 2024))).toBeNull();
    expect(windowBetween(term("winter", 2024), term("fall", 2024))).toBeNull();
    expect(windowBetween(term("fall", 2024), term("fall", 2024))).toBeNull();
    expect(windowBetween(term("fall", 2024), term("fall", 2026))).toBeNull();
    expect(windowBetween(term("fall", 2024), term("spring", 2025))).toBeNull();
    expect(windowBetween(term("fall", 2025), term("fall", 2024))).toBeNull();
  });
});

describe("a student's growth over a window", () => {
  it("is the end RIT less the start RIT, as the export's observed growth is", () => {
    // A fall-to-spring row as the combined export gives it: RIT 201 in the fall, 214 in the spring.
    const row = reported({ projected: 9, observed: 13, met: true, conditionalGrowthIndex: 0.71 });
    const growth = growthOf({ startRit: 201, endRit: 214, reported: row });
    expect(growth.observed).toBe(13);
    expect(growth.observed).toBe(row.observed);
  });

  it("derives the norms' SD from a row's observed growth, typical growth and CGI", () => {
    // (12 − 8) / 0.8 = 5.
    const growth = growthOf({
      startRit: 200,
      endRit: 212,
      reported: reported({
        projected: 8,
        typical: 8,
        observed: 12,
        conditionalGrowthIndex: 0.8,
        conditionalGrowthPercentile: 79,
      }),
    });
    expect(growth.standardDeviation).toBe(5);
    expect(growth.conditionalGrowthIndex).toBe(0.8);
    expect(growth.conditionalGrowthPercentile).toBe(79);
  });

  it("recomputes CGI and CGP from a known SD for another observed growth", () => {
    const typicalOnly = reported({ projected: 8, typical: 8 });
    // (15 − 8) / 5 = 1.4; Φ(1.4) = 0.9192 → 92.
    const fifteen = growthOf({ startRit: 200, endRit: 215, reported: typicalOnly, standardDeviation: 5 });
    expect(fifteen.standardDeviation).toBe(5);
    expect(fifteen.conditionalGrowthIndex).toBeCloseTo(1.4, 12);
    expect(fifteen.conditionalGrowthPercentile).toBe(92);
    // (8 − 8) / 5 = 0 → 50; (5 − 8) / 5 = −0.6, Φ = 0.2743 → 27.
    expect(
      growthOf({ startRit: 200, endRit: 208, reported: typicalOnly, standardDeviation: 5 }),
    ).toMatchObject({
      conditionalGrowthIndex: 0,
      conditionalGrowthPercentile: 50,
    });
    expect(
      growthOf({ startRit: 200, endRit: 205, reported: typicalOnly, standardDeviation: 5 }),
    ).toMatchObject({
      conditionalGrowthIndex: -0.6,
      conditionalGrowthPercentile: 27,
    });
  });

  it("keeps CGP within 1–99", () => {
    const typicalOnly = reported({ typical: 6 });
    // (−8 − 6) / 5 = −2.8, Φ = 0.0026 → 0.26 rounds to 0, shown as 1.
    expect(
      growthOf({ startRit: 210, endRit: 202, reported: typicalOnly, standardDeviation: 5 }),
    ).toMatchObject({
      conditionalGrowthIndex: -2.8,
      conditionalGrowthPercentile: 1,
    });
    // (19 − 6) / 5 = 2.6, Φ = 0.9953 → 99.53 rounds to 100, shown as 99.
    expect(
      growthOf({ startRit: 200, endRit: 219, reported: typicalOnly, standardDeviation: 5 }),
    ).toMatchObject({
      conditionalGrowthIndex: 2.6,
      conditionalGrowthPercentile: 99,
    });
  });

  it("prefers the SD the row implies to one given", () => {
    const row = reported({ typical: 8, observed: 12, conditionalGrowthIndex: 0.8 });
    expect(
      growthOf({ startRit: 200, endRit: 212, reported: row, standardDeviation: 7 }).standardDeviation,
    ).toBe(5);
  });

  it("does not derive an SD the row's figures cannot give", () => {
    const sdOf = (figures: Partial<ReportedGrowth>) =>
      growthOf({ startRit: 200, endRit: 212, reported: reported(figures) }).standardDeviation;
    // A CGI of 0 says nothing of the spread.
    expect(sdOf({ typical: 8, observed: 8, conditionalGrowthIndex: 0 })).toBeNull();
    // Above typical growth with a negative CGI: the columns contradict each other.
    expect(sdOf({ typical: 8, observed: 12, conditionalGrowthIndex: -0.8 })).toBeNull();
    expect(sdOf({ typical: 8, conditionalGrowthIndex: 0.8 })).toBeNull();
    expect(sdOf({ observed: 12, conditionalGrowthIndex: 0.8 })).toBeNull();
    // Projected stands in for typical: (12 − 10) / 0.5 = 4.
    expect(sdOf({ projected: 10, observed: 12, conditionalGrowthIndex: 0.5 })).toBe(4);
  });

  it("takes projected and typical growth for each other when the export gives one", () => {
    // Older exports give only typical growth, newer ones only projected.
    expect(growthOf({ startRit: 180, endRit: 192, reported: reported({ typical: 6 }) })).toMatchObject({
      projected: 6,
      typical: 6,
      metProjected: true,
      multiple: 2,
      reachesTarget: true,
    });
    expect(growthOf({ startRit: 180, endRit: 184, reported: reported({ projected: 5 }) })).toMatchObject({
      projected: 5,
      typical: 5,
      metProjected: false,
      multiple: 0.8,
      reachesTarget: false,
    });
    // A target above the norms' typical growth keeps both.
    expect(
      growthOf({ startRit: 180, endRit: 190, reported: reported({ projected: 10, typical: 8 }) }),
    ).toMatchObject({
      projected: 10,
      typical: 8,
      metProjected: true,
      multiple: 1,
    });
  });

  it("measures growth against the projection: met, the multiple and the 2× target", () => {
    const growth = (observed: number, projected: number) =>
      growthOf({ startRit: 200, endRit: 200 + observed, reported: reported({ projected }) });
    // 12 / 8 = 1.5; 16 / 8 = 2; 15 / 8 = 1.875 → 1.88 (halves up); 7 / 8 = 0.875 → 0.88.
    expect(growth(12, 8)).toMatchObject({ metProjected: true, multiple: 1.5, reachesTarget: false });
    expect(growth(16, 8)).toMatchObject({ metProjected: true, multiple: 2, reachesTarget: true });
    expect(growth(15, 8)).toMatchObject({ metProjected: true, multiple: 1.88, reachesTarget: false });
    expect(growth(7, 8)).toMatchObject({ metProjected: false, multiple: 0.88, reachesTarget: false });
    expect(growth(8, 8)).toMatchObject({ metProjected: true, multiple: 1 });
  });

  it("judges the 2× target on the exact ratio, not the rounded multiple", () => {
    // 15 / 7.51 = 1.9973…: shown as 2, but short of twice the projection.
    const growth = growthOf({ startRit: 200, endRit: 215, reported: reported({ projected: 7.51 }) });
    expect(growth.multiple).toBe(2);
    expect(growth.reachesTarget).toBe(false);
  });

  it("handles a fall in RIT", () => {
    // 204 − 210 = −6 against a projection of 6: a multiple of −1.
    expect(growthOf({ startRit: 210, endRit: 204, reported: reported({ projected: 6 }) })).toMatchObject({
      observed: -6,
      metProjected: false,
      multiple: -1,
      reachesTarget: false,
    });
    // −1 / 201 = −0.005 rounds to 0, not −0.
    expect(
      Object.is(growthOf({ startRit: 200, endRit: 199, reported: reported({ projected: 201 }) }).multiple, 0),
    ).toBe(true);
  });

  it("has no multiple for a projection of 0 or less, and nothing to meet without one", () => {
    // NWEA projects 0 or negative growth at very high start RITs.
    expect(growthOf({ startRit: 260, endRit: 263, reported: reported({ projected: 0 }) })).toMatchObject({
      metProjected: true,
      multiple: null,
      reachesTarget: null,
    });
    expect(growthOf({ startRit: 260, endRit: 258, reported: reported({ projected: -1 }) })).toMatchObject({
      metProjected: false,
      multiple: null,
      reachesTarget: null,
    });
    expect(growthOf({ startRit: 200, endRit: 210, reported: null, standardDeviation: 5 })).toEqual({
      observed: 10,
      projected: null,
      typical: null,
      standardDeviation: 5,
      conditionalGrowthIndex: null,
      conditionalGrowthPercentile: null,
      metProjected: null,
      multiple: null,
      reachesTarget: null,
    });
  });
});

describe("the growth columns of the MAP export fixture (2015 CDF)", () => {
  const rows: Record<string, string>[] = parse(
    readFileSync(new URL("./fixtures/map-2015.csv", import.meta.url)),
    {
      columns: true,
      bom: true,
      skip_empty_lines: true,
    },
  );
  const termOf = (row: Record<string, string>) => {
    const [season = "", years = ""] = (row.TermName ?? "").split(" ");
    return { season: season.toLowerCase() as MapSeason, schoolYear: Number(years.slice(0, 4)) };
  };
  // Every test whose row reports growth, with the same student's test at the window's start.
  const pairs = rows.flatMap((end) =>
    rows.flatMap((start) => {
      const window = windowBetween(termOf(start), termOf(end));
      const same = start.StudentID === end.StudentID && start.MeasurementScale === end.MeasurementScale;
      if (!same || window === null) return [];
      const prefix = window[0]?.toUpperCase() + window.slice(1);
      const column = (name: string) => {
        const text = end[`${prefix}${name}`];
        return text ? Number(text) : null;
      };
      const observed = column("ObservedGrowth");
      if (observed === null) return [];
      const row = reported({
        projected: column("ProjectedGrowth"),
        observed,
        conditionalGrowthIndex: column("ConditionalGrowthIndex"),
        conditionalGrowthPercentile: column("ConditionalGrowthPercentile"),
      });
      return [{ startRit: Number(start.TestRITScore), endRit: Number(end.TestRITScore), row }];
    }),
  );

  it("has observed growth equal to the end RIT less the start RIT", () => {
    // Three students: fall to winter, fall to spring and winter to spring each.
    expect(pairs).toHaveLength(9);
    for (const { startRit, endRit, row } of pairs) {
      expect(growthOf({ startRit, endRit, reported: row }).observed).toBe(row.observed);
    }
  });

  it("has CGPs that are Φ(CGI) rounded, as Dash computes them without one", () => {
    for (const { startRit, endRit, row } of pairs) {
      const withoutPercentile = { ...row, conditionalGrowthPercentile: null };
      const growth = growthOf({ startRit, endRit, reported: withoutPercentile });
      expect(growth.conditionalGrowthPercentile).toBe(row.conditionalGrowthPercentile);
    }
  });
});

describe("NWEA's quintile of a percentile", () => {
  it("bands at 21, 41, 61 and 81", () => {
    const bands = [1, 20, 21, 40, 41, 60, 61, 80, 81, 99].map(quintileOfPercentile);
    expect(bands).toEqual(["Low", "Low", "LoAvg", "LoAvg", "Avg", "Avg", "HiAvg", "HiAvg", "High", "High"]);
  });
});
