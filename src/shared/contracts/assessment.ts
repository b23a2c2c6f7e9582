import { z } from "zod";
import { invalid } from "../validation-messages";
import { GROWTH_WINDOWS, type GrowthWindow } from "../value-lists";
import { calendarDate, changesOf, flag } from "./fields";

/**
 * NWEA MAP Growth results as Dash keeps them: one test event per student, term and subject, read
 * from the school's NWEA export (three generations of columns), with the growth between terms.
 */

export const MAP_SEASONS = ["fall", "winter", "spring"] as const;
export type MapSeason = (typeof MAP_SEASONS)[number];

export { GROWTH_WINDOWS, type GrowthWindow } from "../value-lists";

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
  /** The RITs of the 25th, 50th and 75th percentiles for the grade and season: the middle half of students. */
  normBand: { p25: number; p50: number; p75: number } | null;
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

/** An applied import, for the history. */
export interface MapImportRecord {
  id: string;
  fileName: string;
  importedBy: string;
  importedByName: string | null;
  rows: MapImportRowCounts;
  importedAt: string;
}

// ——— Overviews and reports of MAP results ———

const mapRecordId = z.string().trim().min(1).max(200);
const mapPage = {
  page: z.coerce.number().int().min(0, invalid("offsetNegative")).default(0),
  perPage: z.coerce
    .number()
    .int()
    .min(1, invalid("limitTooSmall"))
    .max(200, invalid("limitAbove200"))
    .default(50),
};
const mapSubjectQuery = z.string().trim().min(1).max(100).optional();
const mapSearch = z.string().trim().max(200, invalid("searchTooLong")).default("");
const schoolYearQuery = z.coerce
  .number()
  .int()
  .min(1990, invalid("schoolYear"))
  .max(2100, invalid("schoolYear"))
  .optional();

/** One window's growth as the overviews and reports keep it. */
export interface GrowthSummary {
  window: GrowthWindow;
  fromTerm: string;
  toTerm: string;
  observed: number;
  projected: number | null;
  conditionalGrowthPercentile: number | null;
  metProjected: boolean | null;
  multiple: number | null;
  reachesTarget: boolean | null;
}

/** A student's latest test of a subject, and the growth of the latest window ending at it. */
export interface LatestMapSubject {
  subject: string;
  termName: string;
  testDate: string;
  rit: number;
  percentile: number | null;
  growth: GrowthSummary | null;
}

export interface MapStudentOverview {
  sourcedId: string;
  name: string;
  grade: string | null;
  subjects: LatestMapSubject[];
}

/** A Guide's students (an administrator's: everyone), by class, subject and whether below projection. */
export const mapStudentsQuerySchema = z.object({
  classId: mapRecordId.optional(),
  subject: mapSubjectQuery,
  search: mapSearch,
  belowProjection: flag(invalid("belowProjectionTrueOrFalse")),
  ...mapPage,
});
export type MapStudentsQuery = z.infer<typeof mapStudentsQuerySchema>;

export interface MapStudentsPage {
  students: MapStudentOverview[];
  total: number;
  page: number;
  perPage: number;
  /** Over every student the filter names, not just this page. */
  summary: { tested: number; belowProjection: number; atTarget: number };
  subjects: string[];
}

/** The growth report's choice: a school year and window, and a school or a class. */
export const mapReportQuerySchema = z.object({
  schoolYear: schoolYearQuery,
  window: z.enum(GROWTH_WINDOWS, { message: invalid("growthWindow") }).optional(),
  schoolId: mapRecordId.optional(),
  classId: mapRecordId.optional(),
});
export type MapReportQuery = z.infer<typeof mapReportQuerySchema>;

/** One grade and subject of the growth report, or the subject's total over every grade. */
export interface MapReportRow {
  /** Null for the total, and for students whose grade is not known. */
  grade: number | null;
  total: boolean;
  subject: string;
  students: number;
  metProjected: number;
  /** Of those with a projection, 0–1. */
  shareMetProjected: number | null;
  medianConditionalGrowthPercentile: number | null;
  atTarget: number;
  shareAtTarget: number | null;
  medianMultiple: number | null;
}

export interface MapGrowthReport {
  schoolYear: number | null;
  window: GrowthWindow | null;
  /** What the school's results offer to choose from, latest first. */
  choices: { schoolYear: number; windows: GrowthWindow[] }[];
  rows: MapReportRow[];
}

