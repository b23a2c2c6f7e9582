import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/**
 * The in-app notification centre: one row per person and event, fed by every domain through
 * `notify`. The text is made when it is read, from `type` and `params`, in the reader's language.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userSourcedId: text("user_sourced_id").notNull(),
    type: text("type").notNull(),
    params: jsonb("params").notNull().default(sql`'{}'::jsonb`),
    /** The page it opens, inside the app (`/app/...`). */
    link: text("link"),
    /** One notification per person and key: a job that runs twice tells once. */
    dedupeKey: text("dedupe_key"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp("read_at", { withTimezone: true }),
  },
  (table) => [
    index("notifications_user_idx").on(table.userSourcedId, table.createdAt),
    index("notifications_unread_idx").on(table.userSourcedId).where(sql`${table.readAt} is null`),
    uniqueIndex("notifications_dedupe_idx")
      .on(table.userSourcedId, table.dedupeKey)
      .where(sql`${table.dedupeKey} is not null`),
  ],
);

/** A person's choice per notification type; without a row the type's defaults apply. */
export const notificationPreferences = pgTable(
  "notification_preferences",
  {
    userSourcedId: text("user_sourced_id").notNull(),
    type: text("type").notNull(),
    inApp: boolean("in_app").notNull(),
    email: boolean("email").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userSourcedId, table.type] })],
);

/**
 * Preferences beyond notifications (time zone and language live on `users`): the day of the week
 * a parent's weekly digest arrives (0 Sunday … 6 Saturday; null: the school's Friday).
 */
export const userPreferences = pgTable("user_preferences", {
  userSourcedId: text("user_sourced_id").primaryKey(),
  digestDay: smallint("digest_day"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
