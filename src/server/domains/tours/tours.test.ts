import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TourCompletion } from "../../../shared/contracts/tours";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";

let t: TestApp;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent", "guardian", "proctor"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
  cookies.jordan = await t.signIn("multi@dash.demo");
});
afterAll(() => t.close());

const AVA = demoId("student-ava");

async function call(who: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await t.request(`/api/tours${path}`, { ...init, cookie: cookies[who] });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const complete = (who: string, tour: string, outcome: string) =>
  call(who, `/${tour}`, { method: "PUT", json: { outcome } });

describe("tour completions", () => {
  it("start with the demo student's tour done, so a demo sign-in lands on the home as it is", async () => {
    const { status, body } = await call("student", "");
    expect(status).toBe(200);
    expect((body as TourCompletion[]).map((row) => [row.tour, row.outcome])).toEqual([
      ["student", "finished"],
    ]);
  });

  it("are restarted and recorded again, idempotently, keeping the newest ending", async () => {
    expect((await call("student", "/student", { method: "DELETE" })).status).toBe(204);
    expect((await call("student", "/student", { method: "DELETE" })).status).toBe(204);
    expect((await call("student", "")).body).toEqual([]);

    const first = await complete("student", "student", "skipped");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ tour: "student", outcome: "skipped" });
    t.clock.advance(60_000);
    const again = await complete("student", "student", "finished");
    expect(again.status).toBe(200);
    expect(again.body.outcome).toBe("finished");
    expect(Date.parse(again.body.completedAt)).toBeGreaterThan(Date.parse(first.body.completedAt));

    const rows = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from tour_completions where user_sourced_id = ${AVA}`,
    );
    expect(rows[0]?.n).toBe(1);
    const { body } = await call("student", "");
    expect(body).toEqual([again.body]);
  });

  it("are each person's own: another person's list does not show them", async () => {
    expect((await complete("guide", "teacher", "closed")).status).toBe(200);
    expect((await call("admin", "")).body).toEqual([]);
    expect((await call("guide", "")).body.map((row: TourCompletion) => row.tour)).toEqual(["teacher"]);
  });

  it("are recorded for the tours of the caller's roles: guardians take the parent's, a Guide who is also a student both", async () => {
    expect((await complete("parent", "parent", "finished")).status).toBe(200);
    expect((await complete("guardian", "parent", "closed")).status).toBe(200);
    expect((await complete("admin", "administrator", "finished")).status).toBe(200);
    expect((await complete("jordan", "teacher", "finished")).status).toBe(200);
    expect((await complete("jordan", "student", "skipped")).status).toBe(200);
  });

  it("refuse a tour that is for none of the caller's roles, and proctors have none", async () => {
    for (const [who, tour] of [
      ["student", "administrator"],
      ["parent", "teacher"],
      ["guide", "administrator"],
      ["proctor", "teacher"],
    ] as const) {
      const refused = await complete(who, tour, "finished");
      expect(refused.status, `${who} ${tour}`).toBe(403);
      expect(refused.body.message).toBe("This guided tour is not for any of your roles");
      expect((await call(who, `/${tour}`, { method: "DELETE" })).status).toBe(403);
    }
  });

  it("refuse bad input with a clear message", async () => {
    const unknown = await complete("student", "astronaut", "finished");
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBeTruthy();
    const outcome = await complete("student", "student", "abandoned");
    expect(outcome.status).toBe(400);
    expect(outcome.body.issues?.[0]?.path).toBe("outcome");
    expect((await call("student", "/student", { method: "PUT" })).status).toBe(400);
  });

  it("need a session", async () => {
    expect((await t.request("/api/tours")).status).toBe(401);
    expect(
      (await t.request("/api/tours/student", { method: "PUT", json: { outcome: "finished" } })).status,
    ).toBe(401);
  });

  it("are not written for the viewed person while viewing Dash as someone, nor restarted", async () => {
    const admin = await t.signIn("admin@dash.demo");
    const started = await t.request("/api/auth/impersonation", {
      json: { userId: AVA, reason: "Checking the student's tour" },
      cookie: admin,
    });
    expect(started.status).toBe(200);
    const before = await queryRows<{ outcome: string }>(
      t.db,
      sql`select outcome from tour_completions where user_sourced_id = ${AVA} and tour = 'student'`,
    );
    const write = await t.request("/api/tours/student", {
      method: "PUT",
      json: { outcome: "closed" },
      cookie: admin,
    });
    expect(write.status).toBe(403);
    expect((await write.json()).message).toMatch(/view Dash as someone else/);
    const restart = await t.request("/api/tours/student", { method: "DELETE", cookie: admin });
    expect(restart.status).toBe(403);
    const spanish = await t.request("/api/tours/student", {
      method: "PUT",
      json: { outcome: "closed" },
      cookie: admin,
      headers: { "accept-language": "es" },
    });
    expect((await spanish.json()).message).toMatch(/otra persona/);
    const after = await queryRows<{ outcome: string }>(
      t.db,
      sql`select outcome from tour_completions where user_sourced_id = ${AVA} and tour = 'student'`,
    );
    expect(after).toEqual(before);
  });
});
