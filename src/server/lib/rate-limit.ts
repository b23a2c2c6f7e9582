/**
 * A fixed-window request counter per key (an API client, for example), kept in this process.
 * Behind several app processes each one counts on its own, so the effective limit is the limit
 * times the number of processes: enough to stop a runaway client, which is its purpose.
 */
export interface RateLimiter {
  /** Counts one request; when over the limit, says how long until the window ends. */
  hit(key: string, now: Date): { allowed: true } | { allowed: false; retryAfterSeconds: number };
}

export function createRateLimiter(options: { limit: number; windowMs: number }): RateLimiter {
  const windows = new Map<string, { startedAt: number; count: number }>();
  return {
    hit(key, now) {
      const at = now.getTime();
      let window = windows.get(key);
      if (!window || at - window.startedAt >= options.windowMs) {
        // Forget finished windows now and then, so keys that went quiet do not pile up.
        if (windows.size > 10_000) {
          for (const [other, entry] of windows) {
            if (at - entry.startedAt >= options.windowMs) windows.delete(other);
          }
        }
        window = { startedAt: at, count: 0 };
        windows.set(key, window);
      }
      window.count++;
      if (window.count <= options.limit) return { allowed: true };
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((window.startedAt + options.windowMs - at) / 1000)),
      };
    },
  };
}
