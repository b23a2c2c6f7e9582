import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  AdminAnnouncement,
  AdminAnnouncementPage,
  Audience,
  AudienceChoices,
  ReceivedAnnouncementPage,
} from "../../../shared/contracts/messaging";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";

let t: TestApp;
const cookies: Record<string, string> = {};

const SAM = demoId("parent-sam");
const AVA = demoId("student-ava");
const MAYA = demoId("guide-patel");
const MAPLE_GROVE = demoId("maple-grove");
const DISTRICT = demoId("district");
const PATEL_MATH = demoId("class-maple-grove-guide-patel-Math");

beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent", "guardian"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
});
afterAll(() => t.close());

async function call(who: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await t.request(`/api/messaging${path}`, { ...init, cookie: cookies[who] });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const announce = (audience: Audience, extra: Record<string, unknown> = {}) =>
  call("admin", "/admin/announcements", {
    json: { title: "Field trip on Friday", bodyHtml: "<p>Bring a packed lunch.</p>", audience, ...extra },
  });

const ids = async (query: SQL) => (await queryRows<{ id: string }>(t.db, query)).map((row) => row.id).sort();
const active = (query: SQL) =>
  sql`select u.sourced_id as id from users u where u.sourced_id in (${query}) and u.status = 'active' and u.enabled_user`;

/** The people an announcement reached, as recorded. */
const recipientsOf = (id: string) =>
  ids(sql`select user_sourced_id as id from announcement_recipients where announcement_id = ${id}::uuid`);

describe("audiences", () => {
  it("reach the parents of a class, a class, a grade, a school and staff, as the roster says", async () => {
    const classStudents = sql`select user_sourced_id from enrollments where class_sourced_id = ${PATEL_MATH}
      and role = 'student' and status = 'active'`;
    const mapleStudents = sql`select user_sourced_id from user_roles where org_sourced_id = ${MAPLE_GROVE} and lower(role) = 'student'`;
    const mapleStaff = sql`select user_sourced_id from user_roles where org_sourced_id = ${MAPLE_GROVE}
      and lower(role) in ('teacher', 'administrator')`;
    const agentsOf = (students: SQL) =>
      sql`select agent_sourced_id from user_agents where user_sourced_id in (${students})`;
    const gradeThree = sql`select sourced_id from users where sourced_id in (${mapleStudents}) and '03' = any(grades)`;
    const expected: [Audience, SQL][] = [
      [{ kind: "class_parents", classId: PATEL_MATH }, agentsOf(classStudents)],
      [
        { kind: "class", classId: PATEL_MATH },
        sql`${classStudents} union select user_sourced_id from enrollments where class_sourced_id = ${PATEL_MATH} and role = 'teacher'`,
      ],
      [{ kind: "grade", orgId: MAPLE_GROVE, grade: "03" }, sql`${gradeThree} union ${agentsOf(gradeThree)}`],
      [
        { kind: "school", orgId: MAPLE_GROVE },
        sql`${mapleStudents} union ${agentsOf(mapleStudents)} union ${mapleStaff}`,
      ],
      [{ kind: "staff", orgId: MAPLE_GROVE }, mapleStaff],
    ];
    for (const [audience, query] of expected) {
      const want = await ids(active(query));
      expect(want.length, audience.kind).toBeGreaterThan(0);
      const size = await call(
        "admin",
        `/admin/audience-size?${new URLSearchParams(audience as Record<string, string>)}`,
      );
      expect(size.body, audience.kind).toEqual({ recipients: want.length });
      const created = await announce(audience);
      expect(created.status, audience.kind).toBe(201);
      const announcement = created.body as AdminAnnouncement;
      expect(announcement).toMatchObject({ status: "sent", recipients: want.length, read: 0 });
      expect(await recipientsOf(announcement.id), audience.kind).toEqual(want);
    }
    // The parents of a class are Sam and Grace for Ava; a class's Guide is Maya Patel.
    const parents = await announce({ kind: "class_parents", classId: PATEL_MATH });
    expect(await recipientsOf(parents.body.id)).toEqual(
      expect.arrayContaining([SAM, demoId("guardian-grace")]),
    );
    expect(await recipientsOf(parents.body.id)).not.toContain(AVA);
    // The whole district reaches both schools' people.
    const district = await call("admin", `/admin/audience-size?kind=staff&orgId=${DISTRICT}`);
    const staff = await call("admin", `/admin/audience-size?kind=staff&orgId=${MAPLE_GROVE}`);
    expect(district.body.recipients).toBeGreaterThan(staff.body.recipients);
  });

  it("offer the districts and schools with their grades, and a school's classes", async () => {
    const choices = (await call("admin", `/admin/audiences?schoolId=${MAPLE_GROVE}`)).body as AudienceChoices;
    expect(choices.organisations[0]).toMatchObject({ id: DISTRICT, type: "district" });
    expect(choices.organisations.find((org) => org.id === MAPLE_GROVE)?.grades).toEqual([
      "01",
      "02",
      "03",
      "04",
      "KG",
    ]);
    expect(choices.classes.length).toBe(16);
    expect(choices.classes.every((item) => item.schoolId === MAPLE_GROVE)).toBe(true);
  });

  it("refuse an audience that does not exist or is not whole, naming the field", async () => {
    const noClass = await announce({ kind: "class", classId: "no-such-class" });
    expect(noClass.status).toBe(400);
    expect(noClass.body.message).toContain("audience.classId: There is no such class.");
    const noGrade = await call("admin", "/admin/announcements", {
      json: { title: "Hi", bodyHtml: "<p>Hi</p>", audience: { kind: "grade", orgId: MAPLE_GROVE } },
    });
    expect(noGrade.status).toBe(400);
    const badKind = await call("admin", `/admin/audience-size?kind=everyone`);
    expect(badKind.status).toBe(400);
    const empty = await call("admin", "/admin/announcements", {
      json: { title: "Hi", bodyHtml: "<p> </p>", audience: { kind: "staff", orgId: MAPLE_GROVE } },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain("bodyHtml: Write the announcement's text.");
    const noTitle = await announce({ kind: "staff", orgId: MAPLE_GROVE }, { title: " " });
    expect(noTitle.status).toBe(400);
  });

  it("are for administrators alone", async () => {
    for (const who of ["guide", "parent", "student"]) {
      expect((await call(who, "/admin/announcements")).status).toBe(403);
      const refused = await call(who, "/admin/announcements", {
        json: { title: "Hi", bodyHtml: "<p>Hi</p>", audience: { kind: "staff", orgId: MAPLE_GROVE } },
      });
      expect(refused.status, who).toBe(403);
      expect(refused.body.message).toBe("Your role does not allow you to send announcements");
      expect((await call(who, "/admin/audiences")).status).toBe(403);
      expect((await call(who, "/admin/settings")).status).toBe(403);
    }
  });
});

describe("a sent announcement", () => {
  it("reaches its recipients in the app and by email, and counts who read it", async () => {
    const created = (await announce({ kind: "class_parents", classId: PATEL_MATH }, { title: "Read me" }))
      .body as AdminAnnouncement;
    const received = (await call("parent", "/announcements")).body as ReceivedAnnouncementPage;
    const mine = received.items.find((item) => item.id === created.id);
    expect(mine).toMatchObject({
      title: "Read me",
      bodyHtml: "<p>Bring a packed lunch.</p>",
      senderName: "Alex Morgan",
      readAt: null,
    });
    expect(received.unread).toBeGreaterThan(0);
    const [told] = await queryRows<{ notifications: number; mails: number }>(
      t.db,
      sql`select (select count(*)::int from notifications where user_sourced_id = ${SAM}
            and type = 'announcement.published' and dedupe_key = ${`announcement:${created.id}`}) as notifications,
          (select count(*)::int from email_outbox where recipient_sourced_id = ${SAM} and subject = 'Read me') as mails`,
    );
    expect(told).toEqual({ notifications: 1, mails: 1 });
    const [mail] = await queryRows<{ text_body: string; html_body: string }>(
      t.db,
      sql`select text_body, html_body from email_outbox where recipient_sourced_id = ${SAM} and subject = 'Read me'`,
    );
    expect(mail?.text_body).toContain("Bring a packed lunch.");
    expect(mail?.text_body).toContain("From Alex Morgan");
    expect(mail?.html_body).toContain("<p>Bring a packed lunch.</p>");

    const unreadBefore = (await call("parent", "/unread")).body.unread as number;
    expect((await call("parent", `/announcements/${created.id}/read`, { method: "POST" })).status).toBe(204);
    expect((await call("parent", `/announcements/${created.id}/read`, { method: "POST" })).status).toBe(204);
    expect((await call("parent", "/unread")).body.unread).toBe(unreadBefore - 1);
    // Not theirs: Ava was not in the audience.
    expect((await call("student", `/announcements/${created.id}/read`, { method: "POST" })).status).toBe(404);

    const sent = (await call("admin", "/admin/announcements?status=sent")).body as AdminAnnouncementPage;
    expect(sent.items.find((item) => item.id === created.id)).toMatchObject({
      read: 1,
      audience: { kind: "class_parents", classId: PATEL_MATH, className: "Math · Patel group" },
      createdBy: "Alex Morgan",
    });
  });
});

describe("scheduled announcements", () => {
  it("wait for their time, go once with the job, and can be cancelled before", async () => {
    const at = new Date(t.clock.now().getTime() + 60 * 60_000).toISOString();
    const scheduled = await announce(
      { kind: "staff", orgId: MAPLE_GROVE },
      { title: "Staff meeting", scheduledFor: at },
    );
    expect(scheduled.status).toBe(201);
    const announcement = scheduled.body as AdminAnnouncement;
    expect(announcement).toMatchObject({
      status: "scheduled",
      sentAt: null,
      recipients: null,
      scheduledFor: at,
    });
    const later = await announce(
      { kind: "staff", orgId: MAPLE_GROVE },
      { title: "Cancelled", scheduledFor: at },
    );

    const list = (await call("admin", "/admin/announcements?status=scheduled")).body as AdminAnnouncementPage;
    expect(list.items.map((item) => item.id)).toEqual(
      expect.arrayContaining([announcement.id, later.body.id]),
    );

    await t.jobs.runDueJobs();
    expect(await recipientsOf(announcement.id)).toEqual([]);

    const cancelled = await call("admin", `/admin/announcements/${later.body.id}/cancel`, { method: "POST" });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: "cancelled", cancelledBy: "Alex Morgan" });
    expect(
      (await call("admin", `/admin/announcements/${later.body.id}/cancel`, { method: "POST" })).status,
    ).toBe(409);

    t.clock.advance(61 * 60_000);
    await t.jobs.runDueJobs();
    const reached = await recipientsOf(announcement.id);
    expect(reached).toContain(MAYA);
    expect(await recipientsOf(later.body.id)).toEqual([]);

    // A second run sends nothing again.
    const countNotifications = async () => {
      const [row] = await queryRows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from notifications where dedupe_key = ${`announcement:${announcement.id}`}`,
      );
      return row?.n ?? 0;
    };
    const told = await countNotifications();
    expect(told).toBeGreaterThan(0);
    t.clock.advance(2 * 60_000);
    await t.jobs.runDueJobs();
    expect(await countNotifications()).toBe(told);
    expect(await recipientsOf(announcement.id)).toEqual(reached);

    const sentOne = await call("admin", `/admin/announcements/${announcement.id}/cancel`, { method: "POST" });
    expect(sentOne.status).toBe(409);
    expect(sentOne.body.message).toBe("This announcement was sent already.");
    expect((await call("admin", "/admin/announcements/not-an-id/cancel", { method: "POST" })).status).toBe(
      404,
    );
  });

  it("refuse a time that passed or is more than a year away", async () => {
    const past = new Date(t.clock.now().getTime() - 60 * 60_000).toISOString();
    const refused = await announce({ kind: "staff", orgId: MAPLE_GROVE }, { scheduledFor: past });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain("scheduledFor: This time has passed");
    const far = new Date(t.clock.now().getTime() + 400 * 86_400_000).toISOString();
    expect((await announce({ kind: "staff", orgId: MAPLE_GROVE }, { scheduledFor: far })).status).toBe(400);
    expect((await announce({ kind: "staff", orgId: MAPLE_GROVE }, { scheduledFor: "tomorrow" })).status).toBe(
      400,
    );
  });
});
