import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localDateOf } from "../../../shared/time-zone";
import { DEMO_APP_KEY, demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { users } from "../rostering/schema";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const AVA = demoId("student-ava");
const LEO = demoId("student-leo");
let sequence = 0;
const uniqueId = (label: string) => `${label}-${++sequence}-${Math.random().toString(36).slice(2, 8)}`;

const ingest = (events: unknown[], key = DEMO_APP_KEY) =>
  t.request("/api/ingest/activity", { json: { events }, headers: { authorization: `Bearer ${key}` } });

/** When the test events happened: an hour ago. */
const eventTime = () => new Date(t.clock.now().getTime() - 3600_000);

const fact = (overrides: Record<string, unknown> = {}) => ({
  eventId: uniqueId("event"),
  email: "student@dash.demo",
  occurredAt: eventTime().toISOString(),
  subject: "Math",
  activityName: "Fractions 1",
  expectedXp: 20,
  totalQuestions: 10,
  correctQuestions: 10,
  activeSeconds: 1200,
  ...overrides,
});

async function heatmap(cookie: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await t.request("/api/learning-metrics/analytics-xp-heatmap", {
    json: body,
    cookie,
    headers,
  });
  return { status: response.status, body: await response.json() };
}

/** The student's day of the test events (in the first hour after midnight, that is yesterday). */
const eventDay = (timezone = "America/New_York") => localDateOf(eventTime(), timezone);

describe("ingestion with an app key", () => {
  it("stores the good events of a mixed batch and says why the others were refused", async () => {
    const good = fact();
    const byId = fact({ email: undefined, studentId: AVA, correctQuestions: 9 });
    const response = await ingest([
      good,
      byId,
      fact({ correctQuestions: 11 }),
      fact({ email: "nobody@dash.demo" }),
      { ...good },
      fact({ occurredAt: new Date(t.clock.now().getTime() + 3600_000).toISOString() }),
      fact({ subject: undefined }),
      "not an event",
    ]);
    expect(response.status).toBe(200);
    const result = await response.json();
    expect(result.accepted).toEqual([
      { index: 0, eventId: good.eventId, xp: 25 },
      { index: 1, eventId: byId.eventId, xp: 20 },
    ]);
    expect(result.duplicates).toEqual([{ index: 4, eventId: good.eventId }]);
    expect(
      result.rejected.map((entry: { index: number; reason: string }) => [entry.index, entry.reason]),
    ).toEqual([
      [2, "correctQuestions: correctQuestions cannot exceed totalQuestions"],
      [3, "Unknown student: no active student has this id or email"],
      [5, "occurredAt: is in the future (more than 5 minutes ahead of the server's clock)"],
      [6, expect.stringContaining("subject")],
      [7, expect.stringContaining("event")],
    ]);
  });

  it("tells the app why in English, the protocol's language, whatever the request's language", async () => {
    const response = await t.request("/api/ingest/activity", {
      json: { events: [fact({ correctQuestions: 11 })] },
      headers: { authorization: `Bearer ${DEMO_APP_KEY}`, "accept-language": "es" },
    });
    expect((await response.json()).rejected).toEqual([
      expect.objectContaining({ reason: "correctQuestions: correctQuestions cannot exceed totalQuestions" }),
    ]);
  });

  it("counts a replayed batch once", async () => {
    const cookie = await t.signIn("student@dash.demo");
    const batch = [fact({ subject: "Reading" }), fact({ subject: "Reading", correctQuestions: 8 })];
    const before = await heatmap(cookie, { userId: AVA, startDate: eventDay(), endDate: eventDay() });
    const first = await (await ingest(batch)).json();
    expect(first.accepted).toHaveLength(2);
    const replay = await (await ingest(batch)).json();
    expect(replay.accepted).toEqual([]);
    expect(replay.duplicates.map((entry: { eventId: string }) => entry.eventId)).toEqual(
      batch.map((event) => event.eventId),
    );
    const after = await heatmap(cookie, { userId: AVA, startDate: eventDay(), endDate: eventDay() });
    expect(after.body.data[0].xpGained - before.body.data[0].xpGained).toBe(45);
  });

  it("refuses requests without a valid key, and too many events", async () => {
    const noKey = await t.request("/api/ingest/activity", { json: { events: [fact()] } });
    expect(noKey.status).toBe(401);
    expect((await noKey.json()).message).toContain("Authorization: Bearer");
    expect((await ingest([fact()], "wrong-key")).status).toBe(401);
    const tooMany = await ingest(Array.from({ length: 1001 }, () => fact()));
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).message).toContain("at most 1000 events");
  });

  it("reads Caliper envelopes: activity metrics, time spent and tool use", async () => {
    const actor = {
      id: `https://sis.example/ims/oneroster/rostering/v1p2/users/${AVA}`,
      type: "TimebackUser",
    };
    const context = {
      id: "https://app.example/activity/1",
      type: "TimebackActivityContext",
      subject: "Language",
      activity: { name: "Commas" },
    };
    const eventTime = new Date(t.clock.now().getTime() - 600_000).toISOString();
    const response = await t.request("/api/ingest/caliper", {
      headers: { authorization: `Bearer ${DEMO_APP_KEY}` },
      json: {
        sensor: "https://app.example",
        sendTime: eventTime,
        dataVersion: "http://purl.imsglobal.org/ctx/caliper/v1p2",
        data: [
          {
            id: `urn:uuid:${crypto.randomUUID()}`,
            type: "ActivityEvent",
            actor,
            action: "Completed",
            object: context,
            eventTime,
            generated: {
              type: "TimebackActivityMetricsCollection",
              items: [
                { type: "totalQuestions", value: 10 },
                { type: "correctQuestions", value: 9 },
                { type: "xpEarned", value: 12 },
                { type: "masteredUnits", value: 1 },
              ],
            },
          },
          {
            id: `urn:uuid:${crypto.randomUUID()}`,
            type: "TimeSpentEvent",
            actor,
            action: "SpentTime",
            object: context,
            eventTime,
            generated: {
              items: [
                { type: "active", value: 600 },
                { type: "waste", value: 60 },
                { type: "anti-pattern", value: 0 },
              ],
            },
          },
          {
            id: `urn:uuid:${crypto.randomUUID()}`,
            type: "ToolUseEvent",
            actor: { ...actor, id: AVA },
            action: "Used",
            object: { id: "https://app.example", type: "SoftwareApplication" },
            extensions: { subject: "Science" },
            eventTime,
            generated: {
              type: "AggregateMeasureCollection",
              items: [{ type: "AggregateMeasure", metric: "MinutesOnTask", metricValue: 15 }],
            },
          },
          { id: "urn:uuid:x", type: "NavigationEvent", actor, eventTime },
        ],
      },
    });
    expect(response.status).toBe(200);
    const result = await response.json();
    expect(result.accepted.map((entry: { index: number; xp: number }) => [entry.index, entry.xp])).toEqual([
      [0, 12],
      [1, 0],
      [2, 0],
    ]);
    expect(result.rejected).toEqual([
      {
        index: 3,
        eventId: "urn:uuid:x",
        reason: expect.stringContaining("Unsupported event type NavigationEvent"),
      },
    ]);
  });
});

