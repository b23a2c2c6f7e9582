/**
 * A small in-process cache of computed values that expire after a fixed time, for results that
 * are costly to compute and may be a few seconds old. Oldest entries go first when it is full.
 * Callers who ask for a key while it is being computed wait for that computation instead of
 * starting their own, so a burst of requests for a cold key costs one computation.
 */
export interface TtlCache<Value> {
  /** The fresh cached value of the key, or the computed one (then cached; failures are not). */
  remember(key: string, now: Date, compute: () => Promise<Value>): Promise<Value>;
  /** Forgets every value, for when what they were computed from changed. */
  clear(): void;
}

export function createTtlCache<Value>(options: { ttlMs: number; maxEntries: number }): TtlCache<Value> {
  const entries = new Map<string, { value: Promise<Value>; expiresAt: number }>();
  return {
    remember(key, now, compute) {
      const at = now.getTime();
      const cached = entries.get(key);
      if (cached && cached.expiresAt > at) return cached.value;
      const value = compute();
      entries.delete(key);
      if (entries.size >= options.maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      const entry = { value, expiresAt: at + options.ttlMs };
      entries.set(key, entry);
      // A failure is not kept: the next caller computes again.
      value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return value;
    },
    clear() {
      entries.clear();
    },
  };
}
