import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_APP_KEY, demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { MAX_LIVE_CONNECTIONS_PER_USER } from "./hub";
import { readLiveStream } from "./test-support";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const AVA = demoId("student-ava");
let sequence = 0;
const LEO = demoId("student-leo");
/** One event of an app for the student with this sourcedId. */
const ingestFor = (studentId: string) =>
  t.request("/api/ingest/activity", {
    headers: { authorization: `Bearer ${DEMO_APP_KEY}` },
    json: {
      events: [
        {
          eventId: `live-${++sequence}-${Math.random().toString(36).slice(2, 8)}`,
          studentId,
          occurredAt: new Date(t.clock.now().getTime() - 3600_000).toISOString(),
          subject: "Math",
          activityName: "Fractions 1",
          expectedXp: 5,
          totalQuestions: 5,
          correctQuestions: 5,
          activeSeconds: 300,
        },
      ],
    },
  });

async function openLive(cookie: string) {
  const response = await t.request("/api/live", { cookie });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const stream = readLiveStream(response);
  expect((await stream.next()).type).toBe("ready");
  return stream;
}

describe("GET /api/live", () => {
  it("needs a session", async () => {
    const response = await t.request("/api/live");
    expect(response.status).toBe(401);
  });

  it("tells a student their home changed when an app reports their activity, and not for others' activity", async () => {
    const stream = await openLive(await t.signIn("student@dash.demo"));
    const leo = await ingestFor(LEO);
    expect((await leo.json()).accepted).toHaveLength(1);
    const mine = await ingestFor(AVA);
    expect((await mine.json()).accepted).toHaveLength(1);
    expect(await stream.next()).toEqual({ type: "home-changed", data: { studentId: AVA } });
    expect(stream.events.filter((event) => event.type === "home-changed")).toHaveLength(1);
    await stream.close();
  });

  it("tells a student about XP a Guide awarded, and a Guide viewing as the student too", async () => {
    const student = await openLive(await t.signIn("student@dash.demo"));
    const guide = await t.signIn("guide@dash.demo");
    const started = await t.request("/api/auth/impersonation", {
      cookie: guide,
      json: { userId: AVA, reason: "Checking the live home" },
    });
    expect(started.status, await started.clone().text()).toBe(200);
    const viewing = await openLive(guide);
    // From another session of the Guide's: while viewing as a student one acts as that student.
    const award = await t.request("/api/xp/manual", {
      cookie: await t.signIn("guide@dash.demo"),
      json: {
        studentId: AVA,
        amount: 5,
        subject: "Math",
        reason: "Live test",
        idempotencyKey: `live-${Date.now()}`,
      },
    });
    expect(award.status).toBe(201);
    expect(await student.next()).toEqual({ type: "home-changed", data: { studentId: AVA } });
    expect(await viewing.next()).toEqual({ type: "home-changed", data: { studentId: AVA } });
    await student.close();
    await viewing.close();
  });

  it("says the session ended and closes when it is signed out elsewhere", async () => {
    const cookie = await t.signIn("parent@dash.demo");
    const stream = await openLive(cookie);
    expect((await t.request("/api/auth/logout", { method: "POST", cookie })).status).toBe(200);
    expect((await stream.next()).type).toBe("session-ended");
    await stream.ended();
  });

  it("refuses more than the connections allowed per person", async () => {
    const cookie = await t.signIn("proctor@dash.demo");
    const streams = [];
    for (let index = 0; index < MAX_LIVE_CONNECTIONS_PER_USER; index++) streams.push(await openLive(cookie));
    const refused = await t.request("/api/live", { cookie });
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toContain("close other Dash tabs");
    await streams[0]?.close();
    // The closed one's place is free again.
    await new Promise((resolve) => setTimeout(resolve, 100));
    streams[0] = await openLive(cookie);
    for (const stream of streams) await stream?.close();
  });

  it("closes every stream at shutdown", async () => {
    const stream = await openLive(await t.signIn("guardian@dash.demo"));
    const before = t.live.connectionCount();
    expect(before).toBeGreaterThan(0);
    t.live.closeAll();
    await stream.ended();
    expect(t.live.connectionCount()).toBe(0);
  });
});
