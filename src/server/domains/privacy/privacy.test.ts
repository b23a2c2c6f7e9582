import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessLogResponseSchema, DEFAULT_RETENTION } from "../../../shared/contracts/privacy";
import { queryRows } from "../../db/client";
import { createLogger } from "../../lib/logger";
import { createTestApp, type TestApp } from "../../test/harness";
import { zipFilesOf } from "../../test/zip-files";
import { recordSensitiveAccess } from "./access-log";
import { EXPORT_FILE_NAMES } from "./export";
import { runDailyRetention } from "./retention";

let t: TestApp;
let admin: string;
const ids: Record<string, string> = {};

async function idOf(email: string): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    t.db,
    sql`select sourced_id as id from users where email = ${email}`,
  );
  if (!row) throw new Error(`no user ${email}`);
  return row.id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signIn("admin@dash.demo");
  for (const name of ["admin", "student", "parent", "guardian", "guide", "proctor"])
    ids[name] = await idOf(`${name}@dash.demo`);
  // A student who is not a child of the demo parent.
  const [other] = await queryRows<{ id: string }>(
    t.db,
    sql`select r.user_sourced_id as id from user_roles r where lower(r.role) = 'student'
          and r.user_sourced_id not in (select user_sourced_id from user_agents where agent_sourced_id = ${ids.parent})
        order by 1 limit 1`,
  );
  ids.otherStudent = other?.id as string;
});
afterAll(() => t.close());

const adminExport = (studentId: string, cookie = admin) =>
  t.request(`/api/admin/privacy/students/${studentId}/export`, { cookie });
const familyExport = (childId: string, cookie: string) =>
  t.request(`/api/privacy/children/${childId}/export`, { cookie });
const anonymise = (studentId: string, body: unknown, cookie = admin) =>
  t.request(`/api/admin/privacy/students/${studentId}/anonymise`, { json: body, cookie });

async function accessLog(query = "") {
  const response = await t.request(`/api/admin/privacy/access-log${query}`, { cookie: admin });
  expect(response.status).toBe(200);
  return accessLogResponseSchema.parse(await response.json());
}

const csvLines = (text: string | undefined) => (text ?? "").trim().split("\r\n");

