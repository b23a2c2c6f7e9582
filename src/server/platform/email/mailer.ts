import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { isNotificationType } from "../../../shared/contracts/notifications";
import { type Database, queryRows } from "../../db/client";
import { wantsSql } from "../../domains/notifications/choices";
import type { FileKind, FileStorage } from "../storage";
import type { EmailAttachment } from "./schema";

export { appUrl } from "./layout";

/** A mail for the outbox: who it is for, what kind (unsubscribe is per category) and what it says. */
export interface OutgoingEmail {
  /** The person's address; `userId` when Dash knows them (found by address when left out). */
  to: { address: string; userId?: string | null };
  /** A notification type, or another kind of mail (`announcement`, `report`…). */
  category: string;
  subject: string;
  /** The plain-text part, always sent. Links into Dash: `appUrl("/app/...")`. */
  text: string;
  /** The HTML part, when there is one (see `emailHtml` in layout.ts). */
  html?: string | null;
  /** Written once per key: queueing the same key again writes nothing. */
  dedupeKey?: string | null;
  /** Files sent with the mail (a report's PDF and CSV): kept in the file storage until it leaves the queue. */
  attachments?: readonly OutgoingAttachment[];
}

export interface OutgoingAttachment {
  /** The name the recipient sees, e.g. `week-report-2026-11-22.pdf`. */
  fileName: string;
  contentType: string;
  content: Uint8Array | string;
}

/** What queueing mail with attachments needs besides the database: where the files are kept. */
export interface QueueOptions {
  storage?: FileStorage;
}

/** The kinds of file a mail may carry, and the largest one (mail servers refuse far larger mail). */
const ATTACHMENT_KINDS: readonly FileKind[] = ["pdf", "csv", "text", "png", "jpeg"];
const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
const ATTACHMENT_FOLDER = "email/attachments";

/** Kinds of mail that are no notification type but have a name of their own (`notifications:categories.<kind>`). */
const NAMED_MAIL_CATEGORIES: readonly string[] = ["report"];

/** A category people read by name (on the unsubscribe page): a notification type or a named kind of mail. */
export function isNamedCategory(category: string): boolean {
  return isNotificationType(category) || NAMED_MAIL_CATEGORIES.includes(category);
}

/** Longest subject kept: mail clients show far less, and headers must stay short. */
const MAX_SUBJECT_LENGTH = 250;
/** Mails per insert statement. */
const BATCH = 500;

/**
 * Writes a mail to the outbox, for the sending job to deliver (it adds the footer with the
 * unsubscribe link). Answers its id, or null when the recipient does not want this category by
 * email or the dedupe key was used already.
 */
export async function queueEmail(
  db: Database,
  email: OutgoingEmail,
  options: QueueOptions = {},
): Promise<string | null> {
  const [written] = await queueEmails(db, email.category, [email], options);
  return written?.id ?? null;
}

/**
 * Many mails of one category in few statements (a weekly digest, an announcement to a school):
 * answers those written (id, recipient and place in `emails`), as `queueEmail` would one by one.
 */
export async function queueEmails(
  db: Database,
  category: string,
  emails: readonly Omit<OutgoingEmail, "category">[],
  options: QueueOptions = {},
): Promise<{ id: string; recipientId: string | null; at: number }[]> {
  const addressed = emails
    .map((email, at) => ({ email, at }))
    .filter(({ email }) => email.to.address.trim() !== "");
  const files = await storeAttachments(
    options.storage,
    addressed.map(({ email }) => email.attachments ?? []),
  );
  const rows: MailRow[] = addressed.map(({ email, at }, index) => ({
    // The id is made here, so each mail written is known by its place in `emails`.
    id: randomUUID(),
    at,
    attachments: files[index]?.length ? files[index] : null,
    address: email.to.address.trim(),
    user_id: email.to.userId ?? null,
    subject: email.subject.replace(/\s+/g, " ").trim().slice(0, MAX_SUBJECT_LENGTH),
    text_body: email.text,
    html_body: email.html ?? null,
    dedupe_key: email.dedupeKey ?? null,
  }));
  const written: { id: string; recipientId: string | null; at: number }[] = [];
  try {
    await insertMails(db, category, rows, written);
  } finally {
    // Files of mails not written (unwanted, or their dedupe key used already) are not kept.
    const writtenIds = new Set(written.map((mail) => mail.id));
    await deleteAttachments(
      options.storage,
      rows.filter((row) => !writtenIds.has(row.id)).flatMap((row) => row.attachments ?? []),
    );
  }
  return written;
}

interface MailRow {
  id: string;
  at: number;
  attachments: EmailAttachment[] | null;
  address: string;
  user_id: string | null;
  subject: string;
  text_body: string;
  html_body: string | null;
  dedupe_key: string | null;
}

async function insertMails(
  db: Database,
  category: string,
  rows: readonly MailRow[],
  written: { id: string; recipientId: string | null; at: number }[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    const placeOf = new Map<string, number>(batch.map((row) => [row.id, row.at]));
    const rowsWritten = await queryRows<{ id: string; recipient_id: string | null }>(
      db,
      sql`insert into email_outbox
            (id, recipient_sourced_id, to_address, category, subject, text_body, html_body, dedupe_key, attachments)
          select m.id, r.user_id, m.address, ${category}, m.subject, m.text_body, m.html_body, m.dedupe_key, m.attachments
          from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as m(
            id uuid, address text, user_id text, subject text, text_body text, html_body text, dedupe_key text,
            attachments jsonb)
          cross join lateral (select coalesce(
            m.user_id,
            (select u.sourced_id from users u where lower(u.email) = lower(m.address) order by u.sourced_id limit 1)
          ) as user_id) r
          where r.user_id is null or ${wantsSql(sql`r.user_id`, category, "email")}
          on conflict (dedupe_key) where dedupe_key is not null do nothing
          returning id, recipient_sourced_id as recipient_id`,
    );
    written.push(
      ...rowsWritten.map((row) => ({
        id: row.id,
        recipientId: row.recipient_id,
        at: placeOf.get(row.id) ?? -1,
      })),
    );
  }
}

/** Each mail's files put in the storage; any already stored are removed again when one fails. */
async function storeAttachments(
  storage: FileStorage | undefined,
  perMail: readonly (readonly OutgoingAttachment[])[],
): Promise<EmailAttachment[][]> {
  if (!perMail.some((files) => files.length > 0)) return perMail.map(() => []);
  if (!storage) throw new Error("Mail with attachments is queued with the file storage");
  const stored: EmailAttachment[][] = [];
  try {
    for (const files of perMail) {
      const mailFiles: EmailAttachment[] = [];
      stored.push(mailFiles);
      for (const file of files) {
        const put = await storage.put(
          typeof file.content === "string" ? Buffer.from(file.content, "utf8") : file.content,
          {
            folder: ATTACHMENT_FOLDER,
            contentType: file.contentType,
            accept: ATTACHMENT_KINDS,
            maxBytes: MAX_ATTACHMENT_BYTES,
          },
        );
        mailFiles.push({ fileName: file.fileName, contentType: put.contentType, storageKey: put.key });
      }
    }
    return stored;
  } catch (error) {
    await deleteAttachments(storage, stored.flat());
    throw error;
  }
}

/** Removes mails' files from the storage; a file already gone is no error. */
export async function deleteAttachments(
  storage: FileStorage | undefined,
  attachments: readonly EmailAttachment[],
): Promise<void> {
  if (!storage || attachments.length === 0) return;
  await Promise.all(attachments.map((file) => storage.delete(file.storageKey).catch(() => {})));
}