/** Actual RIT against the projection and the student's RIT goal, per student and subject. */
export const mapActualsQuerySchema = z.object({
  schoolYear: schoolYearQuery,
  schoolId: mapRecordId.optional(),
  classId: mapRecordId.optional(),
  subject: mapSubjectQuery,
  search: mapSearch,
  ...mapPage,
});
export type MapActualsQuery = z.infer<typeof mapActualsQuerySchema>;

export const MAP_ACTUAL_STATUSES = [
  "goalReached",
  "aboveProjection",
  "belowProjection",
  "awaitingTest",
] as const;
export type MapActualStatus = (typeof MAP_ACTUAL_STATUSES)[number];

export interface MapActualRow {
  studentId: string;
  name: string;
  grade: number | null;
  subject: string;
  startTerm: string;
  startRit: number;
  latestTerm: string | null;
  latestRit: number | null;
  /** Fall RIT plus the fall-to-spring projection. */
  projectedRit: number | null;
  goalRit: number | null;
  goalDeadline: string | null;
  status: MapActualStatus;
}

export interface MapActualsPage {
  schoolYear: number | null;
  schoolYears: number[];
  /** The subjects tested in the fall of the school year. */
  subjects: string[];
  rows: MapActualRow[];
  total: number;
  page: number;
  perPage: number;
}

/** A term of the stored results. */
export interface MapTermSummary {
  termName: string;
  season: MapSeason;
  schoolYear: number;
  subjects: string[];
  students: number;
  tests: number;
  firstTestDate: string;
  lastTestDate: string;
}

/** A grade as a roster or an export writes it ("K", "KG", "3", "03") as a level, 0 for kindergarten; null for any other. */
export function gradeLevelOf(value: string | null): number | null {
  const text = value?.trim().toUpperCase() ?? "";
  if (text === "K" || text === "KG") return 0;
  return /^\d{1,2}$/.test(text) && Number(text) <= 12 ? Number(text) : null;
}

/** NWEA's spellings of a subject (MeasurementScale, Subject, short forms, Dash's own) → its scale. */
const MAP_SCALES = new Map([
  ["mathematics", "Mathematics"],
  ["math", "Mathematics"],
  ["reading", "Reading"],
  ["language usage", "Language Usage"],
  ["language", "Language Usage"],
  ["science - general science", "General Science"],
  ["general science", "General Science"],
  ["science", "General Science"],
]);

/** The MAP scale a subject names, so "Math" (a goal's) and "Mathematics" (the export's) are one; null if none. */
export function mapScaleOf(subject: string): string | null {
  return MAP_SCALES.get(subject.trim().replace(/\s+/g, " ").toLowerCase()) ?? null;
}

// ——— Placements, placement tests, screening and subject tracks ———

/**
 * Placements: per student and subject the grade they started at and the one they work at now
 * (0 is kindergarten), the placement tests they took at each grade, and the next one to take.
 * Screening: admissions tests of applicants. Subject tracks: the ordered courses of a subject, one
 * per grade level, so a placement level names the student's current course.
 */

export const PLACEMENT_TEST_STATUSES = ["PASSED", "FAILED", "STARTED", "NOT_STARTED", "SKIP"] as const;
export type PlacementTestStatus = (typeof PLACEMENT_TEST_STATUSES)[number];
/** A test with one of these needs no taking: the next test is the first without. */
export const PLACEMENT_TEST_DONE: readonly PlacementTestStatus[] = ["PASSED", "SKIP"];
/** A test with one of these was taken, so it has a date. */
export const PLACEMENT_TEST_TAKEN: readonly PlacementTestStatus[] = ["PASSED", "FAILED"];

/** Dash's subjects, offered first wherever a subject is chosen; any other name is taken too. */
export const DASH_SUBJECTS = [
  "Math",
  "Reading",
  "Language",
  "Science",
  "Writing",
  "Vocabulary",
  "Social Studies",
] as const;

export const SCREENING_DECISIONS = ["pending", "admit", "waitlist", "decline"] as const;
export type ScreeningDecision = (typeof SCREENING_DECISIONS)[number];