describe("days in the student's timezone", () => {
  it("puts the same instant on each student's own day, whoever looks and whatever timezone they send", async () => {
    await t.db.update(users).set({ timezone: "America/Los_Angeles" }).where(eq(users.sourcedId, LEO));
    const instant = "2026-11-10T05:30:00Z"; // 00:30 on the 10th in New York, 21:30 on the 9th in Los Angeles
    const events = [fact({ occurredAt: instant, expectedXp: 7, totalQuestions: 0, correctQuestions: 0 })];
    events.push({ ...events[0], eventId: uniqueId("leo"), email: "leo.johnson@learners.dash.demo" } as never);

    // The demo school may have activity on these days already: compare what the events add.
    const parent = await t.signIn("parent@dash.demo");
    const days = { startDate: "2026-11-09", endDate: "2026-11-10" };
    const avaBefore = await heatmap(parent, { userId: AVA, ...days, timezone: "America/New_York" });
    const leoBefore = await heatmap(parent, { userId: LEO, ...days, timezone: "America/Los_Angeles" });
    expect((await (await ingest(events)).json()).accepted).toHaveLength(2);
    const ava = await heatmap(parent, { userId: AVA, ...days, timezone: "America/New_York" });
    const leo = await heatmap(parent, { userId: LEO, ...days, timezone: "America/Los_Angeles" });
    type Day = { date: string; xpGained: number };
    const added = (after: Day[], before: Day[]) =>
      after.map((day, index) => ({
        date: day.date,
        xpGained: Math.round((day.xpGained - (before[index]?.xpGained ?? 0)) * 100) / 100,
      }));
    expect(ava.body).toMatchObject({ success: true, error: null });
    expect(added(ava.body.data, avaBefore.body.data)).toEqual([
      { date: "2026-11-09", xpGained: 0 },
      { date: "2026-11-10", xpGained: 7 },
    ]);
    expect(added(leo.body.data, leoBefore.body.data)).toEqual([
      { date: "2026-11-09", xpGained: 7 },
      { date: "2026-11-10", xpGained: 0 },
    ]);
    // A viewer elsewhere, or no timezone at all, changes nothing.
    expect((await heatmap(parent, { userId: LEO, ...days, timezone: "Asia/Tokyo" })).body.data).toEqual(
      leo.body.data,
    );
    expect((await heatmap(parent, { userId: LEO, ...days })).body.data).toEqual(leo.body.data);
  });
});

