import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashSecret } from "../../lib/secrets";
import { DEMO_PASSWORD, demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { passwordResetTokens } from "./schema";

const WRONG_CURRENT_PASSWORD = "That is not your current password";
const INVALID_RESET_LINK =
  "This link to choose a password does not work: it was used already, it expired, or a newer link replaced it. Ask an administrator for a new one.";
const POLICY = {
  tooShort: "Choose a longer password: at least 8 characters",
  tooLong: "Choose a shorter password: at most 128 characters",
  common:
    "This password is too common: it is among the first ones people try when they guess. Choose another one, for example a few words you will remember.",
  personal: "Leave your name, email, username and the word “Dash” out of your password",
};
const SPANISH = { "accept-language": "es" };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { LOGIN_MAX_FAILURES_PER_ACCOUNT: "3", TRUST_PROXY: "true" } });
});
afterAll(() => t.close());

// Each test comes from its own address so the per-address limits of one never trip another.
let nextAddress = 1;
const newAddress = () => ({ "x-forwarded-for": `203.0.113.${nextAddress++}` });

const AVA = demoId("student-ava");
const SAM = demoId("parent-sam");
const GRACE = demoId("guardian-grace");

const isSignedIn = async (cookie: string) =>
  (await (await t.request("/api/auth/me", { cookie })).json()).isAuthenticated as boolean;

const changePassword = (
  cookie: string,
  body: { currentPassword: string; newPassword: string },
  headers = newAddress(),
) => t.request("/api/auth/password", { json: body, cookie, headers });

const issueLink = (cookie: string, userId: string) =>
  t.request(`/api/admin/users/${userId}/password-reset`, { method: "POST", cookie, headers: newAddress() });

const redeemLink = (token: string, newPassword: string, headers = newAddress()) =>
  t.request("/api/auth/password-reset", { json: { token, newPassword }, headers });

const tokenOf = (link: string) => new URL(link, "http://dash.invalid").searchParams.get("token") as string;

const signInStatus = async (email: string, password: string) =>
  (await t.request("/api/auth/login", { json: { email, password }, headers: newAddress() })).status;

const changesAbout = async (adminCookie: string, userId: string) => {
  const response = await t.request(`/api/admin/roster-changes?userId=${userId}&limit=50`, {
    cookie: adminCookie,
  });
  return (await response.json()).data as { action: string; summary: string; actor: { name: string } }[];
};

