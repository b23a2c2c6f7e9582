import { sql } from "drizzle-orm";
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type {
  GoalAreaScore,
  GrowthWindow,
  MapImportRowCounts,
  MapTestEvent,
  ReportedGrowth,
} from "../../../shared/contracts/assessment";
import { users } from "../rostering/schema";

/**
 * A student's MAP Growth test in one term and subject, as the school's NWEA export gave it. One
 * per student, term, subject and test: a later import of the same test replaces it, and one whose
 * figures are the same (`contentHash`) changes nothing.
 */
export const mapResults = pgTable(
  "map_results",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    studentSourcedId: text("student_sourced_id")
      .notNull()
      .references(() => users.sourcedId, { onDelete: "cascade" }),
    /** NWEA's StudentID as the export wrote it. */
    nweaStudentId: text("nwea_student_id").notNull(),
    termName: text("term_name").notNull(),
    season: text("season").notNull(),
    schoolYear: integer("school_year").notNull(),
    subject: text("subject").notNull(),
    discipline: text("discipline"),
    testName: text("test_name"),
    /** Which test of the term and subject this is: its name (a term may hold an end-of-course test too). */
    testKey: text("test_key").notNull(),
    testId: text("test_id"),
    testType: text("test_type"),
    growthMeasure: boolean("growth_measure").notNull().default(true),
    testDate: date("test_date").notNull(),
    testStartTime: text("test_start_time"),
    durationMinutes: integer("duration_minutes"),
    rit: integer("rit").notNull(),
    standardError: numeric("standard_error", { precision: 5, scale: 2, mode: "number" }),
    percentile: integer("percentile"),
    achievementQuintile: text("achievement_quintile"),
    percentCorrect: numeric("percent_correct", { precision: 5, scale: 2, mode: "number" }),
    rapidGuessingPercent: numeric("rapid_guessing_percent", { precision: 5, scale: 2, mode: "number" }),
    lexile: text("lexile"),
    grade: integer("grade"),
    schoolName: text("school_name"),
    goals: jsonb("goals").$type<GoalAreaScore[]>().notNull().default(sql`'[]'::jsonb`),
    /** The export's growth columns for the windows ending at this test. */
    growth: jsonb("growth")
      .$type<Partial<Record<GrowthWindow, ReportedGrowth>>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    contentHash: text("content_hash").notNull(),
    importId: uuid("import_id"),
    importedAt: timestamp("imported_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex("map_results_student_term_idx").on(
      table.studentSourcedId,
      table.subject,
      table.schoolYear,
      table.season,
      table.testKey,
    ),
    index("map_results_term_idx").on(table.schoolYear, table.season, table.subject),
  ],
);

/** An NWEA StudentID an administrator tied to a student: it matches before anything else. */
export const mapStudentLinks = pgTable("map_student_links", {
  nweaStudentId: text("nwea_student_id").primaryKey(),
  studentSourcedId: text("student_sourced_id")
    .notNull()
    .references(() => users.sourcedId, { onDelete: "cascade" }),
  linkedBy: text("linked_by").notNull(),
  linkedAt: timestamp("linked_at", { withTimezone: true }).notNull(),
});

/** Rows of an import no student matched, kept until an administrator links their StudentID. */
export const mapUnmatchedRows = pgTable(
  "map_unmatched_rows",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    nweaStudentId: text("nwea_student_id").notNull(),
    name: text("name"),
    schoolName: text("school_name"),
    termName: text("term_name").notNull(),
    subject: text("subject").notNull(),
    testKey: text("test_key").notNull(),
    line: integer("line").notNull(),
    event: jsonb("event").$type<MapTestEvent>().notNull(),
    importId: uuid("import_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    // A row read again by a later import replaces the earlier one.
    uniqueIndex("map_unmatched_rows_key_idx").on(
      table.nweaStudentId,
      table.subject,
      table.termName,
      table.testKey,
    ),
  ],
);

/** Each applied import: who, which file, and its counts. */
export const mapImports = pgTable("map_imports", {
  id: uuid("id").primaryKey().defaultRandom(),
  fileName: text("file_name").notNull(),
  importedBy: text("imported_by").notNull(),
  rows: jsonb("rows").$type<MapImportRowCounts>().notNull(),
  importedAt: timestamp("imported_at", { withTimezone: true }).notNull(),
});

/**
 * The growth of every window two of a student's growth tests span (as studentMapResults shows it),
 * kept when results change so the school's reports aggregate it in SQL. One per student, subject,
 * window and school year of its end.
 */
export const mapGrowth = pgTable(
  "map_growth",
  {
    studentSourcedId: text("student_sourced_id")
      .notNull()
      .references(() => users.sourcedId, { onDelete: "cascade" }),
    subject: text("subject").notNull(),
    schoolYear: integer("school_year").notNull(),
    window: text("window").notNull(),
    fromTerm: text("from_term").notNull(),
    toTerm: text("to_term").notNull(),
    /** The grade at the end test, from the export or else the roster. */
    grade: integer("grade"),
    endTestDate: date("end_test_date").notNull(),
    startRit: integer("start_rit").notNull(),
    endRit: integer("end_rit").notNull(),
    observed: integer("observed").notNull(),
    projected: numeric("projected", { precision: 6, scale: 2, mode: "number" }),
    conditionalGrowthPercentile: integer("conditional_growth_percentile"),
    metProjected: boolean("met_projected"),
    multiple: numeric("multiple", { precision: 7, scale: 2, mode: "number" }),
    reachesTarget: boolean("reaches_target"),
  },
  (table) => [
    primaryKey({ columns: [table.studentSourcedId, table.subject, table.schoolYear, table.window] }),
    index("map_growth_window_idx").on(table.schoolYear, table.window, table.subject),
  ],
);

