import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HeldEvent, IngestResult, XpDay } from "../../../shared/contracts/activity";
import { addDays, localDateOf } from "../../../shared/time-zone";
import { queryRows } from "../../db/client";
import { DEMO_APP_KEY, demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const AVA = demoId("student-ava");
const LEO = demoId("student-leo");
const MAPLE_5 = demoId("student-maple-grove-5");
const MAPLE_6 = demoId("student-maple-grove-6");
const uniqueId = (label: string) => `${label}-${crypto.randomUUID()}`;
const HOUR = 3600_000;

/**
 * Weekend days of the last four weeks in New York, newest first: the demo seeds activity on school
 * days only, so each starts empty and its figures are exactly what a test sends.
 */
function weekendDays(): string[] {
  const today = localDateOf(t.clock.now(), "America/New_York");
  return Array.from({ length: 27 }, (_, back) => addDays(today, -(back + 1))).filter((date) =>
    [0, 6].includes(new Date(`${date}T12:00:00Z`).getUTCDay()),
  );
}
/** 11:00 in New York on a day, winter or summer. */
const middayOf = (date: string) => `${date}T16:00:00Z`;

const ingest = (events: unknown[]) =>
  t.request("/api/ingest/activity", {
    json: { events },
    headers: { authorization: `Bearer ${DEMO_APP_KEY}` },
  });

async function ingestOk(events: unknown[]): Promise<IngestResult> {
  const response = await ingest(events);
  expect(response.status).toBe(200);
  return response.json();
}

const fact = (overrides: Record<string, unknown> = {}) => ({
  eventId: uniqueId("event"),
  studentId: AVA,
  occurredAt: new Date(t.clock.now().getTime() - HOUR).toISOString(),
  subject: "Math",
  activityName: "Fractions",
  expectedXp: 10,
  totalQuestions: 10,
  correctQuestions: 10,
  activeSeconds: 600,
  ...overrides,
});

/** A first try at 100 %: 1.25 × 500 = 625 XP. */
const bigFact = (studentId: string, date: string, overrides: Record<string, unknown> = {}) =>
  fact({ studentId, occurredAt: middayOf(date), expectedXp: 500, activeSeconds: 1800, ...overrides });

const reasons = (result: IngestResult) => result.rejected.map((entry) => [entry.index, entry.reason]);

async function xpDay(cookie: string, studentId: string, date: string): Promise<XpDay> {
  const response = await t.request(`/api/xp/day?${new URLSearchParams({ studentId, date })}`, { cookie });
  expect(response.status).toBe(200);
  return (await response.json()).data;
}

async function heldList(cookie: string, query = "status=all", headers: Record<string, string> = {}) {
  const response = await t.request(`/api/xp/held?${query}`, { cookie, headers });
  return { status: response.status, body: await response.json() };
}

const review = (cookie: string, heldId: string, action: "approve" | "dismiss", json: unknown = {}) =>
  t.request(`/api/xp/held/${heldId}/${action}`, { json, cookie });

describe("one bad event costs only itself", () => {
  it("rejects NUL characters and unpaired surrogates by field and stores the rest of the batch", async () => {
    const first = fact();
    const last = fact();
    const result = await ingestOk([
      first,
      fact({ activityName: "Frac\u0000tions" }),
      fact({ subject: "Ma\uD800th" }),
      fact({ eventId: "bad\u0000id" }),
      fact({ extra: { nested: ["fine", "\uDC00"] } }),
      last,
    ]);
    expect(result.accepted.map((entry) => entry.index)).toEqual([0, 5]);
    expect(reasons(result)).toEqual([
      [1, "activityName: must not contain a NUL character"],
      [2, "subject: must be valid Unicode text"],
      [3, "eventId: must not contain a NUL character"],
      [4, "extra.nested.1: must be valid Unicode text"],
    ]);
  });

  it("rejects Caliper events whose IRIs do not decode, or carry unstorable text, and reads the others", async () => {
    const eventTime = new Date(t.clock.now().getTime() - HOUR).toISOString();
    const event = (actorId: string, extra: Record<string, unknown> = {}) => ({
      id: `urn:uuid:${crypto.randomUUID()}`,
      type: "ToolUseEvent",
      actor: { id: actorId, type: "Person" },
      action: "Used",
      object: { id: "https://app.example/activity/1", subject: "Math", name: "Fractions" },
      eventTime,
      generated: { type: "Collection", items: [{ type: "MinutesOnTask", value: 5 }] },
      ...extra,
    });
    const base = "https://sis.example/ims/oneroster/rostering/v1p2/users/";
    const response = await t.request("/api/ingest/caliper", {
      headers: { authorization: `Bearer ${DEMO_APP_KEY}` },
      json: {
        sensor: "https://app.example",
        sendTime: eventTime,
        dataVersion: "http://purl.imsglobal.org/ctx/caliper/v1p2",
        data: [
          event(`${base}${AVA}`),
          event(`${base}%E0%A4%A`),
          event(`${base}%ZZ`),
          event(`${base}${AVA}`, { action: "Us\u0000ed" }),
          event(`${base}%00${AVA}`),
          event(`${base}${AVA}`),
        ],
      },
    });
    expect(response.status).toBe(200);
    const result: IngestResult = await response.json();
    expect(result.accepted.map((entry) => entry.index)).toEqual([0, 5]);
    expect(reasons(result)).toEqual([
      [1, "actor.id: is not a valid IRI (a percent-escape does not decode)"],
      [2, "actor.id: is not a valid IRI (a percent-escape does not decode)"],
      [3, "action: must not contain a NUL character"],
      // %00 decodes to a NUL: caught in the student id it became.
      [4, "studentId: must not contain a NUL character"],
    ]);
  });
});

describe("plausibility caps", () => {
  it("rejects events past the XP and active seconds one event may carry, and accepts them at the cap", async () => {
    const result = await ingestOk([
      fact({ expectedXp: 500 }),
      fact({ expectedXp: 500.01 }),
      fact({ expectedXp: undefined, xpEarned: 900 }),
      fact({ activeSeconds: 14_400 }),
      fact({ activeSeconds: 14_401 }),
    ]);
    expect(result.accepted.map((entry) => entry.index)).toEqual([0, 3]);
    expect(reasons(result)).toEqual([
      [1, "expectedXp: 500.01 XP is more than one event may carry (at most 500)"],
      [2, "xpEarned: 900 XP is more than one event may carry (at most 500)"],
      [4, "activeSeconds: 14401 seconds is more than one event may report (at most 14400)"],
    ]);
  });

  it("rejects events that would give a student-day more than 86,400 active seconds, counting what is recorded", async () => {
    const [day] = weekendDays() as [string];
    const at = (overrides: Record<string, unknown> = {}) =>
      fact({ studentId: LEO, occurredAt: middayOf(day), activeSeconds: 14_400, ...overrides });
    const first = await ingestOk([at(), at(), at(), at(), at()]);
    expect(first.accepted).toHaveLength(5);
    const second = await ingestOk([
      at({ activeSeconds: 14_401 - 1 }),
      at({ activeSeconds: 1 }),
      at({ activeSeconds: 0 }),
    ]);
    expect(second.accepted.map((entry) => entry.index)).toEqual([0, 2]);
    expect(reasons(second)).toEqual([
      [
        1,
        `activeSeconds: the student's day ${day} would have more than 86400 active seconds (86400 already recorded)`,
      ],
    ]);
    const [stored] = await queryRows<{ seconds: number }>(
      t.db,
      sql`select sum(active_seconds)::int as seconds from daily_student_metrics
          where student_sourced_id = ${LEO} and local_date = ${day}`,
    );
    expect(stored?.seconds).toBe(86_400);
  });

  it("takes occurredAt only within 30 days before and 5 minutes after the server's clock", async () => {
    const now = t.clock.now().getTime();
    const at = (ms: number) => fact({ occurredAt: new Date(ms).toISOString() });
    const result = await ingestOk([
      fact({ occurredAt: "0001-01-01T00:00:00Z" }),
      at(now - 31 * 24 * HOUR),
      at(now - 29 * 24 * HOUR),
      at(now + 4 * 60_000),
      at(now + 6 * 60_000),
    ]);
    expect(result.accepted.map((entry) => entry.index)).toEqual([2, 3]);
    expect(reasons(result)).toEqual([
      [0, "occurredAt: is more than 30 days in the past"],
      [1, "occurredAt: is more than 30 days in the past"],
      [4, "occurredAt: is in the future (more than 5 minutes ahead of the server's clock)"],
    ]);

    // The window follows the app's clock, not the machine's.
    t.clock.advance(40 * 24 * HOUR);
    try {
      const later = await ingestOk([at(now - HOUR)]);
      expect(reasons(later)).toEqual([[0, "occurredAt: is more than 30 days in the past"]]);
    } finally {
      t.clock.advance(-40 * 24 * HOUR);
    }
  });
});

describe("XP held for review", () => {
  it("holds the events past 2,000 XP a day, says so, and credits them once when a Guide approves", async () => {
    const [, day] = weekendDays() as [string, string];
    const events = [
      bigFact(AVA, day),
      bigFact(AVA, day),
      bigFact(AVA, day),
      bigFact(AVA, day),
      // 125 XP still fits under the limit after the held one.
      bigFact(AVA, day, { expectedXp: 100 }),
    ];
    const result = await ingestOk(events);
    expect(result.accepted.map((entry) => [entry.index, entry.xp])).toEqual([
      [0, 625],
      [1, 625],
      [2, 625],
      [4, 125],
    ]);
    expect(result.held).toEqual([
      {
        index: 3,
        eventId: events[3]?.eventId,
        heldId: expect.any(String),
        xp: 625,
        reason: `Held for review: the XP credited without review on ${day} would pass 2000 (1875 already credited)`,
      },
    ]);
    const heldId = result.held[0]?.heldId as string;
    // Sent again, a held event is a duplicate, not a second hold.
    const replay = await ingestOk([events[3]]);
    expect(replay.duplicates).toEqual([{ index: 0, eventId: events[3]?.eventId }]);

    const guide = await t.signIn("guide@dash.demo");
    const before = await xpDay(guide, AVA, day);
    expect(before.totalXp).toBe(2000);
    expect(before.held).toMatchObject([{ id: heldId, status: "pending", xp: 625 }]);

    const listed = await heldList(guide, "status=pending");
    expect(listed.status).toBe(200);
    const entry = (listed.body.data as HeldEvent[]).find((held) => held.id === heldId);
    expect(entry).toMatchObject({
      studentId: AVA,
      studentName: "Ava Johnson",
      appName: "Math Academy",
      subject: "Math",
      activeSeconds: 1800,
      totalQuestions: 10,
      correctQuestions: 10,
      xp: 625,
      status: "pending",
      reviewerName: null,
      heldReason: `Held for review: the XP credited without review on ${day} would pass 2000 (1875 already credited)`,
    });
    // The reviewer reads why in their language; the app was answered in English.
    const inSpanish = await heldList(guide, "status=pending", { "accept-language": "es" });
    expect((inSpanish.body.data as HeldEvent[]).find((held) => held.id === heldId)?.heldReason).toBe(
      `En espera de revisión: el XP otorgado sin revisión el ${day} pasaría de 2000 (ya se otorgaron 1875)`,
    );

    const approved = await review(guide, heldId, "approve", { note: "Finished a whole unit on a Saturday" });
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({
      isReplay: false,
      data: {
        status: "approved",
        reviewerName: "Maya Patel",
        reviewNote: "Finished a whole unit on a Saturday",
      },
    });
    const again = await review(guide, heldId, "approve");
    expect(again.status).toBe(200);
    expect((await again.json()).isReplay).toBe(true);

    const after = await xpDay(guide, AVA, day);
    expect(after.totalXp).toBe(2625);
    expect(after.events.map((event) => event.eventId)).toContain(events[3]?.eventId);
    const [ledger] = await queryRows<{ entries: number }>(
      t.db,
      sql`select count(*)::int as entries from xp_ledger where idempotency_key = ${`held:${heldId}`}`,
    );
    expect(ledger?.entries).toBe(1);

    const dismissLate = await review(guide, heldId, "dismiss", { reason: "Too late to change my mind" });
    expect(dismissLate.status).toBe(409);
  });

  it("keeps other Guides' students' held events from a Guide, and students and families out", async () => {
    const [, , day] = weekendDays() as [string, string, string];
    const result = await ingestOk([1, 2, 3, 4].map(() => bigFact(LEO, day)));
    const heldId = result.held[0]?.heldId as string;
    expect(result.held).toHaveLength(1);

    const guide = await t.signIn("guide@dash.demo");
    const seen = await heldList(guide);
    expect((seen.body.data as HeldEvent[]).some((held) => held.studentId === LEO)).toBe(false);
    expect((await review(guide, heldId, "approve")).status).toBe(403);
    expect((await review(guide, heldId, "dismiss", { reason: "Not mine to judge" })).status).toBe(403);

    for (const email of ["student@dash.demo", "parent@dash.demo", "guardian@dash.demo"]) {
      const cookie = await t.signIn(email);
      expect((await heldList(cookie)).status, email).toBe(403);
      expect((await review(cookie, heldId, "approve")).status, email).toBe(403);
    }

    const admin = await t.signIn("admin@dash.demo");
    const all = await heldList(admin, `status=pending&studentId=${LEO}`);
    expect((all.body.data as HeldEvent[]).map((held) => held.id)).toEqual([heldId]);
    expect(all.body.total).toBe(1);
    expect((await review(admin, "not-a-uuid", "approve")).status).toBe(404);
    const unknown = await t.request(`/api/xp/held/${crypto.randomUUID()}/approve`, {
      json: {},
      cookie: admin,
      headers: { "accept-language": "es" },
    });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).message).toBe("No hay ninguna actividad en espera con este id");
    expect((await review(admin, crypto.randomUUID(), "approve")).status).toBe(404);
    expect((await review(admin, heldId, "dismiss", { reason: "" })).status).toBe(400);

    const dismissed = await review(admin, heldId, "dismiss", {
      reason: "The app double-counted this lesson",
    });
    expect(dismissed.status).toBe(200);
    expect((await dismissed.json()).data).toMatchObject({
      status: "dismissed",
      reviewerName: "Alex Morgan",
      reviewNote: "The app double-counted this lesson",
    });
    const late = await t.request(`/api/xp/held/${heldId}/approve`, {
      json: {},
      cookie: admin,
      headers: { "accept-language": "es" },
    });
    expect(late.status).toBe(409);
    expect((await late.json()).message).toBe("Esta actividad fue descartada; ya no se puede aprobar");
    expect(await (await review(admin, heldId, "approve")).json()).toMatchObject({
      code: "conflict",
      message: "This event was dismissed; it can no longer be approved",
    });
    expect((await xpDay(admin, LEO, day)).totalXp).toBe(1875);
  });
});

