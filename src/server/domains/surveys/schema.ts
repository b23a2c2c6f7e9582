import { sql } from "drizzle-orm";
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/**
 * A pulse survey: its sections and questions, its audience, whether it is anonymous, when it
 * opens and closes, and whether it repeats. Each opening is a round (`survey_rounds`).
 */
export const surveys = pgTable("surveys", {
  id: uuid("id").primaryKey().defaultRandom(),
  title: text("title").notNull(),
  description: text("description"),
  /** Sections of questions, as the surveys contract defines them. */
  sections: jsonb("sections").notNull().default(sql`'[]'::jsonb`),
  /** Who is asked: roles, and optionally schools, grades and classes (all must match). */
  audience: jsonb("audience").notNull(),
  isAnonymous: boolean("is_anonymous").notNull().default(false),
  opensAt: timestamp("opens_at", { withTimezone: true }).notNull(),
  closesAt: timestamp("closes_at", { withTimezone: true }),
  repeat: text("repeat").$type<"none" | "weekly" | "monthly">().notNull().default("none"),
  status: text("status").$type<"draft" | "published" | "archived">().notNull().default("draft"),
  createdBy: text("created_by").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedBy: text("updated_by"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** One opening of a survey: the first, and one per week or month of a repeating survey. */
export const surveyRounds = pgTable(
  "survey_rounds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    surveyId: uuid("survey_id").notNull(),
    number: integer("number").notNull(),
    opensAt: timestamp("opens_at", { withTimezone: true }).notNull(),
    closesAt: timestamp("closes_at", { withTimezone: true }),
    /** How many people the round asked, counted when its invitations went out (null before). */
    invitedCount: integer("invited_count"),
  },
  (table) => [uniqueIndex("survey_rounds_number_idx").on(table.surveyId, table.number)],
);

/**
 * A submitted answer sheet. For an anonymous survey nothing here names the person: no user id,
 * only the day (not the time) and the groups (role, school, grade) results are broken down by,
 * which are never shown for fewer than five people.
 */
export const surveyResponses = pgTable(
  "survey_responses",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    roundId: uuid("round_id").notNull(),
    /** Null for an anonymous survey. */
    userSourcedId: text("user_sourced_id"),
    answers: jsonb("answers").notNull(),
    respondentRole: text("respondent_role").notNull(),
    respondentSchoolId: text("respondent_school_id"),
    respondentGrade: text("respondent_grade"),
    submittedOn: date("submitted_on").notNull(),
  },
  (table) => [
    index("survey_responses_round_idx").on(table.roundId),
    uniqueIndex("survey_responses_named_idx")
      .on(table.roundId, table.userSourcedId)
      .where(sql`${table.userSourcedId} is not null`),
  ],
);

/**
 * Who has answered a round (so they are not asked again), kept apart from the answers and without
 * a time, so that even for an anonymous survey the two cannot be matched.
 */
export const surveyParticipation = pgTable(
  "survey_participation",
  {
    roundId: uuid("round_id").notNull(),
    userSourcedId: text("user_sourced_id").notNull(),
  },
  (table) => [primaryKey({ columns: [table.roundId, table.userSourcedId] })],
);

/** Answers saved before submitting; removed in the transaction that submits them. */
export const surveyDrafts = pgTable(
  "survey_drafts",
  {
    roundId: uuid("round_id").notNull(),
    userSourcedId: text("user_sourced_id").notNull(),
    answers: jsonb("answers").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.roundId, table.userSourcedId] })],
);
