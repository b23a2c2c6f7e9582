import { pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Guided tours a person has done, kept on the server so that a tour finished on one device is not
 * shown again on another. Progress within a tour stays in the browser (the spec's `index` and `path`).
 */
export const tourCompletions = pgTable(
  "tour_completions",
  {
    userSourcedId: text("user_sourced_id").notNull(),
    /** The tour, named by the role it is for: student, teacher, parent or administrator. */
    tour: text("tour").notNull(),
    /** How it ended: finished, skipped or closed. */
    outcome: text("outcome").notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userSourcedId, table.tour] })],
);