/**
 * Per subject, the ordered courses a student moves through from grade to grade. A placement's
 * grade level names a step of its subject's track, and the step's course is the student's current one.
 */
export const subjectTracks = pgTable("subject_tracks", {
  id: uuid("id").primaryKey().defaultRandom(),
  subject: text("subject").notNull().unique(),
  updatedBy: text("updated_by").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
});

/**
 * One course of a track, at its position. Its grade level is the placement level it stands for; where
 * two courses share a grade, the earlier one is where a student of that level is.
 */
export const subjectTrackSteps = pgTable(
  "subject_track_steps",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    trackId: uuid("track_id")
      .notNull()
      .references(() => subjectTracks.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    /** The grade the course is taught at: 0 is kindergarten. */
    gradeLevel: integer("grade_level").notNull(),
    title: text("title").notNull(),
    courseSourcedId: text("course_sourced_id"),
  },
  (table) => [index("subject_track_steps_track_idx").on(table.trackId, table.position)],
);

/** A student's level in a subject: the grade they started at and the one they work at now. */
export const placements = pgTable(
  "placements",
  {
    studentSourcedId: text("student_sourced_id")
      .notNull()
      .references(() => users.sourcedId, { onDelete: "cascade" }),
    subject: text("subject").notNull(),
    startingGrade: integer("starting_grade").notNull(),
    currentGrade: integer("current_grade").notNull(),
    updatedBy: text("updated_by").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.studentSourcedId, table.subject] })],
);

/** Every change of a placement level, with who made it and why: the placement report reads these. */
export const placementChanges = pgTable(
  "placement_changes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    studentSourcedId: text("student_sourced_id")
      .notNull()
      .references(() => users.sourcedId, { onDelete: "cascade" }),
    subject: text("subject").notNull(),
    /** Null when the change set the first placement. */
    fromGrade: integer("from_grade"),
    toGrade: integer("to_grade").notNull(),
    reason: text("reason").notNull(),
    changedBy: text("changed_by").notNull(),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    index("placement_changes_student_idx").on(table.studentSourcedId, table.subject, table.changedAt),
  ],
);

/** A placement test of a subject at a grade level, and how the student did on it. */
export const placementTests = pgTable(
  "placement_tests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    studentSourcedId: text("student_sourced_id")
      .notNull()
      .references(() => users.sourcedId, { onDelete: "cascade" }),
    subject: text("subject").notNull(),
    gradeLevel: integer("grade_level").notNull(),
    testName: text("test_name").notNull(),
    /** PASSED, FAILED, STARTED, NOT_STARTED or SKIP. */
    status: text("status").notNull(),
    score: numeric("score", { precision: 5, scale: 2, mode: "number" }),
    takenOn: date("taken_on"),
    recordedBy: text("recorded_by").notNull(),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex("placement_tests_student_test_idx").on(
      table.studentSourcedId,
      table.subject,
      table.gradeLevel,
      table.testName,
    ),
  ],
);

/**
 * An admissions screening test of an applicant (who may not be rostered yet) or a student. One per
 * applicant, subject, test and date, so importing the same file again changes nothing.
 */
export const screeningResults = pgTable(
  "screening_results",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    applicantName: text("applicant_name").notNull(),
    studentSourcedId: text("student_sourced_id").references(() => users.sourcedId, { onDelete: "set null" }),
    subject: text("subject").notNull(),
    grade: integer("grade").notNull(),
    rit: integer("rit"),
    testName: text("test_name").notNull(),
    testedOn: date("tested_on").notNull(),
    /** pending, admit, waitlist or decline. */
    decision: text("decision").notNull(),
    notes: text("notes"),
    recordedBy: text("recorded_by").notNull(),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex("screening_results_key_idx").on(
      table.applicantName,
      table.subject,
      table.testName,
      table.testedOn,
    ),
  ],
);

/** A check chart: levels of named checks (skills) a student works through and a Guide ticks off. */
export const checkCharts = pgTable("check_charts", {
  id: uuid("id").primaryKey().defaultRandom(),
  title: text("title").notNull(),
  subject: text("subject").notNull(),
  description: text("description").notNull().default(""),
  createdBy: text("created_by").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
});

/** A level of a chart, in order; a legacy level can be mapped to a placement grade level. */
export const checkChartLevels = pgTable(
  "check_chart_levels",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    chartId: uuid("chart_id")
      .notNull()
      .references(() => checkCharts.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    /** The placement grade level this level stands for, set in the legacy review. */
    mappedGrade: integer("mapped_grade"),
    mappedBy: text("mapped_by"),
    mappedAt: timestamp("mapped_at", { withTimezone: true }),
  },
  (table) => [index("check_chart_levels_chart_idx").on(table.chartId, table.position)],
);

/** A named check (skill) of a level, in order. */
export const checkChartChecks = pgTable(
  "check_chart_checks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    levelId: uuid("level_id")
      .notNull()
      .references(() => checkChartLevels.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
  },
  (table) => [index("check_chart_checks_level_idx").on(table.levelId, table.position)],
);

/** A Guide saw a student do a check, on a date. */
export const checkObservations = pgTable(
  "check_observations",
  {
    checkId: uuid("check_id")
      .notNull()
      .references(() => checkChartChecks.id, { onDelete: "cascade" }),
    studentSourcedId: text("student_sourced_id")
      .notNull()
      .references(() => users.sourcedId, { onDelete: "cascade" }),
    observedOn: date("observed_on").notNull(),
    observedBy: text("observed_by").notNull(),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.checkId, table.studentSourcedId] }),
    index("check_observations_student_idx").on(table.studentSourcedId),
  ],
);
