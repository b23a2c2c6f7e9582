import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export type EmailStatus = "queued" | "sent" | "failed" | "kept";

/** A file sent with a mail, kept in the file storage until the mail is pruned. */
export interface EmailAttachment {
  fileName: string;
  contentType: string;
  storageKey: string;
}

/**
 * Every email Dash writes, from every domain, before and after it is sent: the queue the sending
 * job works through, and with no SMTP server configured the outbox administrators read
 * (`admin/messaging`, Sent). A mail is written once per `dedupeKey`.
 */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The person it is for, when Dash knows them (their preferences and unsubscribe apply). */
    recipientSourcedId: text("recipient_sourced_id"),
    toAddress: text("to_address").notNull(),
    /** What kind of mail it is: a notification type, or `announcement`, `report`… (unsubscribe is per category). */
    category: text("category").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body"),
    attachments: jsonb("attachments").$type<EmailAttachment[]>(),
    /** queued: waiting to be sent; sent; failed: gave up after retries; kept: no SMTP server, kept here. */
    status: text("status").$type<EmailStatus>().notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** The SMTP server's Message-ID once sent. */
    messageId: text("message_id"),
    dedupeKey: text("dedupe_key"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("email_outbox_dedupe_idx").on(table.dedupeKey).where(sql`${table.dedupeKey} is not null`),
    index("email_outbox_created_idx").on(table.createdAt),
    index("email_outbox_status_idx").on(table.status, table.createdAt),
    index("email_outbox_recipient_idx").on(table.recipientSourcedId, table.createdAt),
  ],
);
