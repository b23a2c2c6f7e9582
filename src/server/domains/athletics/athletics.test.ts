import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AthleticsWeek } from "../../../shared/contracts/athletics";
import { addDays, localDateOf, weekStartOf } from "../../../shared/time-zone";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { childIdsOfAgent, studentIdsOfGuide } from "../rostering/scope";

let t: TestApp;
const cookies: Record<string, string> = {};
const AVA = demoId("student-ava"); // Maya Patel's student
const LEO = demoId("student-leo"); // Ava's brother at Riverside, not Patel's
const SAM = demoId("parent-sam"); // parent of Ava and Leo

beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent", "guardian", "proctor"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
});
afterAll(() => t.close());

async function call(who: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await t.request(`/api/athletics${path}`, { ...init, cookie: cookies[who] });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const today = () => localDateOf(t.clock.now(), "America/New_York");
const week = async (who: string, query = "") => {
  const answer = await call(who, query);
  expect(answer.status).toBe(200);
  return answer.body as AthleticsWeek;
};
const log = (who: string, json: Record<string, unknown>) => call(who, "", { method: "POST", json });

describe("a student's activity log", () => {
  it("shows the week's entries, its minutes against the goal and eight weeks of totals", async () => {
    const mine = await week("student");
    expect(mine.student.id).toBe(AVA);
    expect(mine.today).toBe(today());
    expect(mine.earliestDate).toBe(addDays(today(), -30));
    expect(mine.week.start).toBe(weekStartOf(today()));
    expect(mine.week.end).toBe(addDays(weekStartOf(today()), 6));
    expect(mine.week.goalMinutes).toBe(150);
    expect(mine.week.minutes).toBe(mine.week.entries.reduce((total, entry) => total + entry.minutes, 0));
    expect(mine.history).toHaveLength(8);
    expect(mine.history.at(-1)).toEqual({ weekStart: mine.week.start, minutes: mine.week.minutes });
    // The demo gives Ava five full weeks before this one.
    expect(mine.history.slice(2, 7).every((entry) => entry.minutes > 0)).toBe(true);
    expect(mine.canLog).toBe(true);

    const earlier = await week("student", `?week=${addDays(today(), -14)}`);
    expect(earlier.week.start).toBe(weekStartOf(addDays(today(), -14)));
    expect(earlier.week.entries.length).toBeGreaterThan(0);
    expect(earlier.history.at(-1)?.weekStart).toBe(earlier.week.start);
  });

  it("takes an activity for today or the last 30 days and counts it toward the week", async () => {
    const before = await week("student");
    const created = await log("student", { activity: "  Bike ride ", minutes: 35, date: today(), note: "" });
    expect(created.status).toBe(201);
    const after = await week("student");
    expect(after.week.minutes).toBe(before.week.minutes + 35);
    const entry = after.week.entries.find((item) => item.id === created.body.id);
    expect(entry).toMatchObject({
      activity: "Bike ride",
      minutes: 35,
      date: today(),
      note: null,
      canChange: true,
      changedAt: null,
    });
    expect(entry?.recordedBy).toEqual({ id: AVA, name: after.student.name });
    expect(
      (await log("student", { activity: "Hike", minutes: 20, date: addDays(today(), -30) })).status,
    ).toBe(201);
  });

  it("refuses bad entries with a message per field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ activity: "", minutes: 10, date: today() }, "activity"],
      [{ activity: "x".repeat(81), minutes: 10, date: today() }, "activity"],
      [{ activity: "Run", minutes: 0, date: today() }, "minutes"],
      [{ activity: "Run", minutes: 601, date: today() }, "minutes"],
      [{ activity: "Run", minutes: 1.5, date: today() }, "minutes"],
      [{ activity: "Run", minutes: "ten", date: today() }, "minutes"],
      [{ activity: "Run", minutes: 10, date: "2024-02-30" }, "date"],
      [{ activity: "Run", minutes: 10, date: addDays(today(), 1) }, "date"],
      [{ activity: "Run", minutes: 10, date: addDays(today(), -31) }, "date"],
      [{ activity: "Run", minutes: 10, date: today(), note: "n".repeat(501) }, "note"],
    ];
    for (const [json, field] of cases) {
      const answer = await log("student", json);
      expect(answer.status, JSON.stringify(json)).toBe(400);
      expect(answer.body.issues.map((issue: { path: string }) => issue.path)).toContain(field);
    }
    const spanish = await t.request("/api/athletics", {
      json: { activity: "Run", minutes: 10, date: addDays(today(), 1) },
      cookie: cookies.student,
      headers: { "Accept-Language": "es" },
    });
    expect((await spanish.json()).issues[0].message).toContain("todavía no ha llegado");
    expect((await call("student", `?week=${addDays(today(), 7)}`)).status).toBe(400);
    expect((await call("student", "?week=soon")).status).toBe(400);
  });

  it("lets a student log for themself only", async () => {
    expect(
      (await log("student", { studentId: LEO, activity: "Run", minutes: 10, date: today() })).status,
    ).toBe(403);
    expect((await call("student", `?studentId=${LEO}`)).status).toBe(404);
  });
});

