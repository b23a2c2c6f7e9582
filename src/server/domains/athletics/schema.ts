import { date, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** A student's physical activity: what, how many minutes, which day; it counts toward the weekly activity goal. */
export const athleticActivities = pgTable(
  "athletic_activities",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    studentSourcedId: text("student_sourced_id").notNull(),
    activity: text("activity").notNull(),
    minutes: integer("minutes").notNull(),
    /** The day, in the student's time zone. */
    activityDate: date("activity_date").notNull(),
    note: text("note"),
    recordedBy: text("recorded_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text("updated_by"),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
    removedBy: text("removed_by"),
    removedAt: timestamp("removed_at", { withTimezone: true }),
  },
  (table) => [index("athletic_activities_student_idx").on(table.studentSourcedId, table.activityDate)],
);
