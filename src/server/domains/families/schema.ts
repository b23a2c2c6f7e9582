import { bigserial, date, index, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The weekly parent pulse, one per child and week (weeks start on Sunday, in the child's time
 * zone): the week's figures as they were when it was built, so a digest reads the same later.
 */
export const weeklyPulses = pgTable(
  "weekly_pulses",
  {
    studentSourcedId: text("student_sourced_id").notNull(),
    weekStart: date("week_start").notNull(),
    /** The digest's content (see the families contract): XP and goals per subject, streak, Alphas… */
    figures: jsonb("figures").notNull(),
    builtAt: timestamp("built_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.studentSourcedId, table.weekStart] })],
);

/** A Guide's note for a child's week, shown in the family's digest. */
export const pulseNotes = pgTable(
  "pulse_notes",
  {
    studentSourcedId: text("student_sourced_id").notNull(),
    weekStart: date("week_start").notNull(),
    note: text("note").notNull(),
    authorSourcedId: text("author_sourced_id").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.studentSourcedId, table.weekStart] })],
);

/** Every save of a Guide's note, so a wording a family already read is never lost. */
export const pulseNoteChanges = pgTable(
  "pulse_note_changes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    studentSourcedId: text("student_sourced_id").notNull(),
    weekStart: date("week_start").notNull(),
    /** The note as saved (empty when it was cleared). */
    note: text("note").notNull(),
    authorSourcedId: text("author_sourced_id").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("pulse_note_changes_week_idx").on(table.studentSourcedId, table.weekStart, table.id)],
);

/** Which family was told of which week (notification and email): the digest job tells each once. */
export const pulseDeliveries = pgTable(
  "pulse_deliveries",
  {
    parentSourcedId: text("parent_sourced_id").notNull(),
    weekStart: date("week_start").notNull(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.parentSourcedId, table.weekStart] })],
);
