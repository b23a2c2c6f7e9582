import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client";
import { createTestApp, type TestApp } from "../../test/harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const STUDENT = "student@dash.demo";
const me = async (cookie: string) => (await t.request("/api/auth/me", { cookie })).json();
const setLanguage = (cookie: string, body: unknown) =>
  t.request("/api/auth/me/language", { method: "PUT", json: body, cookie });

async function primaryOrgOf(cookie: string): Promise<{ school: string; district: string | null }> {
  const school = (await me(cookie)).user.primaryOrg.sourcedId as string;
  const [row] = await queryRows<{ parent: string | null }>(
    t.db,
    sql`select parent_sourced_id as parent from orgs where sourced_id = ${school}`,
  );
  return { school, district: row?.parent ?? null };
}

beforeEach(async () => {
  await t.db.execute(sql`update users set preferred_language = null`);
  await t.db.execute(sql`update orgs set default_language = null`);
});

describe("a person's language", () => {
  it("follows the browser until they choose: me says neither a choice nor a school default", async () => {
    const cookie = await t.signIn(STUDENT);
    expect((await me(cookie)).language).toEqual({ own: null, school: null });
  });

  it("is kept with the account, and null follows the browser again", async () => {
    const cookie = await t.signIn(STUDENT);
    const chosen = await setLanguage(cookie, { language: "es" });
    expect(chosen.status).toBe(200);
    expect(await chosen.json()).toEqual({ language: { own: "es", school: null } });
    // Another device of the same person sees it.
    const elsewhere = await t.signIn(STUDENT);
    expect((await me(elsewhere)).language).toEqual({ own: "es", school: null });

    const cleared = await setLanguage(cookie, { language: null });
    expect(await cleared.json()).toEqual({ language: { own: null, school: null } });
    expect((await me(elsewhere)).language.own).toBeNull();
  });

  it("takes the school's default, else its district's", async () => {
    const cookie = await t.signIn(STUDENT);
    const { school, district } = await primaryOrgOf(cookie);
    expect(district).not.toBeNull();
    await t.db.execute(sql`update orgs set default_language = 'es' where sourced_id = ${district}`);
    expect((await me(cookie)).language).toEqual({ own: null, school: "es" });
    await t.db.execute(sql`update orgs set default_language = 'en' where sourced_id = ${school}`);
    expect((await me(cookie)).language).toEqual({ own: null, school: "en" });
  });

  it("changes only the language of the person who signed in, also while they view as someone", async () => {
    const admin = await t.signIn("admin@dash.demo");
    const started = await t.request("/api/auth/impersonation", {
      json: { userId: (await me(await t.signIn(STUDENT))).user.sourcedId, reason: "Checking the home" },
      cookie: admin,
    });
    expect(started.status).toBe(200);
    expect((await setLanguage(admin, { language: "es" })).status).toBe(200);

    const rows = await queryRows<{ email: string; language: string | null }>(
      t.db,
      sql`select email, preferred_language as language from users where preferred_language is not null`,
    );
    expect(rows).toEqual([{ email: "admin@dash.demo", language: "es" }]);
  });

  it.each([[{ language: "fr" }], [{ language: "ES" }], [{}], [{ language: "es", extra: true }], ["es"]])(
    "refuses %j with a 400 and keeps the language",
    async (body) => {
      const cookie = await t.signIn(STUDENT);
      await setLanguage(cookie, { language: "es" });
      const refused = await setLanguage(cookie, body);
      expect(refused.status).toBe(400);
      expect((await me(cookie)).language.own).toBe("es");
    },
  );

  it("refuses someone signed out with a 401", async () => {
    const refused = await t.request("/api/auth/me/language", { method: "PUT", json: { language: "es" } });
    expect(refused.status).toBe(401);
  });
});
