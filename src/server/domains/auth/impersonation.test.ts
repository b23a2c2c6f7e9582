import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { TRUST_PROXY: "true" } });
});
afterAll(() => t.close());

const AVA = demoId("student-ava");
const LEO = demoId("student-leo");
const SAM = demoId("parent-sam");
const GRACE = demoId("guardian-grace");
const ADMIN = demoId("admin");
const ADDRESS = { "x-forwarded-for": "198.51.100.7" };

const start = (cookie: string, userId: string, reason = "Checking what the student sees") =>
  t.request("/api/auth/impersonation", { json: { userId, reason }, cookie, headers: ADDRESS });
const stop = (cookie: string) =>
  t.request("/api/auth/impersonation", { method: "DELETE", cookie, headers: ADDRESS });
const me = async (cookie: string) => (await t.request("/api/auth/me", { cookie })).json();
const audit = async (cookie: string) => {
  const response = await t.request("/api/auth/impersonation/audit?limit=500", { cookie });
  const body = await response.json();
  if (response.status !== 200) throw new Error(`audit: ${response.status} ${JSON.stringify(body)}`);
  return body;
};

describe("an administrator", () => {
  it("views Dash as a student with the student's roles only, and stops, leaving an audit trail", async () => {
    const cookie = await t.signIn("admin@dash.demo");
    const started = await start(cookie, AVA);
    expect(started.status).toBe(200);
    const during = await me(cookie);
    expect(during.user.email).toBe("admin@dash.demo");
    expect(during.impersonatedUser.email).toBe("student@dash.demo");
    expect(during.selectedRole).toBe("student");
    expect(during.availableRoles).toEqual(["student"]);
    expect(during.impersonation.reason).toBe("Checking what the student sees");
    expect(
      new Date(during.impersonation.expiresAt).getTime() - new Date(during.impersonation.startedAt).getTime(),
    ).toBe(60 * 60_000);

    // The administrator's own powers are gone while viewing as the student.
    expect((await t.request("/api/auth/impersonation/audit", { cookie })).status).toBe(403);
    // Nobody impersonates while impersonating.
    const nested = await start(cookie, SAM);
    expect(nested.status).toBe(409);

    const stopped = await stop(cookie);
    expect(stopped.status).toBe(200);
    const after = await me(cookie);
    expect(after.impersonatedUser).toBeUndefined();
    expect(after.selectedRole).toBe("administrator");

    const log = await audit(cookie);
    const rows = log.data.filter((row: { target: { sourcedId: string } }) => row.target.sourcedId === AVA);
    expect(rows.map((row: { action: string }) => row.action).sort()).toEqual(["start", "stop"]);
    expect(rows[0]).toMatchObject({
      actor: { sourcedId: ADMIN, name: "Alex Morgan" },
      target: { sourcedId: AVA, name: "Ava Johnson" },
      ipAddress: "198.51.100.7",
    });
    expect(rows.find((row: { action: string }) => row.action === "start").reason).toBe(
      "Checking what the student sees",
    );
  });

  it("may view as anyone, but not as nobody or as themselves", async () => {
    const cookie = await t.signIn("admin@dash.demo");
    expect((await start(cookie, LEO)).status).toBe(200);
    expect((await stop(cookie)).status).toBe(200);
    const unknown = await start(cookie, "no-such-user");
    expect(unknown.status).toBe(404);
    expect((await start(cookie, ADMIN)).status).toBe(400);
  });

  it("needs a reason", async () => {
    const cookie = await t.signIn("admin@dash.demo");
    const response = await t.request("/api/auth/impersonation", {
      json: { userId: AVA, reason: " " },
      cookie,
    });
    expect(response.status).toBe(400);
    expect((await response.json()).issues[0].path).toBe("reason");
  });

  it("stops viewing by itself after 60 minutes, and the audit says so", async () => {
    const cookie = await t.signIn("admin@dash.demo");
    expect((await start(cookie, GRACE, "Helping a guardian")).status).toBe(200);
    t.clock.advance(59 * 60_000);
    expect((await me(cookie)).impersonatedUser?.email).toBe("guardian@dash.demo");
    t.clock.advance(2 * 60_000);
    const after = await me(cookie);
    expect(after.isAuthenticated).toBe(true);
    expect(after.impersonatedUser).toBeUndefined();
    const log = await audit(cookie);
    const actions = log.data
      .filter((row: { target: { sourcedId: string } }) => row.target.sourcedId === GRACE)
      .map((row: { action: string }) => row.action);
    expect(actions.sort()).toEqual(["expire", "start"]);
  });
});

describe("a Guide", () => {
  it("views as their own student and that student's parent and guardian", async () => {
    const cookie = await t.signIn("guide@dash.demo");
    for (const userId of [AVA, SAM, GRACE]) {
      const response = await start(cookie, userId, "Preparing a family meeting");
      expect(response.status, userId).toBe(200);
      expect((await stop(cookie)).status).toBe(200);
    }
  });

  it("is refused for students of other Guides and for staff", async () => {
    const cookie = await t.signIn("guide@dash.demo");
    for (const userId of [LEO, ADMIN, demoId("proctor")]) {
      const response = await start(cookie, userId);
      expect(response.status, userId).toBe(403);
      expect((await response.json()).message).toContain("their own students");
    }
    expect((await me(cookie)).impersonatedUser).toBeUndefined();
  });

  it("cannot read the audit log", async () => {
    const cookie = await t.signIn("guide@dash.demo");
    expect((await t.request("/api/auth/impersonation/audit", { cookie })).status).toBe(403);
  });
});

describe("everyone else", () => {
  it.each(["student@dash.demo", "parent@dash.demo", "guardian@dash.demo", "proctor@dash.demo"])(
    "%s gets 403",
    async (email) => {
      const cookie = await t.signIn(email);
      const response = await start(cookie, email === "student@dash.demo" ? LEO : AVA);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({
        code: "forbidden",
        message: "Only administrators and Guides can view Dash as another user",
      });
    },
  );

  it("without a session gets 401", async () => {
    expect((await t.request("/api/auth/impersonation", { json: { userId: AVA, reason: "x" } })).status).toBe(
      401,
    );
  });
});

describe("a Guide who is also a student", () => {
  it("follows the active role: as student refused, as Guide allowed for their class", async () => {
    const cookie = await t.signIn("multi@dash.demo");
    expect((await me(cookie)).selectedRole).toBe("teacher");
    const asStudent = await start(`${cookie}; selectedUserRole=student`, AVA);
    expect(asStudent.status).toBe(403);
    const asGuide = await start(`${cookie}; selectedUserRole=teacher`, AVA);
    expect(asGuide.status).toBe(200);
  });

  it("reports the saved role in me", async () => {
    const cookie = await t.signIn("multi@dash.demo");
    const asStudent = await me(`${cookie}; selectedUserRole=student`);
    expect(asStudent.selectedRole).toBe("student");
    expect(asStudent.availableRoles).toEqual(["teacher", "student"]);
    const unavailable = await me(`${cookie}; selectedUserRole=administrator`);
    expect(unavailable.selectedRole).toBe("teacher");
  });
});