describe("changing one's own password", () => {
  it("needs a session", async () => {
    const response = await t.request("/api/auth/password", {
      json: { currentPassword: DEMO_PASSWORD, newPassword: "purple elephant marches" },
    });
    expect(response.status).toBe(401);
  });

  it("ends every other session of the person and keeps this one; the new password signs in, the old one not", async () => {
    const here = await t.signIn("student@dash.demo", DEMO_PASSWORD, newAddress());
    const elsewhere = await t.signIn("student@dash.demo", DEMO_PASSWORD, newAddress());
    const admin = await t.signIn("admin@dash.demo", DEMO_PASSWORD, newAddress());

    const response = await changePassword(here, {
      currentPassword: DEMO_PASSWORD,
      newPassword: "purple elephant marches",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, otherSessionsEnded: 1 });

    expect(await isSignedIn(here)).toBe(true);
    expect(await isSignedIn(elsewhere)).toBe(false);
    // Someone else's session is not touched.
    expect(await isSignedIn(admin)).toBe(true);
    expect(await signInStatus("student@dash.demo", DEMO_PASSWORD)).toBe(401);
    expect(await signInStatus("student@dash.demo", "purple elephant marches")).toBe(200);

    const [latest] = await changesAbout(admin, AVA);
    expect(latest).toMatchObject({
      action: "password.change",
      summary: "Ava Johnson changed their password",
    });
    expect(t.logLines.some((line) => line.includes('"msg":"password changed"') && line.includes(AVA))).toBe(
      true,
    );
  });

  it("refuses a wrong current password with a 400, and counts it like a failed sign-in", async () => {
    const cookie = await t.signIn("guardian@dash.demo", DEMO_PASSWORD, newAddress());
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await changePassword(cookie, {
        currentPassword: "not-the-password",
        newPassword: "purple elephant marches",
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        code: "validation_failed",
        message: WRONG_CURRENT_PASSWORD,
        issues: [{ path: "currentPassword", message: WRONG_CURRENT_PASSWORD }],
      });
    }
    // In Spanish the words change; the issue's path, which the form goes by, does not.
    const spanish = await changePassword(
      cookie,
      { currentPassword: "not-the-password", newPassword: "purple elephant marches" },
      { ...newAddress(), ...SPANISH },
    );
    expect(spanish.status).toBe(400);
    expect(await spanish.json()).toMatchObject({
      code: "validation_failed",
      message: "Esa no es su contraseña actual",
      issues: [{ path: "currentPassword", message: "Esa no es su contraseña actual" }],
    });
    // The account's limit of 3 is reached: even the right password waits, here and at sign-in.
    const paused = await changePassword(cookie, {
      currentPassword: DEMO_PASSWORD,
      newPassword: "purple elephant marches",
    });
    expect(paused.status).toBe(429);
    expect((await paused.json()).message).toMatch(/^Too many failed sign-in attempts/);
    expect(await signInStatus("guardian@dash.demo", DEMO_PASSWORD)).toBe(429);

    // The window passes; the password never changed.
    t.clock.advance(16 * 60_000);
    expect(await signInStatus("guardian@dash.demo", DEMO_PASSWORD)).toBe(200);
  });

  it.each([
    ["too short", "kite7", POLICY.tooShort],
    ["too long", "w".repeat(129), POLICY.tooLong],
    ["common", "iloveyou", POLICY.common],
    ["the person's email", "proctor@dash.demo!", POLICY.personal],
    ["the person's name", "rivera rivera rivera", POLICY.personal],
  ])(
    "refuses a new password that is %s, naming the field, and keeps the old one",
    async (_, newPassword, message) => {
      const cookie = await t.signIn("proctor@dash.demo", DEMO_PASSWORD, newAddress());
      const response = await changePassword(cookie, { currentPassword: DEMO_PASSWORD, newPassword });
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.message).toBe(message);
      expect(body.issues).toContainEqual({ path: "newPassword", message });
      expect(await signInStatus("proctor@dash.demo", DEMO_PASSWORD)).toBe(200);
    },
  );

  it("says what is wrong with a new password in Spanish, with the policy's numbers", async () => {
    const cookie = await t.signIn("proctor@dash.demo", DEMO_PASSWORD, newAddress());
    const response = await changePassword(
      cookie,
      { currentPassword: DEMO_PASSWORD, newPassword: "w".repeat(129) },
      { ...newAddress(), ...SPANISH },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: "validation_failed",
      message: "Elija una contraseña más corta: de 128 caracteres como máximo",
      issues: [
        { path: "newPassword", message: "Elija una contraseña más corta: de 128 caracteres como máximo" },
      ],
    });
    const tooShort = await changePassword(
      cookie,
      { currentPassword: DEMO_PASSWORD, newPassword: "kite7" },
      { ...newAddress(), ...SPANISH },
    );
    expect((await tooShort.json()).message).toBe("Elija una contraseña más larga: de al menos 8 caracteres");
  });

  it("accepts any printable Unicode, and the same password typed in another normal form signs in", async () => {
    const cookie = await t.signIn("multi@dash.demo", DEMO_PASSWORD, newAddress());
    const composed = "crème brûlée 🦊 au café";
    const response = await changePassword(cookie, { currentPassword: DEMO_PASSWORD, newPassword: composed });
    expect(response.status).toBe(200);
    expect(await signInStatus("multi@dash.demo", composed)).toBe(200);
    expect(await signInStatus("multi@dash.demo", composed.normalize("NFD"))).toBe(200);
  });

  it("is refused while viewing Dash as someone else: the viewed person's password stays", async () => {
    const admin = await t.signIn("admin@dash.demo", DEMO_PASSWORD, newAddress());
    const viewing = await t.request("/api/auth/impersonation", {
      json: { userId: SAM, reason: "Checking the family view" },
      cookie: admin,
      headers: newAddress(),
    });
    expect(viewing.status).toBe(200);
    for (const currentPassword of [DEMO_PASSWORD, "whatever-it-is"]) {
      const response = await changePassword(admin, {
        currentPassword,
        newPassword: "purple elephant marches",
      });
      expect(response.status).toBe(403);
      expect((await response.json()).message).toBe(
        "You are viewing Dash as Sam Johnson: stop viewing as them to change your own password.",
      );
    }
    const spanish = await changePassword(
      admin,
      { currentPassword: DEMO_PASSWORD, newPassword: "purple elephant marches" },
      { ...newAddress(), ...SPANISH },
    );
    expect((await spanish.json()).message).toBe(
      "Está viendo Dash como Sam Johnson: deje de verlo como esa persona para cambiar su propia contraseña.",
    );
    expect(await signInStatus("parent@dash.demo", DEMO_PASSWORD)).toBe(200);
    expect(await signInStatus("admin@dash.demo", DEMO_PASSWORD)).toBe(200);
    await t.request("/api/auth/impersonation", { method: "DELETE", cookie: admin, headers: newAddress() });
  });
});

