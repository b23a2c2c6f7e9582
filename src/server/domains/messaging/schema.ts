import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";

/**
 * An announcement to an audience (a school, a grade, a class, the parents of a class, staff), in
 * the app and by email, now or at a set time. The recipients are fixed when it is sent.
 */
export const announcements = pgTable(
  "announcements",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    title: text("title").notNull(),
    bodyHtml: text("body_html").notNull(),
    /** `{ kind, orgId?, grade?, classId? }`, as the messaging contract defines it. */
    audience: jsonb("audience").notNull(),
    sendEmail: boolean("send_email").notNull().default(true),
    scheduledFor: timestamp("scheduled_for", { withTimezone: true }).notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    recipientCount: integer("recipient_count"),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    cancelledBy: text("cancelled_by"),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
  },
  (table) => [index("announcements_due_idx").on(table.scheduledFor).where(sql`${table.sentAt} is null`)],
);

/** Who an announcement reached, and when they read it. */
export const announcementRecipients = pgTable(
  "announcement_recipients",
  {
    announcementId: uuid("announcement_id").notNull(),
    userSourcedId: text("user_sourced_id").notNull(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp("read_at", { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.announcementId, table.userSourcedId] }),
    index("announcement_recipients_user_idx").on(table.userSourcedId),
  ],
);

/** A conversation between people: a parent and their child's Guide, or staff. */
export const conversations = pgTable(
  "conversations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    subject: text("subject"),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastMessageAt: timestamp("last_message_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("conversations_last_idx").on(table.lastMessageAt)],
);

/** Who is in a conversation, and how far they have read. */
export const conversationMembers = pgTable(
  "conversation_members",
  {
    conversationId: uuid("conversation_id").notNull(),
    userSourcedId: text("user_sourced_id").notNull(),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull().defaultNow(),
    lastReadAt: timestamp("last_read_at", { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.conversationId, table.userSourcedId] }),
    index("conversation_members_user_idx").on(table.userSourcedId),
  ],
);

/** A message: sanitised rich text and pictures (kept in the file storage). */
export const messages = pgTable(
  "messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    conversationId: uuid("conversation_id").notNull(),
    authorSourcedId: text("author_sourced_id").notNull(),
    bodyHtml: text("body_html").notNull(),
    /** `[{ storageKey, name, contentType, bytes }]`: images up to 5 MB each. */
    attachments: jsonb("attachments").notNull().default(sql`'[]'::jsonb`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("messages_conversation_idx").on(table.conversationId, table.createdAt)],
);

/** A school's rules for messaging: whether its students may write to their Guides. */
export const messagingSettings = pgTable("messaging_settings", {
  orgSourcedId: text("org_sourced_id").primaryKey(),
  studentsMayWrite: boolean("students_may_write").notNull().default(false),
  updatedBy: text("updated_by"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
