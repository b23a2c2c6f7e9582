import { sql } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import { isNotificationType } from "../../../shared/contracts/notifications";
import type { Language } from "../../../shared/languages";
import { type Database, queryRows } from "../../db/client";
import { languageOfSql } from "../../domains/notifications/choices";
import type { Env } from "../../env";
import { message, translate } from "../../lib/i18n";
import type { Logger } from "../../lib/logger";
import type { SecretBox } from "../../lib/secret-box";
import type { FileStorage } from "../storage";
import { escapeHtml, resolveAppUrls, withFooterHtml } from "./layout";
import { deleteAttachments } from "./mailer";
import type { EmailAttachment } from "./schema";
import { unsubscribeToken } from "./unsubscribe";

/**
 * When each attempt of a mail is due, counted from when it was queued: the first at once, then
 * after 1, 5, 20, 60 and 180 minutes. After the last the mail is marked failed with its error.
 */
const ATTEMPT_OFFSETS_MS = [0, 1, 5, 20, 60, 180].map((minutes) => minutes * 60_000);
export const MAX_SEND_ATTEMPTS = ATTEMPT_OFFSETS_MS.length;
/** Mails claimed at once: small, so several processes share a large queue. */
const BATCH_SIZE = 20;
/** An SMTP server that does not answer fails the attempt rather than the whole run. */
const SMTP_TIMEOUT_MS = 20_000;
/** Failures in a row that end a run early. */
const MAX_FAILURES_IN_A_ROW = BATCH_SIZE;
const UNSUBSCRIBE_PATH = "/api/email/unsubscribe";

export interface EmailSenderDeps {
  db: Database;
  env: Pick<Env, "SMTP_URL" | "MAIL_FROM" | "PUBLIC_URL">;
  secretBox: SecretBox;
  /** Where mails' attachments are kept until they are sent. */
  storage: FileStorage;
  logger: Logger;
  now: () => Date;
}

interface ClaimedMail {
  id: string;
  recipient_id: string | null;
  to_address: string;
  category: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  attempts: number;
  attachments: EmailAttachment[] | null;
  language: Language;
}

export interface SendRun {
  sent: number;
  retrying: number;
  failed: number;
  kept: number;
}

/**
 * Delivers the outbox: claims due mail in small batches (`FOR UPDATE SKIP LOCKED`, so processes
 * never send one twice), adds the footer and the unsubscribe headers, and sends it through
 * SMTP_URL. A claim counts as an attempt, so a mail whose sender died is tried again at its next
 * due time. Without SMTP_URL mail is kept in the outbox for administrators to read.
 */
