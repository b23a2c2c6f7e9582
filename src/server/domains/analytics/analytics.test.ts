import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnalyticsEventInput, AnalyticsReport } from "../../../shared/contracts/analytics";
import { DEFAULT_RETENTION } from "../../../shared/contracts/privacy";
import { addDays, localDateOf, SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { runDailyRetention, saveRetentionSettings } from "../privacy/retention";
import { type ForwardedEvent, forwardAnalyticsEvents } from "./jobs";

let t: TestApp;
const cookies: Record<string, string> = {};
const AVA = demoId("student-ava");

/** Signs everyone in again: moving the clock a day ends idle sessions. */
async function signInEveryone() {
  for (const who of ["admin", "guide", "student", "parent"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
}

beforeAll(async () => {
  t = await createTestApp();
  // The demo school's four weeks of analytics go: each test counts only what it sent.
  await t.db.execute(sql`delete from analytics_events`);
  await signInEveryone();
});
afterAll(() => t.close());

const DAY_MS = 24 * 60 * 60 * 1000;

function event(type: AnalyticsEventInput["type"], path: string, extra: Partial<AnalyticsEventInput> = {}) {
  return { type, path, at: t.clock.now().toISOString(), ...extra };
}

async function send(who: string | null, events: unknown[], headers?: Record<string, string>) {
  const response = await t.request("/api/analytics/events", {
    json: { events },
    cookie: who ? cookies[who] : undefined,
    headers,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function rowsOf(where: ReturnType<typeof sql>) {
  return queryRows<{
    type: string;
    path: string;
    role: string | null;
    school: string | null;
    user: string | null;
    day: string;
    linked: string[] | null;
    message: string | null;
    stack: string | null;
  }>(
    t.db,
    sql`select type, path, role, school_sourced_id as school, user_sourced_id as user, to_char(day, 'YYYY-MM-DD') as day,
          linked_ids as linked, message, stack
        from analytics_events where ${where} order by id`,
  );
}

describe("the collector", () => {
  it("answers 202 and stores a signed-in page view with the role, school, day and path without its query", async () => {
    const sent = await send("student", [event("page_view", "/app/goals?studentId=abc#top")]);
    expect(sent.status).toBe(202);
    expect(sent.body).toBeNull();
    const [row] = await rowsOf(sql`user_sourced_id = ${AVA} and type = 'page_view'`);
    expect(row).toMatchObject({
      path: "/app/goals",
      role: "student",
      user: AVA,
      day: localDateOf(t.clock.now(), SCHOOL_TIME_ZONE),
    });
    expect(row?.school).toBeTruthy();
  });

  it("counts a sign-in once per session, with a sample of the linked people", async () => {
    for (let i = 0; i < 3; i++) expect((await send("student", [event("login", "/app")])).status).toBe(202);
    // Twice in one batch as well.
    await send("parent", [event("login", "/app"), event("login", "/app")]);
    const logins = await rowsOf(sql`type = 'login'`);
    expect(logins.filter((row) => row.user === AVA)).toHaveLength(1);
    const [student] = logins.filter((row) => row.user === AVA);
    const [parent] = logins.filter((row) => row.role === "parent");
    expect(parent).toBeDefined();
    const [links] = await queryRows<{ parents: string[]; children: string[] }>(
      t.db,
      sql`select (select array_agg(agent_sourced_id order by agent_sourced_id) from user_agents where user_sourced_id = ${AVA}) as parents,
            (select array_agg(user_sourced_id order by user_sourced_id) from user_agents where agent_sourced_id = ${parent?.user ?? ""}) as children`,
    );
    expect(student?.linked).toEqual((links?.parents ?? []).slice(0, 10));
    expect(parent?.linked).toEqual((links?.children ?? []).slice(0, 10));
    expect(student?.linked).toContain(parent?.user);

    // A new session of the same person is a new sign-in.
    const again = await t.signIn("student@dash.demo");
    expect(
      (
        await t.request("/api/analytics/events", {
          json: { events: [event("login", "/app")] },
          cookie: again,
        })
      ).status,
    ).toBe(202);
    expect(await rowsOf(sql`type = 'login' and user_sourced_id = ${AVA}`)).toHaveLength(2);
  });

  it("counts daily activity once per person and day", async () => {
    await send("guide", [event("daily_active", "/app")]);
    await send("guide", [event("daily_active", "/app/classes"), event("daily_active", "/app")]);
    const guide = await rowsOf(sql`type = 'daily_active' and role = 'teacher'`);
    expect(guide).toHaveLength(1);
    t.clock.advance(DAY_MS);
    await signInEveryone();
    await send("guide", [event("daily_active", "/app")]);
    expect(await rowsOf(sql`type = 'daily_active' and role = 'teacher'`)).toHaveLength(2);
  });

  it("accepts page views and errors signed out, but no sign-in or daily activity without a person", async () => {
    const sent = await send(null, [
      event("page_view", "/login?redirect=%2Fapp%2Fgoals"),
      event("exception", "/login", { message: "Boom at sign-in", stack: "Error: Boom\n  at x" }),
      event("login", "/login"),
      event("daily_active", "/login"),
    ]);
    expect(sent.status).toBe(202);
    const rows = await rowsOf(sql`user_sourced_id is null`);
    expect(rows.map((row) => [row.type, row.path])).toEqual([
      ["page_view", "/login"],
      ["exception", "/login"],
    ]);
    expect(rows[1]).toMatchObject({ message: "Boom at sign-in", stack: "Error: Boom\n  at x", role: null });
  });

  it("keeps only the first characters of a long message and stack, and no text on other events", async () => {
    await send("guide", [
      event("exception", "/app", { message: "m".repeat(5_000), stack: "s".repeat(20_000) }),
      event("page_view", "/app/xp", { message: "free text", stack: "nothing" }),
    ]);
    const [error] = await rowsOf(sql`type = 'exception' and role = 'teacher'`);
    expect(error?.message).toHaveLength(1_000);
    expect(error?.stack).toHaveLength(8_000);
    const [view] = await rowsOf(sql`type = 'page_view' and path = '/app/xp'`);
    expect(view).toMatchObject({ message: null, stack: null });
  });

  it("holds a browser's time within minutes of the arrival", async () => {
    await send("admin", [event("page_view", "/app/admin/jobs", { at: "2001-01-01T00:00:00.000Z" })]);
    const [row] = await queryRows<{ lag: number }>(
      t.db,
      sql`select extract(epoch from received_at - occurred_at)::float8 as lag from analytics_events where path = '/app/admin/jobs'`,
    );
    expect(row?.lag).toBe(300);
  });

  it("refuses bad bodies with 400 and a message", async () => {
    const cases: unknown[] = [
      [],
      Array.from({ length: 51 }, () => event("page_view", "/app")),
      [event("page_view", "https://evil.example/app")],
      [event("page_view", "//evil.example/app")],
      [event("page_view", "app")],
      [{ ...event("page_view", "/app"), type: "click" }],
      [{ ...event("page_view", "/app"), at: "yesterday" }],
      [{ type: "page_view", path: "/app" }],
    ];
    for (const events of cases) {
      const sent = await send("student", events as unknown[]);
      expect(sent.status, JSON.stringify(events).slice(0, 80)).toBe(400);
      expect(sent.body.code).toBe("validation_failed");
      expect(sent.body.message).toMatch(/events/);
    }
    const notJson = await t.request("/api/analytics/events", { body: "{", cookie: cookies.student });
    expect(notJson.status).toBe(400);
  });

  it("refuses a body that is not JSON or comes from another site", async () => {
    const asText = await t.request("/api/analytics/events", {
      body: JSON.stringify({ events: [event("page_view", "/app")] }),
      headers: { "content-type": "text/plain" },
      cookie: cookies.student,
    });
    expect(asText.status).toBe(415);
    const crossSite = await t.request("/api/analytics/events", {
      json: { events: [event("page_view", "/app")] },
      headers: { origin: "https://evil.example" },
      cookie: cookies.student,
    });
    expect(crossSite.status).toBe(403);
  });

  it("limits how many batches a session sends a minute", async () => {
    const cookie = await t.signIn("proctor@dash.demo");
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++) {
      const response = await t.request("/api/analytics/events", {
        json: { events: [event("page_view", "/app")] },
        cookie,
      });
      statuses.push(response.status);
      if (response.status === 429) expect(response.headers.get("retry-after")).toBeTruthy();
    }
    expect(statuses.filter((status) => status === 202)).toHaveLength(120);
    expect(statuses.at(-1)).toBe(429);
    t.clock.advance(61_000);
    expect(
      (await t.request("/api/analytics/events", { json: { events: [event("page_view", "/app")] }, cookie }))
        .status,
    ).toBe(202);
  });
});

describe("the report", () => {
  async function report(who: string, query = "") {
    const response = await t.request(`/api/admin/analytics${query}`, { cookie: cookies[who] });
    return { status: response.status, body: (await response.json()) as AnalyticsReport & { code?: string } };
  }

  it("is for administrators only", async () => {
    for (const who of ["guide", "student", "parent"]) expect((await report(who)).status).toBe(403);
    expect((await t.request("/api/admin/analytics")).status).toBe(401);
  });

  it("shows active people by role and school, top pages, views per day and errors grouped by message", async () => {
    for (let i = 0; i < 3; i++)
      await send("student", [
        event("exception", "/app/goals", { message: "Cannot read x", stack: `at line ${i}` }),
      ]);
    await send("parent", [event("exception", "/app/children", { message: "Cannot read x" })]);
    const today = localDateOf(t.clock.now(), SCHOOL_TIME_ZONE);
    const { status, body } = await report("admin");
    expect(status).toBe(200);
    expect(body.to).toBe(today);
    expect(body.from).toBe(addDays(today, -27));
    expect(body.days).toHaveLength(28);
    expect(body.days.at(-1)?.day).toBe(today);
    expect(body.days.reduce((sum, day) => sum + day.pageViews, 0)).toBeGreaterThan(0);
    const grouped = body.errors.find((error) => error.message === "Cannot read x");
    expect(grouped).toMatchObject({ count: 4, people: 2, sampleStack: "at line 2" });
    expect(grouped?.paths.sort()).toEqual(["/app/children", "/app/goals"]);
    expect(body.topPages.some((page) => page.path === "/app")).toBe(true);
    expect(body.activeByRoleAndSchool.some((row) => row.role === "student" && row.people === 1)).toBe(true);
    expect(body.schools.length).toBeGreaterThan(0);

    const students = await report("admin", "?role=student");
    expect(students.body.activeByRoleAndSchool.every((row) => row.role === "student")).toBe(true);
    expect(students.body.errors.find((error) => error.message === "Cannot read x")?.count).toBe(3);
    const nowhere = await report("admin", "?schoolId=no-such-school");
    expect(nowhere.body.topPages).toEqual([]);
  });

  it("refuses a span that ends before it starts or is too long", async () => {
    expect((await report("admin", "?from=2026-05-02&to=2026-05-01")).status).toBe(400);
    expect((await report("admin", "?from=2024-01-01&to=2026-01-01")).status).toBe(400);
    expect((await report("admin", "?from=2026-02-30")).status).toBe(400);
    expect((await report("admin", "?role=wizard")).status).toBe(400);
  });
});

describe("retention and forwarding", () => {
  it("forwards new events to the analytics host, from where it was turned on, retrying what failed", async () => {
    const received: ForwardedEvent[][] = [];
    let refuse = true;
    const server: Server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        if (refuse) {
          response.writeHead(503).end();
          return;
        }
        received.push((JSON.parse(body) as { events: ForwardedEvent[] }).events);
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
    try {
      // The first run only marks where forwarding starts: earlier events are not sent.
      t.clock.advance(60_000);
      expect(await forwardAnalyticsEvents(t.db, url, t.clock.now())).toBe(0);
      await send("student", [event("page_view", "/app/forwarded?secret=1")]);
      // Too new yet: it waits until inserts committing beside it are visible.
      expect(await forwardAnalyticsEvents(t.db, url, t.clock.now())).toBe(0);
      t.clock.advance(60_000);
      await expect(forwardAnalyticsEvents(t.db, url, t.clock.now())).rejects.toThrow(/503/);
      refuse = false;
      expect(await forwardAnalyticsEvents(t.db, url, t.clock.now())).toBe(1);
      expect(received.flat()).toEqual([
        expect.objectContaining({ type: "page_view", path: "/app/forwarded", userId: AVA, role: "student" }),
      ]);
      expect(await forwardAnalyticsEvents(t.db, url, t.clock.now())).toBe(0);
    } finally {
      server.close();
    }
  });

  it("deletes events older than the retention setting, 180 days by default", async () => {
    expect(DEFAULT_RETENTION.analytics).toBe(180);
    await saveRetentionSettings(t.db, { ...DEFAULT_RETENTION });
    const old = new Date(t.clock.now().getTime() - 181 * DAY_MS);
    await t.db.execute(
      sql`insert into analytics_events (type, path, occurred_at, day, role) values
        ('page_view', '/app/old', ${old.toISOString()}::timestamptz, ${localDateOf(old, SCHOOL_TIME_ZONE)}::date, 'student')`,
    );
    const before = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from analytics_events`);
    const removed = await runDailyRetention(t.db, t.clock.now, { info: () => {} } as never);
    expect(removed?.analytics).toBe(1);
    expect(await rowsOf(sql`path = '/app/old'`)).toEqual([]);
    const after = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from analytics_events`);
    expect(after[0]?.n).toBe((before[0]?.n ?? 0) - 1);
  });
});
