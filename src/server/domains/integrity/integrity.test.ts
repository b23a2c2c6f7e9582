import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IncidentRecord } from "../../../shared/contracts/integrity";
import { queryRows } from "../../db/client";
import { DEMO_APP_KEY, DEMO_FIRST_SCHOOL_ID, demoId } from "../../seed/demo-accounts";
import { DEMO_AGENT_KEY } from "../../seed/demo-integrity";
import { drawDemoScreenshot } from "../../seed/demo-screenshots";
import { createTestApp, type TestApp } from "../../test/harness";
import { deleteExpiredEvidence } from "./jobs";

let t: TestApp;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent", "guardian", "proctor"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
  cookies.jordanGuide = `${await t.signIn("multi@dash.demo")}; selectedUserRole=teacher`;
});
afterAll(() => t.close());

const AVA = demoId("student-ava");
const LEO = demoId("student-leo");
const DAY = 86_400_000;
const PNG = drawDemoScreenshot("game").toString("base64");

async function call(who: string | null, path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await t.request(`/api${path}`, { ...init, cookie: who ? cookies[who] : undefined });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: response.status, body: body as Record<string, unknown> & IncidentRecord, response };
}

function incident(overrides: Record<string, unknown> = {}) {
  return {
    client_id: randomUUID(),
    user_id: AVA,
    incident_type: "off_task_app",
    confidence_score: 0.9,
    app_name: "Block Breaker",
    detected_text: "Level 3",
    created_at: t.clock.now().toISOString(),
    ...overrides,
  };
}