/** Placement grade levels: 0 is kindergarten, 12 the last grade. */
export const GRADE_LEVELS = { min: 0, max: 12 } as const;
export const SCREENING_RIT = { min: 100, max: 350 } as const;
export const MAX_BULK_PLACEMENT_STUDENTS = 1000;
export const MAX_TRACK_STEPS = 100;
/** A placement or screening CSV: the JSON API's body limit holds the whole form. */
export const MAX_PLACEMENT_UPLOAD_BYTES = 960 * 1024;
export const PLACEMENT_PAGE_SIZES = { default: 50, max: 500 } as const;

const recordId = z.string().trim().min(1).max(200);
const subjectName = z.string().trim().min(1, invalid("chooseSubject")).max(60);
export const gradeLevelSchema = z
  .number({ message: invalid("chooseGrade") })
  .int(invalid("chooseGrade"))
  .min(GRADE_LEVELS.min, invalid("chooseGrade"))
  .max(GRADE_LEVELS.max, invalid("chooseGrade"));
const reasonText = z.string().trim().min(1).max(500, invalid("reasonTooLong"));
const pageQuery = {
  page: z.coerce.number().int().min(0, invalid("offsetNegative")).default(0),
  perPage: z.coerce
    .number()
    .int()
    .min(1, invalid("limitTooSmall"))
    .max(PLACEMENT_PAGE_SIZES.max, invalid("limitAbove500"))
    .default(PLACEMENT_PAGE_SIZES.default),
};
const searchText = z.string().trim().max(200, invalid("searchTooLong")).optional();
/** A grade level in a query: "0".."12". */
const gradeQuery = z.coerce
  .number()
  .int(invalid("chooseGrade"))
  .min(GRADE_LEVELS.min, invalid("chooseGrade"))
  .max(GRADE_LEVELS.max, invalid("chooseGrade"))
  .optional();
const dateRangeQuery = {
  from: calendarDate().optional(),
  to: calendarDate().optional(),
};
const inOrder = (range: { from?: string; to?: string }) => !range.from || !range.to || range.from <= range.to;

// ── Placements ────────────────────────────────────────────────────────────────────────────────

/** POST /api/assessment/placements/:studentId/level: set or change a subject's level. */
export const placementLevelSchema = z.object({
  subject: subjectName,
  grade: gradeLevelSchema,
  reason: reasonText,
});
export type PlacementLevelInput = z.output<typeof placementLevelSchema>;

/** POST /api/assessment/placements/bulk: many students to one level of one subject, all or none. */
export const bulkPlacementSchema = placementLevelSchema.extend({
  studentIds: z.array(recordId).min(1, invalid("nameAtLeastOneStudent")).max(MAX_BULK_PLACEMENT_STUDENTS),
});
export type BulkPlacementInput = z.output<typeof bulkPlacementSchema>;

/** PUT /api/assessment/placements/:studentId/tests: a test result, kept once per subject, grade and name. */
export const placementTestSchema = z
  .object({
    subject: subjectName,
    gradeLevel: gradeLevelSchema,
    testName: z.string().trim().min(1).max(120),
    status: z.enum(PLACEMENT_TEST_STATUSES),
    score: z.number().min(0, invalid("scorePercent")).max(100, invalid("scorePercent")).nullable().optional(),
    takenOn: calendarDate().nullable().optional(),
  })
  .superRefine((test, context) => {
    if (PLACEMENT_TEST_TAKEN.includes(test.status) && !test.takenOn)
      context.addIssue({ code: "custom", path: ["takenOn"], message: invalid("realDate") });
  });
export type PlacementTestInput = z.output<typeof placementTestSchema>;

/** GET /api/assessment/placements: one student's placements; a student's own without `studentId`. */
export const placementQuerySchema = z.object({ studentId: recordId.optional() });

/** GET /api/assessment/placements/students (and /export.csv): students with their placements. */
export const placementListQuerySchema = z
  .object({
    ...pageQuery,
    schoolId: recordId.optional(),
    subject: subjectName.optional(),
    grade: gradeQuery,
    search: searchText,
  })
  .refine((query) => query.grade === undefined || query.subject !== undefined, {
    path: ["subject"],
    message: invalid("chooseSubject"),
  });
export type PlacementListQuery = z.output<typeof placementListQuerySchema>;

/** GET /api/assessment/placements/changes (and /changes.csv): level changes over time. */
export const placementReportQuerySchema = z
  .object({ ...pageQuery, schoolId: recordId.optional(), subject: subjectName.optional(), ...dateRangeQuery })
  .refine(inOrder, { path: ["from"], message: invalid("startDateAfterEndDate") });
