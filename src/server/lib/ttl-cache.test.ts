import { describe, expect, it } from "vitest";
import { createTtlCache } from "./ttl-cache";

describe("createTtlCache", () => {
  const start = new Date("2026-03-02T10:00:00Z");
  const at = (ms: number) => new Date(start.getTime() + ms);

  it("computes once while the value is fresh, again once it has expired", async () => {
    const cache = createTtlCache<number>({ ttlMs: 1_000, maxEntries: 10 });
    let computed = 0;
    const compute = async () => ++computed;
    expect(await cache.remember("a", at(0), compute)).toBe(1);
    expect(await cache.remember("a", at(999), compute)).toBe(1);
    expect(await cache.remember("a", at(1_000), compute)).toBe(2);
    expect(await cache.remember("b", at(1_000), compute)).toBe(3);
  });

  it("does not keep failures", async () => {
    const cache = createTtlCache<number>({ ttlMs: 1_000, maxEntries: 10 });
    await expect(cache.remember("a", at(0), () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await cache.remember("a", at(1), async () => 7)).toBe(7);
  });

  it("drops the oldest entry when full", async () => {
    const cache = createTtlCache<string>({ ttlMs: 60_000, maxEntries: 2 });
    await cache.remember("a", at(0), async () => "a1");
    await cache.remember("b", at(0), async () => "b1");
    await cache.remember("c", at(0), async () => "c1");
    expect(await cache.remember("b", at(1), async () => "b2")).toBe("b1");
    expect(await cache.remember("a", at(1), async () => "a2")).toBe("a2");
  });

  it("shares a computation still running with everyone who asks for its key", async () => {
    const cache = createTtlCache<number>({ ttlMs: 1_000, maxEntries: 10 });
    let computed = 0;
    let finish: (value: number) => void = () => {};
    const compute = () => {
      computed++;
      return new Promise<number>((resolve) => {
        finish = resolve;
      });
    };
    const first = cache.remember("a", at(0), compute);
    const second = cache.remember("a", at(1), compute);
    finish(5);
    expect(await Promise.all([first, second])).toEqual([5, 5]);
    expect(computed).toBe(1);
  });

  it("computes again after being cleared", async () => {
    const cache = createTtlCache<number>({ ttlMs: 60_000, maxEntries: 10 });
    await cache.remember("a", at(0), async () => 1);
    cache.clear();
    expect(await cache.remember("a", at(1), async () => 2)).toBe(2);
  });
});