export function createEmailSender(deps: EmailSenderDeps) {
  const { db, env, storage, logger, now } = deps;
  let transporter: Transporter | null = null;

  const transport = (url: string) => {
    transporter ??= nodemailer.createTransport({
      url,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    });
    return transporter;
  };

  /** Kept mail is read in the outbox, without its files: those (children's names in a report) are not kept. */
  async function keepAll(): Promise<number> {
    const kept = await queryRows<{ id: string; attachments: EmailAttachment[] | null }>(
      db,
      sql`update email_outbox set status = 'kept' where status = 'queued' returning id, attachments`,
    );
    await deleteAttachments(
      storage,
      kept.flatMap((mail) => mail.attachments ?? []),
    );
    return kept.length;
  }

  /** Due mail, but none that failed in this run already: a run that starts late still spaces the retries. */
  async function claimBatch(failedInThisRun: ReadonlySet<string>): Promise<ClaimedMail[]> {
    const failed = JSON.stringify([...failedInThisRun]);
    const offsets = sql.raw(`array[${ATTEMPT_OFFSETS_MS.join(",")}]::bigint[]`);
    return queryRows<ClaimedMail>(
      db,
      sql`with claimed as (
            update email_outbox set attempts = attempts + 1
            where id in (
              select id from email_outbox
              where status = 'queued' and attempts < ${MAX_SEND_ATTEMPTS}
                and id not in (select (jsonb_array_elements_text(${failed}::jsonb))::uuid)
                and created_at + (${offsets})[attempts + 1] * interval '1 millisecond' <= ${now().toISOString()}::timestamptz
              order by created_at
              limit ${BATCH_SIZE}
              for update skip locked)
            returning id, recipient_sourced_id, to_address, category, subject, text_body, html_body, attempts,
              attachments
          )
          select c.id, c.recipient_sourced_id as recipient_id, c.to_address, c.category, c.subject,
            c.text_body, c.html_body, c.attempts, c.attachments,
            case when c.recipient_sourced_id is null then 'en' else ${languageOfSql(sql`c.recipient_sourced_id`)} end as language
          from claimed c`,
    );
  }

  async function sendOne(smtp: Transporter, mail: ClaimedMail): Promise<"sent" | "retrying" | "failed"> {
    const content = finishedMail(deps, mail);
    try {
      const info = await smtp.sendMail({
        from: env.MAIL_FROM,
        to: mail.to_address,
        subject: mail.subject,
        text: content.text,
        ...(content.html ? { html: content.html } : {}),
        attachments: await attachmentsOf(mail),
        headers: content.unsubscribeUrl
          ? {
              "List-Unsubscribe": `<${content.unsubscribeUrl}>`,
              "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            }
          : {},
      });
      await db.execute(
        sql`update email_outbox set status = 'sent', sent_at = ${now().toISOString()}::timestamptz,
              message_id = ${info.messageId ?? null}, last_error = null
            where id = ${mail.id}::uuid`,
      );
      // Sent files (a report's PDF holds children's names) are not kept: the outbox keeps their names.
      await deleteAttachments(storage, mail.attachments ?? []);
      return "sent";
    } catch (error) {
      const reason = String(error instanceof Error ? error.message : error).slice(0, 1_000);
      const gaveUp = mail.attempts >= MAX_SEND_ATTEMPTS;
      await db.execute(
        sql`update email_outbox set last_error = ${reason}, status = ${gaveUp ? "failed" : "queued"}
            where id = ${mail.id}::uuid`,
      );
      if (gaveUp) await deleteAttachments(storage, mail.attachments ?? []);
      logger.warn(gaveUp ? "email failed" : "email will be retried", {
        mailId: mail.id,
        attempt: mail.attempts,
        error: reason,
      });
      return gaveUp ? "failed" : "retrying";
    }
  }

  /** A mail's files read from the storage; one that is gone fails the attempt. */
  async function attachmentsOf(mail: ClaimedMail) {
    return Promise.all(
      (mail.attachments ?? []).map(async (file) => {
        const stored = await storage.get(file.storageKey);
        if (!stored) throw new Error(`The attachment ${file.fileName} is missing from the file storage`);
        const chunks: Buffer[] = [];
        for await (const chunk of stored.body) chunks.push(Buffer.from(chunk));
        return { filename: file.fileName, contentType: file.contentType, content: Buffer.concat(chunks) };
      }),
    );
  }

  /** Sends what is due now, batch after batch, until nothing is due or `signal` stops it. */
  async function sendDue(signal?: AbortSignal): Promise<SendRun> {
    const run: SendRun = { sent: 0, retrying: 0, failed: 0, kept: 0 };
    if (!env.SMTP_URL) {
      run.kept = await keepAll();
      return run;
    }
    const smtp = transport(env.SMTP_URL);
    const failed = new Set<string>();
    let failedInARow = 0;
    // A server that refuses mail after mail is down or refusing us: the next run tries again.
    while (!signal?.aborted && failedInARow < MAX_FAILURES_IN_A_ROW) {
      const batch = await claimBatch(failed);
      if (batch.length === 0) break;
      for (const mail of batch) {
        const outcome = await sendOne(smtp, mail);
        run[outcome] += 1;
        if (outcome === "sent") failedInARow = 0;
        else {
          failed.add(mail.id);
          failedInARow += 1;
        }
      }
    }
    return run;
  }

  return {
    sendDue,
    close: () => {
      transporter?.close();
      transporter = null;
    },
  };
}

export type EmailSender = ReturnType<typeof createEmailSender>;

/**
 * A mail as it leaves: app links made absolute, and the footer (why the person gets it, and a
 * link that stops this category without signing in) on the text part and the HTML part.
 */
export function finishedMail(
  deps: Pick<EmailSenderDeps, "env" | "secretBox">,
  mail: Pick<ClaimedMail, "recipient_id" | "category" | "text_body" | "html_body" | "language">,
): { text: string; html: string | null; unsubscribeUrl: string | null } {
  const publicUrl = deps.env.PUBLIC_URL;
  const say = (key: string, values?: Record<string, unknown>) =>
    translate(message(`notifications:${key}`, values), mail.language);
  const unsubscribeUrl = mail.recipient_id
    ? `${publicUrl}${UNSUBSCRIBE_PATH}?token=${unsubscribeToken(deps.secretBox, {
        userId: mail.recipient_id,
        category: mail.category,
      })}`
    : null;
  const reason = !mail.recipient_id
    ? say("footer.unknown")
    : isNotificationType(mail.category)
      ? say("footer.notification", { category: say(`categories.${mail.category}`) })
      : say("footer.other");
  const textFooter = [reason, unsubscribeUrl ? say("footer.unsubscribeText", { url: unsubscribeUrl }) : null]
    .filter(Boolean)
    .join("\n");
  const htmlFooter = `<div style="padding:16px 8px;color:#52525b;font-size:13px;line-height:1.5">
<p style="margin:0 0 8px">${escapeHtml(reason)}</p>
${unsubscribeUrl ? `<p style="margin:0"><a href="${escapeHtml(unsubscribeUrl)}" style="color:#1d4ed8">${escapeHtml(say("footer.unsubscribe"))}</a></p>` : ""}
</div>`;
  const text = `${resolveAppUrls(mail.text_body, publicUrl).trimEnd()}\n\n-- \n${textFooter}\n`;
  const html = mail.html_body ? withFooterHtml(resolveAppUrls(mail.html_body, publicUrl), htmlFooter) : null;
  return { text, html, unsubscribeUrl };
}