export type PlacementReportQuery = z.output<typeof placementReportQuerySchema>;

/** The form of a placement or screening CSV upload: the file and `dryRun`, as the MAP import's. */
export const csvImportFormSchema = mapImportFormSchema;

export interface PlacementTestRecord {
  subject: string;
  gradeLevel: number;
  testName: string;
  status: PlacementTestStatus;
  score: number | null;
  takenOn: string | null;
  recordedAt: string;
}

export interface PlacementChangeRecord {
  id: string;
  subject: string;
  /** Null for the first placement. */
  fromGrade: number | null;
  toGrade: number;
  reason: string;
  changedBy: string | null;
  changedAt: string;
}

/** The course a level stands for on the subject's track. */
export interface TrackCourse {
  title: string;
  gradeLevel: number;
  courseId: string | null;
}

export interface SubjectPlacement {
  subject: string;
  /** Null while the subject has tests but no level yet. */
  startingGrade: number | null;
  currentGrade: number | null;
  updatedAt: string | null;
  currentCourse: TrackCourse | null;
  tests: PlacementTestRecord[];
  /** The first test at or above the current grade not passed or skipped; null when none is left. */
  nextTest: PlacementTestRecord | null;
  history: PlacementChangeRecord[];
}

export interface StudentPlacements {
  student: { id: string; name: string; grades: string[] };
  subjects: SubjectPlacement[];
  /** Whether the caller may set levels and record tests. */
  canEdit: boolean;
}

/** A row of the staff's tables: one student, a short line per subject. */
export interface PlacementSummary {
  subject: string;
  startingGrade: number;
  currentGrade: number;
  currentCourse: string | null;
  nextTest: { gradeLevel: number; testName: string; status: PlacementTestStatus } | null;
  updatedAt: string;
}

export interface PlacementStudentRow {
  id: string;
  name: string;
  email: string | null;
  grades: string[];
  schoolName: string | null;
  placements: PlacementSummary[];
}

export interface PlacementStudentList {
  students: PlacementStudentRow[];
  total: number;
  /** What the filters offer: the schools in reach and the subjects placed or tracked. */
  schools: { id: string; name: string }[];
  subjects: string[];
}

export interface BulkPlacementResult {
  changed: number;
  /** Students already at that level. */
  unchanged: number;
}

export interface PlacementReportRow extends PlacementChangeRecord {
  student: { id: string; name: string };
  schoolName: string | null;
}

export interface PlacementReport {
  changes: PlacementReportRow[];
  total: number;
  /** Changes per month (yyyy-MM) of the whole filtered range. */
  perMonth: { month: string; count: number }[];
  schools: { id: string; name: string }[];
  subjects: string[];
}

export interface CsvImportError {
  line: number;
  column: string | null;
  message: string;
}

/** The answer of a CSV import: nothing is stored unless every row can be. */
export interface CsvImportReport {
  dryRun: boolean;
  applied: boolean;
  rows: { read: number; changed: number; unchanged: number; rejected: number };
  errors: CsvImportError[];
}

// ── Screening ─────────────────────────────────────────────────────────────────────────────────

const ritScore = z.number().int().min(SCREENING_RIT.min).max(SCREENING_RIT.max);

/** POST /api/assessment/screening: one applicant's screening test. */
export const screeningInputSchema = z.object({
  applicantName: z.string().trim().min(1).max(200),
  studentId: recordId.nullable().optional(),
  subject: subjectName,
  grade: gradeLevelSchema,
  rit: ritScore.nullable().optional(),
  testName: z.string().trim().min(1).max(120),
  testedOn: calendarDate(),
  decision: z.enum(SCREENING_DECISIONS).default("pending"),
  notes: z.string().trim().max(2000).nullable().optional(),
});
export type ScreeningInput = z.output<typeof screeningInputSchema>;

/** PATCH /api/assessment/screening/:id: the decision, the notes, or the rostered student it is. */
export const screeningChangesSchema = changesOf({
  decision: z.enum(SCREENING_DECISIONS),
  notes: z.string().trim().max(2000).nullable(),
  studentId: recordId.nullable(),
});
export type ScreeningChanges = z.output<typeof screeningChangesSchema>;

export const screeningQuerySchema = z
  .object({
    ...pageQuery,
    subject: subjectName.optional(),
    decision: z.enum(SCREENING_DECISIONS).optional(),
    ...dateRangeQuery,
    search: searchText,
  })
  .refine(inOrder, { path: ["from"], message: invalid("startDateAfterEndDate") });
