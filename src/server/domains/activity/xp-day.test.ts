import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { XpDay } from "../../../shared/contracts/activity";
import { localDateOf } from "../../../shared/time-zone";
import { DEMO_APP_KEY, demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";

let t: TestApp;
beforeAll(async () => {
  // These tests report activity on fixed dates before any seeded day, further back than apps may.
  t = await createTestApp({ env: { INGEST_MAX_PAST_DAYS: "36500" } });
});
afterAll(() => t.close());

const AVA = demoId("student-ava");
const LEO = demoId("student-leo");
const uniqueId = (label: string) => `${label}-${crypto.randomUUID()}`;

const ingest = (events: unknown[]) =>
  t.request("/api/ingest/activity", {
    json: { events },
    headers: { authorization: `Bearer ${DEMO_APP_KEY}` },
  });

async function day(cookie: string, query: Record<string, string>) {
  const response = await t.request(`/api/xp/day?${new URLSearchParams(query)}`, { cookie });
  return { status: response.status, body: await response.json() };
}

// A day long before any seeded activity; Ava lives in New York, so 15:00 UTC is mid-morning there.
const DATE = "2024-01-16";

describe("GET /api/xp/day", () => {
  it("lists the day's events with how each XP figure was computed, and the totals per subject", async () => {
    const guide = await t.signIn("guide@dash.demo");
    const before = (await day(guide, { studentId: AVA, date: DATE })).body.data as XpDay;

    const perfect = {
      eventId: uniqueId("perfect"),
      studentId: AVA,
      occurredAt: `${DATE}T15:00:00Z`,
      subject: "Math",
      activityId: "fractions-1",
      activityName: "Fractions 1",
      expectedXp: 20,
      totalQuestions: 10,
      correctQuestions: 10,
      activeSeconds: 1200,
    };
    const wasteful = {
      ...perfect,
      eventId: uniqueId("wasteful"),
      occurredAt: `${DATE}T16:30:00Z`,
      activityName: "Fractions 2",
      correctQuestions: 9,
      activeSeconds: 900,
      wasteSeconds: 300,
      antiPatternSeconds: 120,
      attempt: 2,
    };
    // The next day in UTC, but still the 16th in New York.
    const evening = {
      ...perfect,
      eventId: uniqueId("evening"),
      occurredAt: "2024-01-17T02:00:00Z",
      subject: "Reading",
      activityName: "Chapter 3",
      expectedXp: 7,
      totalQuestions: 0,
      correctQuestions: 0,
    };
    const ingested = await (await ingest([perfect, wasteful, evening])).json();
    expect(ingested.accepted).toHaveLength(3);

    const response = await day(guide, { studentId: AVA, date: DATE });
    expect(response.status).toBe(200);
    const data = response.body.data as XpDay;
    expect(data.date).toBe(DATE);
    expect(data.student).toMatchObject({
      sourcedId: AVA,
      givenName: "Ava",
      familyName: "Johnson",
      timezone: "America/New_York",
    });
    const mine = data.events.filter((event) =>
      [perfect.eventId, wasteful.eventId, evening.eventId].includes(event.eventId),
    );
    expect(mine.map((event) => event.eventId)).toEqual([perfect.eventId, wasteful.eventId, evening.eventId]);
    expect(mine[0]).toMatchObject({
      appName: "Math Academy",
      subject: "Math",
      activityId: "fractions-1",
      activityName: "Fractions 1",
      occurredAt: "2024-01-16T15:00:00.000Z",
      totalQuestions: 10,
      correctQuestions: 10,
      accuracy: 1,
      activeSeconds: 1200,
      wasteSeconds: 0,
      antiPatternSeconds: 0,
      attempt: 1,
      expectedXp: 20,
      awardedXp: 25,
      xpExplanation: "expected 20 XP × 1.25 (first attempt, accuracy 100%) = 25 XP",
    });
    // 20 × 0.5 (retry, 90%) × 0.75 (25% wasted) − 2 (2 min gaming) = 5.5
    expect(mine[1]).toMatchObject({
      accuracy: 0.9,
      attempt: 2,
      wasteSeconds: 300,
      antiPatternSeconds: 120,
      awardedXp: 5.5,
      xpExplanation: expect.stringContaining("expected 20 XP × 0.5 (attempt 2, accuracy 90%)"),
    });
    expect(mine[2]).toMatchObject({ subject: "Reading", accuracy: null, awardedXp: 7 });

    const totalOf = (days: XpDay, subject: string) =>
      days.totals.find((entry) => entry.subject === subject) ?? { eventXp: 0, manualXp: 0, totalXp: 0 };
    expect(totalOf(data, "Math").eventXp - totalOf(before, "Math").eventXp).toBe(30.5);
    expect(totalOf(data, "Math").totalXp - totalOf(before, "Math").totalXp).toBe(30.5);
    expect(totalOf(data, "Reading").totalXp - totalOf(before, "Reading").totalXp).toBe(7);
    expect(data.totalXp - before.totalXp).toBe(37.5);

    // The day before and after (in New York) hold none of them.
    for (const other of ["2024-01-15", "2024-01-17"]) {
      const events = ((await day(guide, { studentId: AVA, date: other })).body.data as XpDay).events;
      expect(events.map((event) => event.eventId)).not.toContain(evening.eventId);
    }
  });

  it("defaults to the student's today and lists that day's manual entries", async () => {
    const guide = await t.signIn("guide@dash.demo");
    const reason = `Helped tidy the library ${uniqueId("r")}`;
    const award = await t.request("/api/xp/manual", {
      cookie: guide,
      json: { studentId: AVA, amount: -2.5, subject: "Reading", reason, idempotencyKey: uniqueId("key") },
    });
    expect(award.status).toBe(201);

    const response = await day(guide, { studentId: AVA });
    expect(response.status).toBe(200);
    const data = response.body.data as XpDay;
    const today = localDateOf(t.clock.now(), "America/New_York");
    expect(data.date).toBe(today);
    expect(data.student.today).toBe(today);
    const entry = data.manual.find((item) => item.reason === reason);
    expect(entry).toMatchObject({
      amount: -2.5,
      subject: "Reading",
      source: "manual",
      actorName: "Maya Patel",
      localDate: today,
    });
    expect(data.manual.every((item) => item.source === "manual")).toBe(true);
  });

  it("is allowed to whoever may see the student", async () => {
    const query = { studentId: LEO, date: DATE };
    expect((await day(await t.signIn("student@dash.demo"), query)).status).toBe(403);
    expect((await day(await t.signIn("guide@dash.demo"), query)).status).toBe(403);
    expect((await day(await t.signIn("guardian@dash.demo"), query)).status).toBe(403);
    expect((await day(await t.signIn("proctor@dash.demo"), { studentId: AVA })).status).toBe(403);
    expect((await day(await t.signIn("parent@dash.demo"), query)).status).toBe(200);
    expect((await day(await t.signIn("admin@dash.demo"), query)).status).toBe(200);
    const own = await day(await t.signIn("student@dash.demo"), { studentId: AVA, date: DATE });
    expect(own.status).toBe(200);
    const denied = await day(await t.signIn("student@dash.demo"), query);
    expect(denied.body.message).toBe("You do not have access to this student");
    expect((await t.request(`/api/xp/day?studentId=${AVA}`)).status).toBe(401);
  });

  it("answers 400 on a bad date or a missing student", async () => {
    const admin = await t.signIn("admin@dash.demo");
    for (const query of [
      { studentId: AVA, date: "2024-02-30" },
      { studentId: AVA, date: "16/01/2024" },
      { studentId: AVA, date: "" },
      { date: DATE },
    ]) {
      const response = await day(admin, query as Record<string, string>);
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(response.body.message).toEqual(expect.any(String));
    }
  });
});
