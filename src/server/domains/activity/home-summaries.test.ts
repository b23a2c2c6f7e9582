import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, localDateOf, weekStartOf } from "../../../shared/time-zone";
import { queryRows } from "../../db/client";
import { DEMO_APP_KEY, demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { forgetHomeSummaries } from "./home-summaries";

let t: TestApp;
let student: string;
let guide: string;
let parent: string;
beforeAll(async () => {
  t = await createTestApp();
  student = await t.signIn("student@dash.demo");
  guide = await t.signIn("guide@dash.demo");
  parent = await t.signIn("parent@dash.demo");
});
afterAll(() => t.close());

const AVA = demoId("student-ava");
let sequence = 0;

const homeOf = async (cookie = student, headers: Record<string, string> = {}) => {
  const response = await t.request(`/api/students/${AVA}/home`, { cookie, headers });
  return { response, summary: response.status === 200 ? (await response.json()).data.summary : null };
};

/** The summary as stored, which is what the next read serves. */
async function stored() {
  const [row] = await queryRows<{ revision: number; localDate: string | null; xpToday: number | null }>(
    t.db,
    sql`select revision, to_char(local_date, 'YYYY-MM-DD') as "localDate", (summary->>'xpToday')::float8 as "xpToday"
        from student_home_summaries where student_sourced_id = ${AVA}`,
  );
  return row;
}

async function ingest(expectedXp: number, subject = "Math") {
  const response = await t.request("/api/ingest/activity", {
    json: {
      events: [
        {
          eventId: `home-summary-${++sequence}`,
          studentId: AVA,
          occurredAt: new Date(t.clock.now().getTime() - 60_000).toISOString(),
          subject,
          expectedXp,
          totalQuestions: 10,
          correctQuestions: 10,
        },
      ],
    },
    headers: { authorization: `Bearer ${DEMO_APP_KEY}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as {
    accepted: { xp: number }[];
    held: { heldId: string; xp: number }[];
  };
}

describe("the stored home summary", () => {
  it("is written on the first read and kept up to date as events arrive", async () => {
    const before = (await homeOf()).summary;
    expect((await stored())?.xpToday).toBe(before.xpToday);

    const { accepted } = await ingest(20);
    expect(accepted).toHaveLength(1);
    const xp = accepted[0]?.xp as number;
    // Written with the event, before anyone reads it.
    expect((await stored())?.xpToday).toBeCloseTo(before.xpToday + xp, 2);

    const after = (await homeOf()).summary;
    expect(after.xpToday).toBeCloseTo(before.xpToday + xp, 2);
    const math = (subjects: { subject: string; xp: number }[]) =>
      subjects.find((entry) => entry.subject === "Math")?.xp ?? 0;
    expect(math(after.subjects)).toBeCloseTo(math(before.subjects) + xp, 2);
    expect(after.xpThisWeek).toBeCloseTo(before.xpThisWeek + xp, 2);
    // A Guide's and a parent's lists show the same figures.
    const guideList = await (await t.request("/api/guide/students", { cookie: guide })).json();
    expect(guideList.data.find((entry: { sourcedId: string }) => entry.sourcedId === AVA).xpToday).toBe(
      after.xpToday,
    );
    const family = await (await t.request("/api/parent/children/summary", { cookie: parent })).json();
    expect(family.data.find((entry: { sourcedId: string }) => entry.sourcedId === AVA).xpToday).toBe(
      after.xpToday,
    );
  });

  it("counts manual XP at once", async () => {
    const before = (await homeOf()).summary;
    const response = await t.request("/api/xp/manual", {
      cookie: guide,
      json: {
        studentId: AVA,
        amount: 12.5,
        subject: "Reading",
        reason: "Helped a classmate",
        idempotencyKey: "home-summary-manual",
      },
    });
    expect(response.status).toBe(201);
    expect((await stored())?.xpToday).toBeCloseTo(before.xpToday + 12.5, 2);
    expect((await homeOf()).summary.xpToday).toBeCloseTo(before.xpToday + 12.5, 2);
  });

  it("leaves held events out until a person approves them, then counts them", async () => {
    // Events of a few hundred XP each, until the day's XP without review is used up.
    let held: { heldId: string; xp: number } | undefined;
    for (let attempt = 0; attempt < 10 && !held; attempt++) held = (await ingest(400, "Science")).held[0];
    expect(held).toBeDefined();
    const before = (await homeOf()).summary;
    const revision = (await stored())?.revision as number;

    const approved = await t.request(`/api/xp/held/${held?.heldId}/approve`, { cookie: guide, json: {} });
    expect(approved.status).toBe(200);
    expect((await stored())?.revision).toBe(revision + 1);
    expect((await homeOf()).summary.xpToday).toBeCloseTo(before.xpToday + (held?.xp as number), 2);
  });

  it("starts a new day at midnight in the student's own timezone", async () => {
    const zone = "Pacific/Kiritimati"; // UTC+14: its date is often not the UTC date
    await t.db.execute(sql`update users set timezone = ${zone} where sourced_id = ${AVA}`);
    const first = (await homeOf()).summary;
    expect(first.timezone).toBe(zone);
    expect(first.today).toBe(localDateOf(t.clock.now(), zone));
    await ingest(15);
    const sameDay = (await homeOf()).summary;
    expect(sameDay.xpToday).toBeGreaterThan(0);
    expect((await stored())?.localDate).toBe(sameDay.today);

    t.clock.advance(24 * 3600_000);
    // A day later the sessions have ended.
    student = await t.signIn("student@dash.demo");
    guide = await t.signIn("guide@dash.demo");
    parent = await t.signIn("parent@dash.demo");
    const nextDay = (await homeOf()).summary;
    expect(nextDay.today).toBe(addDays(sameDay.today, 1));
    expect(nextDay.xpToday).toBe(0);
    if (weekStartOf(nextDay.today) === weekStartOf(sameDay.today)) {
      const yesterday = nextDay.week.find((day: { date: string }) => day.date === sameDay.today);
      expect(yesterday.xp).toBe(sameDay.xpToday);
    }
    expect((await stored())?.localDate).toBe(nextDay.today);
  });
});

describe("ETag and 304", () => {
  it("answers an unchanged home with 304 and no body, and a changed one with 200", async () => {
    // Computed on this read, stored for the next: both answers are the same body.
    await forgetHomeSummaries(t.db);
    const first = (await homeOf()).response;
    const tag = first.headers.get("etag");
    expect(tag).toBeTruthy();
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    expect(first.headers.get("vary")).toContain("Cookie");

    const again = (await homeOf(student, { "if-none-match": tag as string })).response;
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(tag);

    await ingest(10);
    const changed = (await homeOf(student, { "if-none-match": tag as string })).response;
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(tag);
  });

  it("tags the Guide's and the family's lists too, and never a refusal or other API answers", async () => {
    for (const [path, cookie] of [
      ["/api/guide/students", guide],
      ["/api/parent/children/summary", parent],
    ] as const) {
      const first = await t.request(path, { cookie });
      const tag = first.headers.get("etag") as string;
      expect(tag).toBeTruthy();
      expect((await t.request(path, { cookie, headers: { "if-none-match": tag } })).status).toBe(304);
    }
    const refused = await t.request(`/api/students/${demoId("student-leo")}/home`, { cookie: guide });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("etag")).toBeNull();
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect((await t.request("/api/auth/me", { cookie: student })).headers.get("cache-control")).toBe(
      "no-store",
    );
  });
});
