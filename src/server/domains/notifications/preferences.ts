import { sql } from "drizzle-orm";
import {
  DIGEST_DAY_ROLES,
  isNotificationType,
  NOTIFICATION_TYPE_DEFINITIONS,
  type NotificationPreferences,
  type NotificationType,
  notificationTypesFor,
  type UpdatePreferencesBody,
} from "../../../shared/contracts/notifications";
import { isLanguage } from "../../../shared/languages";
import type { DashRole } from "../../../shared/roles";
import { type Database, queryRows } from "../../db/client";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { setPreferredLanguage } from "../auth/language";

/** Whose preferences: the person and every role they hold (a Guide who is a parent gets both sets). */
export interface PreferencesOwner {
  userId: string;
  roles: readonly DashRole[];
}

const choosesDigestDay = (roles: readonly DashRole[]) =>
  roles.some((role) => DIGEST_DAY_ROLES.includes(role));

/** The type's defaults for this person: a student is emailed only when they chose it. */
function defaultsFor(type: NotificationType, roles: readonly DashRole[]) {
  const { inApp, email } = NOTIFICATION_TYPE_DEFINITIONS[type].defaults;
  return { inApp, email: email && !roles.includes("student") };
}

export async function preferencesOf(db: Database, owner: PreferencesOwner): Promise<NotificationPreferences> {
  const [person, chosen] = await Promise.all([
    queryRows<{
      time_zone: string;
      language: string | null;
      email: string | null;
      digest_day: number | null;
    }>(
      db,
      sql`select u.timezone as time_zone, u.preferred_language as language, nullif(trim(u.email), '') as email,
            p.digest_day
          from users u left join user_preferences p on p.user_sourced_id = u.sourced_id
          where u.sourced_id = ${owner.userId}`,
    ),
    queryRows<{ type: string; in_app: boolean; email: boolean }>(
      db,
      sql`select type, in_app, email from notification_preferences where user_sourced_id = ${owner.userId}`,
    ),
  ]);
  const row = person[0];
  if (!row) throw new AppError("not_found", message("notifications:errors.personNotFound"));
  const byType = new Map(chosen.map((choice) => [choice.type, choice]));
  return {
    types: notificationTypesFor(owner.roles).map((type) => {
      const defaults = defaultsFor(type, owner.roles);
      const choice = byType.get(type);
      return {
        type,
        inApp: choice?.in_app ?? defaults.inApp,
        email: choice?.email ?? defaults.email,
        defaults,
      };
    }),
    timeZone: row.time_zone,
    language: isLanguage(row.language) ? row.language : null,
    digestDay: choosesDigestDay(owner.roles) ? row.digest_day : null,
    choosesDigestDay: choosesDigestDay(owner.roles),
    email: row.email,
    stoppedMail: chosen
      .filter((choice) => !isNotificationType(choice.type) && !choice.email)
      .map((choice) => choice.type),
  };
}

/** Saves what the person changed, all of it or nothing. */
export async function updatePreferences(
  db: Database,
  owner: PreferencesOwner,
  changes: UpdatePreferencesBody,
  now: Date,
): Promise<NotificationPreferences> {
  const theirTypes = new Set(notificationTypesFor(owner.roles));
  const notTheirs = changes.types?.find((choice) => !theirTypes.has(choice.type));
  if (notTheirs)
    throw new AppError("bad_request", message("notifications:errors.notYourTypes", { type: notTheirs.type }));
  // A student's days are counted in the time zone the school set for them, everywhere in Dash.
  if (changes.timeZone !== undefined && owner.roles.includes("student"))
    throw new AppError("forbidden", message("notifications:errors.timeZoneStudent"));
  if (changes.digestDay !== undefined && !choosesDigestDay(owner.roles))
    throw new AppError("forbidden", message("notifications:errors.digestDayFamily"));

  const at = sql`${now.toISOString()}::timestamptz`;
  // One row per type: the last choice of a type said twice.
  const choices = [...new Map((changes.types ?? []).map((choice) => [choice.type, choice])).values()];
  await db.transaction(async (tx) => {
    if (choices.length)
      await tx.execute(
        sql`insert into notification_preferences (user_sourced_id, type, in_app, email, updated_at)
            select ${owner.userId}, c.type, c."inApp", c.email, ${at}
            from jsonb_to_recordset(${JSON.stringify(choices)}::jsonb) as c(type text, "inApp" boolean, email boolean)
            on conflict (user_sourced_id, type) do update
              set in_app = excluded.in_app, email = excluded.email, updated_at = excluded.updated_at`,
      );
    // Mail that is no notification type is sent unless stopped: forgetting the stop sends it again.
    const resumed = (changes.resumeMail ?? []).filter((category) => !isNotificationType(category));
    if (resumed.length)
      await tx.execute(
        sql`delete from notification_preferences where user_sourced_id = ${owner.userId} and type in ${resumed}`,
      );
    if (changes.timeZone !== undefined)
      await tx.execute(
        sql`update users set timezone = ${changes.timeZone} where sourced_id = ${owner.userId}`,
      );
    if (changes.language !== undefined) await setPreferredLanguage(tx, owner.userId, changes.language);
    if (changes.digestDay !== undefined)
      await tx.execute(
        sql`insert into user_preferences (user_sourced_id, digest_day, updated_at)
            values (${owner.userId}, ${changes.digestDay}, ${at})
            on conflict (user_sourced_id) do update set digest_day = excluded.digest_day, updated_at = excluded.updated_at`,
      );
  });
  return preferencesOf(db, owner);
}
