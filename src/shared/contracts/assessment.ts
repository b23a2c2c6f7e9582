import { z } from "zod";
import { invalid } from "../validation-messages";
import { flag } from "./fields";

/**
 * NWEA MAP Growth results as Dash keeps them: one test event per student, term and subject, read
 * from the school's NWEA export (three generations of columns), with the growth between terms.
 */

export const MAP_SEASONS = ["fall", "winter", "spring"] as const;
export type MapSeason = (typeof MAP_SEASONS)[number];

/** The growth windows NWEA reports, from the start term's season to the end term's. */
export const GROWTH_WINDOWS = [
  "fallToFall",
  "fallToWinter",
  "fallToSpring",
  "winterToWinter",
  "winterToSpring",
  "springToSpring",
] as const;
export type GrowthWindow = (typeof GROWTH_WINDOWS)[number];

/** NWEA's five bands for goal areas, achievement and growth quintiles. */
export const MAP_BANDS = ["Low", "LoAvg", "Avg", "HiAvg", "High"] as const;
export type MapBand = (typeof MAP_BANDS)[number];

/** The school's headline: growth of at least twice the projection. */
export const GROWTH_MULTIPLE_TARGET = 2;

/** A goal area (strand) score of one test. */
export interface GoalAreaScore {
  name: string;
  rit: number | null;
  standardError: number | null;
  /** The export's range, e.g. "222-231". */
  rangeLow: number | null;
  rangeHigh: number | null;
  band: MapBand | null;
}

/** The growth columns of one window as the export gives them (any may be missing). */
export interface ReportedGrowth {
  projected: number | null;
  observed: number | null;
  observedStandardError: number | null;
  met: boolean | null;
  conditionalGrowthIndex: number | null;
  conditionalGrowthPercentile: number | null;
  quintile: MapBand | null;
  /** The norms' typical growth for the window (older exports give only this). */
  typical: number | null;
}

/** A window the export said nothing of: each figure missing. */
export const NO_REPORTED_GROWTH: ReportedGrowth = {
  projected: null,
  observed: null,
  observedStandardError: null,
  met: null,
  conditionalGrowthIndex: null,
  conditionalGrowthPercentile: null,
  quintile: null,
  typical: null,
};

/** One row of an export, read and checked: a student's test in one term and subject. */
export interface MapTestEvent {
  /** NWEA's StudentID: the school's own id for the student, matched to the roster. */
  studentId: string;
  termName: string;
  season: MapSeason;
  /** The school year's first calendar year: 2025 for "Fall 2025-2026". */
  schoolYear: number;
  schoolName: string | null;
  /** NWEA's MeasurementScale (Mathematics, Reading, Language Usage, Science - General Science…) or Subject. */
  subject: string;
  /** Discipline or Course, when given. */
  discipline: string | null;
  testName: string | null;
  testId: string | null;
  testType: string | null;
  /**
   * Whether the test measures growth (NWEA's GrowthMeasureYN): a term may hold a second test of a
   * subject, such as an end-of-course test, which is kept but not counted for growth.
   */
  growthMeasure: boolean;
  /** yyyy-mm-dd */
  testDate: string;
  /** hh:mm:ss, when given. */
  testStartTime: string | null;
  durationMinutes: number | null;
  rit: number;
  standardError: number | null;
  percentile: number | null;
  achievementQuintile: MapBand | null;
  percentCorrect: number | null;
  rapidGuessingPercent: number | null;
  lexile: string | null;
  /** The student's grade at the test, when the row gives it ("K" is 0). */
  grade: number | null;
  goals: GoalAreaScore[];
  growth: Partial<Record<GrowthWindow, ReportedGrowth>>;
  /** Names as the combined export gives them, for listing unmatched rows. */
  firstName: string | null;
  lastName: string | null;
}

// ── The import ─────────────────────────────────────────────────────────────────────────────────

export const MAX_MAP_UPLOAD_BYTES = 100 * 1024 * 1024;

export const mapImportFormSchema = z.object({
  dryRun: flag(invalid("dryRunTrueOrFalse")),
});

export interface MapImportRowCounts {
  read: number;
  imported: number;
  updated: number;
  unchanged: number;
  unmatched: number;
  rejected: number;
}

export interface UnmatchedMapRow {
  line: number;
  studentId: string;
  name: string | null;
  school: string | null;
}

export interface MapImportError {
  line: number;
  column: string | null;
  message: string;
}

export interface MapImportReport {
  dryRun: boolean;
  rows: MapImportRowCounts;
  unmatched: UnmatchedMapRow[];
  errors: MapImportError[];
}

// ── A student's results ───────────────────────────────────────────────────────────────────────

export interface MapTestRecord {
  id: string;
  termName: string;
  season: MapSeason;
  schoolYear: number;
  subject: string;
  testName: string | null;
  testDate: string;
  durationMinutes: number | null;
  rit: number;
  standardError: number | null;
  percentile: number | null;
  /** Where the percentile comes from: the export, or Dash's reading of the 2020 status norms. */
  percentileSource: "export" | "norms" | null;
  grade: number | null;
  goals: GoalAreaScore[];
}

/** A student's growth over one window, from the two RITs and what the export reported. */
export interface GrowthFigures {
  /** End RIT − start RIT. */
  observed: number;
  /** The student's target: the export's projected growth, else its typical growth. */
  projected: number | null;
  /** The norms' mean growth for the start RIT, grade and window: typical, else projected. */
  typical: number | null;
  /** The standard deviation of that growth in the norms, when it can be known. */
  standardDeviation: number | null;
  /** (observed − typical) / SD: a z-score. */
  conditionalGrowthIndex: number | null;
  /** Φ(CGI) as a percentile, 1–99. */
  conditionalGrowthPercentile: number | null;
  metProjected: boolean | null;
  /** Observed ÷ projected, to 2 decimals: the school's "2× growth" is 2. */
  multiple: number | null;
  /** Whether observed growth is at least GROWTH_MULTIPLE_TARGET times the projection. */
  reachesTarget: boolean | null;
}

/** Growth over one window between two of the student's tests. */
export interface GrowthRecord extends GrowthFigures {
  window: GrowthWindow;
  from: string;
  to: string;
  startRit: number;
  endRit: number;
}

export interface StudentMapResults {
  student: { sourcedId: string; name: string; grade: string | null };
  subjects: { subject: string; tests: MapTestRecord[]; growth: GrowthRecord[] }[];
}

export const mapLinkSchema = z.object({
  nweaStudentId: z.string().trim().min(1).max(200),
  studentId: z.string().trim().min(1).max(200),
});

// ——— Placements, placement tests, screening and subject tracks ———

// ——— Check charts ———