async function report(body: unknown, key = DEMO_AGENT_KEY) {
  const response = await t.request("/api/integrity/incidents", {
    method: "POST",
    json: body,
    headers: { authorization: `Bearer ${key}` },
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown> & IncidentRecord,
  };
}

const review = (who: string, id: string, decision: string, note = "Seen on the screenshot.") =>
  call(who, `/integrity/incidents/${id}/review`, { method: "POST", json: { decision, note } });

/** Confirms an incident by the Guide and a second reviewer, as the rule asks. */
async function strike(id: string) {
  expect((await review("guide", id, "confirm")).status).toBe(200);
  const second = await review("proctor", id, "confirm");
  expect(second.status).toBe(200);
  return second.body;
}

const strikesOf = async (studentId: string, who = "guide") =>
  (await call(who, `/integrity/students/${studentId}`)).body as unknown as {
    activeStrikes: number;
    isLocked: boolean;
    lockoutCode: string | null;
    threshold: number;
  };

describe("the agent's reports", () => {
  it("store one incident with its screenshot, once, however often it is sent", async () => {
    const sent = incident({ screenshot: `data:image/png;base64,${PNG}`, session_id: "s-1" });
    const first = await report(sent);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      user_id: AVA,
      review_status: "pending",
      client_id: sent.client_id,
      confidence_score: 0.9,
      locked_dashboard: false,
      lockout_code: "",
      session_id: "s-1",
    });
    expect(first.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.body.screenshot_url).toBe(`/api/integrity/incidents/${first.body.id}/screenshot`);

    const again = await report(sent);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    const [stored] = await queryRows<{ count: number }>(
      t.db,
      sql`select count(*)::int as count from integrity_incidents where client_id = ${sent.client_id}`,
    );
    expect(stored?.count).toBe(1);
  });

  it("find the student by email in any case, and take a batch whose bad incidents are listed with why", async () => {
    const good = incident({ user_id: "STUDENT@dash.demo" });
    const result = await report({
      incidents: [good, incident({ confidence_score: 2 }), incident({ user_id: "nobody@dash.demo" }), "text"],
    });
    expect(result.status).toBe(200);
    const { incidents, rejected } = result.body as unknown as {
      incidents: IncidentRecord[];
      rejected: { index: number; message: string; issues?: { path: string }[] }[];
    };
    expect(incidents.map((record) => [record.client_id, record.user_id])).toEqual([[good.client_id, AVA]]);
    expect(rejected.map((entry) => [entry.index, entry.issues?.[0]?.path])).toEqual([
      [1, "confidence_score"],
      [2, "user_id"],
      [3, ""],
    ]);
    expect(rejected[1]?.message).toBeTruthy();
  });

  it("answer reports that arrive together each with its own records, an agent's ids being its own", async () => {
    const created = await call("admin", "/admin/apps", { json: { name: "Second agent", kind: "agent" } });
    const key = await call("admin", `/admin/apps/${(created.body.data as { id: string }).id}/keys`, {
      json: { label: "lab" },
    });
    const secondKey = (key.body.data as { secret: string }).secret;
    const shared = incident();
    const sends = [
      report(shared),
      report({ ...shared, user_id: LEO }, secondKey),
      report(incident({ user_id: "nobody@dash.demo" })),
      ...Array.from({ length: 5 }, (_, index) =>
        report(
          { incidents: [incident(), incident({ user_id: LEO })] },
          index % 2 ? secondKey : DEMO_AGENT_KEY,
        ),
      ),
    ];
    const [first, second, unknown, ...batches] = await Promise.all(sends);
    expect([first?.status, second?.status, unknown?.status]).toEqual([201, 201, 400]);
    expect([first?.body.user_id, second?.body.user_id]).toEqual([AVA, LEO]);
    expect(first?.body.id).not.toBe(second?.body.id);
    expect(unknown?.body.issues).toEqual([expect.objectContaining({ path: "user_id" })]);
    for (const batch of batches) {
      const { incidents, rejected } = batch.body as unknown as {
        incidents: IncidentRecord[];
        rejected: unknown[];
      };
      expect(incidents.map((record) => record.user_id)).toEqual([AVA, LEO]);
      expect(rejected).toEqual([]);
    }
    const [stored] = await queryRows<{ count: number }>(
      t.db,
      sql`select count(*)::int as count from integrity_incidents where client_id = ${shared.client_id}`,
    );
    expect(stored?.count).toBe(2);
  });

  it("refuse a single bad incident with a 400 naming the field, and what is not a picture", async () => {
    const missing = await report({ ...incident(), created_at: "yesterday" });
    expect(missing.status).toBe(400);
    expect(missing.body.issues).toEqual([
      { path: "created_at", message: "created_at must be an ISO 8601 date-time" },
    ]);
    const unknown = await report(incident({ user_id: demoId("admin") }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues).toEqual([
      { path: "user_id", message: "No student has this sourcedId or email" },
    ]);
    const notImage = await report(
      incident({ screenshot: Buffer.from("<svg onload=alert(1)>").toString("base64") }),
    );
    expect(notImage.status).toBe(415);
    const tooLarge = await report(
      incident({ screenshot: Buffer.alloc(2 * 1024 * 1024 + 10, 1).toString("base64") }),
    );
    expect(tooLarge.status).toBe(413);
    expect((await report({ incidents: [] })).status).toBe(400);
  });

  it("take only a monitoring agent's key", async () => {
    expect((await report(incident(), "not-a-key")).status).toBe(401);
    const learningApp = await report(incident(), DEMO_APP_KEY);
    expect(learningApp.status).toBe(403);
    expect(learningApp.body.message).toMatch(/learning app/);
    const activity = await t.request("/api/ingest/activity", {
      method: "POST",
      json: { events: [] },
      headers: { authorization: `Bearer ${DEMO_AGENT_KEY}` },
    });
    expect(activity.status).toBe(403);
    // A signed-in person cannot report incidents with their session.
    expect((await call("guide", "/integrity/incidents", { method: "POST", json: incident() })).status).toBe(
      401,
    );
  });
});

describe("evidence", () => {
  it("is served only to the student's reviewers, never cached", async () => {
    const ofAva = await report(incident({ screenshot: PNG }));
    const ofLeo = await report(incident({ user_id: LEO, screenshot: PNG }));
    const path = `/integrity/incidents/${ofAva.body.id}/screenshot`;
    for (const who of ["guide", "proctor", "admin"]) {
      const served = await call(who, path);
      expect(served.status, who).toBe(200);
      expect(served.response.headers.get("content-type")).toBe("image/png");
      expect(served.response.headers.get("cache-control")).toBe("private, no-store");
    }
    // Families read strikes and decisions, never the screenshots; other Guides and strangers nothing.
    expect((await call("parent", path)).status).toBe(404);
    expect((await call("student", path)).status).toBe(404);
    expect((await call(null, path)).status).toBe(401);
    expect((await call("guide", `/integrity/incidents/${ofLeo.body.id}/screenshot`)).status).toBe(404);
    expect((await call("proctor", `/integrity/incidents/${ofLeo.body.id}/screenshot`)).status).toBe(404);
    const family = await call("parent", `/integrity/incidents/${ofAva.body.id}`);
    expect(family.status).toBe(200);
    expect((family.body as unknown as { incident: IncidentRecord }).incident.screenshot_url).toBeNull();
    expect((await call("guardian", `/integrity/incidents/${ofLeo.body.id}`)).status).toBe(404);
    expect((await call("guide", `/integrity/incidents/${ofLeo.body.id}`)).status).toBe(404);
  });
});

