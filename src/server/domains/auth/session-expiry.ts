import { sql } from "drizzle-orm";
import type { SessionExpiry } from "../../../shared/contracts/auth";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";

const iso = (column: string) =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/**
 * When the caller's session ends: at its fixed end (SESSION_MAX_HOURS after sign-in), or earlier
 * after SESSION_IDLE_MINUTES without a request. The last request is known to the minute, since
 * sessions are touched at most once a minute.
 */
export async function sessionExpiryOf(
  db: Database,
  actor: Actor,
  settings: { idleMinutes: number },
): Promise<SessionExpiry> {
  const [row] = await queryRows<{ signedInAt: string; lastSeenAt: string; expiresAt: string }>(
    db,
    sql`select ${iso("created_at")} as "signedInAt", ${iso("last_seen_at")} as "lastSeenAt", ${iso("expires_at")} as "expiresAt"
      from sessions where token_hash = ${actor.session.tokenHash}`,
  );
  // Ended between the lookup of this request and now (signed out elsewhere).
  if (!row) throw new AppError("unauthenticated", message("common:signIn"));
  const idleEndsAt = new Date(Date.parse(row.lastSeenAt) + settings.idleMinutes * 60_000);
  const expiresAt = new Date(row.expiresAt);
  return {
    signedInAt: row.signedInAt,
    expiresAt: row.expiresAt,
    idleMinutes: settings.idleMinutes,
    endsWithoutUseAt: (idleEndsAt < expiresAt ? idleEndsAt : expiresAt).toISOString(),
  };
}