describe("who may see a student's heatmap", () => {
  const range = { startDate: "2026-11-01", endDate: "2026-11-02" };
  it.each([
    ["student@dash.demo", AVA, 200],
    ["student@dash.demo", LEO, 403],
    ["parent@dash.demo", AVA, 200],
    ["parent@dash.demo", LEO, 200],
    ["guardian@dash.demo", AVA, 200],
    ["guardian@dash.demo", LEO, 403],
    ["guide@dash.demo", AVA, 200],
    ["guide@dash.demo", LEO, 403],
    ["admin@dash.demo", LEO, 200],
    ["proctor@dash.demo", AVA, 403],
  ])("%s asking for %s gets %i", async (email, userId, status) => {
    const response = await heatmap(await t.signIn(email), { userId, ...range });
    expect(response.status).toBe(status);
    expect(response.body.success).toBe(status === 200);
    if (status === 403)
      expect(response.body).toMatchObject({ data: [], error: "You do not have access to this student" });
  });

  it("refuses in the reader's language, in the same shape", async () => {
    const spanish = { "accept-language": "es" };
    const denied = await heatmap(await t.signIn("guide@dash.demo"), { userId: LEO, ...range }, spanish);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({
      success: false,
      data: [],
      code: "forbidden",
      error: "No tiene acceso a este estudiante",
      message: "No tiene acceso a este estudiante",
    });
    const admin = await t.signIn("admin@dash.demo");
    const tooLong = { userId: AVA, startDate: "2020-01-01", endDate: "2026-01-01" };
    const english = await heatmap(admin, tooLong);
    expect(english.body).toMatchObject({
      code: "validation_failed",
      error: "Ask for at most 731 days at a time",
    });
    const inSpanish = await heatmap(admin, tooLong, spanish);
    expect(inSpanish.status).toBe(400);
    expect(inSpanish.body).toMatchObject({
      code: "validation_failed",
      error: "Pida como máximo 731 días a la vez",
      message: "Pida como máximo 731 días a la vez",
    });
  });

  it("rejects bad requests with 400 in the same shape", async () => {
    const cookie = await t.signIn("admin@dash.demo");
    for (const body of [
      { userId: AVA, ...range, timezone: "Mars/Olympus" },
      { userId: AVA, startDate: "2026-11-31", endDate: "2026-12-01" },
      { userId: AVA, startDate: "2026-11-05", endDate: "2026-11-01" },
      { userId: AVA, startDate: "2020-01-01", endDate: "2026-01-01" },
    ]) {
      const response = await heatmap(cookie, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.success).toBe(false);
      expect(response.body.error).toEqual(expect.any(String));
    }
  });

  it("answers 401 without a session", async () => {
    expect(
      (await t.request("/api/learning-metrics/analytics-xp-heatmap", { json: { userId: AVA, ...range } }))
        .status,
    ).toBe(401);
  });
});