export type ScreeningQuery = z.output<typeof screeningQuerySchema>;

export interface ScreeningResult {
  id: string;
  applicantName: string;
  student: { id: string; name: string } | null;
  subject: string;
  grade: number;
  rit: number | null;
  testName: string;
  testedOn: string;
  decision: ScreeningDecision;
  notes: string | null;
  recordedBy: string | null;
  recordedAt: string;
}

export interface ScreeningList {
  results: ScreeningResult[];
  total: number;
  subjects: string[];
  /** Results per decision in the filtered list, for the summary chart. */
  decisions: Record<ScreeningDecision, number>;
}

// ── Subject tracks ────────────────────────────────────────────────────────────────────────────

/** POST /api/assessment/subject-tracks */
export const subjectTrackInputSchema = z.object({ subject: subjectName });

export const trackStepInputSchema = z.object({
  gradeLevel: gradeLevelSchema,
  title: z.string().trim().min(1).max(120),
  courseId: recordId.nullable().optional(),
});

/** PUT /api/assessment/subject-tracks/:trackId/steps: the whole ordered list, replacing the old one. */
export const trackStepsSchema = z.object({
  steps: z.array(trackStepInputSchema).max(MAX_TRACK_STEPS),
});
export type TrackStepsInput = z.output<typeof trackStepsSchema>;

export interface SubjectTrackStep {
  id: string;
  position: number;
  gradeLevel: number;
  title: string;
  courseId: string | null;
  courseTitle: string | null;
}

export interface SubjectTrack {
  id: string;
  subject: string;
  updatedBy: string | null;
  updatedAt: string;
  steps: SubjectTrackStep[];
}

// ——— Check charts ———

/**
 * A check chart: ordered levels of named checks (skills) a student works through and a Guide ticks
 * off as observed, each tick with the day it was seen. A level of an older chart can be mapped to
 * the placement grade it stands for (the legacy review).
 */

/** What a chart may hold. */
export const CHECK_CHART_LIMITS = {
  title: 120,
  subject: 60,
  description: 1_000,
  levels: 30,
  checksPerLevel: 60,
  name: 120,
  checkDescription: 240,
} as const;

/** Observations dated before this day are typing mistakes rather than history. */
export const EARLIEST_OBSERVATION = "2000-01-01";

const checkChartId = z.string().trim().min(1).max(200);
/**
 * The request's shape, with caps that only bound its size: what the chart's own rules refuse
 * (checkChartProblems) is said field by field in words.
 */
const draftText = z.string().trim().max(5_000);

/** POST /api/assessment/check-charts and PUT …/:chartId: the whole chart, levels and checks in order. */
export const checkChartDraftSchema = z.object({
  title: draftText,
  subject: draftText,
  description: draftText.default(""),
  /** The chart's `updatedAt` when it was read: saving over a later change is refused. */
  updatedAt: z.string().max(40).optional(),
  levels: z
    .array(
      z.object({
        /** An existing level's id, kept so its checks' observations stay; none for a new level. */
        id: checkChartId.optional(),
        name: draftText,
        checks: z
          .array(
            z.object({
              /** An existing check's id, kept so its observations stay; none for a new check. */
              id: checkChartId.optional(),
              name: draftText,
              description: draftText.default(""),
            }),
          )
          .max(200),
      }),
    )
    .max(100),
});
export type CheckChartDraft = z.input<typeof checkChartDraftSchema>;

export const CHECK_CHART_PROBLEMS = [
  "titleRequired",
  "titleTooLong",
  "subjectRequired",
  "subjectTooLong",
  "descriptionTooLong",
  "levelsRequired",
  "tooManyLevels",
  "levelNameRequired",
  "levelNameTooLong",
  "levelNameTwice",
  "checksRequired",
  "tooManyChecks",
  "checkNameRequired",
  "checkNameTooLong",
  "checkNameTwice",
  "checkDescriptionTooLong",
  "idTwice",
] as const;
export type CheckChartProblem = (typeof CHECK_CHART_PROBLEMS)[number];

export interface CheckChartIssue {
  /** The field, as in `levels.2.checks.0.name`. */
  path: string;
  problem: CheckChartProblem;
  /** The limit the value goes past, for the messages that say it. */
  limit?: number;
}

