import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  NotificationList,
  NotificationPreferences,
  OutboxMailDetail,
  OutboxPage,
} from "../../../shared/contracts/notifications";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { DEMO_AGENT_KEY } from "../../seed/demo-integrity";
import { createTestApp, type TestApp } from "../../test/harness";
import { notify } from "./notify";

let t: TestApp;
const cookies: Record<string, string> = {};
const published: { type: string; userIds: readonly string[] }[] = [];
beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent", "guardian", "proctor"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
  cookies.jordan = `${await t.signIn("multi@dash.demo")}; selectedUserRole=teacher`;
});
afterAll(() => t.close());

const AVA = demoId("student-ava");
const SAM = demoId("parent-sam");
const GUIDE = demoId("guide-patel");
const ADMIN = demoId("admin");

/** A live hub that only records what it was asked to publish. */
const live = {
  publish: async (type: string, userIds: readonly string[]) => {
    published.push({ type, userIds });
  },
} as Parameters<typeof notify>[0]["live"];

async function call(who: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await t.request(`/api${path}`, { ...init, cookie: cookies[who] });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** A person's notifications of a type, newest first; with `having`, only those whose values include it. */
async function rowsOf(userId: string, type: string, having: Record<string, string | number> = {}) {
  return queryRows<{
    id: string;
    params: Record<string, unknown>;
    link: string | null;
    read_at: string | null;
  }>(
    t.db,
    sql`select id, params, link, read_at::text from notifications
        where user_sourced_id = ${userId} and type = ${type} and params @> ${JSON.stringify(having)}::jsonb
        order by created_at desc`,
  );
}

/** The mails to a person of a category that wait to be sent (the demo's are kept, not queued). */
async function mailsTo(userId: string, category: string) {
  return queryRows<{ subject: string; text_body: string; html_body: string | null }>(
    t.db,
    sql`select subject, text_body, html_body from email_outbox
        where recipient_sourced_id = ${userId} and category = ${category} and status = 'queued'`,
  );
}

describe("notify", () => {
  it("writes a notification per person, tells their pages, mails those who want it in their language", async () => {
    await t.db.execute(sql`update users set preferred_language = 'es' where sourced_id = ${SAM}`);
    try {
      published.length = 0;
      const told = await notify(
        { db: t.db, live },
        {
          userIds: [SAM, GUIDE, SAM, "nobody-at-all"],
          type: "survey.invited",
          params: { surveyTitle: "Spring check-in" },
          link: "/app/surveys",
          dedupeKey: "survey:spring",
        },
      );
      expect(told).toBe(2);
      expect(published).toEqual([
        { type: "notifications-changed", userIds: expect.arrayContaining([SAM, GUIDE]) },
      ]);
      const [row] = await rowsOf(SAM, "survey.invited", { surveyTitle: "Spring check-in" });
      expect(row).toMatchObject({
        params: { surveyTitle: "Spring check-in" },
        link: "/app/surveys",
        read_at: null,
      });
      const [spanish] = await mailsTo(SAM, "survey.invited");
      expect(spanish?.subject).toBe("Una encuesta breve: Spring check-in");
      expect(spanish?.text_body).toContain("%DASH_PUBLIC_URL%/app/surveys");
      expect(spanish?.html_body).toContain('lang="es"');
      const [english] = await mailsTo(GUIDE, "survey.invited");
      expect(english?.subject).toBe("A short survey: Spring check-in");
    } finally {
      await t.db.execute(sql`update users set preferred_language = null where sourced_id = ${SAM}`);
    }
  });

  it("tells once per dedupe key, however often it runs", async () => {
    published.length = 0;
    const input = {
      userIds: [SAM],
      type: "survey.invited" as const,
      params: { surveyTitle: "Spring check-in" },
      dedupeKey: "survey:spring",
    };
    expect(await notify({ db: t.db, live }, input)).toBe(0);
    expect(await rowsOf(SAM, "survey.invited", { surveyTitle: "Spring check-in" })).toHaveLength(1);
    expect(await mailsTo(SAM, "survey.invited")).toHaveLength(1);
    expect(published).toEqual([]);
  });

  it("honours each person's choice per type, and the type's defaults without one", async () => {
    const save = await call("parent", "/notifications/preferences", {
      method: "PUT",
      json: { types: [{ type: "announcement.published", inApp: false, email: true }] },
    });
    expect(save.status).toBe(200);
    const input = {
      userIds: [SAM, GUIDE],
      type: "announcement.published" as const,
      params: { title: "Book fair", senderName: "Alex Morgan" },
    };
    expect(await notify({ db: t.db, live }, input)).toBe(2);
    // Sam: no notification in the app, a mail; the Guide: both, by the type's defaults.
    expect(await rowsOf(SAM, "announcement.published", { title: "Book fair" })).toHaveLength(0);
    expect(await mailsTo(SAM, "announcement.published")).toHaveLength(1);
    expect(await rowsOf(GUIDE, "announcement.published", { title: "Book fair" })).toHaveLength(1);
    expect(await mailsTo(GUIDE, "announcement.published")).toHaveLength(1);

    // Reward decisions are not mailed by default; a student is never mailed unless they chose it.
    await notify({ db: t.db, live }, { userIds: [AVA], type: "strike.confirmed", params: { strikes: 1 } });
    expect(await mailsTo(AVA, "strike.confirmed")).toHaveLength(0);
    expect(await rowsOf(AVA, "strike.confirmed", { strikes: 1, studentId: "" })).toHaveLength(1);
  });

  it("uses the mail of the caller's renderer when given", async () => {
    await notify(
      { db: t.db, live },
      {
        userIds: [GUIDE],
        type: "pulse.ready",
        params: { childName: "Ava", week: "2025-01-05" },
        dedupeKey: "renderer-test",
        email: (language) => ({ subject: `Digest ${language}`, text: "The digest." }),
      },
    );
    const mails = await mailsTo(GUIDE, "pulse.ready");
    expect(mails).toEqual([{ subject: "Digest en", text_body: "The digest.", html_body: null }]);
  });
});

describe("the bell", () => {
  it("lists the caller's own notifications newest first with the unread count, and marks them read", async () => {
    for (const title of ["First", "Second", "Third"])
      await notify({ db: t.db, live }, { userIds: [SAM], type: "announcement.published", params: { title } });
    // Sam turned announcements off in the app above: turn them on again for this test.
    await call("parent", "/notifications/preferences", {
      method: "PUT",
      json: { types: [{ type: "announcement.published", inApp: true, email: false }] },
    });
    for (const title of ["First", "Second", "Third"])
      await notify({ db: t.db, live }, { userIds: [SAM], type: "announcement.published", params: { title } });

    const list = await call("parent", "/notifications?limit=2");
    expect(list.status).toBe(200);
    const page = list.body as NotificationList;
    expect(page.items).toHaveLength(2);
    expect(page.items[0]).toMatchObject({
      type: "announcement.published",
      params: { title: "Third" },
      readAt: null,
    });
    expect(page.total).toBeGreaterThanOrEqual(3);
    const count = (await call("parent", "/notifications/unread-count")).body.unreadCount as number;
    expect(page.unreadCount).toBe(count);

    const first = page.items[0]?.id as string;
    // Another person's ids are ignored.
    const guideRow = (await rowsOf(GUIDE, "announcement.published", { title: "Book fair" }))[0]?.id as string;
    const marked = await call("parent", "/notifications/read", { json: { ids: [first, guideRow] } });
    expect(marked.body).toEqual({ marked: 1, unreadCount: count - 1 });
    expect((await rowsOf(GUIDE, "announcement.published", { title: "Book fair" }))[0]?.read_at).toBeNull();

    const all = await call("parent", "/notifications/read", { json: { all: true } });
    expect(all.body.unreadCount).toBe(0);
    expect((await call("parent", "/notifications?unread=true")).body.items).toEqual([]);
  });

  it("refuses bad input with a 400", async () => {
    for (const body of [{}, { ids: [] }, { ids: ["not-a-uuid"] }, { all: false }, { all: true, ids: [] }])
      expect((await call("parent", "/notifications/read", { json: body })).status).toBe(400);
    expect((await call("parent", "/notifications?limit=1000")).status).toBe(400);
    expect((await call("parent", "/notifications?offset=-1")).status).toBe(400);
  });

  it("shows the real person's own while viewing as someone, and refuses writes", async () => {
    const admin = await t.signIn("admin@dash.demo");
    const started = await t.request("/api/auth/impersonation", {
      json: { userId: SAM, reason: "Checking the family's view" },
      cookie: admin,
    });
    expect(started.status).toBe(200);
    await notify(
      { db: t.db, live },
      { userIds: [ADMIN], type: "survey.invited", params: { surveyTitle: "Staff" } },
    );
    const list = await t.request("/api/notifications", { cookie: admin });
    const items = ((await list.json()) as NotificationList).items;
    expect(items.some((item) => item.params.surveyTitle === "Staff")).toBe(true);
    expect(items.some((item) => item.params.title === "Third")).toBe(false);
    const write = await t.request("/api/notifications/read", { json: { all: true }, cookie: admin });
    expect(write.status).toBe(403);
    const preferences = await t.request("/api/notifications/preferences", {
      method: "PUT",
      json: { language: "es" },
      cookie: admin,
    });
    expect(preferences.status).toBe(403);
  });
});

describe("preferences", () => {
  it("list the kinds of mail an unsubscribe link stopped, and send them again when asked", async () => {
    await t.db.execute(sql`insert into notification_preferences (user_sourced_id, type, in_app, email, updated_at)
      values (${GUIDE}, 'report', false, false, now())`);
    const stopped = (await call("guide", "/notifications/preferences")).body as NotificationPreferences;
    expect(stopped.stoppedMail).toEqual(["report"]);
    const resumed = await call("guide", "/notifications/preferences", {
      method: "PUT",
      json: { resumeMail: ["report", "message.received"] },
    });
    expect(resumed.status).toBe(200);
    expect((resumed.body as NotificationPreferences).stoppedMail).toEqual([]);
    // A notification type's choice is not forgotten that way.
    const [row] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from notification_preferences where user_sourced_id = ${GUIDE} and type = 'report'`,
    );
    expect(row?.n).toBe(0);
  });

  it("answer a parent's types with their choices, time zone, language and digest day", async () => {
    const { status, body } = await call("parent", "/notifications/preferences");
    expect(status).toBe(200);
    const preferences = body as NotificationPreferences;
    expect(preferences.types.map((entry) => entry.type)).toEqual([
      "redemption.requested",
      "strike.confirmed",
      "lockout.changed",
      "survey.invited",
      "message.received",
      "announcement.published",
      "pulse.ready",
    ]);
    expect(preferences.types.find((entry) => entry.type === "redemption.requested")).toEqual({
      type: "redemption.requested",
      inApp: true,
      email: false,
      defaults: { inApp: true, email: false },
    });
    expect(preferences).toMatchObject({ choosesDigestDay: true, digestDay: null, email: "parent@dash.demo" });
    const guide = (await call("guide", "/notifications/preferences")).body as NotificationPreferences;
    expect(guide.choosesDigestDay).toBe(false);
    expect(guide.types.map((entry) => entry.type)).not.toContain("pulse.ready");
  });

  it("save a parent's changes together", async () => {
    const saved = await call("parent", "/notifications/preferences", {
      method: "PUT",
      json: {
        types: [{ type: "redemption.requested", inApp: true, email: true }],
        timeZone: "America/Chicago",
        language: "es",
        digestDay: 4,
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ timeZone: "America/Chicago", language: "es", digestDay: 4 });
    expect(
      (saved.body as NotificationPreferences).types.find((entry) => entry.type === "redemption.requested"),
    ).toMatchObject({ email: true });
    const [user] = await queryRows<{ timezone: string; preferred_language: string }>(
      t.db,
      sql`select timezone, preferred_language from users where sourced_id = ${SAM}`,
    );
    expect(user).toEqual({ timezone: "America/Chicago", preferred_language: "es" });
    await call("parent", "/notifications/preferences", {
      method: "PUT",
      json: { timeZone: "America/New_York", language: null, digestDay: null },
    });
  });

  it("refuse invalid input with a 400 and keep what was saved", async () => {
    for (const body of [
      { timeZone: "Mars/Olympus" },
      { language: "fr" },
      { digestDay: 7 },
      { digestDay: 1.5 },
      { types: [{ type: "unknown.type", inApp: true, email: true }] },
      { types: [{ type: "redemption.decided", inApp: true, email: true }] },
      { types: [{ type: "pulse.ready", inApp: "yes", email: true }] },
      { extra: true },
    ]) {
      const response = await call("parent", "/notifications/preferences", { method: "PUT", json: body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(typeof response.body.message).toBe("string");
    }
    const [user] = await queryRows<{ timezone: string }>(
      t.db,
      sql`select timezone from users where sourced_id = ${SAM}`,
    );
    expect(user?.timezone).toBe("America/New_York");
  });

  it("are refused to roles that do not choose them, and a student's time zone stays the school's", async () => {
    expect((await call("student", "/notifications/preferences")).status).toBe(403);
    expect((await call("proctor", "/notifications/preferences")).status).toBe(403);
    expect(
      (await call("student", "/notifications/preferences", { method: "PUT", json: { language: "es" } }))
        .status,
    ).toBe(403);
    // Jordan is a Guide and a student: their own day stays the school's.
    const jordan = await call("jordan", "/notifications/preferences", {
      method: "PUT",
      json: { timeZone: "Europe/Madrid" },
    });
    expect(jordan.status).toBe(403);
    expect(
      (await call("guide", "/notifications/preferences", { method: "PUT", json: { digestDay: 2 } })).status,
    ).toBe(403);
  });
});

describe("the outbox", () => {
  it("lists every mail for administrators, with one mail's text, and refuses everyone else", async () => {
    const page = await call("admin", "/notifications/admin/outbox?limit=5&search=survey");
    expect(page.status).toBe(200);
    const outbox = page.body as OutboxPage;
    expect(outbox.total).toBeGreaterThan(0);
    expect(outbox.items.every((mail) => /survey/i.test(`${mail.subject} ${mail.category} ${mail.to}`))).toBe(
      true,
    );
    const first = outbox.items[0];
    expect(first).toMatchObject({ status: "queued", attempts: 0 });
    const detail = await call("admin", `/notifications/admin/outbox/${first?.id}`);
    expect((detail.body as OutboxMailDetail).text).toContain("http://localhost:3000/app/");
    expect((await call("admin", "/notifications/admin/outbox/not-an-id")).status).toBe(404);
    expect((await call("admin", `/notifications/admin/outbox/${randomUUID()}`)).status).toBe(404);
    expect((await call("admin", "/notifications/admin/outbox?status=lost")).status).toBe(400);
    for (const who of ["guide", "parent", "student", "proctor"])
      expect((await call(who, "/notifications/admin/outbox")).status).toBe(403);
  });
});

describe("what other domains tell", () => {
  it("a child's reward request tells the family; the decision tells the child", async () => {
    const item = await call("admin", "/rewards/items", {
      json: { name: `Notified item ${randomUUID().slice(0, 6)}`, price: 5, category: "Tests" },
    });
    await call("admin", "/rewards/grants", {
      json: {
        studentId: AVA,
        kind: "award",
        amount: 50,
        reason: "Test top-up",
        idempotencyKey: randomUUID(),
      },
    });
    const requested = await call("student", "/rewards/redemptions", {
      json: { itemId: item.body.id, idempotencyKey: randomUUID() },
    });
    expect(requested.status).toBe(201);
    const family = await queryRows<{ id: string }>(
      t.db,
      sql`select agent_sourced_id as id from user_agents where user_sourced_id = ${AVA}`,
    );
    expect(family.length).toBeGreaterThan(0);
    for (const { id } of family) {
      const [row] = await rowsOf(id, "redemption.requested");
      expect(row?.params).toMatchObject({ studentId: AVA, rewardName: item.body.name, price: 5 });
      expect(row?.link).toBe(`/app/parent-emporium?childId=${AVA}`);
    }
    const declined = await call("parent", `/rewards/redemptions/${requested.body.id}/reject`, {
      method: "POST",
    });
    expect(declined.status).toBe(200);
    const [decided] = await rowsOf(AVA, "redemption.decided");
    expect(decided?.params).toMatchObject({ rewardName: item.body.name, decision: "declined" });
  });

  it("a confirmed strike tells the student and their family", async () => {
    const reported = await t.request("/api/integrity/incidents", {
      method: "POST",
      json: {
        client_id: randomUUID(),
        user_id: AVA,
        incident_type: "off_task_app",
        confidence_score: 0.9,
        app_name: "Block Breaker",
        created_at: t.clock.now().toISOString(),
      },
      headers: { authorization: `Bearer ${DEMO_AGENT_KEY}` },
    });
    const incident = (await reported.json()) as { id: string };
    const before = (await rowsOf(SAM, "strike.confirmed")).length;
    for (const who of ["guide", "proctor"]) {
      const reviewed = await call(who, `/integrity/incidents/${incident.id}/review`, {
        method: "POST",
        json: { decision: "confirm", note: "Seen on the screenshot." },
      });
      expect(reviewed.status).toBe(200);
    }
    const familyRows = await rowsOf(SAM, "strike.confirmed");
    expect(familyRows).toHaveLength(before + 1);
    expect(familyRows[0]?.link).toBe(`/app/child/${AVA}/`);
    expect(familyRows[0]?.params).toMatchObject({ studentId: AVA });
    const [own] = await rowsOf(AVA, "strike.confirmed");
    expect(own?.link).toBe("/app/");
  });
});
