import { lt, sql } from "drizzle-orm";
import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { type Database, queryRows } from "../db/client";

/** One fixed window per limited key, shared by every server process. */
export const rateLimitWindows = pgTable("rate_limit_windows", {
  limitKey: text("limit_key").primaryKey(),
  hits: integer("hits").notNull(),
  windowEndsAt: timestamp("window_ends_at", { withTimezone: true }).notNull(),
});

export type RateLimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * A fixed-window request counter per key (an API client, an address…), kept in the database so
 * the limit is exact however many server processes share the traffic: one upsert per request,
 * whose row lock orders concurrent hits. A window starts at the key's first hit after the last
 * one ended.
 */
export interface RateLimiter {
  /** Counts one request; when over the limit, says how long until the window ends. */
  hit(key: string, now: Date): Promise<RateLimitVerdict>;
}

export function createRateLimiter(
  db: Database,
  options: { name: string; limit: number; windowMs: number },
): RateLimiter {
  return {
    async hit(key, now) {
      const windowEndsAt = new Date(now.getTime() + options.windowMs);
      const [row] = await queryRows<{ hits: number; windowEndsAt: Date | string }>(
        db,
        sql`insert into rate_limit_windows as w (limit_key, hits, window_ends_at)
          values (${`${options.name}:${key}`}, 1, ${windowEndsAt})
          on conflict (limit_key) do update set
            hits = case when w.window_ends_at <= ${now} then 1 else w.hits + 1 end,
            window_ends_at = case when w.window_ends_at <= ${now} then excluded.window_ends_at else w.window_ends_at end
          returning w.hits as hits, w.window_ends_at as "windowEndsAt"`,
      );
      if (!row || row.hits <= options.limit) return { allowed: true };
      const endsIn = new Date(row.windowEndsAt).getTime() - now.getTime();
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(endsIn / 1000)) };
    },
  };
}

/** Removes windows that have ended, so keys that went quiet do not pile up; run now and then. */
export async function sweepRateLimitWindows(db: Database, now: Date): Promise<void> {
  await db.delete(rateLimitWindows).where(lt(rateLimitWindows.windowEndsAt, now));
}