/**
 * What keeps a chart from being saved, field by field: the editor shows these before sending and
 * the server refuses a chart with any. Names are compared without case or surrounding spaces.
 */
export function checkChartProblems(draft: CheckChartDraft): CheckChartIssue[] {
  const issues: CheckChartIssue[] = [];
  const limits = CHECK_CHART_LIMITS;
  const text = (value: string | undefined) => (value ?? "").trim();
  const say = (path: string, problem: CheckChartProblem, limit?: number) =>
    issues.push(limit === undefined ? { path, problem } : { path, problem, limit });
  const required = (
    path: string,
    value: string,
    max: number,
    missing: CheckChartProblem,
    long: CheckChartProblem,
  ) => {
    if (!value) say(path, missing);
    else if (value.length > max) say(path, long, max);
  };

  required("title", text(draft.title), limits.title, "titleRequired", "titleTooLong");
  required("subject", text(draft.subject), limits.subject, "subjectRequired", "subjectTooLong");
  if (text(draft.description).length > limits.description)
    say("description", "descriptionTooLong", limits.description);
  if (draft.levels.length === 0) say("levels", "levelsRequired");
  if (draft.levels.length > limits.levels) say("levels", "tooManyLevels", limits.levels);

  const ids = new Set<string>();
  const isSeenTwice = (id: string | undefined) => {
    if (!id) return false;
    if (ids.has(id)) return true;
    ids.add(id);
    return false;
  };
  const levelNames = new Set<string>();
  draft.levels.forEach((level, levelIndex) => {
    const at = `levels.${levelIndex}`;
    const name = text(level.name);
    required(`${at}.name`, name, limits.name, "levelNameRequired", "levelNameTooLong");
    if (name && levelNames.has(name.toLowerCase())) say(`${at}.name`, "levelNameTwice");
    levelNames.add(name.toLowerCase());
    if (isSeenTwice(level.id)) say(`${at}.id`, "idTwice");
    if (level.checks.length === 0) say(`${at}.checks`, "checksRequired");
    if (level.checks.length > limits.checksPerLevel)
      say(`${at}.checks`, "tooManyChecks", limits.checksPerLevel);
    const checkNames = new Set<string>();
    level.checks.forEach((check, checkIndex) => {
      const checkAt = `${at}.checks.${checkIndex}`;
      const checkName = text(check.name);
      required(`${checkAt}.name`, checkName, limits.name, "checkNameRequired", "checkNameTooLong");
      if (checkName && checkNames.has(checkName.toLowerCase())) say(`${checkAt}.name`, "checkNameTwice");
      checkNames.add(checkName.toLowerCase());
      if (text(check.description).length > limits.checkDescription)
        say(`${checkAt}.description`, "checkDescriptionTooLong", limits.checkDescription);
      if (isSeenTwice(check.id)) say(`${checkAt}.id`, "idTwice");
    });
  });
  return issues;
}

/**
 * A student's working level: the first level (in order) with a check not yet observed. Null when
 * every check is observed (the chart is completed) or the chart has none. Levels are given as
 * their counts of checks and of the student's observed checks.
 */
export function workingLevelIndex(
  levels: readonly { checkCount: number; observedCount: number }[],
): number | null {
  const index = levels.findIndex((level) => level.observedCount < level.checkCount);
  return index < 0 ? null : index;
}

/** GET /api/assessment/check-charts: the caller's charts, or a student's (`studentId`) with their progress. */
export const checkChartListQuerySchema = z.object({ studentId: checkChartId.optional() });

/** PUT …/students/:studentId/checks/:checkId: the day the check was seen, today or before. */
export const checkObservationSchema = z.object({ observedOn: calendarDate() });

/** PUT …/levels/:levelId/mapping: the placement grade a level stands for, or null to clear it. */
export const levelMappingSchema = z.object({
  grade: z
    .number({ message: invalid("wholeNumberOnly") })
    .int(invalid("wholeNumberOnly"))
    .min(GRADE_LEVELS.min, invalid("atLeast"))
    .max(GRADE_LEVELS.max, invalid("atMost"))
    .nullable(),
});

const personSchema = z.object({ id: z.string(), name: z.string().nullable() });

