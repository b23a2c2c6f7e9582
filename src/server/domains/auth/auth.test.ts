import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, demoId } from "../../seed/demo-accounts";
import { createTestApp, sessionCookieOf, type TestApp } from "../../test/harness";
import { userRoles, users } from "../rostering/schema";
import { hashPassword } from "./password";
import { userCredentials } from "./schema";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { LOGIN_MAX_FAILURES_PER_ACCOUNT: "3", LOGIN_MAX_FAILURES_PER_IP: "8", TRUST_PROXY: "true" },
  });
});
afterAll(() => t.close());

// Each test signs in from its own address so the per-IP throttle of one test never trips another.
let nextAddress = 1;
const fromNewAddress = () => ({ "x-forwarded-for": `203.0.113.${nextAddress++}` });

describe("sign-in", () => {
  it.each(DEMO_ACCOUNTS.map((account) => account.email))(
    "signs in %s and answers me with the spec's shape",
    async (email) => {
      const response = await t.request("/api/auth/login", {
        json: { email, password: DEMO_PASSWORD },
        headers: fromNewAddress(),
      });
      expect(response.status).toBe(200);
      const setCookie = response.headers.get("set-cookie") ?? "";
      expect(setCookie).toMatch(/^dash_session=[\w-]{40,};/);
      expect(setCookie).toContain("HttpOnly");
      expect(setCookie).toContain("SameSite=Lax");
      expect(setCookie).toContain("Path=/");
      expect(setCookie).not.toContain("Secure");

      const login = await response.json();
      const me = await (await t.request("/api/auth/me", { cookie: sessionCookieOf(response) })).json();
      expect(me).toEqual(login);
      expect(me.isAuthenticated).toBe(true);
      expect(me.user.email).toBe(email);
      expect(me.user.sourcedId).toEqual(expect.any(String));
      expect(me.user.primaryOrg).toEqual({ sourcedId: expect.any(String) });
      for (const role of me.user.roles) {
        expect(role).toEqual({
          role: expect.stringMatching(/^(administrator|teacher|proctor|parent|guardian|student)$/),
          roleType: expect.stringMatching(/^(primary|secondary)$/),
          org: { sourcedId: expect.any(String), type: expect.any(String), name: expect.any(String) },
        });
      }
    },
  );

  it("lists the demo accounts for the sign-in page, saying who each one is in the reader's language", async () => {
    const listed = async (headers: Record<string, string> = {}) =>
      (await (await t.request("/api/auth/demo-accounts", { headers })).json()) as {
        accounts: { email: string; name: string; description: string }[];
        password: string;
      };
    const english = await listed();
    expect(english.password).toBe(DEMO_PASSWORD);
    expect(english.accounts).toEqual([
      { email: "admin@dash.demo", name: "Alex Morgan", description: "Administrator (district)" },
      { email: "guide@dash.demo", name: "Maya Patel", description: "Guide of Ava Johnson" },
      { email: "student@dash.demo", name: "Ava Johnson", description: "Student, grade 3" },
      { email: "parent@dash.demo", name: "Sam Johnson", description: "Parent of Ava and Leo" },
      { email: "guardian@dash.demo", name: "Grace Miller", description: "Guardian of Ava" },
      { email: "proctor@dash.demo", name: "Pat Rivera", description: "Proctor" },
      { email: "multi@dash.demo", name: "Jordan Lee", description: "Guide and student" },
    ]);
    const spanish = await listed({ "accept-language": "es" });
    expect(spanish.accounts.map(({ email, description }) => [email, description])).toEqual([
      ["admin@dash.demo", "Administrador (distrito)"],
      ["guide@dash.demo", "Guía de Ava Johnson"],
      ["student@dash.demo", "Estudiante, grado 3"],
      ["parent@dash.demo", "Padre o madre de Ava y Leo"],
      ["guardian@dash.demo", "Tutora legal de Ava"],
      ["proctor@dash.demo", "Supervisor de exámenes"],
      ["multi@dash.demo", "Guía y estudiante"],
    ]);
  });

  it("gives each demo account the roles of the demo school", async () => {
    const rolesOf = async (email: string) => {
      const cookie = await t.signIn(email, DEMO_PASSWORD, fromNewAddress());
      const me = await (await t.request("/api/auth/me", { cookie })).json();
      return me.user.roles.map(
        (role: { role: string; org: { name: string } }) => `${role.role}@${role.org.name}`,
      );
    };
    expect(await rolesOf("admin@dash.demo")).toEqual(["administrator@Dash Demo District"]);
    expect(await rolesOf("guide@dash.demo")).toEqual(["teacher@Maple Grove School"]);
    expect(await rolesOf("multi@dash.demo")).toEqual([
      "teacher@Maple Grove School",
      "student@Maple Grove School",
    ]);
    expect(await rolesOf("parent@dash.demo")).toEqual([
      "parent@Maple Grove School",
      "parent@Riverside School",
    ]);
    expect(await rolesOf("proctor@dash.demo")).toEqual(["proctor@Maple Grove School"]);
  });

  it("maps OneRoster 1.1 and 1.2 role names in any case and leaves out roles that grant nothing", async () => {
    const sourcedId = "roster-vocabulary-user";
    await t.db
      .insert(users)
      .values({ sourcedId, givenName: "Rita", familyName: "Roles", email: "rita@school.example" });
    await t.db.insert(userRoles).values([
      {
        userSourcedId: sourcedId,
        role: "districtAdministrator",
        roleType: "primary",
        orgSourcedId: demoId("district"),
      },
      {
        userSourcedId: sourcedId,
        role: "TEACHER",
        roleType: "secondary",
        orgSourcedId: demoId("maple-grove"),
      },
      { userSourcedId: sourcedId, role: "aide", roleType: "secondary", orgSourcedId: demoId("maple-grove") },
      {
        userSourcedId: sourcedId,
        role: "ext:coach",
        roleType: "secondary",
        orgSourcedId: demoId("riverside"),
      },
    ]);
    await t.db
      .insert(userCredentials)
      .values({ userSourcedId: sourcedId, passwordHash: await hashPassword("rita-password") });
    const cookie = await t.signIn("rita@school.example", "rita-password", fromNewAddress());
    const me = await (await t.request("/api/auth/me", { cookie })).json();
    expect(me.user.roles).toEqual([
      {
        role: "administrator",
        roleType: "primary",
        org: { sourcedId: demoId("district"), type: "district", name: "Dash Demo District" },
      },
      {
        role: "teacher",
        roleType: "secondary",
        org: { sourcedId: demoId("maple-grove"), type: "school", name: "Maple Grove School" },
      },
    ]);
    expect(me.availableRoles).toEqual(["administrator", "teacher"]);
    expect(me.selectedRole).toBe("administrator");
  });

  it("refuses users who are disabled or marked for deletion", async () => {
    const passwordHash = await hashPassword("gone-password");
    for (const [sourcedId, change] of [
      ["disabled-user", { enabledUser: false }],
      ["deleted-user", { status: "tobedeleted" }],
    ] as const) {
      await t.db.insert(users).values({
        sourcedId,
        givenName: "Gone",
        familyName: "User",
        email: `${sourcedId}@school.example`,
        ...change,
      });
      await t.db.insert(userCredentials).values({ userSourcedId: sourcedId, passwordHash });
      const response = await t.request("/api/auth/login", {
        json: { email: `${sourcedId}@school.example`, password: "gone-password" },
        headers: fromNewAddress(),
      });
      expect(response.status).toBe(401);
    }
  });

  it("accepts the email in any case and with spaces around it", async () => {
    const response = await t.request("/api/auth/login", {
      json: { email: "  Student@Dash.Demo ", password: DEMO_PASSWORD },
      headers: fromNewAddress(),
    });
    expect(response.status).toBe(200);
  });

  it("answers 401 with the same text for a wrong password and an unknown email", async () => {
    const headers = fromNewAddress();
    const wrongPassword = await t.request("/api/auth/login", {
      json: { email: "guide@dash.demo", password: "nope" },
      headers,
    });
    const unknownEmail = await t.request("/api/auth/login", {
      json: { email: "nobody@dash.demo", password: "nope" },
      headers,
    });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(await wrongPassword.json()).toEqual({
      code: "invalid_credentials",
      message: "Invalid email or password",
    });
    expect(await unknownEmail.json()).toEqual({
      code: "invalid_credentials",
      message: "Invalid email or password",
    });
    expect(wrongPassword.headers.get("set-cookie")).toBeNull();

    const spanish = await t.request("/api/auth/login", {
      json: { email: "nobody@dash.demo", password: "nope" },
      headers: { ...headers, "accept-language": "es-US,es;q=0.9" },
    });
    expect(spanish.status).toBe(401);
    expect(await spanish.json()).toEqual({
      code: "invalid_credentials",
      message: "El correo electrónico o la contraseña no son correctos",
    });
  });

  it("rejects malformed bodies with 400 and a readable message", async () => {
    const malformed = await t.request("/api/auth/login", {
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({
      code: "invalid_json",
      message: "The request body must be valid JSON",
    });

    const missing = await t.request("/api/auth/login", { json: { email: "guide@dash.demo" } });
    expect(missing.status).toBe(400);
    const body = await missing.json();
    expect(body.code).toBe("validation_failed");
    expect(body.message).toContain("password");
    expect(body.issues).toEqual([{ path: "password", message: expect.any(String) }]);

    const wrongType = await t.request("/api/auth/login", { json: { email: 42, password: ["x"] } });
    expect(wrongType.status).toBe(400);
    expect((await wrongType.json()).issues.map((issue: { path: string }) => issue.path)).toEqual([
      "email",
      "password",
    ]);
  });

  it("never writes a password or a session token to the log", async () => {
    const marker = "Sup3r-Secret-Marker";
    await t.request("/api/auth/login", {
      json: { email: "guide@dash.demo", password: marker },
      headers: fromNewAddress(),
    });
    const response = await t.request("/api/auth/login", {
      json: { email: "guide@dash.demo", password: DEMO_PASSWORD },
      headers: fromNewAddress(),
    });
    const token = sessionCookieOf(response).split("=")[1] as string;
    const log = t.logLines.join("\n");
    expect(log).toContain('"path":"/api/auth/login"');
    expect(log).not.toContain(marker);
    expect(log).not.toContain(DEMO_PASSWORD);
    expect(log).not.toContain(token);
  });
});

describe("throttling", () => {
  it("refuses an account with 429 and a retry time after repeated failures, even with the right password", async () => {
    const email = "proctor@dash.demo";
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await t.request("/api/auth/login", {
        json: { email, password: "wrong" },
        headers: fromNewAddress(),
      });
      expect(response.status).toBe(401);
    }
    const blocked = await t.request("/api/auth/login", {
      json: { email, password: DEMO_PASSWORD },
      headers: fromNewAddress(),
    });
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    const body = await blocked.json();
    expect(body.code).toBe("too_many_requests");
    const minutes = Math.ceil(retryAfter / 60);
    expect(body.message).toBe(
      `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    );
    expect(body.retryAfterSeconds).toBe(retryAfter);
    const spanish = await t.request("/api/auth/login", {
      json: { email, password: DEMO_PASSWORD },
      headers: { ...fromNewAddress(), "accept-language": "es" },
    });
    expect((await spanish.json()).message).toMatch(
      /^Demasiados intentos fallidos de iniciar sesión\. Vuelva a intentarlo en \d+ minutos?\.$/,
    );

    // Other accounts are not affected, and the block lifts when the window has passed.
    expect(
      (
        await t.request("/api/auth/login", {
          json: { email: "admin@dash.demo", password: DEMO_PASSWORD },
          headers: fromNewAddress(),
        })
      ).status,
    ).toBe(200);
    t.clock.advance(16 * 60_000);
    expect(
      (
        await t.request("/api/auth/login", {
          json: { email, password: DEMO_PASSWORD },
          headers: fromNewAddress(),
        })
      ).status,
    ).toBe(200);
  });

  it("refuses an address that fails on many accounts", async () => {
    const headers = fromNewAddress();
    for (let attempt = 0; attempt < 8; attempt++) {
      await t.request("/api/auth/login", {
        json: { email: `probe${attempt}@example.org`, password: "x" },
        headers,
      });
    }
    const blocked = await t.request("/api/auth/login", {
      json: { email: "guardian@dash.demo", password: DEMO_PASSWORD },
      headers,
    });
    expect(blocked.status).toBe(429);
    // The same account from another address still signs in.
    const elsewhere = await t.request("/api/auth/login", {
      json: { email: "guardian@dash.demo", password: DEMO_PASSWORD },
      headers: fromNewAddress(),
    });
    expect(elsewhere.status).toBe(200);
  });
});

describe("throttling under concurrent attempts", () => {
  const statusCounts = (responses: Response[]) => {
    const counts: Record<number, number> = {};
    for (const response of responses) counts[response.status] = (counts[response.status] ?? 0) + 1;
    return counts;
  };

  it("lets no more wrong passwords through at once than the account's limit, then refuses the right one", async () => {
    const email = "guide@dash.demo";
    const responses = await Promise.all(
      Array.from({ length: 30 }, () =>
        t.request("/api/auth/login", { json: { email, password: "wrong" }, headers: fromNewAddress() }),
      ),
    );
    // LOGIN_MAX_FAILURES_PER_ACCOUNT is 3 here.
    expect(statusCounts(responses)).toEqual({ 401: 3, 429: 27 });
    const right = await t.request("/api/auth/login", {
      json: { email, password: DEMO_PASSWORD },
      headers: fromNewAddress(),
    });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(0);
    t.clock.advance(16 * 60_000);
  });

  it("lets no more wrong passwords through at once than the address's limit", async () => {
    const headers = fromNewAddress();
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        t.request("/api/auth/login", {
          json: { email: `racer${index}@example.org`, password: "x" },
          headers,
        }),
      ),
    );
    // LOGIN_MAX_FAILURES_PER_IP is 8 here.
    expect(statusCounts(responses)).toEqual({ 401: 8, 429: 22 });
    const right = await t.request("/api/auth/login", {
      json: { email: "parent@dash.demo", password: DEMO_PASSWORD },
      headers,
    });
    expect(right.status).toBe(429);
    t.clock.advance(16 * 60_000);
  });

  it("lets a whole school sign in at once through one address", async () => {
    // A school's network often shows one address for everyone: right passwords sent together must
    // not look like a flood of failures, though more are in flight than the address's limit (8).
    const headers = fromNewAddress();
    const responses = await Promise.all(
      Array.from({ length: 30 }, () =>
        t.request("/api/auth/login", {
          json: { email: "student@dash.demo", password: DEMO_PASSWORD },
          headers,
        }),
      ),
    );
    expect(statusCounts(responses)).toEqual({ 200: 30 });
  });

  it("answers 503 busy, not a long wait, when too many passwords wait to be checked", async () => {
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        t.request("/api/auth/login", {
          json: { email: `flood${index}@example.org`, password: "x" },
          headers: fromNewAddress(),
        }),
      ),
    );
    const counts = statusCounts(responses);
    expect(Object.keys(counts).sort()).toEqual(["401", "503"]);
    // Two checks run and 32 wait: the rest are refused at once.
    expect(counts[401]).toBe(34);
    const busy = responses.find((response) => response.status === 503) as Response;
    // About as long as the 34 checks ahead take on two slots, spread up to twice that.
    expect(Number(busy.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(busy.headers.get("retry-after"))).toBeLessThanOrEqual(30);
    expect((await busy.json()).message).toBe("Dash is busy signing people in. Try again in a moment.");
    // A refused attempt was never checked, so it does not count against the account.
    const after = await t.request("/api/auth/login", {
      json: { email: "admin@dash.demo", password: DEMO_PASSWORD },
      headers: fromNewAddress(),
    });
    expect(after.status).toBe(200);
  });
});

describe("sessions", () => {
  it("answers me signed out without a session or with an unknown one", async () => {
    for (const cookie of [undefined, "dash_session=not-a-real-token"]) {
      const response = await t.request("/api/auth/me", { cookie });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ isAuthenticated: false, user: null });
    }
  });

  it("ends the session on logout", async () => {
    const cookie = await t.signIn("student@dash.demo", DEMO_PASSWORD, fromNewAddress());
    const logout = await t.request("/api/auth/logout", { method: "POST", cookie });
    expect(logout.status).toBe(200);
    expect(logout.headers.get("set-cookie")).toMatch(/^dash_session=;/);
    expect(await (await t.request("/api/auth/me", { cookie })).json()).toEqual({
      isAuthenticated: false,
      user: null,
    });
  });

  it("leaves the cookie alone on a late request from a session a new sign-in ended", async () => {
    const first = await t.signIn("student@dash.demo", DEMO_PASSWORD, fromNewAddress());
    // The same browser signs in again: the first session ends and the cookie is replaced.
    const second = await t.request("/api/auth/login", {
      json: { email: "guide@dash.demo", password: DEMO_PASSWORD },
      cookie: first,
      headers: fromNewAddress(),
    });
    expect(second.status).toBe(200);
    // A beacon the page sent before, answered after: clearing the cookie now would clear the new one.
    const late = await t.request("/api/analytics/events", {
      json: { events: [{ type: "page_view", path: "/app", at: t.clock.now().toISOString() }] },
      cookie: first,
    });
    expect(late.status).toBe(202);
    expect(late.headers.get("set-cookie")).toBeNull();
    const me = await t.request("/api/auth/me", { cookie: first });
    expect(await me.json()).toEqual({ isAuthenticated: false, user: null });
    expect(me.headers.get("set-cookie")).toBeNull();
  });

  it("expires a session after the idle time", async () => {
    const cookie = await t.signIn("student@dash.demo", DEMO_PASSWORD, fromNewAddress());
    t.clock.advance(119 * 60_000);
    expect((await (await t.request("/api/auth/me", { cookie })).json()).isAuthenticated).toBe(true);
    // Activity moved the idle deadline; two quiet hours end the session.
    t.clock.advance(121 * 60_000);
    expect((await (await t.request("/api/auth/me", { cookie })).json()).isAuthenticated).toBe(false);
  });

  it("expires a session at its absolute lifetime even when it is in use", async () => {
    const cookie = await t.signIn("student@dash.demo", DEMO_PASSWORD, fromNewAddress());
    for (let hour = 0; hour < 167; hour += 1) {
      t.clock.advance(60 * 60_000);
      if (hour % 24 === 0)
        expect((await (await t.request("/api/auth/me", { cookie })).json()).isAuthenticated).toBe(true);
      // Stay active so only the absolute limit can end it.
      await t.request("/api/auth/me", { cookie });
    }
    t.clock.advance(61 * 60_000);
    expect((await (await t.request("/api/auth/me", { cookie })).json()).isAuthenticated).toBe(false);
  });

  it("marks the cookie Secure when served over https", async () => {
    const response = await t.app.request("https://dash.example/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json", ...fromNewAddress() },
      body: JSON.stringify({ email: "guide@dash.demo", password: DEMO_PASSWORD }),
    });
    expect(response.headers.get("set-cookie")).toContain("Secure");
  });
});

describe("the rest of the API", () => {
  it("answers 401 without a session, for known and unknown paths alike", async () => {
    for (const path of ["/api/parent/children", "/api/does-not-exist"]) {
      const response = await t.request(path);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ code: "unauthenticated", message: "Sign in to continue" });
    }
  });

  it("answers 404 JSON for unknown paths when signed in", async () => {
    const cookie = await t.signIn("admin@dash.demo", DEMO_PASSWORD, fromNewAddress());
    const response = await t.request("/api/does-not-exist", { cookie });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      code: "not_found",
      message: "No API route GET /api/does-not-exist",
    });
    const spanish = await t.request("/api/does-not-exist", { cookie, headers: { "accept-language": "es" } });
    expect(await spanish.json()).toEqual({
      code: "not_found",
      message: "No hay ninguna ruta de la API GET /api/does-not-exist",
    });
  });

  it("answers 413 for bodies over 1 MB", async () => {
    const response = await t.request("/api/auth/login", {
      json: { email: "guide@dash.demo", password: "x".repeat(1024 * 1024 + 10) },
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      code: "payload_too_large",
      message: "The request body is larger than 1 MB",
    });
  });

  it("reports health with the kind of database", async () => {
    const response = await t.request("/api/health");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, db: t.kind });
  });
});
