import {
  type GoalAreaScore,
  GROWTH_WINDOWS,
  type GrowthWindow,
  gradeLevelOf,
  MAP_BANDS,
  type MapBand,
  type MapSeason,
  type MapTestEvent,
  type ReportedGrowth,
} from "../../../shared/contracts/assessment";
import { type Message, message } from "../../lib/i18n";

/**
 * The columns of NWEA MAP Growth exports, read into test events: the pre-2015 and post-2015
 * Comprehensive Data File (AssessmentResults.csv, with StudentsBySchool.csv beside it) and the
 * current single-file Combined Data File. Columns are found by name, so their order does not
 * matter, and a column a generation lacks reads as empty. A value that cannot be read is a problem
 * naming its column as the header writes it; nothing here touches the database.
 */

export type MapGeneration = "cdf-2013" | "cdf-2015" | "combined";

/** A column found in a header: where it stands, and its name as written there (for the messages). */
export interface HeaderColumn {
  index: number;
  name: string;
}

type HeaderColumns<Column extends string> = Partial<Record<Column, HeaderColumn>>;

/** A value that could not be read, and the column it stands in. */
export interface MapProblem {
  column: string | null;
  message: Message;
}

const GOAL_NUMBERS = [1, 2, 3, 4, 5, 6, 7, 8] as const;
const GOAL_FIELDS = ["Name", "RitScore", "StdErr", "Range", "Adjective"] as const;
const GROWTH_FIELDS = [
  "ProjectedGrowth",
  "ObservedGrowth",
  "ObservedGrowthSE",
  "MetProjectedGrowth",
  "ConditionalGrowthIndex",
  "ConditionalGrowthPercentile",
  "GrowthQuintile",
] as const;

/** A growth window as the columns spell it: FallToSpring. */
type WindowName = Capitalize<GrowthWindow>;
type GoalColumn = `Goal${(typeof GOAL_NUMBERS)[number]}${(typeof GOAL_FIELDS)[number]}`;
type GrowthColumn = `${WindowName}${(typeof GROWTH_FIELDS)[number]}` | `Typical${WindowName}Growth`;

const TEST_COLUMNS = [
  "TermName",
  "StudentID",
  "StudentFirstName",
  "StudentLastName",
  "Grade",
  "SchoolName",
  "MeasurementScale",
  "Subject",
  "Discipline",
  "Course",
  "TestType",
  "GrowthMeasureYN",
  "TestName",
  "TestID",
  "TestStartDate",
  "TestStartTime",
  "TestDurationMinutes",
  "TestRITScore",
  "TestStandardError",
  "TestPercentile",
  "AchievementQuintile",
  "PercentCorrect",
  "RapidGuessingPercentage",
  "LexileScore",
  "RITtoReadingScore",
  // Read only to tell the post-2015 CDF from the older one.
  "WISelectedAYFall",
] as const;

export type MapColumn = (typeof TEST_COLUMNS)[number] | GoalColumn | GrowthColumn;

const windowName = (window: GrowthWindow) =>
  `${window.charAt(0).toUpperCase()}${window.slice(1)}` as WindowName;

const MAP_COLUMNS: MapColumn[] = [
  ...TEST_COLUMNS,
  ...GOAL_NUMBERS.flatMap((n) => GOAL_FIELDS.map((field): GoalColumn => `Goal${n}${field}`)),
  ...GROWTH_WINDOWS.map(windowName).flatMap((window): GrowthColumn[] => [
    ...GROWTH_FIELDS.map((field): GrowthColumn => `${window}${field}`),
    `Typical${window}Growth`,
  ]),
];

const REQUIRED_MAP_COLUMNS = ["TermName", "StudentID", "TestRITScore", "TestStartDate"] as const;

/** The norms put RIT scores at about 110–270: a value outside 100–350 is a slip, not a score. */
const RIT = { min: 100, max: 350 };
const PERCENTILE = { min: 1, max: 99 };

export interface MapHeader {
  generation: MapGeneration;
  columns: HeaderColumns<MapColumn>;
}

/**
 * The columns of an export's header, or the required ones it lacks: TermName, StudentID,
 * TestRITScore, TestStartDate and the subject (MeasurementScale, or Subject in the combined file).
 */
export function readMapHeader(fields: string[]): MapHeader | { missing: string[] } {
  const columns = findColumns(fields, MAP_COLUMNS);
  const missing: string[] = REQUIRED_MAP_COLUMNS.filter((column) => !columns[column]);
  if (!columns.MeasurementScale && !columns.Subject) {
    missing.push(columns.StudentLastName ? "Subject" : "MeasurementScale");
  }
  return missing.length > 0 ? { missing } : { generation: generationOf(columns), columns };
}