describe("reviewing", () => {
  it("makes a strike only when a second, different reviewer confirms", async () => {
    const { body } = await report(incident({ user_id: LEO }));
    const first = await review("admin", body.id, "confirm");
    expect(first.body.review_status).toBe("awaiting_second");
    expect(first.body.can_review).toBe(false);
    const twice = await review("admin", body.id, "confirm");
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe("You confirmed this incident: a different reviewer must decide it now");
    // Maya is not one of Leo's Guides: to her the incident is not there.
    expect((await review("guide", body.id, "confirm")).status).toBe(404);
    expect((await review("parent", body.id, "confirm")).status).toBe(403);
    const pending = await call("admin", `/integrity/incidents?status=pending&studentId=${LEO}`);
    expect(pending.body.incidents).toContainEqual(
      expect.objectContaining({ id: body.id, review_status: "awaiting_second" }),
    );
  });

  it("dismisses, escalates and refuses a decision that is not one, with the note kept", async () => {
    const { body } = await report(incident({ user_id: LEO }));
    expect((await review("admin", body.id, "maybe")).status).toBe(400);
    expect((await review("admin", body.id, "escalate", "")).status).toBe(400);
    const escalated = await review("admin", body.id, "escalate", "The Guide knows the lesson better.");
    expect(escalated.body.review_status).toBe("escalated");
    expect((await review("admin", body.id, "dismiss")).status).toBe(409);
    const resolved = await call("admin", `/integrity/incidents?status=resolved&studentId=${LEO}`);
    expect(resolved.body.incidents).not.toContainEqual(expect.objectContaining({ id: body.id }));
    expect(resolved.status).toBe(200);
  });
});