describe("who else reads and logs", () => {
  it("lets a Guide see and log for their students only", async () => {
    const avas = await week("guide", `?studentId=${AVA}`);
    expect(avas.student.id).toBe(AVA);
    expect(avas.canLog).toBe(true);
    expect(
      avas.week.entries.every((entry) => entry.canChange === (entry.recordedBy.id === demoId("guide-patel"))),
    ).toBe(true);
    const created = await log("guide", {
      studentId: AVA,
      activity: "Relay race",
      minutes: 25,
      date: today(),
    });
    expect(created.status).toBe(201);
    const seen = await week("student");
    expect(seen.week.entries.find((entry) => entry.id === created.body.id)).toMatchObject({
      canChange: false,
      recordedBy: { id: demoId("guide-patel") },
    });
    expect((await call("guide", `?studentId=${LEO}`)).status).toBe(404);
    expect((await log("guide", { studentId: LEO, activity: "Run", minutes: 10, date: today() })).status).toBe(
      404,
    );
    expect((await log("guide", { activity: "Run", minutes: 10, date: today() })).status).toBe(400);
    expect((await call("guide", "")).status).toBe(400);
  });

  it("lets parents and guardians read their children's logs, and nothing more", async () => {
    const avas = await week("parent", `?studentId=${AVA}`);
    expect(avas.canLog).toBe(false);
    expect(avas.week.entries.every((entry) => !entry.canChange)).toBe(true);
    expect((await week("parent", `?studentId=${LEO}`)).student.id).toBe(LEO);
    expect((await week("guardian", `?studentId=${AVA}`)).student.id).toBe(AVA);
    expect((await call("guardian", `?studentId=${LEO}`)).status).toBe(404);
    // Another family's child, even one in Ava's class, is not found.
    const [otherChild] = await queryRows<{ id: string }>(
      t.db,
      sql`select s.user_sourced_id as id from (${studentIdsOfGuide(demoId("guide-patel"))}) s
        where s.user_sourced_id not in (${childIdsOfAgent(SAM)}) order by 1 limit 1`,
    );
    expect(otherChild).toBeDefined();
    expect((await call("parent", `?studentId=${otherChild?.id}`)).status).toBe(404);
    expect((await call("parent", "")).status).toBe(400);
    expect(
      (await log("parent", { studentId: AVA, activity: "Run", minutes: 10, date: today() })).status,
    ).toBe(403);
    const entry = avas.week.entries[0] ?? (await week("student")).week.entries[0];
    expect((await call("parent", `/${entry?.id}`, { method: "PATCH", json: { minutes: 5 } })).status).toBe(
      403,
    );
    expect((await call("parent", `/${entry?.id}`, { method: "DELETE" })).status).toBe(403);
  });

  it("refuses proctors and lets administrators read and log for anyone", async () => {
    expect((await call("proctor", `?studentId=${AVA}`)).status).toBe(403);
    expect(
      (await log("proctor", { studentId: AVA, activity: "Run", minutes: 10, date: today() })).status,
    ).toBe(403);
    expect((await week("admin", `?studentId=${LEO}`)).canLog).toBe(true);
    expect((await log("admin", { studentId: LEO, activity: "Run", minutes: 10, date: today() })).status).toBe(
      201,
    );
    expect((await call("admin", "?studentId=nobody")).status).toBe(404);
    expect((await call("admin", `?studentId=${SAM}`)).status).toBe(404);
  });

  it("while a Guide views Dash as a parent, reaches only the children who are also the Guide's students", async () => {
    const guide = await t.signIn("guide@dash.demo");
    const started = await t.request("/api/auth/impersonation", {
      json: { userId: SAM, reason: "Checking a family's view" },
      cookie: guide,
    });
    expect(started.status).toBe(200);
    expect((await t.request(`/api/athletics?studentId=${AVA}`, { cookie: guide })).status).toBe(200);
    expect((await t.request(`/api/athletics?studentId=${LEO}`, { cookie: guide })).status).toBe(404);
  });
});