/** Only the combined file has student names; only the post-2015 CDF has the WISelected columns too. */
function generationOf(columns: HeaderColumns<MapColumn>): MapGeneration {
  if (columns.StudentLastName && columns.Subject) return "combined";
  if (columns.WISelectedAYFall && !columns.StudentLastName) return "cdf-2015";
  return "cdf-2013";
}

/**
 * The known columns of a header, whatever their order and case; trim() also drops a byte-order
 * mark, which JavaScript counts as white space. Matching without case reads `FalltoFall…`, as
 * some exports spell the fall-to-fall columns. A column written twice is read where it first stands.
 */
function findColumns<Column extends string>(
  fields: string[],
  known: readonly Column[],
): HeaderColumns<Column> {
  const byName = new Map(known.map((column) => [column.toLowerCase(), column]));
  const columns: HeaderColumns<Column> = {};
  for (const [index, field] of fields.entries()) {
    const name = field.trim();
    const column = byName.get(name.toLowerCase());
    if (column !== undefined && !columns[column]) columns[column] = { index, name };
  }
  return columns;
}

interface ReadOptions {
  /** An empty value is a problem too. */
  required?: boolean;
}
const REQUIRED: ReadOptions = { required: true };

/** One row's cells by column, noting a problem for every value present but unreadable. */
class RowCells<Column extends string> {
  readonly problems: MapProblem[] = [];

  constructor(
    private readonly columns: HeaderColumns<Column>,
    private readonly fields: string[],
  ) {}

  /** The trimmed value; an empty one, or one of a column the header lacks, is null. */
  text(column: Column): string | null {
    const at = this.columns[column];
    const value = at ? (this.fields[at.index] ?? "").trim() : "";
    return value === "" ? null : value;
  }

  /** The value as `parse` reads it; one it cannot read is a problem that `why` explains. */
  read<T>(
    column: Column,
    parse: (value: string) => T | null,
    why: (value: string) => Message,
    { required = false }: ReadOptions = {},
  ): T | null {
    const value = this.text(column);
    if (value === null) return required ? this.missing(column) : null;
    const parsed = parse(value);
    if (parsed === null) this.problem(column, why(value));
    return parsed;
  }

  missing(column: Column): null {
    this.problem(column, message("assessment:import.required", { column: this.nameOf(column) }));
    return null;
  }

  number(column: Column): number | null {
    return this.read(column, parseNumber, notNumber);
  }

  between(column: Column, { min, max }: { min: number; max: number }, options?: ReadOptions): number | null {
    const within = (value: string) => {
      const number = parseNumber(value);
      return number !== null && number >= min && number <= max ? number : null;
    };
    const why = (value: string) => message("assessment:import.notBetween", { value, min, max });
    return this.read(column, within, why, options);
  }

  /** NWEA's bands; anything else (the `*` of a goal NWEA could not score) is no band, not a problem. */
  band(column: Column): MapBand | null {
    const value = this.text(column)?.toLowerCase();
    return MAP_BANDS.find((band) => band.toLowerCase() === value) ?? null;
  }

  private problem(column: Column, why: Message): void {
    this.problems.push({ column: this.nameOf(column), message: why });
  }

  private nameOf(column: Column): string {
    return this.columns[column]?.name ?? column;
  }
}

/**
 * One row of an export as a test event, or every problem of the row. Each value is trimmed and an
 * empty one is null; the subject is MeasurementScale (CDF) or Subject (combined file).
 */
export function readMapRow(
  header: MapHeader,
  fields: string[],
): { event: MapTestEvent } | { problems: MapProblem[] } {
  const cells = new RowCells(header.columns, fields);
  const studentId = cells.text("StudentID") ?? cells.missing("StudentID");
  const termName = cells.text("TermName");
  const term = cells.read("TermName", parseTerm, notTerm, REQUIRED);
  const subject =
    cells.text("MeasurementScale") ??
    cells.text("Subject") ??
    cells.missing(header.columns.MeasurementScale ? "MeasurementScale" : "Subject");
  const testDate = cells.read("TestStartDate", parseDate, dateProblem, REQUIRED);
  const rit = cells.between("TestRITScore", RIT, REQUIRED);
  const details = readDetails(cells);
  if (
    cells.problems.length > 0 ||
    studentId === null ||
    termName === null ||
    term === null ||
    subject === null ||
    testDate === null ||
    rit === null
  ) {
    return { problems: cells.problems };
  }
  return { event: { studentId, termName, ...term, subject, testDate, rit, ...details } };
}

