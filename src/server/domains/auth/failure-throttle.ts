import { inArray, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { loginFailures } from "./schema";

/** A counter of failed attempts (`account:<email>`, `ip:<address>`…) and how many it allows per window. */
export interface ThrottleKey {
  key: string;
  limit: number;
}

export type Reservation = { allowed: true; keys: string[] } | { allowed: false; retryAfterSeconds: number };

/**
 * Counts failed attempts per key in the database, so every app process sees the same counts.
 *
 * An attempt is counted before its secret is checked, in one statement that increments and
 * returns the counts: attempts sent at the same moment each see their own number, so no more of
 * them than the limit ever reach the check. A success gives its count back.
 */
export function createFailureThrottle(db: Database, options: { windowMs: number; now: () => Date }) {
  /** Counts one attempt on every key, or refuses it (uncounted) when a key is over its limit. */
  async function reserve(keys: ThrottleKey[]): Promise<Reservation> {
    const at = options.now();
    const windowStart = new Date(at.getTime() - options.windowMs);
    // A failure either extends the current window or starts a new one when it has ended.
    const counted = await db
      .insert(loginFailures)
      .values(keys.map(({ key }) => ({ throttleKey: key, failures: 1, windowStartedAt: at })))
      .onConflictDoUpdate({
        target: loginFailures.throttleKey,
        set: {
          failures: sql`case when ${loginFailures.windowStartedAt} < ${windowStart} then 1 else ${loginFailures.failures} + 1 end`,
          windowStartedAt: sql`case when ${loginFailures.windowStartedAt} < ${windowStart} then ${at} else ${loginFailures.windowStartedAt} end`,
        },
      })
      .returning();
    const keyNames = keys.map(({ key }) => key);
    let retryAfterSeconds = 0;
    for (const row of counted) {
      const limit = keys.find(({ key }) => key === row.throttleKey)?.limit ?? 0;
      if (row.failures <= limit) continue;
      const endsIn = Math.ceil((row.windowStartedAt.getTime() + options.windowMs - at.getTime()) / 1000);
      retryAfterSeconds = Math.max(retryAfterSeconds, endsIn, 1);
    }
    if (!retryAfterSeconds) return { allowed: true, keys: keyNames };
    // A refused attempt was never checked: it takes its count back, so refusals do not pile up.
    await giveBack(keyNames);
    return { allowed: false, retryAfterSeconds };
  }

  /** Takes back the counts of attempts that did not fail. */
  async function giveBack(keys: string[]): Promise<void> {
    await db
      .update(loginFailures)
      .set({ failures: sql`greatest(${loginFailures.failures} - 1, 0)` })
      .where(inArray(loginFailures.throttleKey, keys));
  }

  /** Forgets the failures of these keys (an account that just signed in). */
  async function clear(keys: string[]): Promise<void> {
    await db.delete(loginFailures).where(inArray(loginFailures.throttleKey, keys));
  }

  return { reserve, giveBack, clear };
}

export type FailureThrottle = ReturnType<typeof createFailureThrottle>;

/** The whole minutes to wait out a refusal: the `minutes` of the messages that say so. */
export function minutesToWait(retryAfterSeconds: number): number {
  return Math.ceil(retryAfterSeconds / 60);
}

/** "Try again in N minutes" for a refusal's wait, in English (for callers that build English sentences). */
export function retryAfterText(retryAfterSeconds: number): string {
  const minutes = minutesToWait(retryAfterSeconds);
  return `Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
