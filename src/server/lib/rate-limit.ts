import { lt, sql } from "drizzle-orm";
import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { type Database, queryRows } from "../db/client";
import { batched } from "./batched";

/** One fixed window per limited key, shared by every server process. */
export const rateLimitWindows = pgTable("rate_limit_windows", {
  limitKey: text("limit_key").primaryKey(),
  hits: integer("hits").notNull(),
  windowEndsAt: timestamp("window_ends_at", { withTimezone: true }).notNull(),
});

export type RateLimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * A fixed-window request counter per key (an API client, an address…), kept in the database so
 * the limit is exact however many server processes share the traffic. Hits that arrive together
 * are counted in one upsert (see `batched`), whose row locks order concurrent hits; a window starts
 * at the key's first hit after the last one ended.
 */
export interface RateLimiter {
  /** Counts one request; when over the limit, says how long until the window ends. */
  hit(key: string, now: Date): Promise<RateLimitVerdict>;
}

/** Most hits counted in one statement. */
const MAX_HITS_PER_STATEMENT = 256;

export function createRateLimiter(
  db: Database,
  options: { name: string; limit: number; windowMs: number },
): RateLimiter {
  const countHits = batched(
    async (hits: { key: string; now: Date }[]): Promise<RateLimitVerdict[]> => {
      // One row per key with its number of hits; the batch is counted at its latest instant.
      const now = new Date(Math.max(...hits.map((hit) => hit.now.getTime())));
      const perKey = new Map<string, number>();
      for (const { key } of hits) perKey.set(key, (perKey.get(key) ?? 0) + 1);
      const rows = await queryRows<{ key: string; hits: number; windowEndsAt: Date | string }>(
        db,
        sql`insert into rate_limit_windows as w (limit_key, hits, window_ends_at)
          select ${`${options.name}:`} || h.key, h.n, ${new Date(now.getTime() + options.windowMs)}
          from jsonb_to_recordset(${JSON.stringify([...perKey].map(([key, n]) => ({ key, n })))}::jsonb)
            as h(key text, n int)
          on conflict (limit_key) do update set
            hits = case when w.window_ends_at <= ${now} then excluded.hits else w.hits + excluded.hits end,
            window_ends_at = case when w.window_ends_at <= ${now} then excluded.window_ends_at else w.window_ends_at end
          returning substr(w.limit_key, ${options.name.length + 2}) as key, w.hits as hits,
            w.window_ends_at as "windowEndsAt"`,
      );
      const counted = new Map(rows.map((row) => [row.key, row]));
      // The key's hits of this batch are its last ones: the first of them is number total - n + 1.
      const seen = new Map<string, number>();
      return hits.map(({ key }) => {
        const row = counted.get(key);
        const before = seen.get(key) ?? 0;
        seen.set(key, before + 1);
        if (!row) return { allowed: true };
        const number = row.hits - (perKey.get(key) ?? 1) + 1 + before;
        if (number <= options.limit) return { allowed: true };
        const endsIn = new Date(row.windowEndsAt).getTime() - now.getTime();
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(endsIn / 1000)) };
      });
    },
    { maxCalls: MAX_HITS_PER_STATEMENT },
  );
  return { hit: (key, now) => countHits({ key, now }) };
}

/** Removes windows that have ended, so keys that went quiet do not pile up; run now and then. */
export async function sweepRateLimitWindows(db: Database, now: Date): Promise<void> {
  await db.delete(rateLimitWindows).where(lt(rateLimitWindows.windowEndsAt, now));
}
