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

/** A notification of its own for one person (a digest of their children, a message in their thread). */
export interface PersonalNotification {
  userId: string;
  params?: Record<string, string | number>;
  link?: string | null;
  dedupeKey?: string;
  email?: NotificationInput["email"];
}

type EmailContent = ReturnType<NonNullable<NotificationInput["email"]>>;

interface Recipient {
  /** The place of the notification in the list given. */
  at: number;
  user_id: string;
  address: string | null;
  language: Language;
  wants_email: boolean;
  /** Told in the app by this call (false when they turned it off, or the key was used). */
  told_in_app: boolean;
  /** The key was used for them before: they were told already. */
  told_before: boolean;
}

/** Notifications written per statement. */
const BATCH = 1000;

/**
 * Tells people of something: an in-app notification to each who wants it (their choice per type,
 * else the type's default), their open pages told at once, and a mail to each who wants one and
 * has an address, in their language. Call it after the change it tells of is committed. Answers
 * how many people were told.
 */
export async function notify(deps: NotifyDeps, input: NotificationInput): Promise<number> {
  const rendered = new Map<Language, EmailContent>();
  // Everyone reads the same: each language's mail is made once.
  const email = (language: Language) => {
    let content = rendered.get(language);
    if (!content) {
      content = input.email
        ? input.email(language)
        : renderNotificationEmail(
            input.type,
            pickParams(input.type, input.params ?? {}),
            input.link ?? null,
            language,
          );
      rendered.set(language, content);
    }
    return content;
  };
  return notifyEach(
    deps,
    input.type,
    [...new Set(input.userIds)].map((userId) => ({
      userId,
      params: input.params,
      link: input.link,
      dedupeKey: input.dedupeKey,
      email,
    })),
  );
}

/**
 * `notify` for many people told different things of one type (each family its own digest), in a
 * few statements whatever their number. Answers how many of the notifications reached someone.
 */
export async function notifyEach(
  deps: NotifyDeps,
  type: NotificationType,
  notifications: readonly PersonalNotification[],
): Promise<number> {
  let told = 0;
  for (let start = 0; start < notifications.length; start += BATCH)
    told += await notifyBatch(deps, type, notifications.slice(start, start + BATCH));
  return told;
}

async function notifyBatch(
  deps: NotifyDeps,
  type: NotificationType,
  notifications: readonly PersonalNotification[],
): Promise<number> {
  const { db, live } = deps;
  const given = notifications.map((notification, at) => ({
    at,
    user_id: notification.userId,
    params: pickParams(type, notification.params ?? {}),
    link: notification.link ?? null,
    dedupe_key: notification.dedupeKey ?? null,
  }));
  const user = sql`u.sourced_id`;
  // The in-app rows in one statement; people told before under the same key are left alone.
  const recipients = await queryRows<Recipient>(
    db,
    sql`with given as (
          select * from jsonb_to_recordset(${JSON.stringify(given)}::jsonb)
            as g(at int, user_id text, params jsonb, link text, dedupe_key text)
        ), recipients as (
          select g.at, g.params, g.link, g.dedupe_key, u.sourced_id as user_id,
            nullif(trim(u.email), '') as address,
            ${languageOfSql(user)} as language,
            ${wantsSql(user, type, "inApp")} as wants_in_app,
            ${wantsSql(user, type, "email")} as wants_email,
            g.dedupe_key is not null and exists (select 1 from notifications n
              where n.user_sourced_id = u.sourced_id and n.dedupe_key = g.dedupe_key) as told_before
          from given g join users u on u.sourced_id = g.user_id
          where u.status = 'active' and u.enabled_user
        ), written as (
          insert into notifications (user_sourced_id, type, params, link, dedupe_key)
          select user_id, ${type}, params, link, dedupe_key
          from recipients where wants_in_app and not told_before
          on conflict (user_sourced_id, dedupe_key) where dedupe_key is not null do nothing
          returning user_sourced_id, dedupe_key
        )
        select r.at, r.user_id, r.address, r.language, r.wants_email, r.told_before,
          exists (select 1 from written w where w.user_sourced_id = r.user_id
            and w.dedupe_key is not distinct from r.dedupe_key) as told_in_app
        from recipients r`,
  );

  const toldInApp = recipients.filter((recipient) => recipient.told_in_app).map((r) => r.user_id);
  if (toldInApp.length > 0) await live.publish("notifications-changed", [...new Set(toldInApp)]);

  const mailedTo = recipients.filter(
    (recipient) => recipient.wants_email && recipient.address && !recipient.told_before,
  );
  const mailed = await queueEmails(
    db,
    type,
    mailedTo.map((recipient) => {
      const notification = notifications[recipient.at] as PersonalNotification;
      const content = notification.email
        ? notification.email(recipient.language)
        : renderNotificationEmail(
            type,
            given[recipient.at]?.params ?? {},
            notification.link ?? null,
            recipient.language,
          );
      return {
        to: { address: recipient.address ?? "", userId: recipient.user_id },
        ...content,
        dedupeKey: notification.dedupeKey
          ? `notify:${recipient.user_id}:${type}:${notification.dedupeKey}`
          : null,
      };
    }),
  );
  const toldByMail = new Set(mailed.map((mail) => mailedTo[mail.at]?.at));
  return recipients.filter((recipient) => recipient.told_in_app || toldByMail.has(recipient.at)).length;
}

/** The values given, with each of the type's own present (a sentence never shows a placeholder). */
function pickParams(type: NotificationType, given: Record<string, string | number>) {
  const params: Record<string, string | number> = { ...given };
  for (const name of NOTIFICATION_TYPE_DEFINITIONS[type].params) params[name] ??= "";
  return params;
}