type TestDetails = Omit<
  MapTestEvent,
  "studentId" | "termName" | "season" | "schoolYear" | "subject" | "testDate" | "rit"
>;

/** The values a row may leave empty. */
function readDetails(cells: RowCells<MapColumn>): TestDetails {
  return {
    schoolName: cells.text("SchoolName"),
    discipline: cells.text("Discipline") ?? cells.text("Course"),
    testName: cells.text("TestName"),
    testId: cells.text("TestID"),
    testType: cells.text("TestType"),
    // Exports without the column count every test for growth.
    growthMeasure: cells.read("GrowthMeasureYN", parseMet, notYesOrNo) ?? true,
    testStartTime: cells.text("TestStartTime"),
    durationMinutes: cells.number("TestDurationMinutes"),
    standardError: cells.number("TestStandardError"),
    percentile: cells.between("TestPercentile", PERCENTILE),
    achievementQuintile: cells.band("AchievementQuintile"),
    percentCorrect: cells.number("PercentCorrect"),
    rapidGuessingPercent: cells.number("RapidGuessingPercentage"),
    // The combined file's Lexile, or the CDF's RIT to Reading score (the same measure, older name).
    lexile: cells.text("LexileScore") ?? cells.text("RITtoReadingScore"),
    grade: cells.read("Grade", gradeLevelOf, notGrade),
    goals: readGoals(cells),
    growth: readGrowth(cells),
    firstName: cells.text("StudentFirstName"),
    lastName: cells.text("StudentLastName"),
  };
}

/** The goal areas with a name: an export leaves the goals a test does not have empty. */
function readGoals(cells: RowCells<MapColumn>): GoalAreaScore[] {
  return GOAL_NUMBERS.flatMap((n) => {
    const name = cells.text(`Goal${n}Name`);
    if (name === null) return [];
    const range = cells.read(`Goal${n}Range`, parseRange, notRange);
    return [
      {
        name,
        rit: cells.number(`Goal${n}RitScore`),
        standardError: cells.number(`Goal${n}StdErr`),
        rangeLow: range?.low ?? null,
        rangeHigh: range?.high ?? null,
        band: cells.band(`Goal${n}Adjective`),
      },
    ];
  });
}

/**
 * The windows the row gives any growth value for. NWEA fills the growth of a window on the row of
 * its end term, and the typical growth on the row of its start term.
 */
function readGrowth(cells: RowCells<MapColumn>): Partial<Record<GrowthWindow, ReportedGrowth>> {
  const growth: Partial<Record<GrowthWindow, ReportedGrowth>> = {};
  for (const window of GROWTH_WINDOWS) {
    const reported = readWindow(cells, windowName(window));
    if (Object.values(reported).some((value) => value !== null)) growth[window] = reported;
  }
  return growth;
}

function readWindow(cells: RowCells<MapColumn>, window: WindowName): ReportedGrowth {
  return {
    projected: cells.number(`${window}ProjectedGrowth`),
    observed: cells.number(`${window}ObservedGrowth`),
    observedStandardError: cells.number(`${window}ObservedGrowthSE`),
    met: cells.read(`${window}MetProjectedGrowth`, parseMet, notYesOrNo),
    conditionalGrowthIndex: cells.number(`${window}ConditionalGrowthIndex`),
    conditionalGrowthPercentile: cells.number(`${window}ConditionalGrowthPercentile`),
    quintile: cells.band(`${window}GrowthQuintile`),
    typical: cells.number(`Typical${window}Growth`),
  };
}

// ── Values ─────────────────────────────────────────────────────────────────────────────────────

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;
const TERM = /^(Fall|Winter|Spring)\s+(\d{4})-(\d{4})$/i;
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const RANGE = /^(\d+)\s*-\s*(\d+)$/;
/** Yes/No in newer exports (`Yes*` carries a footnote mark), TRUE/FALSE in older ones. */
const MET = new Map([
  ["yes", true],
  ["true", true],
  ["no", false],
  ["false", false],
]);

/** Plain decimals only: Number() would also take "0x1F", "1e3" or "Infinity". */
const parseNumber = (value: string) => (NUMBER.test(value) ? Number(value) : null);

/** "Fall 2025-2026": the season, and the school year by its first year; the two years must follow. */
function parseTerm(value: string): { season: MapSeason; schoolYear: number } | null {
  const [, season, first, second] = TERM.exec(value) ?? [];
  if (season === undefined || Number(second) !== Number(first) + 1) return null;
  return { season: season.toLowerCase() as MapSeason, schoolYear: Number(first) };
}