describe("one-time links to choose a password", () => {
  it.each(["guide@dash.demo", "parent@dash.demo", "student@dash.demo", "proctor@dash.demo"])(
    "are for administrators only: %s gets 403",
    async (email) => {
      const password = email === "student@dash.demo" ? "purple elephant marches" : DEMO_PASSWORD;
      const cookie = await t.signIn(email, password, newAddress());
      const response = await issueLink(cookie, GRACE);
      expect(response.status).toBe(403);
      expect((await response.json()).message).toBe(
        "Your role does not allow you to issue links to choose a password",
      );
      const spanish = await t.request(`/api/admin/users/${GRACE}/password-reset`, {
        method: "POST",
        cookie,
        headers: { ...newAddress(), ...SPANISH },
      });
      expect((await spanish.json()).message).toBe(
        "Su rol no le permite crear enlaces para elegir una contraseña",
      );
    },
  );

  it("need a session, and an active person", async () => {
    expect((await issueLink("", GRACE)).status).toBe(401);
    const admin = await t.signIn("admin@dash.demo", DEMO_PASSWORD, newAddress());
    const response = await issueLink(admin, "nobody-has-this-id");
    expect(response.status).toBe(404);
  });

  it("work once: the password is set, every session of the person ends, and the link is spent", async () => {
    const admin = await t.signIn("admin@dash.demo", DEMO_PASSWORD, newAddress());
    const samHere = await t.signIn("parent@dash.demo", DEMO_PASSWORD, newAddress());
    const samThere = await t.signIn("parent@dash.demo", DEMO_PASSWORD, newAddress());

    const issued = await issueLink(admin, SAM);
    expect(issued.status).toBe(201);
    const { link, expiresAt } = await issued.json();
    expect(link).toMatch(/^\/reset-password\?token=reset_[\w-]{43}$/);
    expect(new Date(expiresAt).getTime()).toBe(t.clock.now().getTime() + 24 * 3_600_000);

    // Only the token's hash is stored.
    const token = tokenOf(link);
    const [stored] = await t.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userSourcedId, SAM));
    expect(stored?.tokenHash).toBe(hashSecret(token));
    expect(JSON.stringify(stored)).not.toContain(token);

    // A password against the policy is refused and leaves the link usable.
    const weak = await redeemLink(token, "password123");
    expect(weak.status).toBe(400);
    expect((await weak.json()).message).toBe(POLICY.common);

    const used = await redeemLink(token, "purple elephant marches");
    expect(used.status).toBe(200);
    expect(await isSignedIn(samHere)).toBe(false);
    expect(await isSignedIn(samThere)).toBe(false);
    expect(await isSignedIn(admin)).toBe(true);
    expect(await signInStatus("parent@dash.demo", DEMO_PASSWORD)).toBe(401);
    expect(await signInStatus("parent@dash.demo", "purple elephant marches")).toBe(200);

    const again = await redeemLink(token, "another fine password");
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ code: "bad_request", message: INVALID_RESET_LINK });

    const changes = await changesAbout(admin, SAM);
    expect(changes.slice(0, 2)).toMatchObject([
      {
        action: "password.reset",
        summary: "Sam Johnson chose a new password with a link from an administrator",
      },
      {
        action: "password.reset_link",
        summary: "Issued Sam Johnson a link to choose a new password, valid for 24 hours",
        actor: { name: "Alex Morgan" },
      },
    ]);
  });

  it("answer an unknown token with the same 400 as a used one", async () => {
    const response = await redeemLink("reset_not-a-real-token", "purple elephant marches");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: "bad_request", message: INVALID_RESET_LINK });
    const spanish = await redeemLink("reset_not-a-real-token", "purple elephant marches", {
      ...newAddress(),
      ...SPANISH,
    });
    expect(await spanish.json()).toEqual({
      code: "bad_request",
      message:
        "Este enlace para elegir una contraseña no funciona: ya se usó, venció o lo reemplazó un enlace más reciente. Pida uno nuevo a un administrador.",
    });
  });

  it("are replaced by a newer link for the same person", async () => {
    const admin = await t.signIn("admin@dash.demo", DEMO_PASSWORD, newAddress());
    const first = tokenOf((await (await issueLink(admin, GRACE)).json()).link);
    const second = tokenOf((await (await issueLink(admin, GRACE)).json()).link);
    expect((await redeemLink(first, "purple elephant marches")).status).toBe(400);
    expect((await redeemLink(second, "purple elephant marches")).status).toBe(200);
    expect(await signInStatus("guardian@dash.demo", "purple elephant marches")).toBe(200);
  });

  it("are limited per address", async () => {
    const address = newAddress();
    for (let attempt = 0; attempt < 10; attempt++)
      expect((await redeemLink(`reset_guess-${attempt}`, "purple elephant marches", address)).status).toBe(
        400,
      );
    const limited = await redeemLink("reset_guess-10", "purple elephant marches", address);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("900");
    expect((await limited.json()).message).toBe("Too many tries from this address. Try again in 15 minutes.");
    const spanish = await redeemLink("reset_guess-11", "purple elephant marches", { ...address, ...SPANISH });
    expect((await spanish.json()).message).toBe(
      "Demasiados intentos desde esta dirección. Vuelva a intentarlo en 15 minutos.",
    );
  });

  it("expire after 24 hours", async () => {
    const admin = await t.signIn("admin@dash.demo", DEMO_PASSWORD, newAddress());
    const token = tokenOf((await (await issueLink(admin, demoId("admin"))).json()).link);
    t.clock.advance(24 * 3_600_000 + 1000);
    const response = await redeemLink(token, "purple elephant marches");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: "bad_request", message: INVALID_RESET_LINK });
    expect(await signInStatus("admin@dash.demo", DEMO_PASSWORD)).toBe(200);
  });
});
