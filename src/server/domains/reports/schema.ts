import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import type { ReportFrequency, ReportId, ReportSearch } from "../../../shared/contracts/reports";

/**
 * A report an administrator has emailed to staff every day, week or month: the report and its
 * filters (without dates: each run covers the period just ended), and the staff it goes to.
 */
export const reportSchedules = pgTable(
  "report_schedules",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    reportId: text("report_id").$type<ReportId>().notNull(),
    filters: jsonb("filters").$type<Partial<ReportSearch>>().notNull().default({}),
    frequency: text("frequency").$type<ReportFrequency>().notNull(),
    /** Staff user ids; each gets the report in their language, by email. */
    recipientIds: text("recipient_ids").array().notNull().default(sql`'{}'::text[]`),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** The last period sent (its first day), so a run sends each period once. */
    lastPeriod: text("last_period"),
    lastSentAt: timestamp("last_sent_at", { withTimezone: true }),
  },
  (table) => [index("report_schedules_frequency_idx").on(table.frequency)],
);
