import { date, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/** A student's own daily XP goal for a subject, overriding the school default. */
export const studentDailyGoals = pgTable(
  "student_daily_goals",
  {
    studentSourcedId: text("student_sourced_id").notNull(),
    subject: text("subject").notNull(),
    dailyXp: integer("daily_xp").notNull(),
  },
  (table) => [primaryKey({ columns: [table.studentSourcedId, table.subject] })],
);

/** Days without school (holidays, breaks) of an organisation and everything under it. */
export const schoolHolidays = pgTable(
  "school_holidays",
  {
    orgSourcedId: text("org_sourced_id").notNull(),
    date: date("date").notNull(),
    name: text("name").notNull(),
  },
  (table) => [primaryKey({ columns: [table.orgSourcedId, table.date] })],
);