describe("changing and removing entries", () => {
  it("lets whoever logged an entry change it, keeping who and when", async () => {
    const created = await log("student", { activity: "Skating", minutes: 30, date: today() });
    const id = created.body.id as string;
    t.clock.advance(60_000);
    const changed = await call("student", `/${id}`, {
      method: "PATCH",
      json: { minutes: 40, note: "With my cousin", date: addDays(today(), -1) },
    });
    expect(changed.status).toBe(204);
    const [row] = await queryRows<{ minutes: number; note: string; date: string; updatedBy: string }>(
      t.db,
      sql`select minutes, note, to_char(activity_date, 'YYYY-MM-DD') as date, updated_by as "updatedBy"
        from athletic_activities where id = ${id}::uuid`,
    );
    expect(row).toEqual({ minutes: 40, note: "With my cousin", date: addDays(today(), -1), updatedBy: AVA });
    expect((await call("student", `/${id}`, { method: "PATCH", json: { note: null } })).status).toBe(204);
    expect((await call("student", `/${id}`, { method: "PATCH", json: {} })).status).toBe(400);
    expect((await call("student", `/${id}`, { method: "PATCH", json: { minutes: 0 } })).status).toBe(400);
    expect(
      (await call("student", `/${id}`, { method: "PATCH", json: { date: addDays(today(), 2) } })).status,
    ).toBe(400);
    // A Guide who did not log it may not change it; an administrator may.
    expect((await call("guide", `/${id}`, { method: "PATCH", json: { minutes: 5 } })).status).toBe(403);
    expect((await call("admin", `/${id}`, { method: "PATCH", json: { minutes: 45 } })).status).toBe(204);
  });

  it("removes an entry from the log and the total, keeping the row with who removed it", async () => {
    const created = await log("student", { activity: "Tennis", minutes: 50, date: today() });
    const id = created.body.id as string;
    const before = await week("student");
    expect((await call("guide", `/${id}`, { method: "DELETE" })).status).toBe(403);
    expect((await call("student", `/${id}`, { method: "DELETE" })).status).toBe(204);
    const after = await week("student");
    expect(after.week.minutes).toBe(before.week.minutes - 50);
    expect(after.week.entries.some((entry) => entry.id === id)).toBe(false);
    const [row] = await queryRows<{ removedBy: string; removed: boolean }>(
      t.db,
      sql`select removed_by as "removedBy", removed_at is not null as removed from athletic_activities where id = ${id}::uuid`,
    );
    expect(row).toEqual({ removedBy: AVA, removed: true });
    expect((await call("student", `/${id}`, { method: "DELETE" })).status).toBe(404);
    expect((await call("student", `/${id}`, { method: "PATCH", json: { minutes: 5 } })).status).toBe(404);
  });

  it("hides entries out of reach as not found", async () => {
    const created = await log("admin", { studentId: LEO, activity: "Rowing", minutes: 30, date: today() });
    const id = created.body.id as string;
    expect((await call("guide", `/${id}`, { method: "PATCH", json: { minutes: 5 } })).status).toBe(404);
    expect((await call("student", `/${id}`, { method: "DELETE" })).status).toBe(404);
    expect((await call("proctor", `/${id}`, { method: "DELETE" })).status).toBe(403);
    expect((await call("student", "/not-an-entry", { method: "DELETE" })).status).toBe(404);
  });
});

describe("the weekly goal", () => {
  it("is 150 minutes until an administrator sets it; only administrators may", async () => {
    expect((await call("student", "/settings")).body).toEqual({
      weeklyGoalMinutes: 150,
      changedAt: null,
      changedBy: null,
    });
    expect(
      (await call("guide", "/settings", { method: "PUT", json: { weeklyGoalMinutes: 200 } })).status,
    ).toBe(403);
    expect((await call("admin", "/settings", { method: "PUT", json: { weeklyGoalMinutes: 5 } })).status).toBe(
      400,
    );
    expect(
      (await call("admin", "/settings", { method: "PUT", json: { weeklyGoalMinutes: "lots" } })).status,
    ).toBe(400);
    const saved = await call("admin", "/settings", { method: "PUT", json: { weeklyGoalMinutes: 180 } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ weeklyGoalMinutes: 180, changedBy: expect.any(String) });
    expect(saved.body.changedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await week("student")).week.goalMinutes).toBe(180);
    expect((await call("parent", "/settings")).body.weeklyGoalMinutes).toBe(180);
  });

  it("needs a session", async () => {
    expect((await t.request("/api/athletics")).status).toBe(401);
    expect((await t.request("/api/athletics/settings")).status).toBe(401);
  });
});