describe("exporting a student's data", () => {
  it("answers 401 without a session and 403 to everyone but administrators", async () => {
    expect((await t.request(`/api/admin/privacy/students/${ids.student}/export`)).status).toBe(401);
    for (const email of ["guide@dash.demo", "student@dash.demo", "parent@dash.demo", "proctor@dash.demo"]) {
      const response = await adminExport(ids.student as string, await t.signIn(email));
      expect(response.status, email).toBe(403);
      expect(await response.json()).toMatchObject({ code: "forbidden" });
    }
  });

  it("answers 404 for an unknown id and for someone who is not a student", async () => {
    const unknown = await adminExport("no-such-student");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ code: "not_found", message: "No student has this id" });
    expect((await adminExport(ids.guide as string)).status).toBe(404);
    const spanish = await t.request("/api/admin/privacy/students/no-such-student/export", {
      cookie: admin,
      headers: { "accept-language": "es" },
    });
    expect(await spanish.json()).toEqual({
      code: "not_found",
      message: "No hay ningún estudiante con este id",
    });
  });

  it("gives an administrator every file, with the student's records and nothing of their session keys", async () => {
    await t.signIn("student@dash.demo");
    const response = await adminExport(ids.student as string);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="dash-student-.+\.zip"$/,
    );
    const files = await zipFilesOf(response);
    expect(Object.keys(files).sort()).toEqual([...EXPORT_FILE_NAMES].sort());
    for (const name of EXPORT_FILE_NAMES.slice(1)) expect(files["README.txt"]).toContain(name);

    const profile = JSON.parse(files["profile.json"] as string);
    expect(profile.user).toMatchObject({
      email: "student@dash.demo",
      given_name: "Ava",
      family_name: "Johnson",
    });
    expect(files["parents-and-guardians.csv"]).toContain("Sam,Johnson,parent");
    expect(files["parents-and-guardians.csv"]).toContain("Grace,Miller,guardian");
    // The parent's other child is not theirs to see.
    expect(files["parents-and-guardians.csv"]).not.toContain("Leo");

    const counts = async (table: string) => {
      const [row] = await queryRows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from ${sql.raw(table)} where student_sourced_id = ${ids.student}`,
      );
      return row?.n ?? 0;
    };
    expect(await counts("activity_events")).toBeGreaterThan(0);
    expect(csvLines(files["activity-events.csv"]).length - 1).toBe(await counts("activity_events"));
    expect(csvLines(files["xp-ledger.csv"]).length - 1).toBe(await counts("xp_ledger"));
    expect(csvLines(files["daily-totals.csv"]).length - 1).toBe(await counts("daily_student_metrics"));
    expect(files["xp-ledger.csv"]).toContain("Helped a classmate with fractions");

    const sessionLines = csvLines(files["sessions.csv"]);
    expect(sessionLines[0]).toBe("signedInAt,lastSeenAt,expiresAt,ipAddress,userAgent");
    expect(sessionLines.length).toBeGreaterThan(1);
    const hashes = await queryRows<{ tokenHash: string }>(
      t.db,
      sql`select token_hash as "tokenHash" from sessions where user_sourced_id = ${ids.student}`,
    );
    for (const { tokenHash } of hashes) expect(Object.values(files).join("")).not.toContain(tokenHash);
  });

  it("records every export in the sensitive-access log", async () => {
    const log = await accessLog(`?personId=${ids.student}`);
    expect(log.data[0]).toMatchObject({
      kind: "data_export",
      actor: { sourcedId: ids.admin, name: "Alex Morgan" },
      realActor: null,
      person: { sourcedId: ids.student, name: "Ava Johnson" },
    });
  });
});

describe("a parent or guardian downloading their child's data", () => {
  it("gives a parent and a guardian their own child's files, logged", async () => {
    for (const email of ["parent@dash.demo", "guardian@dash.demo"]) {
      const response = await familyExport(ids.student as string, await t.signIn(email));
      expect(response.status, email).toBe(200);
      expect(Object.keys(await zipFilesOf(response))).toContain("profile.json");
    }
    const log = await accessLog(`?personId=${ids.student}`);
    expect(log.data.slice(0, 2).map((entry) => entry.actor.sourcedId)).toEqual([ids.guardian, ids.parent]);
  });

  it("refuses another family's child, unknown ids, and everyone who is not a parent or guardian", async () => {
    const parent = await t.signIn("parent@dash.demo");
    const other = await familyExport(ids.otherStudent as string, parent);
    expect(other.status).toBe(403);
    expect(await other.json()).toEqual({
      code: "forbidden",
      message: "You can download the data of your own children only",
    });
    const spanish = await t.request(`/api/privacy/children/${ids.otherStudent}/export`, {
      cookie: parent,
      headers: { "accept-language": "es" },
    });
    expect(await spanish.json()).toEqual({
      code: "forbidden",
      message: "Solo puede descargar los datos de sus propios hijos",
    });
    const guide = await t.request(`/api/privacy/children/${ids.student}/export`, {
      cookie: await t.signIn("guide@dash.demo"),
      headers: { "accept-language": "es" },
    });
    expect(await guide.json()).toEqual({
      code: "forbidden",
      message: "Su rol no le permite descargar los datos de un hijo o hija",
    });
    expect((await familyExport("no-such-child", parent)).status).toBe(403);
    for (const email of ["guide@dash.demo", "student@dash.demo", "admin@dash.demo"]) {
      expect((await familyExport(ids.student as string, await t.signIn(email))).status, email).toBe(403);
    }
  });
});

describe("the sensitive-access log", () => {
  it("records each start of viewing Dash as someone, without the reason's words", async () => {
    const cookie = await t.signIn("admin@dash.demo");
    const started = await t.request("/api/auth/impersonation", {
      cookie,
      json: { userId: ids.guardian, reason: "Checking what Grace sees" },
    });
    expect(started.status).toBe(200);
    await t.request("/api/auth/impersonation", { method: "DELETE", cookie });
    const [entry] = (await accessLog(`?personId=${ids.guardian}`)).data;
    expect(entry).toMatchObject({ kind: "impersonation", actor: { sourcedId: ids.admin } });
    expect(entry?.detail).not.toContain("Grace");
  });

  it("lists newest first, a page at a time, and only for administrators", async () => {
    for (let index = 0; index < 3; index++) {
      await recordSensitiveAccess(t.db, {
        actorId: ids.admin as string,
        realActorId: ids.admin as string,
        personId: ids.proctor as string,
        kind: "credential_decrypt",
        detail: `entry ${index}`,
        at: new Date(Date.UTC(2030, 0, 1, 0, index)),
      });
    }
    const first = await accessLog(`?personId=${ids.proctor}&limit=2`);
    expect(first.total).toBe(3);
    expect(first.data.map((entry) => entry.detail)).toEqual(["entry 2", "entry 1"]);
    const second = await accessLog(`?personId=${ids.proctor}&limit=2&offset=2`);
    expect(second.data.map((entry) => entry.detail)).toEqual(["entry 0"]);
    expect((await accessLog()).total).toBeGreaterThan(3);

    expect((await t.request("/api/admin/privacy/access-log?limit=1000", { cookie: admin })).status).toBe(400);
    for (const email of ["guide@dash.demo", "parent@dash.demo", "student@dash.demo"]) {
      const cookie = await t.signIn(email);
      expect((await t.request("/api/admin/privacy/access-log", { cookie })).status, email).toBe(403);
    }
  });
});

describe("retention settings", () => {
  const url = "/api/admin/privacy/retention";

  it("starts from the defaults and takes valid changes", async () => {
    const initial = await t.request(url, { cookie: admin });
    expect(await initial.json()).toEqual({
      success: true,
      data: { settings: DEFAULT_RETENTION, lastRun: null },
    });
    expect(DEFAULT_RETENTION).toMatchObject({ activity_events: 400, audit_logs: 1095 });
    const changed = { ...DEFAULT_RETENTION, activity_events: 200, analytics: null };
    const saved = await t.request(url, { method: "PUT", json: changed, cookie: admin });
    expect(saved.status).toBe(200);
    expect((await (await t.request(url, { cookie: admin })).json()).data.settings).toEqual(changed);
  });

  it("refuses values out of bounds and unknown kinds, and non-administrators", async () => {
    const tooShort = await t.request(url, {
      method: "PUT",
      json: { ...DEFAULT_RETENTION, audit_logs: 30 },
      cookie: admin,
    });
    expect(tooShort.status).toBe(400);
    expect((await tooShort.json()).message).toContain("Audit logs: at least 365 days");
    const unknown = await t.request(url, {
      method: "PUT",
      json: { ...DEFAULT_RETENTION, photos: 5 },
      cookie: admin,
    });
    expect(unknown.status).toBe(400);
    for (const email of ["guide@dash.demo", "parent@dash.demo"]) {
      const cookie = await t.signIn(email);
      expect((await t.request(url, { cookie })).status).toBe(403);
      expect((await t.request(url, { method: "PUT", json: DEFAULT_RETENTION, cookie })).status).toBe(403);
    }
  });
});

describe("the daily retention run", () => {
  const DAY = 24 * 60 * 60 * 1000;
  const logger = createLogger("silent");

  it("removes old rows, keeps new ones, and runs once a day", async () => {
    await t.request("/api/admin/privacy/retention", {
      method: "PUT",
      json: { ...DEFAULT_RETENTION, activity_events: 400, audit_logs: 1095 },
      cookie: admin,
    });
    const now = t.clock.now();
    const [app] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from learning_apps order by name limit 1`,
    );
    const event = (eventId: string, daysAgo: number) =>
      t.db.execute(sql`insert into activity_events (app_id, event_id, student_sourced_id, occurred_at, local_date,
          subject, awarded_xp, xp_explanation)
        values (${app?.id}::uuid, ${eventId}, ${ids.otherStudent}, ${new Date(now.getTime() - daysAgo * DAY).toISOString()}::timestamptz,
          '2020-01-01', 'Math', 0, 'test')`);
    await event("retention-old", 401);
    await event("retention-new", 300);
    const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY);
    await recordSensitiveAccess(t.db, {
      actorId: ids.admin as string,
      realActorId: ids.admin as string,
      personId: ids.otherStudent as string,
      kind: "data_export",
      detail: "retention-old",
      at: at(1096),
    });
    await recordSensitiveAccess(t.db, {
      actorId: ids.admin as string,
      realActorId: ids.admin as string,
      personId: ids.otherStudent as string,
      kind: "data_export",
      detail: "retention-new",
      at: at(1000),
    });
    const [subscription] = await queryRows<{ id: string }>(
      t.db,
      sql`with s as (insert into webhook_subscriptions (url, events, secret_envelope, created_by)
          values ('https://example.org/retention', '{xp.awarded}', 'sealed', ${ids.admin}) returning id)
        insert into webhook_deliveries (subscription_id, event_type, event_id, payload, state, max_attempts, created_at)
        select s.id, 'xp.awarded', gen_random_uuid(), '{}'::jsonb, d.state, 8, d.at::timestamptz
        from s, (values ('succeeded', ${at(91).toISOString()}), ('failed', ${at(91).toISOString()}),
                  ('queued', ${at(91).toISOString()}), ('succeeded', ${at(80).toISOString()})) as d(state, at)
        returning subscription_id as id`,
    );
    const [before] = await queryRows<{ events: number; audits: number; deliveries: number }>(
      t.db,
      sql`select (select count(*)::int from webhook_deliveries where created_at < ${at(90).toISOString()}::timestamptz
          and state in ('succeeded', 'failed')) as deliveries,
        (select count(*)::int from activity_events where occurred_at < ${at(400).toISOString()}::timestamptz) as events,
        (select count(*)::int from impersonation_audit where created_at < ${at(1095).toISOString()}::timestamptz)
        + (select count(*)::int from roster_changes where created_at < ${at(1095).toISOString()}::timestamptz)
        + (select count(*)::int from sensitive_access_log where created_at < ${at(1095).toISOString()}::timestamptz) as audits`,
    );

    const removed = await runDailyRetention(t.db, t.clock.now, logger);
    expect(removed).toEqual({
      activity_events: before?.events,
      incident_evidence: 0,
      analytics: 0,
      webhook_deliveries: before?.deliveries,
      audit_logs: before?.audits,
    });
    expect(before?.deliveries).toBeGreaterThanOrEqual(2);
    // A delivery still being retried stays, however old; newer finished ones stay too.
    const kept = await queryRows<{ state: string }>(
      t.db,
      sql`select state from webhook_deliveries where subscription_id = ${subscription?.id}::uuid order by state`,
    );
    expect(kept.map((row) => row.state)).toEqual(["queued", "succeeded"]);
    expect(before?.events).toBeGreaterThanOrEqual(1);
    expect(before?.audits).toBeGreaterThanOrEqual(1);
    const remaining = await queryRows<{ eventId: string }>(
      t.db,
      sql`select event_id as "eventId" from activity_events where event_id like 'retention-%'`,
    );
    expect(remaining.map((row) => row.eventId)).toEqual(["retention-new"]);
    const details = await queryRows<{ detail: string }>(
      t.db,
      sql`select detail from sensitive_access_log where detail like 'retention-%'`,
    );
    expect(details.map((row) => row.detail)).toEqual(["retention-new"]);

    // Later the same UTC day (however late the suite runs), from this process or another: the
    // day's run is taken.
    const leftOfDay = DAY - (now.getTime() % DAY);
    t.clock.advance(Math.min(60 * 60 * 1000, leftOfDay / 2));
    expect(await runDailyRetention(t.db, t.clock.now, logger)).toBeNull();
    const [first, second] = await Promise.all([
      runDailyRetention(t.db, t.clock.now, logger),
      runDailyRetention(t.db, t.clock.now, logger),
    ]);
    expect([first, second]).toEqual([null, null]);

    const page = await (await t.request("/api/admin/privacy/retention", { cookie: admin })).json();
    expect(page.data.lastRun).toMatchObject({ startedAt: now.toISOString(), removed });

    // The next day it runs again, and finds nothing more to remove.
    t.clock.advance(DAY);
    expect(await runDailyRetention(t.db, t.clock.now, logger)).toEqual({
      activity_events: 0,
      incident_evidence: 0,
      analytics: 0,
      webhook_deliveries: 0,
      audit_logs: 0,
    });
  });

  it("keeps a kind set to keep", async () => {
    // The clock has moved past the administrator's session.
    admin = await t.signIn("admin@dash.demo");
    await t.request("/api/admin/privacy/retention", {
      method: "PUT",
      json: { ...DEFAULT_RETENTION, activity_events: null },
      cookie: admin,
    });
    const [app] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from learning_apps order by name limit 1`,
    );
    await t.db.execute(sql`insert into activity_events (app_id, event_id, student_sourced_id, occurred_at, local_date,
        subject, awarded_xp, xp_explanation)
      values (${app?.id}::uuid, 'retention-kept', ${ids.otherStudent}, '2000-01-01T00:00:00Z', '2000-01-01', 'Math', 0, 'test')`);
    t.clock.advance(DAY);
    expect((await runDailyRetention(t.db, t.clock.now, logger))?.activity_events).toBe(0);
    const kept = await queryRows(t.db, sql`select 1 from activity_events where event_id = 'retention-kept'`);
    expect(kept).toHaveLength(1);
  });
});

describe("anonymising a student", () => {
  const confirm = { confirm: "Ava Johnson", reason: "The family asked for erasure" };
  beforeAll(async () => {
    admin = await t.signIn("admin@dash.demo");
  });

  it("refuses other roles, unknown ids, non-students, oneself and a wrong confirmation", async () => {
    for (const email of ["guide@dash.demo", "parent@dash.demo", "student@dash.demo"]) {
      const response = await anonymise(ids.student as string, confirm, await t.signIn(email));
      expect(response.status, email).toBe(403);
    }
    expect((await anonymise("no-such-student", confirm)).status).toBe(404);
    const guide = await anonymise(ids.guide as string, { ...confirm, confirm: "Maya Patel" });
    expect(guide.status).toBe(400);
    expect((await guide.json()).message).toBe("Only students can be anonymised here");
    const self = await anonymise(ids.admin as string, { ...confirm, confirm: "Alex Morgan" });
    expect(self.status).toBe(400);
    expect((await self.json()).message).toBe("You cannot anonymise yourself");
    const wrong = await anonymise(ids.student as string, { ...confirm, confirm: "Ava" });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).message).toContain("The confirmation does not match");
    expect((await anonymise(ids.student as string, { confirm: "Ava Johnson" })).status).toBe(400);
    const [user] = await queryRows<{ email: string }>(
      t.db,
      sql`select email from users where sourced_id = ${ids.student}`,
    );
    expect(user?.email).toBe("student@dash.demo");
  });

  it("removes every personal value from every table and keeps the figures", async () => {
    const studentCookie = await t.signIn("student@dash.demo");
    // A log line about her, in words: the name must go from it too.
    const guide = await t.signIn("guide@dash.demo");
    await t.request("/api/auth/impersonation", {
      cookie: guide,
      json: { userId: ids.student, reason: "Helping Ava Johnson with her goals" },
    });
    // An award and a family's own reward that name her.
    const admin = await t.signIn("admin@dash.demo");
    const awarded = await t.request("/api/rewards/grants", {
      cookie: admin,
      json: {
        studentId: ids.student,
        kind: "award",
        amount: 5,
        reason: "Well done, Ava Johnson",
        idempotencyKey: "privacy-test-award",
      },
    });
    expect(awarded.status).toBe(201);
    const reward = await t.request("/api/rewards/items", {
      cookie: await t.signIn("parent@dash.demo"),
      json: {
        name: "A day out for Ava Johnson",
        price: 50,
        category: "Family rewards",
        childId: ids.student,
      },
    });
    expect(reward.status).toBe(201);
    // A level change and a screening that name her, and the MAP export's id for her.
    const placed = await t.request(`/api/assessment/placements/${ids.student}/level`, {
      cookie: admin,
      json: { subject: "Science", grade: 4, reason: "Ava Johnson aced the science fair" },
    });
    expect(placed.status).toBe(200);
    const screened = await t.request("/api/assessment/screening", {
      cookie: admin,
      json: {
        applicantName: "Ava Johnson",
        studentId: ids.student,
        subject: "Math",
        grade: 3,
        rit: 201,
        testName: "MAP Screener",
        testedOn: "2026-05-01",
        decision: "admit",
        notes: "Ava Johnson did well",
      },
    });
    expect(screened.status).toBe(201);
    await t.db.execute(sql`insert into map_student_links (nwea_student_id, student_sourced_id, linked_by, linked_at)
      values ('Ava Johnson', ${ids.student}, ${ids.admin}, now())`);
    // The monitoring agent saw her name on screen, and a reviewer wrote it in a note.
    await t.db.execute(sql`with incident as (insert into integrity_incidents (student_sourced_id, agent_id, client_id,
        incident_type, confidence_score, detected_text, occurred_at)
        select ${ids.student}, id, 'privacy-test', 'off_task_app', 0.9, 'Chat with Ava Johnson', now()
        from learning_apps where kind = 'agent' limit 1 returning id)
      insert into integrity_decisions (incident_id, step, action, note, actor_sourced_id, actor_role)
      select id, 1, 'dismiss', 'Ava Johnson was allowed this app', ${ids.admin}, 'administrator' from incident`);
    // What her family was told of her, her own notification and a mail to her address.
    await t.db.execute(sql`insert into notifications (user_sourced_id, type, params) values
      (${ids.parent}, 'strike.confirmed', '{"studentName": "Ava Johnson", "strikes": 1}'::jsonb),
      (${ids.student}, 'redemption.decided', '{"rewardName": "A prize for Ava Johnson"}'::jsonb)`);
    await t.db.execute(sql`insert into email_outbox (recipient_sourced_id, to_address, category, subject, text_body)
      values (${ids.student}, 'student@dash.demo', 'announcement', 'For Ava Johnson', 'Hello Ava Johnson'),
        (${ids.parent}, 'parent@dash.demo', 'strike.confirmed', 'A strike for Ava Johnson', 'Ava Johnson got a strike')`);
    // Her activity log, with her name in what was done and in the note.
    await t.db.execute(sql`insert into athletic_activities (student_sourced_id, activity, minutes, activity_date, note, recorded_by)
      values (${ids.student}, 'Relay with Ava Johnson', 20, current_date, 'Ava Johnson ran the last leg', ${ids.admin})`);
    const totals = async () => {
      const [row] = await queryRows<{ ledger: string; daily: string; days: number }>(
        t.db,
        sql`select (select sum(amount)::text from xp_ledger where student_sourced_id = ${ids.student}) as ledger,
          (select sum(xp)::text from daily_student_metrics where student_sourced_id = ${ids.student}) as daily,
          (select count(*)::int from daily_student_metrics where student_sourced_id = ${ids.student}) as days`,
      );
      return row;
    };
    const before = await totals();
    expect(before?.days).toBeGreaterThan(0);

    const response = await anonymise(ids.student as string, confirm);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.data).toMatchObject({ sourcedId: ids.student, wasAlreadyAnonymised: false });
    expect(body.data.displayName).toMatch(/^Former student \d{4}$/);

    // Every text, array and JSON column of every table.
    const columns = await queryRows<{ table: string; column: string }>(
      t.db,
      sql`select table_name as table, column_name as column from information_schema.columns
          where table_schema = 'public' and data_type in ('text', 'character varying', 'ARRAY', 'jsonb', 'json')`,
    );
    expect(columns.length).toBeGreaterThan(50);
    for (const value of ["student@dash.demo", "Ava Johnson"]) {
      const found: string[] = [];
      for (const { table, column } of columns) {
        const rows = await queryRows(
          t.db,
          sql`select 1 from ${sql.identifier(table)} where ${sql.identifier(column)}::text ilike ${`%${value}%`} limit 1`,
        );
        if (rows.length > 0) found.push(`${table}.${column}`);
      }
      expect(found, value).toEqual([]);
    }

    const [user] = await queryRows<Record<string, unknown>>(
      t.db,
      sql`select given_name || ' ' || family_name as name, email, username, status, enabled_user as enabled
          from users where sourced_id = ${ids.student}`,
    );
    expect(user).toEqual({
      name: body.data.displayName,
      email: null,
      username: null,
      status: "tobedeleted",
      enabled: false,
    });
    const [left] = await queryRows<Record<string, number>>(
      t.db,
      sql`select (select count(*)::int from user_credentials where user_sourced_id = ${ids.student}) as credentials,
        (select count(*)::int from sessions where user_sourced_id = ${ids.student} or impersonated_user_sourced_id = ${ids.student}) as sessions,
        (select count(*)::int from user_agents where user_sourced_id = ${ids.student}) as links,
        (select count(*)::int from demographics where sourced_id = ${ids.student}) as demographics,
        (select count(*)::int from activity_events where student_sourced_id = ${ids.student}) as events,
        (select count(*)::int from enrollments where user_sourced_id = ${ids.student} and status = 'active') as enrollments`,
    );
    expect(left).toEqual({
      credentials: 0,
      sessions: 0,
      links: 0,
      demographics: 0,
      events: 0,
      enrollments: 0,
    });
    expect(await totals()).toEqual(before);

    expect((await t.request("/api/auth/me", { cookie: studentCookie })).status).toBe(200);
    expect((await (await t.request("/api/auth/me", { cookie: studentCookie })).json()).isAuthenticated).toBe(
      false,
    );
    const signIn = await t.request("/api/auth/login", {
      json: { email: "student@dash.demo", password: "dash-demo" },
    });
    expect(signIn.status).toBe(401);

    const [record] = await queryRows<{ actor: string; reason: string }>(
      t.db,
      sql`select actor_sourced_id as actor, reason from student_anonymisations where student_sourced_id = ${ids.student}`,
    );
    expect(record).toEqual({ actor: ids.admin, reason: "The family asked for erasure" });
    const [entry] = (await accessLog(`?personId=${ids.student}`)).data;
    expect(entry).toMatchObject({ kind: "anonymise", actor: { sourcedId: ids.admin } });
    expect(entry?.detail).toContain("The family asked for erasure");
  });

  it("answers a repeat with the first result and changes nothing", async () => {
    const [first] = await queryRows<{ number: number }>(
      t.db,
      sql`select number from student_anonymisations where student_sourced_id = ${ids.student}`,
    );
    const again = await anonymise(ids.student as string, { confirm: ids.student, reason: "Asked twice" });
    expect(again.status).toBe(200);
    const body = await again.json();
    expect(body.data).toMatchObject({
      wasAlreadyAnonymised: true,
      displayName: `Former student ${String(first?.number).padStart(4, "0")}`,
    });
    const records = await queryRows(t.db, sql`select 1 from student_anonymisations`);
    expect(records).toHaveLength(1);
  });
});
