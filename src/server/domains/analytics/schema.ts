import { sql } from "drizzle-orm";
import { bigint, date, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * What people do in Dash, collected by Dash itself: page views, sign-ins, daily activity and the
 * errors their browsers met. A row carries the person's role and school and the path without its
 * query string; no free text but an error's message and stack. Kept for the retention the
 * administrators set (180 days by default).
 */
export const analyticsEvents = pgTable(
  "analytics_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** page_view, login, daily_active or exception. */
    type: text("type").notNull(),
    path: text("path").notNull(),
    /** When it happened in the browser (held within a few minutes of its arrival). */
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    /** The day it counts for, in the school's time zone: daily and weekly active users are counted by it. */
    day: date("day").notNull(),
    userSourcedId: text("user_sourced_id"),
    /** The role the person was using (the viewed-as role while viewing as someone). */
    role: text("role"),
    schoolSourcedId: text("school_sourced_id"),
    /**
     * On a sign-in: the people the person is linked to (a student's parents, a parent's children),
     * at most 10 ids as a sample, as the spec's analytics sends them.
     */
    linkedIds: text("linked_ids").array(),
    /** A hash of the session, so that a sign-in counts once per session. */
    sessionKey: text("session_key"),
    /** An exception's message and stack, nothing else. */
    message: text("message"),
    stack: text("stack"),
  },
  (table) => [
    index("analytics_events_occurred_idx").on(table.occurredAt),
    index("analytics_events_type_day_idx").on(table.type, table.day),
    uniqueIndex("analytics_events_daily_active_idx")
      .on(table.userSourcedId, table.day)
      .where(sql`${table.type} = 'daily_active'`),
    uniqueIndex("analytics_events_login_idx").on(table.sessionKey).where(sql`${table.type} = 'login'`),
  ],
);