describe("concurrent batches for one student-day", () => {
  it("never credit more than 2,000 XP without review together", async () => {
    const [, , , day] = weekendDays() as [string, string, string, string];
    const batch = () => [1, 2, 3].map(() => bigFact(MAPLE_5, day));
    const results = await Promise.all([ingestOk(batch()), ingestOk(batch())]);
    const accepted = results.flatMap((result) => result.accepted);
    const held = results.flatMap((result) => result.held);
    expect(accepted.reduce((sum, entry) => sum + entry.xp, 0)).toBe(1875);
    expect(held).toHaveLength(3);
    const admin = await t.signIn("admin@dash.demo");
    expect((await xpDay(admin, MAPLE_5, day)).totalXp).toBe(1875);
  });

  it("never record more than 86,400 active seconds together", async () => {
    const [, , , , day] = weekendDays() as [string, string, string, string, string];
    const batch = () =>
      [1, 2, 3, 4].map(() =>
        fact({ studentId: MAPLE_6, occurredAt: middayOf(day), activeSeconds: 14_400, expectedXp: 5 }),
      );
    const results = await Promise.all([ingestOk(batch()), ingestOk(batch())]);
    expect(results.flatMap((result) => result.accepted)).toHaveLength(6);
    expect(results.flatMap((result) => result.rejected)).toHaveLength(2);
    const [stored] = await queryRows<{ seconds: number }>(
      t.db,
      sql`select sum(active_seconds)::int as seconds from daily_student_metrics
          where student_sourced_id = ${MAPLE_6} and local_date = ${day}`,
    );
    expect(stored?.seconds).toBe(86_400);
  });
});

describe("manual XP amounts", () => {
  it("takes two decimals that binary numbers cannot hold exactly", async () => {
    const admin = await t.signIn("admin@dash.demo");
    for (const [amount, status] of [
      [0.29, 201],
      [1.15, 201],
      [-0.5, 201],
      [2.675, 400],
    ] as const) {
      const response = await t.request("/api/xp/manual", {
        cookie: admin,
        json: {
          studentId: AVA,
          amount,
          subject: "Math",
          reason: "Extra reading",
          idempotencyKey: uniqueId("award"),
        },
      });
      expect(response.status, String(amount)).toBe(status);
      if (status === 201) expect((await response.json()).data.amount).toBe(amount);
    }
  });
});
