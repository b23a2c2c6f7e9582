import { sql } from "drizzle-orm";
import { isNotificationType, NOTIFICATION_TYPE_DEFINITIONS } from "../../../shared/contracts/notifications";
import { type Database, queryRows } from "../../db/client";
import type { SecretBox } from "../../lib/secret-box";

/** What the signature of an unsubscribe token is for: no other signed value passes as one. */
const TOKEN_CONTEXT = "email-unsubscribe";
/** A token is far shorter; longer input is refused before any work. */
export const MAX_TOKEN_LENGTH = 1_000;

/** Whom a token unsubscribes, and from what. */
export interface UnsubscribeTarget {
  userId: string;
  category: string;
}

/**
 * The token of a mail's unsubscribe link: the person and the category, signed (HMAC-SHA256 under
 * DASH_SECRET_KEY), so it works without signing in yet cannot be made or altered for anyone else.
 */
export function unsubscribeToken(box: SecretBox, target: UnsubscribeTarget): string {
  const payload = Buffer.from(JSON.stringify([target.userId, target.category]), "utf8").toString("base64url");
  return `${payload}.${box.sign(payload, TOKEN_CONTEXT)}`;
}

/** The person and category of a token Dash signed; null for anything else. */
export function readUnsubscribeToken(box: SecretBox, token: string): UnsubscribeTarget | null {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const [payload, signature, ...rest] = token.split(".");
  if (!payload || !signature || rest.length > 0 || !box.verify(payload, signature, TOKEN_CONTEXT))
    return null;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (!Array.isArray(decoded) || decoded.length !== 2) return null;
    const [userId, category] = decoded;
    if (typeof userId !== "string" || typeof category !== "string" || !userId || !category) return null;
    return { userId, category };
  } catch {
    return null;
  }
}

/**
 * Turns a category's mail off for a person: their preference row of that category with email off
 * (the in-app choice kept, or the type's default). Answers the address it was sent to, or null
 * when the person is no longer known.
 */
export async function unsubscribe(
  db: Database,
  target: UnsubscribeTarget,
  now: Date,
): Promise<{ address: string | null } | null> {
  const inAppDefault = isNotificationType(target.category)
    ? NOTIFICATION_TYPE_DEFINITIONS[target.category].defaults.inApp
    : true;
  const rows = await queryRows<{ address: string | null }>(
    db,
    sql`with person as (select sourced_id, email from users where sourced_id = ${target.userId}),
        saved as (
          insert into notification_preferences (user_sourced_id, type, in_app, email, updated_at)
          select sourced_id, ${target.category}, ${inAppDefault}, false, ${now.toISOString()}::timestamptz from person
          on conflict (user_sourced_id, type) do update set email = false, updated_at = excluded.updated_at
          returning user_sourced_id
        )
        select p.email as address from person p join saved s on s.user_sourced_id = p.sourced_id`,
  );
  return rows[0] ?? null;
}
