import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { type Database, queryRows } from "../../db/client";
import { wantsSql } from "../../domains/notifications/choices";

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
export async function queueEmail(db: Database, email: OutgoingEmail): Promise<string | null> {
  const [written] = await queueEmails(db, email.category, [email]);
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
): Promise<{ id: string; recipientId: string | null; at: number }[]> {
  const rows = emails
    .map((email, at) => ({
      // The id is made here, so each mail written is known by its place in `emails`.
      id: randomUUID(),
      at,
      address: email.to.address.trim(),
      user_id: email.to.userId ?? null,
      subject: email.subject.replace(/\s+/g, " ").trim().slice(0, MAX_SUBJECT_LENGTH),
      text_body: email.text,
      html_body: email.html ?? null,
      dedupe_key: email.dedupeKey ?? null,
    }))
    .filter((row) => row.address !== "");
  const written: { id: string; recipientId: string | null; at: number }[] = [];
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    const placeOf = new Map<string, number>(batch.map((row) => [row.id, row.at]));
    const rowsWritten = await queryRows<{ id: string; recipient_id: string | null }>(
      db,
      sql`insert into email_outbox
            (id, recipient_sourced_id, to_address, category, subject, text_body, html_body, dedupe_key)
          select m.id, r.user_id, m.address, ${category}, m.subject, m.text_body, m.html_body, m.dedupe_key
          from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as m(
            id uuid, address text, user_id text, subject text, text_body text, html_body text, dedupe_key text)
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
  return written;
}
