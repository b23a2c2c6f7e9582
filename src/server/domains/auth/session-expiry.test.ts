import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("GET /api/auth/session", () => {
  it("says when the session ends: at its fixed end, or sooner without use", async () => {
    const cookie = await t.signIn("student@dash.demo");
    const signedInAt = t.clock.now();
    t.clock.advance(5 * 60_000);
    const response = await t.request("/api/auth/session", { cookie });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.signedInAt).toBe(signedInAt.toISOString());
    expect(body.expiresAt).toBe(new Date(signedInAt.getTime() + 168 * 3_600_000).toISOString());
    expect(body.idleMinutes).toBe(120);
    // This request was a use: the session now lasts two hours from it.
    expect(body.endsWithoutUseAt).toBe(new Date(t.clock.now().getTime() + 120 * 60_000).toISOString());
    expect((await t.request("/api/auth/session")).status).toBe(401);
  });
});