describe("manual XP", () => {
  const award = (cookie: string, body: Record<string, unknown>) =>
    t.request("/api/xp/manual", { json: body, cookie });
  const body = (overrides: Record<string, unknown> = {}) => ({
    studentId: AVA,
    amount: 10,
    subject: "Math",
    reason: "Helped a classmate with fractions",
    idempotencyKey: uniqueId("award"),
    ...overrides,
  });

  it("lets a Guide award XP to their student once per idempotency key, and shows it in the history", async () => {
    const cookie = await t.signIn("guide@dash.demo");
    // A reason of its own: the demo school has an award for helping a classmate too.
    const request = body({ reason: `Helped a classmate with fractions (${uniqueId("reason")})` });
    const first = await award(cookie, request);
    expect(first.status).toBe(201);
    const replay = await award(cookie, request);
    expect(replay.status).toBe(200);
    expect((await replay.json()).isReplay).toBe(true);
    expect((await award(cookie, { ...request, amount: 20 })).status).toBe(409);

    const history = await (await t.request(`/api/xp/history?studentId=${AVA}`, { cookie })).json();
    const entries = history.data.filter((entry: { reason: string }) => entry.reason === request.reason);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      amount: 10,
      source: "manual",
      subject: "Math",
      actorName: "Maya Patel",
      activity: null,
    });
    // Entries from learning carry their activity, for the children's sentences; the total pages them.
    // (The newest may be one another test here sent without a name or figures, which has none.)
    const learned = history.data.find(
      (entry: { source: string; activity: unknown }) => entry.source === "activity" && entry.activity,
    );
    expect(learned.activity).toMatchObject({ name: expect.any(String), attempt: expect.any(Number) });
    expect(history.total).toBeGreaterThanOrEqual(history.data.length);
    const second = await (
      await t.request(`/api/xp/history?studentId=${AVA}&limit=1&offset=1`, { cookie })
    ).json();
    expect(second.data).toHaveLength(1);
    expect(second.data[0].id).toBe(history.data[1].id);
    expect(second.total).toBe(history.total);
  });

  it("allows deductions with a reason", async () => {
    const cookie = await t.signIn("admin@dash.demo");
    const response = await award(
      cookie,
      body({ amount: -5, reason: "Points given by mistake", studentId: LEO }),
    );
    expect(response.status).toBe(201);
  });

  it("refuses other Guides' students, other roles and bad input", async () => {
    expect((await award(await t.signIn("guide@dash.demo"), body({ studentId: LEO }))).status).toBe(403);
    expect((await award(await t.signIn("parent@dash.demo"), body())).status).toBe(403);
    expect((await award(await t.signIn("student@dash.demo"), body())).status).toBe(403);
    const admin = await t.signIn("admin@dash.demo");
    for (const bad of [
      { reason: "" },
      { amount: 0 },
      { amount: 501 },
      { amount: 1.234 },
      { idempotencyKey: "x" },
    ]) {
      const response = await award(admin, body(bad));
      expect(response.status, JSON.stringify(bad)).toBe(400);
    }
  });
});

