import { describe, expect, it } from "vitest";
import { createRateLimiter } from "./rate-limit";

describe("createRateLimiter", () => {
  const start = new Date("2026-03-02T10:00:00Z");
  const at = (ms: number) => new Date(start.getTime() + ms);

  it("allows the limit in a window, then says when to come back", () => {
    const limiter = createRateLimiter({ limit: 2, windowMs: 60_000 });
    expect(limiter.hit("a", at(0)).allowed).toBe(true);
    expect(limiter.hit("a", at(1_000)).allowed).toBe(true);
    expect(limiter.hit("a", at(15_500))).toEqual({ allowed: false, retryAfterSeconds: 45 });
    expect(limiter.hit("a", at(60_000)).allowed).toBe(true);
  });

  it("counts each key on its own", () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 1_000 });
    expect(limiter.hit("a", at(0)).allowed).toBe(true);
    expect(limiter.hit("b", at(0)).allowed).toBe(true);
    expect(limiter.hit("a", at(10)).allowed).toBe(false);
  });

  it("asks for at least one second", () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 1_000 });
    limiter.hit("a", at(0));
    expect(limiter.hit("a", at(999))).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });
});
