import { sql } from "drizzle-orm";
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
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