describe("learning apps", () => {
  it("lets an administrator add an app and a key that works once and stops working when revoked", async () => {
    const admin = await t.signIn("admin@dash.demo");
    const created = await (
      await t.request("/api/admin/apps", {
        json: { name: "Spelling Bee", subjects: ["Language"], launchUrl: "https://spell.example" },
        cookie: admin,
      })
    ).json();
    const key = await (
      await t.request(`/api/admin/apps/${created.data.id}/keys`, {
        json: { label: "Production" },
        cookie: admin,
      })
    ).json();
    expect(key.data.secret).toMatch(/^dash_/);
    const listed = await (
      await t.request(`/api/admin/apps/${created.data.id}/keys`, { cookie: admin })
    ).json();
    expect(listed.data).toEqual([
      expect.objectContaining({
        label: "Production",
        keyPrefix: key.data.secret.slice(0, 12),
        revokedAt: null,
      }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(key.data.secret);

    expect((await ingest([fact()], key.data.secret)).status).toBe(200);
    await t.request(`/api/admin/apps/${created.data.id}/keys/${key.data.id}`, {
      method: "DELETE",
      cookie: admin,
    });
    expect((await ingest([fact()], key.data.secret)).status).toBe(401);
  });

  it("answers 404 for ids that name no app or key, whatever their form", async () => {
    const admin = await t.signIn("admin@dash.demo");
    for (const path of [
      "/api/admin/apps/not-a-uuid/keys",
      "/api/admin/apps/00000000-0000-4000-8000-000000000000/keys/also-not-a-uuid",
    ]) {
      const response = await t.request(path, {
        method: path.endsWith("keys") ? "GET" : "DELETE",
        cookie: admin,
      });
      expect(response.status).toBe(404);
      expect((await response.json()).message).toMatch(/^No (learning app|API key) has this id$/);
    }
    const inSpanish = await t.request("/api/admin/apps/not-a-uuid/keys", {
      cookie: admin,
      headers: { "accept-language": "es" },
    });
    expect(inSpanish.status).toBe(404);
    expect(await inSpanish.json()).toMatchObject({
      code: "not_found",
      message: "No hay ninguna aplicación de aprendizaje con este id",
    });
    const unknownKey = await t.request(`/api/admin/apps/${crypto.randomUUID()}/keys/${crypto.randomUUID()}`, {
      method: "DELETE",
      cookie: admin,
      headers: { "accept-language": "es-MX,es;q=0.9" },
    });
    expect(unknownKey.status).toBe(404);
    expect((await unknownKey.json()).message).toBe(
      "Esta aplicación no tiene ninguna clave activa con este id",
    );
  });

  it("refuses events from a switched-off app, even one whose key was just used", async () => {
    const admin = await t.signIn("admin@dash.demo");
    const created = await (
      await t.request("/api/admin/apps", { json: { name: "Old App" }, cookie: admin })
    ).json();
    const key = await (
      await t.request(`/api/admin/apps/${created.data.id}/keys`, { json: { label: "k" }, cookie: admin })
    ).json();
    // Used once, so the key's lookup is kept: switching the app off must still reach it at once.
    expect((await ingest([fact()], key.data.secret)).status).toBe(200);
    await t.request(`/api/admin/apps/${created.data.id}`, {
      method: "PATCH",
      json: { isActive: false },
      cookie: admin,
    });
    expect((await ingest([fact()], key.data.secret)).status).toBe(403);
  });

  it("changes only the fields a PATCH names", async () => {
    const admin = await t.signIn("admin@dash.demo");
    const created = await (
      await t.request("/api/admin/apps", {
        json: {
          name: "Globe Trotter",
          subjects: ["Science"],
          launchUrl: "https://globe.example",
          icon: "🌍",
        },
        cookie: admin,
      })
    ).json();
    const patched = await t.request(`/api/admin/apps/${created.data.id}`, {
      method: "PATCH",
      json: { isActive: false },
      cookie: admin,
    });
    expect((await patched.json()).data).toMatchObject({
      name: "Globe Trotter",
      subjects: ["Science"],
      launchUrl: "https://globe.example",
      icon: "🌍",
      isActive: false,
    });
  });

  it("is managed by administrators only; everyone sees the active apps", async () => {
    const guide = await t.signIn("guide@dash.demo");
    expect((await t.request("/api/admin/apps", { cookie: guide })).status).toBe(403);
    expect((await t.request("/api/admin/apps", { json: { name: "X" }, cookie: guide })).status).toBe(403);
    const student = await t.signIn("student@dash.demo");
    const apps = await (await t.request("/api/apps", { cookie: student })).json();
    expect(apps.data.map((app: { name: string }) => app.name)).toEqual(
      expect.arrayContaining(["Language Lab", "Math Academy", "Reading Quest", "Science Explorer"]),
    );
  });
});
