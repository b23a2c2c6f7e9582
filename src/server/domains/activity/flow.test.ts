import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_APP_KEY, demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";

let t: TestApp;
beforeAll(async () => {
  // These tests report activity on fixed dates before any seeded day, further back than apps may.
  t = await createTestApp({ env: { INGEST_MAX_PAST_DAYS: "36500" } });
  // Saturday 2026-11-14 has no seeded school activity: a 20-minute Math activity ending 09:30 in New York and,
  // after a pause, a Reading one.
  const events = [
    {
      eventId: "flow-1",
      occurredAt: "2026-11-14T14:30:00Z",
      subject: "Math",
      activeSeconds: 1200,
      expectedXp: 20,
    },
    {
      eventId: "flow-2",
      occurredAt: "2026-11-14T15:30:00Z",
      subject: "Reading",
      activeSeconds: 900,
      expectedXp: 15,
    },
  ].map((event) => ({ ...event, email: "student@dash.demo", totalQuestions: 10, correctQuestions: 9 }));
  await t.request("/api/ingest/activity", {
    json: { events },
    headers: { authorization: `Bearer ${DEMO_APP_KEY}` },
  });
});
afterAll(() => t.close());

const AVA = demoId("student-ava");
const day = async (cookie: string, query: string) => {
  const response = await t.request(`/api/flow/day?date=2026-11-14${query}`, { cookie });
  return { status: response.status, body: await response.json() };
};

describe("GET /api/flow/day", () => {
  it("gives a student's day as timed events", async () => {
    const response = await day(await t.signIn("student@dash.demo"), "");
    expect(response.status).toBe(200);
    expect(response.body.data.students).toHaveLength(1);
    const [ava] = response.body.data.students;
    expect(
      ava.events.map((event: { start: string; end: string; subject: string; xp: number }) => [
        event.start,
        event.end,
        event.subject,
        event.xp,
      ]),
    ).toEqual([
      ["2026-11-14T14:10:00Z", "2026-11-14T14:30:00Z", "Math", 20],
      ["2026-11-14T15:15:00Z", "2026-11-14T15:30:00Z", "Reading", 15],
    ]);
    expect(ava.events[0].appName).toBe("Math Academy");
    expect(ava.events[0].accuracy).toBe(0.9);
  });

  it("gives a Guide their students, a class they teach, and refuses others", async () => {
    const guide = await t.signIn("guide@dash.demo");
    const all = await day(guide, "");
    expect(all.body.data.students.map((student: { sourcedId: string }) => student.sourcedId)).toContain(AVA);
    expect(all.body.data.students.length).toBeGreaterThan(15);
    const mathClass = demoId("class-maple-grove-guide-patel-Math");
    expect((await day(guide, `&classId=${mathClass}`)).status).toBe(200);
    expect((await day(guide, `&classId=${demoId("class-riverside-guide-fischer-Math")}`)).status).toBe(403);
    expect((await day(guide, `&studentId=${demoId("student-leo")}`)).status).toBe(403);
  });

  it("gives parents their children and asks administrators to choose", async () => {
    const parent = await day(await t.signIn("parent@dash.demo"), "");
    expect(parent.body.data.students.map((student: { givenName: string }) => student.givenName)).toEqual([
      "Ava",
      "Leo",
    ]);
    const admin = await t.signIn("admin@dash.demo");
    expect((await day(admin, "")).status).toBe(400);
    expect((await day(admin, `&studentId=${AVA}`)).status).toBe(200);
    expect((await day(await t.signIn("proctor@dash.demo"), "")).status).toBe(403);
    expect((await t.request("/api/flow/day?date=2026-02-30", { cookie: admin })).status).toBe(400);
  });

  it("lists the classes a Guide teaches", async () => {
    const response = await t.request("/api/classes/mine", { cookie: await t.signIn("guide@dash.demo") });
    const classes = (await response.json()).data;
    expect(classes.map((k: { title: string }) => k.title)).toEqual(
      expect.arrayContaining([
        "Math · Patel group",
        "Reading · Patel group",
        "Language · Patel group",
        "Science · Patel group",
      ]),
    );
    expect(classes).toHaveLength(4);
    expect(
      (await t.request("/api/classes/mine", { cookie: await t.signIn("student@dash.demo") })).status,
    ).toBe(403);
  });
});