describe("strikes and the lockout", () => {
  it("lock Ava's dashboard at the third strike, refuse her calls, and open again with her code", async () => {
    const before = await strikesOf(AVA);
    expect(before).toMatchObject({ activeStrikes: 2, threshold: 3, isLocked: false });
    const { body } = await report(incident({ session_id: "lock-session" }));
    const struck = await strike(body.id);
    expect(struck).toMatchObject({
      review_status: "confirmed",
      cumulative_strikes: 3,
      locked_dashboard: true,
    });
    expect(struck.lockout_code).toMatch(/^\d{6}$/);

    const status = await call("student", "/integrity/lockout");
    expect(status.body).toMatchObject({ success: true, isLocked: true, lockoutEnabled: true });
    const code = (status.body as unknown as { lockout: { code: string } }).lockout.code;
    expect(code).toBe(struck.lockout_code);
    const refused = await call("student", `/students/${AVA}/home`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("dashboard_locked");
    expect((await call("student", "/leaderboards?scope=class")).body.code).toBe("dashboard_locked");
    expect((await call("student", "/integrity/incidents?status=confirmed")).status).toBe(200);
    // Her family's view of the lock carries no code; her Guide's does.
    expect((await strikesOf(AVA, "parent")).lockoutCode).toBeNull();
    expect((await strikesOf(AVA)).lockoutCode).toBe(code);

    const unlock = (who: string, json: unknown) =>
      call(who, `/integrity/students/${AVA}/unlock`, { method: "POST", json });
    expect((await unlock("proctor", { note: "Talked with her." })).status).toBe(403);
    expect((await unlock("parent", { note: "Talked with her." })).status).toBe(403);
    const wrong = await unlock("guide", {
      note: "Talked with her.",
      code: code === "000000" ? "000001" : "000000",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe("That code does not match the one on the student's screen");
    const opened = await unlock("guide", { note: "We talked about focus.", code });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ isLocked: false, activeStrikes: 3 });
    expect((await unlock("guide", { note: "Again." })).status).toBe(409);
    expect((await call("student", `/students/${AVA}/home`)).status).toBe(200);
    const [audit] = await queryRows<{ by: string; note: string; withCode: boolean; reason: string }>(
      t.db,
      sql`select unlocked_by_sourced_id as by, unlock_note as note, unlocked_with_code as "withCode",
          unlock_reason as reason from integrity_lockouts where student_sourced_id = ${AVA} order by locked_at desc limit 1`,
    );
    expect(audit).toEqual({
      by: demoId("guide-patel"),
      note: "We talked about focus.",
      withCode: true,
      reason: "staff",
    });
  });

  it("are appealed by the family once, decided by someone who did not confirm, and lifted with their lock", async () => {
    const { body } = await report(incident());
    await strike(body.id);
    expect((await strikesOf(AVA)).isLocked).toBe(true);

    // Her guardian appeals; nobody appeals twice, and staff do not appeal.
    const appealed = await call("guardian", `/integrity/incidents/${body.id}/appeal`, {
      method: "POST",
      json: { note: "She was looking up the Science lesson." },
    });
    expect(appealed.status).toBe(200);
    expect(appealed.body.review_status).toBe("appealed");
    expect(
      (
        await call("parent", `/integrity/incidents/${body.id}/appeal`, {
          method: "POST",
          json: { note: "Again" },
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await call("guide", `/integrity/incidents/${body.id}/appeal`, {
          method: "POST",
          json: { note: "I appeal for her." },
        })
      ).status,
    ).toBe(403);

    // Both reviewers who confirmed it are out; the administrator decides, and upholds it.
    expect((await review("guide", body.id, "dismiss")).body.message).toBe(
      "You confirmed this strike: someone who did not confirm it decides the appeal",
    );
    expect((await review("proctor", body.id, "dismiss")).status).toBe(409);
    const upheld = await review("admin", body.id, "dismiss", "The appeal explains it.");
    expect(upheld.status).toBe(200);
    expect(upheld.body.review_status).toBe("dismissed");
    expect(upheld.body.decisions.map((decision) => decision.action)).toEqual([
      "confirm",
      "confirm",
      "appeal",
      "dismiss",
    ]);
    // Three strikes still count, which is still the threshold: the dashboard stays locked.
    expect(await strikesOf(AVA)).toMatchObject({ activeStrikes: 3, isLocked: true });
    const unlocked = await call("jordanGuide", `/integrity/students/${AVA}/unlock`, {
      method: "POST",
      json: { note: "Unlocked after the appeal." },
    });
    expect(unlocked.body).toMatchObject({ isLocked: false });
  });

  it("lift the lock with a strike an appeal removes when the rest fall below the threshold", async () => {
    const settings = (await call("admin", "/integrity/settings")).body;
    const { activeStrikes } = await strikesOf(AVA);
    await call("admin", "/integrity/settings", {
      method: "PUT",
      json: { ...settings, secondReviewer: false, strikeThreshold: activeStrikes + 1 },
    });
    const { body } = await report(incident());
    expect((await review("guide", body.id, "confirm")).body.locked_dashboard).toBe(true);
    await call("guardian", `/integrity/incidents/${body.id}/appeal`, {
      method: "POST",
      json: { note: "Not her." },
    });
    expect((await review("admin", body.id, "dismiss", "The appeal is right.")).body.review_status).toBe(
      "dismissed",
    );
    expect(await strikesOf(AVA)).toMatchObject({ activeStrikes, isLocked: false });
    const [lockout] = await queryRows<{ reason: string }>(
      t.db,
      sql`select unlock_reason as reason from integrity_lockouts where student_sourced_id = ${AVA}
        order by locked_at desc limit 1`,
    );
    expect(lockout?.reason).toBe("appeal");
    await call("admin", "/integrity/settings", { method: "PUT", json: settings });
  });

  it("are what families and students read of their own, and nobody else's", async () => {
    const mine = await call("student", "/integrity/incidents?status=confirmed");
    const records = mine.body.incidents as unknown as IncidentRecord[];
    expect(records.length).toBeGreaterThanOrEqual(2);
    expect(records.every((record) => record.user_id === AVA && record.screenshot_url === null)).toBe(true);
    const others = await call("guardian", `/integrity/incidents?status=resolved&studentId=${LEO}`);
    expect(others.body.incidents).toEqual([]);
    expect((await call("student", `/integrity/students/${LEO}`)).status).toBe(404);
    expect((await call("student", "/integrity/summary")).status).toBe(403);
    const summary = await call("guide", "/integrity/summary");
    expect(summary.status).toBe(200);
    const students = summary.body.students as unknown as { studentId: string; activeStrikes: number }[];
    expect(students.find((student) => student.studentId === AVA)?.activeStrikes).toBe(3);
    expect(students.some((student) => student.studentId === LEO)).toBe(false);
  });

  it("do not lock where the school has lockout off, and keep the rules within their bounds", async () => {
    const settings = await call("admin", "/integrity/settings");
    expect(settings.body).toMatchObject({ secondReviewer: true, lockoutSchoolIds: [DEMO_FIRST_SCHOOL_ID] });
    expect((await call("guide", "/integrity/settings")).status).toBe(403);
    const outOfBounds = await call("admin", "/integrity/settings", {
      method: "PUT",
      json: { ...settings.body, strikeThreshold: 0 },
    });
    expect(outOfBounds.status).toBe(400);
    expect(outOfBounds.body.issues).toEqual([{ path: "strikeThreshold", message: "At least 1" }]);
    await call("admin", "/integrity/settings", {
      method: "PUT",
      json: { ...settings.body, secondReviewer: false, strikeThreshold: 1 },
    });
    // Leo is at Riverside, where lockout is off: one strike is the threshold, and nothing locks.
    const { body } = await report(incident({ user_id: LEO }));
    const struck = await review("admin", body.id, "confirm");
    expect(struck.body).toMatchObject({
      review_status: "confirmed",
      locked_dashboard: false,
      cumulative_strikes: 1,
    });
    expect(await strikesOf(LEO, "admin")).toMatchObject({
      activeStrikes: 1,
      isLocked: false,
      lockoutEnabled: false,
    });
    await call("admin", "/integrity/settings", { method: "PUT", json: settings.body });
  });

  it("unlocks a school's students when its lockout is turned off", async () => {
    const settings = (await call("admin", "/integrity/settings")).body;
    const { body } = await report(incident());
    await strike(body.id);
    expect((await strikesOf(AVA)).isLocked).toBe(true);
    await call("admin", "/integrity/settings", {
      method: "PUT",
      json: { ...settings, lockoutSchoolIds: [] },
    });
    expect((await strikesOf(AVA)).isLocked).toBe(false);
    expect((await call("student", `/students/${AVA}/home`)).status).toBe(200);
    await call("admin", "/integrity/settings", { method: "PUT", json: settings });
    expect((await strikesOf(AVA)).isLocked).toBe(false);
  });
});

describe("decisions at the same moment", () => {
  it("count a student's strikes one at a time and lock the dashboard once", async () => {
    const settings = (await call("admin", "/integrity/settings")).body;
    const { activeStrikes } = await strikesOf(AVA);
    await call("admin", "/integrity/settings", {
      method: "PUT",
      json: { ...settings, secondReviewer: false, strikeThreshold: activeStrikes + 2 },
    });
    const reported = await Promise.all([1, 2, 3].map(() => report(incident())));
    const decided = await Promise.all(
      ["guide", "proctor", "admin"].map((who, index) =>
        review(who, reported[index]?.body.id as string, "confirm"),
      ),
    );
    expect(decided.map((result) => result.status)).toEqual([200, 200, 200]);
    expect(decided.map((result) => result.body.cumulative_strikes).sort()).toEqual([
      activeStrikes + 1,
      activeStrikes + 2,
      activeStrikes + 3,
    ]);
    expect(decided.filter((result) => result.body.locked_dashboard)).toHaveLength(1);
    const [open] = await queryRows<{ count: number }>(
      t.db,
      sql`select count(*)::int as count from integrity_lockouts where student_sourced_id = ${AVA} and unlocked_at is null`,
    );
    expect(open?.count).toBe(1);
    await call("guide", `/integrity/students/${AVA}/unlock`, {
      method: "POST",
      json: { note: "All talked through." },
    });
    await call("admin", "/integrity/settings", { method: "PUT", json: settings });
  });
});

describe("voiding XP", () => {
  it("takes back the session's XP when the rule says so, once, and gives it back when an appeal lifts the strike", async () => {
    const settings = (await call("admin", "/integrity/settings")).body;
    // One reviewer decides, and nothing locks: this is about XP.
    await call("admin", "/integrity/settings", {
      method: "PUT",
      json: { ...settings, voidSessionXp: true, secondReviewer: false, lockoutSchoolIds: [] },
    });
    const sessionId = `void-${randomUUID()}`;
    const ingested = await t.request("/api/ingest/activity", {
      method: "POST",
      headers: { authorization: `Bearer ${DEMO_APP_KEY}` },
      json: {
        events: [
          {
            eventId: randomUUID(),
            studentId: AVA,
            occurredAt: t.clock.now().toISOString(),
            subject: "Math",
            sessionId,
            expectedXp: 20,
            totalQuestions: 10,
            correctQuestions: 10,
          },
        ],
      },
    });
    const credited = ((await ingested.json()) as { accepted: { xp: number }[] }).accepted[0]?.xp ?? 0;
    expect(credited).toBeGreaterThan(0);
    const xpOf = async () => {
      const [row] = await queryRows<{ xp: number; totals: number }>(
        t.db,
        sql`select (select coalesce(sum(amount), 0)::float8 from xp_ledger where student_sourced_id = ${AVA}) as xp,
          (select coalesce(sum(xp), 0)::float8 from daily_student_metrics where student_sourced_id = ${AVA}) as totals`,
      );
      return row as { xp: number; totals: number };
    };
    const before = await xpOf();
    const { body } = await report(incident({ session_id: sessionId }));
    const confirmed = await review("guide", body.id, "confirm");
    expect(confirmed.body).toMatchObject({ review_status: "confirmed" });
    expect(confirmed.body.voided_xp).toBeCloseTo(credited, 2);
    const voided = await xpOf();
    expect(voided.xp).toBeCloseTo(before.xp - credited, 2);
    expect(voided.totals).toBeCloseTo(before.totals - credited, 2);

    const again = await report(incident({ session_id: sessionId }));
    expect((await review("guide", again.body.id, "confirm")).body.voided_xp).toBe(0);

    await call("parent", `/integrity/incidents/${body.id}/appeal`, {
      method: "POST",
      json: { note: "Her brother used the laptop." },
    });
    expect((await review("admin", body.id, "dismiss", "The appeal is right.")).status).toBe(200);
    const restored = await xpOf();
    expect(restored.xp).toBeCloseTo(before.xp, 2);
    expect(restored.totals).toBeCloseTo(before.totals, 2);
    await call("admin", "/integrity/settings", { method: "PUT", json: settings });
  });
});

describe("time", () => {
  it("lets strikes expire after their days and deletes evidence after the retention period", async () => {
    const { body } = await report(incident({ user_id: LEO, screenshot: PNG }));
    const [stored] = await queryRows<{ key: string }>(
      t.db,
      sql`select screenshot_key as key from integrity_incidents where id = ${body.id}::uuid`,
    );
    expect(await t.storage.exists(stored?.key as string)).toBe(true);
    const avaBefore = await strikesOf(AVA);
    expect(avaBefore.activeStrikes).toBeGreaterThan(0);

    t.clock.advance(31 * DAY);
    // Sessions end long before strikes do: sign in again.
    cookies.guide = await t.signIn("guide@dash.demo");
    cookies.admin = await t.signIn("admin@dash.demo");
    // Every strike of the last weeks was confirmed at most 31 days ago, bar those made later.
    expect((await strikesOf(AVA)).activeStrikes).toBe(0);
    expect(await deleteExpiredEvidence(t.db, t.storage, t.clock.now())).toBe(0);

    t.clock.advance(60 * DAY);
    cookies.admin = await t.signIn("admin@dash.demo");
    expect(await deleteExpiredEvidence(t.db, t.storage, t.clock.now())).toBeGreaterThan(0);
    expect(await t.storage.exists(stored?.key as string)).toBe(false);
    const after = await call("admin", `/integrity/incidents/${body.id}`);
    const record = (after.body as unknown as { incident: IncidentRecord }).incident;
    expect(record.screenshot_url).toBeNull();
    expect(record.evidence_deleted_at).toBe(t.clock.now().toISOString());
    expect((await call("admin", `/integrity/incidents/${body.id}/screenshot`)).status).toBe(404);
  });
});
