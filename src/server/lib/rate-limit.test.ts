import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client";
import { openEmptyTestDatabase } from "../test/harness";
import { createRateLimiter, rateLimitWindows, sweepRateLimitWindows } from "./rate-limit";

let db: Database;
let dispose: () => Promise<void>;
beforeAll(async () => {
  const opened = await openEmptyTestDatabase();
  db = opened.handle.db;
  dispose = opened.dispose;
});
afterAll(() => dispose());

describe("createRateLimiter", () => {
  const start = new Date("2026-03-02T10:00:00Z");
  const at = (ms: number) => new Date(start.getTime() + ms);

  it("allows the limit in a window, then says when to come back", async () => {
    const limiter = createRateLimiter(db, { name: "first", limit: 2, windowMs: 60_000 });
    expect((await limiter.hit("a", at(0))).allowed).toBe(true);
    expect((await limiter.hit("a", at(1_000))).allowed).toBe(true);
    expect(await limiter.hit("a", at(15_500))).toEqual({ allowed: false, retryAfterSeconds: 45 });
    expect((await limiter.hit("a", at(60_000))).allowed).toBe(true);
  });

  it("counts each key and each limiter on its own", async () => {
    const limiter = createRateLimiter(db, { name: "second", limit: 1, windowMs: 1_000 });
    const other = createRateLimiter(db, { name: "third", limit: 1, windowMs: 1_000 });
    expect((await limiter.hit("a", at(0))).allowed).toBe(true);
    expect((await limiter.hit("b", at(0))).allowed).toBe(true);
    expect((await other.hit("a", at(0))).allowed).toBe(true);
    expect((await limiter.hit("a", at(10))).allowed).toBe(false);
  });

  it("asks for at least one second", async () => {
    const limiter = createRateLimiter(db, { name: "fourth", limit: 1, windowMs: 1_000 });
    await limiter.hit("a", at(0));
    expect(await limiter.hit("a", at(999))).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it("lets exactly the limit through when requests arrive at once", async () => {
    const limiter = createRateLimiter(db, { name: "burst", limit: 5, windowMs: 60_000 });
    const verdicts = await Promise.all(Array.from({ length: 20 }, () => limiter.hit("a", at(0))));
    expect(verdicts.filter((verdict) => verdict.allowed)).toHaveLength(5);
  });

  it("counts hits of several keys arriving together exactly, each key on its own", async () => {
    const limiter = createRateLimiter(db, { name: "keys", limit: 4, windowMs: 60_000 });
    const keys = ["a", "b", "c"].flatMap((key) => Array.from({ length: 10 }, () => key));
    const verdicts = await Promise.all(keys.map((key) => limiter.hit(key, at(0))));
    for (const key of ["a", "b", "c"]) {
      const allowed = verdicts.filter((verdict, index) => keys[index] === key && verdict.allowed);
      expect(allowed).toHaveLength(4);
    }
    const refused = verdicts.find((verdict) => !verdict.allowed);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 60 });
  });

  it("sweeps the windows that have ended and keeps the others", async () => {
    const limiter = createRateLimiter(db, { name: "sweep", limit: 1, windowMs: 60_000 });
    await limiter.hit("old", at(0));
    await limiter.hit("new", at(50_000));
    await sweepRateLimitWindows(db, at(70_000));
    const keys = (await db.select().from(rateLimitWindows)).map((row) => row.limitKey);
    expect(keys).toContain("sweep:new");
    expect(keys).not.toContain("sweep:old");
  });
});
