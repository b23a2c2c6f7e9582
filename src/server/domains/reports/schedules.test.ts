import { parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReportSchedule, StaffMember } from "../../../shared/contracts/reports";
import { addDays, localDateOf, SCHOOL_TIME_ZONE, startOfDayIn } from "../../../shared/time-zone";
import { queryRows } from "../../db/client";
import { createLogger } from "../../lib/logger";
import { startSmtpReceiver } from "../../platform/email/test-receiver";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { deliverScheduledReports, periodDue, SCHEDULED_REPORTS_JOB } from "./jobs";

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startSmtpReceiver>>;
const cookies: Record<string, string> = {};
const ids: Record<string, string> = {};
const logger = createLogger("silent");

beforeAll(async () => {
  receiver = await startSmtpReceiver();
  t = await createTestApp({ env: { SMTP_URL: receiver.url, PUBLIC_URL: "https://dash.example.org" } });
  for (const who of ["admin", "guide", "student", "parent"]) {
    cookies[who] = await t.signIn(`${who}@dash.demo`);
    const [person] = await queryRows<{ id: string }>(
      t.db,
      sql`select sourced_id as id from users where email = ${`${who}@dash.demo`}`,
    );
    ids[who] = person?.id as string;
  }
  // The demo's own schedules would be sent by the runs below too.
  await t.db.execute(sql`delete from report_schedules`);
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

async function call(who: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await t.request(`/api/reports/schedules${path}`, { ...init, cookie: cookies[who] });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** 06:00 in the school's time zone on a school calendar day. */
const morningOf = (day: string) => new Date(startOfDayIn(day, SCHOOL_TIME_ZONE).getTime() + 6 * 3_600_000);
const today = () => localDateOf(t.clock.now(), SCHOOL_TIME_ZONE);
/** The latest day before today that is this weekday (0 is Sunday). */
function lastWeekday(weekday: number): string {
  for (let day = addDays(today(), -1); ; day = addDays(day, -1))
    if (new Date(`${day}T12:00:00Z`).getUTCDay() === weekday) return day;
}

describe("the schedules API", () => {
  it("lets an administrator create, list, change and delete a schedule, with the filters in words", async () => {
    const school = demoId("maple-grove");
    const created = await call("admin", "", {
      method: "POST",
      json: {
        reportId: "week-report",
        // Dates and paging are the run's own: they are dropped.
        filters: { schoolId: school, startDate: "2026-01-01", page: 3 },
        frequency: "weekly",
        recipientIds: [ids.admin, ids.guide, ids.guide],
      },
    });
    expect(created.status).toBe(201);
    const schedule = created.body.data as ReportSchedule;
    expect(schedule).toMatchObject({
      reportId: "week-report",
      reportTitle: "Week report",
      frequency: "weekly",
      filters: { schoolId: school },
      lastPeriod: null,
      lastSentAt: null,
    });
    expect(schedule.recipients.map((person) => person.id)).toEqual([ids.admin, ids.guide]);
    expect(schedule.applied).toEqual([{ label: "School", value: "Maple Grove School" }]);
    expect(schedule.createdBy.id).toBe(ids.admin);

    const listed = await call("admin", "?reportId=week-report");
    expect(listed.status).toBe(200);
    expect((listed.body.data as ReportSchedule[]).map((item) => item.id)).toContain(schedule.id);
    expect((await call("admin", "?reportId=month-report")).body.data).toEqual([]);

    const changed = await call("admin", `/${schedule.id}`, {
      method: "PATCH",
      json: { frequency: "monthly", recipientIds: [ids.guide] },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ frequency: "monthly", recipients: [{ id: ids.guide }] });

    expect((await call("admin", `/${schedule.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await call("admin", `/${schedule.id}`, { method: "DELETE" })).status).toBe(404);
    expect(
      (await call("admin", `/${schedule.id}`, { method: "PATCH", json: { frequency: "daily" } })).status,
    ).toBe(404);
  });

  it("refuses everyone but administrators", async () => {
    for (const who of ["guide", "student", "parent"]) {
      expect((await call(who, "")).status).toBe(403);
      expect((await call(who, "/staff?q=a")).status).toBe(403);
      const created = await call(who, "", {
        method: "POST",
        json: { reportId: "week-report", filters: {}, frequency: "weekly", recipientIds: [ids.guide] },
      });
      expect(created.status).toBe(403);
    }
    const anonymous = await t.request("/api/reports/schedules");
    expect(anonymous.status).toBe(401);
  });

  it("refuses recipients who are not staff, naming them, and bad or unknown input", async () => {
    const body = { reportId: "week-report", filters: {}, frequency: "weekly", recipientIds: [ids.guide] };
    const notStaff = await call("admin", "", {
      method: "POST",
      json: { ...body, recipientIds: [ids.guide, ids.parent, "nobody-at-all"] },
    });
    expect(notStaff.status).toBe(400);
    const [parent] = await queryRows<{ name: string }>(
      t.db,
      sql`select given_name || ' ' || family_name as name from users where sourced_id = ${ids.parent}`,
    );
    expect(notStaff.body.message).toContain(parent?.name);
    expect(notStaff.body.message).toContain("nobody-at-all");

    for (const json of [
      { ...body, frequency: "hourly" },
      { ...body, reportId: "my-learning-report" },
      { ...body, reportId: "no-such-report" },
      { ...body, recipientIds: [] },
      { ...body, recipientIds: Array.from({ length: 51 }, (_, index) => `staff-${index}`) },
    ])
      expect((await call("admin", "", { method: "POST", json })).status).toBe(400);
    const [count] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from report_schedules`,
    );
    expect(count?.n).toBe(0);
  });

  it("finds staff by name for the picker, and only staff", async () => {
    const found = await call("admin", "/staff?q=dash.demo");
    expect(found.status).toBe(200);
    const staff = found.body.data as StaffMember[];
    expect(staff.map((person) => person.id)).toEqual(expect.arrayContaining([ids.admin, ids.guide]));
    expect(staff.map((person) => person.id)).not.toContain(ids.parent);
    expect(staff.map((person) => person.id)).not.toContain(ids.student);
    expect(staff.find((person) => person.id === ids.admin)?.role).toBe("administrator");
    expect(staff.find((person) => person.id === ids.guide)?.role).toBe("teacher");
  });
});

describe("the scheduled reports job", () => {
  it("is scheduled", () => {
    expect(t.jobs.isScheduled(SCHEDULED_REPORTS_JOB)).toBe(true);
  });

  it("knows each frequency's period", () => {
    expect(periodDue("daily", "2026-11-24")).toEqual({ start: "2026-11-23", end: "2026-11-23" });
    expect(periodDue("weekly", "2026-11-23")).toEqual({ start: "2026-11-15", end: "2026-11-21" });
    expect(periodDue("weekly", "2026-11-24")).toBeNull();
    expect(periodDue("monthly", "2026-12-01")).toEqual({ start: "2026-11-01", end: "2026-11-30" });
    expect(periodDue("monthly", "2026-12-02")).toBeNull();
  });

  it("sends each recipient their own copy once per period, with the PDF and the CSV, through SMTP", async () => {
    const created = await call("admin", "", {
      method: "POST",
      json: {
        reportId: "student-xp-report",
        filters: {},
        frequency: "weekly",
        recipientIds: [ids.admin, ids.guide],
      },
    });
    expect(created.status).toBe(201);
    const scheduleId = (created.body.data as ReportSchedule).id;
    const monday = lastWeekday(1);
    const deps = { db: t.db, storage: t.storage, logger };

    // Not a Monday: nothing weekly is due.
    expect(await deliverScheduledReports(deps, morningOf(addDays(monday, 1)))).toEqual({
      schedules: 0,
      mails: 0,
    });
    expect(await deliverScheduledReports(deps, morningOf(monday))).toEqual({ schedules: 1, mails: 2 });
    // Again, as after a crash or a second process: nothing more.
    expect(await deliverScheduledReports(deps, morningOf(monday))).toEqual({ schedules: 0, mails: 0 });
    await t.db.execute(sql`update report_schedules set last_period = null where id = ${scheduleId}::uuid`);
    expect(await deliverScheduledReports(deps, morningOf(monday))).toEqual({ schedules: 1, mails: 0 });

    const [schedule] = (await call("admin", "?reportId=student-xp-report")).body.data as ReportSchedule[];
    expect(schedule?.lastPeriod).toBe(addDays(monday, -8));
    expect(schedule?.lastSentAt).toBe(morningOf(monday).toISOString());

    // The first run of the due jobs runs every job of the server once: it takes a while.
    t.clock.advance(16_000);
    await t.jobs.runDueJobs();
    const mails = receiver.mails.filter((mail) => mail.subject.startsWith("Student XP report"));
    expect(mails.map((mail) => mail.to[0]).sort()).toEqual(["admin@dash.demo", "guide@dash.demo"]);
    for (const mail of mails) {
      expect(mail.attachments.map((file) => file.contentType)).toEqual(["application/pdf", "text/csv"]);
      expect(mail.attachments[0]?.content.subarray(0, 5).toString()).toBe("%PDF-");
      expect(mail.text).toContain("https://dash.example.org/app/student-xp-report?");
      expect(mail.text).toContain(`startDate=${addDays(monday, -8)}`);
    }

    const namesIn = (to: string) => {
      const csv = mails.find((mail) => mail.to[0] === to)?.attachments[1]?.content.toString("utf8") ?? "";
      const rows = parse(csv.replace(/^\uFEFF/, ""), { from_line: 2 }) as string[][];
      return rows.map((row) => row[0] as string);
    };
    const guideCopy = namesIn("guide@dash.demo");
    const adminCopy = namesIn("admin@dash.demo");
    const guideStudents = await queryRows<{ name: string }>(
      t.db,
      sql`select distinct concat_ws(' ', s.given_name, s.family_name) as name
          from enrollments g join enrollments e on e.class_sourced_id = g.class_sourced_id and e.role = 'student'
            and e.status = 'active'
          join users s on s.sourced_id = e.user_sourced_id
          where g.user_sourced_id = ${ids.guide} and g.role = 'teacher' and g.status = 'active'`,
    );
    const mine = new Set(guideStudents.map((row) => row.name));
    expect(guideCopy.length).toBeGreaterThan(0);
    expect(guideCopy.every((name) => mine.has(name))).toBe(true);
    expect(adminCopy.length).toBeGreaterThan(guideCopy.length);
    expect(adminCopy.some((name) => !mine.has(name))).toBe(true);

    const guideMail = mails.find((mail) => mail.to[0] === "guide@dash.demo");
    expect(guideMail?.text).toContain("your copy holds only your own students");
    expect(guideMail?.headers.get("list-unsubscribe")).toMatch(/unsubscribe\?token=/);
  }, 120_000);

  it("writes in the recipient's language and leaves out people no longer staff", async () => {
    await t.db.execute(sql`delete from report_schedules`);
    await t.db.execute(sql`update users set preferred_language = 'es' where sourced_id = ${ids.guide}`);
    const created = await call("admin", "", {
      method: "POST",
      json: {
        reportId: "daily-metrics",
        filters: {},
        frequency: "daily",
        recipientIds: [ids.guide, ids.admin],
      },
    });
    expect(created.status).toBe(201);
    await t.db.execute(sql`update users set enabled_user = false where sourced_id = ${ids.admin}`);
    try {
      const day = addDays(today(), -1);
      const run = await deliverScheduledReports({ db: t.db, storage: t.storage, logger }, morningOf(day));
      expect(run).toEqual({ schedules: 1, mails: 1 });
      const [mail] = await queryRows<{ subject: string; text: string; attachments: { fileName: string }[] }>(
        t.db,
        sql`select subject, text_body as text, attachments from email_outbox
            where category = 'report' and recipient_sourced_id = ${ids.guide} and dedupe_key like ${`%:${addDays(day, -1)}:%`}`,
      );

      expect(mail?.text).toContain("Hola");
      expect(mail?.attachments.map((file) => file.fileName)).toEqual([
        `daily-metrics-${addDays(day, -1)}.pdf`,
        `daily-metrics-${addDays(day, -1)}.csv`,
      ]);
    } finally {
      await t.db.execute(sql`update users set enabled_user = true where sourced_id = ${ids.admin}`);
      await t.db.execute(sql`update users set preferred_language = null where sourced_id = ${ids.guide}`);
    }
  });
});

describe("privacy", () => {
  it("takes an anonymised person off every schedule, and drops schedules left with no one or about them", async () => {
    await t.db.execute(sql`delete from report_schedules`);
    // Jordan is a Guide and a student: the one kind of staff member who can be anonymised.
    const [jordan] = await queryRows<{ id: string; name: string }>(
      t.db,
      sql`select sourced_id as id, given_name || ' ' || family_name as name from users where email = 'multi@dash.demo'`,
    );
    const jordanId = jordan?.id as string;
    const create = async (json: unknown) => {
      const created = await call("admin", "", { method: "POST", json });
      expect(created.status).toBe(201);
      return (created.body.data as ReportSchedule).id;
    };
    const shared = await create({
      reportId: "week-report",
      filters: {},
      frequency: "weekly",
      recipientIds: [jordanId, ids.guide],
    });
    await create({ reportId: "week-report", filters: {}, frequency: "daily", recipientIds: [jordanId] });
    // A report that reads the student filter, as a schedule may keep it.
    await t.db.execute(
      sql`insert into report_schedules (report_id, filters, frequency, recipient_ids, created_by)
          values ('student-xp-report', ${JSON.stringify({ studentId: jordanId })}::jsonb, 'monthly',
            array[${ids.admin}]::text[], ${ids.admin})`,
    );
    const anonymised = await t.request(`/api/admin/privacy/students/${jordanId}/anonymise`, {
      method: "POST",
      cookie: cookies.admin,
      json: { confirm: jordan?.name, reason: "The family asked for it" },
    });
    expect(anonymised.status).toBe(200);
    const left = await queryRows<{ id: string; recipients: string[] }>(
      t.db,
      sql`select id::text, recipient_ids as recipients from report_schedules`,
    );
    expect(left).toEqual([{ id: shared, recipients: [ids.guide] }]);
  });
});