/** Year, month and day of M/D/YYYY (as NWEA writes dates) or YYYY-MM-DD. */
function dateParts(value: string): [number, number, number] | null {
  const us = US_DATE.exec(value);
  if (us) return [Number(us[3]), Number(us[1]), Number(us[2])];
  const iso = ISO_DATE.exec(value);
  return iso ? [Number(iso[1]), Number(iso[2]), Number(iso[3])] : null;
}

/** The date as yyyy-mm-dd, when it is a day of the calendar (not 9/31 or 13/1). */
function parseDate(value: string): string | null {
  const parts = dateParts(value);
  if (!parts) return null;
  const [year, month, day] = parts;
  const date = new Date(Date.UTC(year, month - 1, day));
  const isReal =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return isReal ? date.toISOString().slice(0, 10) : null;
}

/** A goal's RIT range, "222-231". */
function parseRange(value: string): { low: number; high: number } | null {
  const [, low, high] = RANGE.exec(value) ?? [];
  return low === undefined ? null : { low: Number(low), high: Number(high) };
}

const parseMet = (value: string) => MET.get(value.replace(/\*+$/, "").toLowerCase()) ?? null;

const notNumber = (value: string) => message("assessment:import.notNumber", { value });
const notTerm = (value: string) => message("assessment:import.notTerm", { value });
const notRange = (value: string) => message("assessment:import.notRange", { value });
const notYesOrNo = (value: string) => message("assessment:import.notYesOrNo", { value });
const notGrade = (value: string) => message("assessment:import.notGrade", { value });
const dateProblem = (value: string) =>
  dateParts(value)
    ? message("assessment:import.noSuchDate", { value })
    : message("assessment:import.notDate", { value });

// ── StudentsBySchool.csv ───────────────────────────────────────────────────────────────────────

/** The columns of the CDF's student file that Dash reads (it also has district, birth date, …). */
const STUDENT_COLUMNS = [
  "StudentID",
  "TermName",
  "StudentFirstName",
  "StudentLastName",
  "SchoolName",
  "Grade",
] as const;
type StudentColumn = (typeof STUDENT_COLUMNS)[number];

export interface StudentsHeader {
  columns: HeaderColumns<StudentColumn>;
}

/** A student of StudentsBySchool.csv: the names and grade the CDF's results file leaves out. */
export interface MapStudent {
  studentId: string;
  termName: string | null;
  firstName: string | null;
  lastName: string | null;
  schoolName: string | null;
  grade: number | null;
}

export function readStudentsHeader(fields: string[]): StudentsHeader | { missing: string[] } {
  const columns = findColumns(fields, STUDENT_COLUMNS);
  return columns.StudentID ? { columns } : { missing: ["StudentID"] };
}

/**
 * One student of the file, or null for a row without a StudentID. The file only names the
 * students of the results, so a grade it writes oddly is left out rather than refused.
 */
export function readStudentRow(header: StudentsHeader, fields: string[]): MapStudent | null {
  const cells = new RowCells(header.columns, fields);
  const studentId = cells.text("StudentID");
  if (studentId === null) return null;
  const grade = cells.text("Grade");
  return {
    studentId,
    termName: cells.text("TermName"),
    firstName: cells.text("StudentFirstName"),
    lastName: cells.text("StudentLastName"),
    schoolName: cells.text("SchoolName"),
    grade: grade === null ? null : gradeLevelOf(grade),
  };
}

// ── The files of a package ─────────────────────────────────────────────────────────────────────

/**
 * The files of a CDF package. Dash reads the results and the students; the others are accepted,
 * unread, so that a package uploaded as NWEA sends it is not refused for them.
 */
export const MAP_FILES = [
  { name: "AssessmentResults.csv", role: "results", required: true, isRead: true },
  { name: "StudentsBySchool.csv", role: "students", required: false, isRead: true },
  { name: "ClassAssignments.csv", role: "classAssignments", required: false, isRead: false },
  { name: "AccommodationAssignment.csv", role: "accommodationAssignment", required: false, isRead: false },
  { name: "ProgramAssignments.csv", role: "programAssignments", required: false, isRead: false },
] as const;

export type MapFileRole = (typeof MAP_FILES)[number]["role"];

/**
 * The role of a file by its name, in any case and any folder of the archive; null for another name.
 * The Combined Data File has no fixed name: whether a lone CSV is one is the caller's decision.
 */
export function roleOfFile(name: string): MapFileRole | null {
  const fileName = name.slice(name.lastIndexOf("/") + 1).toLowerCase();
  return MAP_FILES.find((file) => file.name.toLowerCase() === fileName)?.role ?? null;
}
