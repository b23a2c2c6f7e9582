import { sql } from "drizzle-orm";
import {
  NOTIFICATION_TYPE_DEFINITIONS,
  type NotificationType,
} from "../../../shared/contracts/notifications";
import type { Language } from "../../../shared/languages";
import { type Database, queryRows } from "../../db/client";
import { queueEmails } from "../../platform/email/mailer";
import type { LiveHub } from "../../platform/live/hub";
import { languageOfSql, wantsSql } from "./choices";
import { renderNotificationEmail } from "./email-content";

export interface NotificationInput {
  userIds: readonly string[];
  type: NotificationType;
  /** The values of the type's sentence (see NOTIFICATION_TYPE_DEFINITIONS). */
  params?: Record<string, string | number>;
  /** The page it opens, inside the app (`/app/...`). */
  link?: string | null;
  /** One notification (and one mail) per person and key: a job that runs twice tells once. */
  dedupeKey?: string;
  /** The mail in a language, instead of the type's own sentence with a link (e.g. the weekly digest). */
  email?: (language: Language) => { subject: string; text: string; html?: string };
}

export interface NotifyDeps {
  db: Database;
  live: Pick<LiveHub, "publish">;
}

interface Recipient {
  user_id: string;
  address: string | null;
  language: Language;
  wants_email: boolean;
  /** Told in the app by this call (false when they turned it off, or the key was used). */
  told_in_app: boolean;
  /** The key was used for them before: they were told already. */
  told_before: boolean;
}

/**
 * Tells people of something: an in-app notification to each who wants it (their choice per type,
 * else the type's default), their open pages told at once, and a mail to each who wants one and
 * has an address, in their language. Call it after the change it tells of is committed. Answers
 * how many people were told.
 */
export async function notify(deps: NotifyDeps, input: NotificationInput): Promise<number> {
  const userIds = [...new Set(input.userIds)];
  if (userIds.length === 0) return 0;
  const { db, live } = deps;
  const params = pickParams(input.type, input.params ?? {});
  const dedupeKey = input.dedupeKey ?? null;
  const user = sql`u.sourced_id`;
  // The in-app rows in one statement; people told before under the same key are left alone.
  const recipients = await queryRows<Recipient>(
    db,
    sql`with recipients as (
          select u.sourced_id as user_id, nullif(trim(u.email), '') as address,
            ${languageOfSql(user)} as language,
            ${wantsSql(user, input.type, "inApp")} as wants_in_app,
            ${wantsSql(user, input.type, "email")} as wants_email,
            ${dedupeKey}::text is not null and exists (select 1 from notifications n
              where n.user_sourced_id = u.sourced_id and n.dedupe_key = ${dedupeKey}) as told_before
          from users u
          where u.sourced_id in (select jsonb_array_elements_text(${JSON.stringify(userIds)}::jsonb))
            and u.status = 'active' and u.enabled_user
        ), written as (
          insert into notifications (user_sourced_id, type, params, link, dedupe_key)
          select user_id, ${input.type}, ${JSON.stringify(params)}::jsonb, ${input.link ?? null}, ${dedupeKey}
          from recipients where wants_in_app and not told_before
          on conflict (user_sourced_id, dedupe_key) where dedupe_key is not null do nothing
          returning user_sourced_id
        )
        select r.user_id, r.address, r.language, r.wants_email, r.told_before,
          exists (select 1 from written w where w.user_sourced_id = r.user_id) as told_in_app
        from recipients r`,
  );

  const toldInApp = recipients.filter((recipient) => recipient.told_in_app).map((r) => r.user_id);
  if (toldInApp.length > 0) await live.publish("notifications-changed", toldInApp);

  const mailed = await queueEmails(
    db,
    input.type,
    emailsFor(
      recipients.filter((recipient) => recipient.wants_email && recipient.address && !recipient.told_before),
      input,
      params,
    ),
  );
  const toldByMail = new Set(mailed.map((mail) => mail.recipientId));
  return recipients.filter((recipient) => recipient.told_in_app || toldByMail.has(recipient.user_id)).length;
}

/** Each mail made once per language, however many people read it. */
function emailsFor(
  recipients: Recipient[],
  input: NotificationInput,
  params: Record<string, string | number>,
) {
  const rendered = new Map<Language, { subject: string; text: string; html?: string | null }>();
  const contentIn = (language: Language) => {
    let content = rendered.get(language);
    if (!content) {
      content = input.email
        ? input.email(language)
        : renderNotificationEmail(input.type, params, input.link ?? null, language);
      rendered.set(language, content);
    }
    return content;
  };
  return recipients.map((recipient) => ({
    to: { address: recipient.address ?? "", userId: recipient.user_id },
    ...contentIn(recipient.language),
    dedupeKey: input.dedupeKey ? `notify:${recipient.user_id}:${input.type}:${input.dedupeKey}` : null,
  }));
}

/** The values given, with each of the type's own present (a sentence never shows a placeholder). */
function pickParams(type: NotificationType, given: Record<string, string | number>) {
  const params: Record<string, string | number> = { ...given };
  for (const name of NOTIFICATION_TYPE_DEFINITIONS[type].params) params[name] ??= "";
  return params;
}
