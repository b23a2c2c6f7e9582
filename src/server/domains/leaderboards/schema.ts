import { date, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import type { LeagueTier } from "../../../shared/contracts/leaderboards";
import { users } from "../rostering/schema";

/**
 * Students hidden from leaderboards, one row per side that hid them: `family` (a parent or
 * guardian opted the child out) or `staff` (a Guide or an administrator). A student with any row
 * appears to nobody but themself, their family and staff. Each side lifts only its own.
 */
export const leaderboardOptOuts = pgTable(
  "leaderboard_opt_outs",
  {
    studentSourcedId: text("student_sourced_id")
      .notNull()
      .references(() => users.sourcedId, { onDelete: "cascade" }),
    hiddenBy: text("hidden_by").$type<"family" | "staff">().notNull(),
    actorSourcedId: text("actor_sourced_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.studentSourcedId, table.hiddenBy] })],
);

/**
 * Each student's league for a week (from Sunday, in the school's timezone): a tier and a league
 * number within it. Written once per week by the league job, for every active student; a student
 * without a row for the week has no league that week.
 */
export const leaguePlacements = pgTable(
  "league_placements",
  {
    studentSourcedId: text("student_sourced_id")
      .notNull()
      .references(() => users.sourcedId, { onDelete: "cascade" }),
    weekStart: date("week_start").notNull(),
    tier: text("tier").$type<LeagueTier>().notNull(),
    league: integer("league").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.studentSourcedId, table.weekStart] }),
    index("league_placements_league_idx").on(table.weekStart, table.tier, table.league),
  ],
);
