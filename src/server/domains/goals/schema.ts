import { sql } from "drizzle-orm";
import {
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { classes, users } from "../rostering/schema";

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

/**
 * Weekly XP goals and target goals (a course, a RIT score, a number of units by a deadline), for
 * one student or every student of a class. A student or a class has at most one weekly goal.
 */
export const goals = pgTable(
  "goals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** `weekly_xp`, `course`, `rit` or `units`. */
    kind: text("kind").notNull(),
    studentSourcedId: text("student_sourced_id").references(() => users.sourcedId, { onDelete: "cascade" }),
    classSourcedId: text("class_sourced_id").references(() => classes.sourcedId, { onDelete: "cascade" }),
    /** Null: every subject (weekly XP, units). */
    subject: text("subject"),
    courseSourcedId: text("course_sourced_id"),
    /** Weekly XP, the XP the course takes, the RIT score or the units. */
    target: integer("target").notNull(),
    /** A RIT goal's score when it was set. */
    baseline: integer("baseline"),
    startsOn: date("starts_on").notNull(),
    /** Null for a weekly goal. */
    deadline: date("deadline"),
    setBySourcedId: text("set_by_sourced_id").notNull(),
    /** The role they set it in: `student`, `teacher` or `administrator`. */
    setByRole: text("set_by_role").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("goals_one_owner", sql`(${table.studentSourcedId} is null) <> (${table.classSourcedId} is null)`),
    index("goals_student_idx").on(table.studentSourcedId),
    index("goals_class_idx").on(table.classSourcedId),
    uniqueIndex("goals_weekly_student_idx")
      .on(table.studentSourcedId)
      .where(sql`kind = 'weekly_xp' and student_sourced_id is not null`),
    uniqueIndex("goals_weekly_class_idx")
      .on(table.classSourcedId)
      .where(sql`kind = 'weekly_xp' and class_sourced_id is not null`),
  ],
);
