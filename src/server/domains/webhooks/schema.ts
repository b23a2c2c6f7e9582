import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/** A URL an administrator subscribed to some of Dash's events, with the secret its deliveries are signed with. */
export const webhookSubscriptions = pgTable("webhook_subscriptions", {
  id: uuid("id").primaryKey().defaultRandom(),
  url: text("url").notNull(),
  /** Event types (`xp.awarded`, `goal.met`, …). */
  events: text("events").array().notNull(),
  /** The signing secret, encrypted with the secret box (it must be read back to sign). */
  secretEnvelope: text("secret_envelope").notNull(),
  description: text("description"),
  isActive: boolean("is_active").notNull().default(true),
  createdBy: text("created_by").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedBy: text("updated_by"),
  updatedAt: timestamp("updated_at", { withTimezone: true }),
  /** Removed subscriptions are kept so their deliveries keep their meaning. */
  removedAt: timestamp("removed_at", { withTimezone: true }),
  removedBy: text("removed_by"),
});

/**
 * The durable queue of deliveries: one row per event and subscription, claimed with
 * `FOR UPDATE SKIP LOCKED` under a lease, retried with exponential backoff up to `max_attempts`.
 * A replay is a new row pointing at the delivery it repeats.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => webhookSubscriptions.id),
    eventType: text("event_type").notNull(),
    /** The event's own id: the same for every subscription that hears of it. */
    eventId: uuid("event_id").notNull(),
    payload: jsonb("payload").notNull(),
    /** queued, delivering, succeeded or failed. */
    state: text("state").notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull(),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lockedBy: text("locked_by"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    lastDurationMs: integer("last_duration_ms"),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    replayOf: uuid("replay_of"),
    requestedBy: text("requested_by"),
  },
  (table) => [
    index("webhook_deliveries_due_idx")
      .on(table.nextAttemptAt)
      .where(sql`${table.state} in ('queued', 'delivering')`),
    index("webhook_deliveries_subscription_idx").on(table.subscriptionId, table.createdAt),
    index("webhook_deliveries_created_idx").on(table.createdAt),
    uniqueIndex("webhook_deliveries_event_idx")
      .on(table.subscriptionId, table.eventId)
      .where(sql`${table.replayOf} is null`),
  ],
);
