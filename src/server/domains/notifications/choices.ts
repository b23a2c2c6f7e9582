import { type SQL, sql } from "drizzle-orm";
import { isNotificationType, NOTIFICATION_TYPE_DEFINITIONS } from "../../../shared/contracts/notifications";

/**
 * A person's choice of how to be told, as SQL for the statements that write notifications and
 * mail: their `notification_preferences` row of the category when there is one, else the type's
 * default. Students are emailed only when they chose it. A category that is no notification type
 * (an announcement, a report) is mailed until the person unsubscribes from it.
 */
export function wantsSql(userId: SQL, category: string, channel: "inApp" | "email"): SQL {
  const column = channel === "inApp" ? sql`p.in_app` : sql`p.email`;
  const chosen = sql`(select ${column} from notification_preferences p
    where p.user_sourced_id = ${userId} and p.type = ${category})`;
  if (!isNotificationType(category)) return sql`coalesce(${chosen}, ${channel === "email"})`;
  const defaults = NOTIFICATION_TYPE_DEFINITIONS[category].defaults;
  const fallback =
    channel === "inApp"
      ? sql`${defaults.inApp}`
      : defaults.email
        ? sql`not ${holdsStudentRole(userId)}`
        : sql`false`;
  return sql`coalesce(${chosen}, ${fallback})`;
}

function holdsStudentRole(userId: SQL): SQL {
  return sql`exists (select 1 from user_roles sr where sr.user_sourced_id = ${userId} and lower(sr.role) = 'student')`;
}

/** SQL: the language of what a person is sent: their own choice, else their school's, else English. */
export function languageOfSql(userId: SQL): SQL {
  return sql`coalesce(
    (select l.preferred_language from users l where l.sourced_id = ${userId} and l.preferred_language in ('en', 'es')),
    (select o.default_language from users l join orgs o on o.sourced_id = l.primary_org_sourced_id
      where l.sourced_id = ${userId} and o.default_language in ('en', 'es')),
    'en')`;
}