export const checkChartSchema = z.object({
  id: z.string(),
  title: z.string(),
  subject: z.string(),
  description: z.string(),
  createdBy: personSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  canEdit: z.boolean(),
  canDelete: z.boolean(),
  levels: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      mappedGrade: z.number().int().nullable(),
      checks: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          description: z.string(),
          /** Students who have it observed; only for those who may edit the chart, else null. */
          observationCount: z.number().int().nullable(),
        }),
      ),
    }),
  ),
});
export type CheckChart = z.infer<typeof checkChartSchema>;

/** A student's progress through a chart in a few figures. */
export const chartProgressSummarySchema = z.object({
  observed: z.number().int(),
  total: z.number().int(),
  /** The level they work at; null once every check is observed. */
  workingLevel: z.object({ index: z.number().int(), name: z.string() }).nullable(),
});
export type ChartProgressSummary = z.infer<typeof chartProgressSummarySchema>;

export const checkChartSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  subject: z.string(),
  description: z.string(),
  createdBy: personSchema,
  updatedAt: z.string(),
  levelCount: z.number().int(),
  checkCount: z.number().int(),
  canEdit: z.boolean(),
  canDelete: z.boolean(),
  /** The student's progress, when the list is a student's. */
  progress: chartProgressSummarySchema.nullable(),
});
export type CheckChartSummary = z.infer<typeof checkChartSummarySchema>;

export const checkChartListSchema = z.object({
  /** Whose charts these are: a student's (theirs, of their subjects or with progress), or null for every chart. */
  student: z.object({ id: z.string(), name: z.string() }).nullable(),
  charts: z.array(checkChartSummarySchema),
  canCreate: z.boolean(),
});
export type CheckChartList = z.infer<typeof checkChartListSchema>;

export const checkObservationRecordSchema = z.object({
  observedOn: z.string(),
  observedBy: z.string().nullable(),
  recordedAt: z.string(),
});

/** GET …/:chartId/students/:studentId: one student's ticks through a chart. */
export const studentChartProgressSchema = z.object({
  chart: z.object({ id: z.string(), title: z.string(), subject: z.string(), description: z.string() }),
  student: z.object({ id: z.string(), name: z.string(), grades: z.array(z.string()) }),
  levels: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      checks: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          description: z.string(),
          observation: checkObservationRecordSchema.nullable(),
        }),
      ),
    }),
  ),
  /** Null once every check is observed. */
  workingLevelId: z.string().nullable(),
  /** Whether the caller may tick and untick this student's checks. */
  canObserve: z.boolean(),
  /** Today in the school's time zone: the latest day an observation can have. */
  today: z.string(),
});
export type StudentChartProgress = z.infer<typeof studentChartProgressSchema>;

/** GET …/:chartId/classes/:classId: the class's students through the chart's levels. */
export const classChartProgressSchema = z.object({
  chart: z.object({ id: z.string(), title: z.string(), subject: z.string() }),
  class: z.object({ id: z.string(), title: z.string(), schoolName: z.string().nullable() }),
  levels: z.array(z.object({ id: z.string(), name: z.string(), checkCount: z.number().int() })),
  students: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      grades: z.array(z.string()),
      /** Observed checks per level, in the levels' order. */
      observed: z.array(z.number().int()),
      /** Null once every check is observed. */
      workingLevelIndex: z.number().int().nullable(),
      lastObservedOn: z.string().nullable(),
    }),
  ),
});
export type ClassChartProgress = z.infer<typeof classChartProgressSchema>;

/** GET /api/assessment/check-charts/legacy-review: every chart's levels, their mapping and the students at each. */
export const legacyReviewSchema = z.object({
  charts: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      subject: z.string(),
      /** Students with every check observed. */
      completedCount: z.number().int(),
      levels: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          checkCount: z.number().int(),
          mappedGrade: z.number().int().nullable(),
          mappedBy: personSchema.nullable(),
          mappedAt: z.string().nullable(),
          /** Students with progress in the chart whose working level this is. */
          students: z.array(
            z.object({
              id: z.string(),
              name: z.string(),
              /** Their current placement grade in the chart's subject, if placed. */
              placementGrade: z.number().int().nullable(),
              /** Whether that placement is not the level's mapped grade (both known). */
              differs: z.boolean(),
            }),
          ),
        }),
      ),
    }),
  ),
});
export type LegacyReview = z.infer<typeof legacyReviewSchema>;

export const levelMappingResultSchema = z.object({
  mappedGrade: z.number().int().nullable(),
  mappedBy: personSchema.nullable(),
  mappedAt: z.string().nullable(),
});
