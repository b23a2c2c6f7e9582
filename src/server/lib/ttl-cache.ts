/**
 * A small in-process cache of computed values that expire after a fixed time, for results that
 * are costly to compute and may be a few seconds old. Oldest entries go first when it is full.
 */
export interface TtlCache<Value> {
  /** The fresh cached value of the key, or the computed one (then cached; failures are not). */
  remember(key: string, now: Date, compute: () => Promise<Value>): Promise<Value>;
}

export function createTtlCache<Value>(options: { ttlMs: number; maxEntries: number }): TtlCache<Value> {
  const entries = new Map<string, { value: Value; expiresAt: number }>();
  return {
    async remember(key, now, compute) {
      const at = now.getTime();
      const cached = entries.get(key);
      if (cached && cached.expiresAt > at) return cached.value;
      const value = await compute();
      entries.delete(key);
      if (entries.size >= options.maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      entries.set(key, { value, expiresAt: at + options.ttlMs });
      return value;
    },
  };
}
