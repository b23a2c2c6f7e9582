import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ONEROSTER_SCOPES } from "../../../shared/contracts/api-clients";
import { queryRows } from "../../db/client";
import { hashSecret } from "../../lib/secrets";
import { DEMO_SIS_CLIENT } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { ACCESS_TOKEN_SECONDS, grantedScopes, OAuthError } from "./clients";
import { apiClients, oauthAccessTokens } from "./schema";
import { demoSisToken, tokenRequest } from "./testing";

const USERS_URL = "/ims/oneroster/rostering/v1p2/users?limit=1";
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
const grant = { grant_type: "client_credentials" };
const demoCredentials = {
  client_id: DEMO_SIS_CLIENT.clientId,
  client_secret: DEMO_SIS_CLIENT.clientSecret,
};

interface TokenAnswer {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signIn("admin@dash.demo");
});
afterAll(() => t.close());

const readUsers = (token: string) => t.request(USERS_URL, { headers: { authorization: `Bearer ${token}` } });

describe("grantedScopes", () => {
  const allowed = [ONEROSTER_SCOPES.core, ONEROSTER_SCOPES.demographics];

  it("grants every scope of the client when none is asked for", () => {
    expect(grantedScopes(undefined, allowed)).toEqual(allowed);
    expect(grantedScopes("  ", allowed)).toEqual(allowed);
  });

  it("grants a subset, once each", () => {
    expect(grantedScopes(`${ONEROSTER_SCOPES.core} ${ONEROSTER_SCOPES.core}`, allowed)).toEqual([
      ONEROSTER_SCOPES.core,
    ]);
  });

  it("refuses a scope the client does not hold, and unknown scopes", () => {
    expect(() => grantedScopes(ONEROSTER_SCOPES.full, allowed)).toThrow("may not use the scope");
    expect(() => grantedScopes("roster.everything", allowed)).toThrow(OAuthError);
    expect(() => grantedScopes("roster.everything", allowed)).toThrow("Unknown scope");
  });
});

describe("POST /oauth/token", () => {
  it("issues a bearer token for client_id and client_secret in the form", async () => {
    const response = await tokenRequest(t, { ...grant, ...demoCredentials });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as TokenAnswer;
    expect(body.token_type).toBe("Bearer");
    expect(body.expires_in).toBe(ACCESS_TOKEN_SECONDS);
    expect(body.scope.split(" ").sort()).toEqual(Object.values(ONEROSTER_SCOPES).sort());
    expect(body.access_token.length).toBeGreaterThan(40);
    expect((await readUsers(body.access_token)).status).toBe(200);
  });

  it("accepts HTTP Basic client authentication", async () => {
    const response = await tokenRequest(t, grant, {
      authorization: basic(DEMO_SIS_CLIENT.clientId, DEMO_SIS_CLIENT.clientSecret),
    });
    expect(response.status).toBe(200);
  });

  it("stores only the token's hash, with the client, scopes and expiry", async () => {
    const token = await demoSisToken(t, ONEROSTER_SCOPES.core);
    const [stored] = await t.db
      .select()
      .from(oauthAccessTokens)
      .where(eq(oauthAccessTokens.tokenHash, hashSecret(token)));
    expect(stored?.scopes).toEqual([ONEROSTER_SCOPES.core]);
    expect(stored?.expiresAt.getTime()).toBe(t.clock.now().getTime() + ACCESS_TOKEN_SECONDS * 1000);
    const [raw] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from oauth_access_tokens where token_hash = ${token}`,
    );
    expect(raw?.n).toBe(0);
    const [client] = await t.db.select().from(apiClients).where(eq(apiClients.clientId, "demo-sis"));
    expect(client?.secretHash).toBe(hashSecret(DEMO_SIS_CLIENT.clientSecret));
  });

  it("narrows the token to the scopes asked for", async () => {
    const response = await tokenRequest(t, { ...grant, ...demoCredentials, scope: ONEROSTER_SCOPES.core });
    expect(((await response.json()) as TokenAnswer).scope).toBe(ONEROSTER_SCOPES.core);
  });

  it.each([
    ["a wrong secret", { ...grant, client_id: "demo-sis", client_secret: "nope" }],
    ["an unknown client", { ...grant, client_id: "nobody", client_secret: "demo-sis-secret" }],
    ["no client authentication", grant],
    ["a client id without its secret", { ...grant, client_id: "demo-sis" }],
  ])("answers 401 invalid_client to %s", async (_case, form) => {
    const response = await tokenRequest(t, form);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain("Basic");
    expect(await response.json()).toMatchObject({ error: "invalid_client" });
  });

  it("answers 401 invalid_client to a wrong secret by HTTP Basic", async () => {
    const response = await tokenRequest(t, grant, { authorization: basic("demo-sis", "wrong") });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: "invalid_client" });
  });

  it.each([
    ["another grant type", { grant_type: "password", ...demoCredentials }, "unsupported_grant_type"],
    ["no grant type", demoCredentials, "invalid_request"],
    ["an unknown scope", { ...grant, ...demoCredentials, scope: "roster.everything" }, "invalid_scope"],
  ])("answers 400 to %s", async (_case, form, error) => {
    const response = await tokenRequest(t, form as Record<string, string>);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe(error);
    expect(body.error_description.length).toBeGreaterThan(5);
  });

  it("answers invalid_scope to a scope the client was not given", async () => {
    const created = await t.request("/api/admin/api-clients", {
      cookie: admin,
      json: { name: "Core only", scopes: [ONEROSTER_SCOPES.core] },
    });
    const { data } = (await created.json()) as { data: { clientId: string; clientSecret: string } };
    const response = await tokenRequest(t, {
      ...grant,
      client_id: data.clientId,
      client_secret: data.clientSecret,
      scope: ONEROSTER_SCOPES.demographics,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid_scope" });
  });

  it("refuses a JSON body, two ways of authenticating, and a repeated parameter", async () => {
    const json = await t.request("/oauth/token", { json: { ...grant, ...demoCredentials } });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: "invalid_request" });

    const both = await tokenRequest(
      t,
      { ...grant, ...demoCredentials },
      {
        authorization: basic(DEMO_SIS_CLIENT.clientId, DEMO_SIS_CLIENT.clientSecret),
      },
    );
    expect(both.status).toBe(400);
    expect(await both.json()).toMatchObject({ error: "invalid_request" });

    const repeated = await t.request("/oauth/token", {
      method: "POST",
      body: "grant_type=client_credentials&grant_type=client_credentials&client_id=demo-sis&client_secret=demo-sis-secret",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(repeated.status).toBe(400);
  });

  it("refuses an expired token", async () => {
    const token = await demoSisToken(t);
    expect((await readUsers(token)).status).toBe(200);
    t.clock.advance(ACCESS_TOKEN_SECONDS * 1000 + 1000);
    const expired = await readUsers(token);
    expect(expired.status).toBe(401);
    expect(expired.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });
});

describe("POST /oauth/token under attack", () => {
  it("lets no more wrong secrets through at once than the client's limit, then pauses the client", async () => {
    const created = await t.request("/api/admin/api-clients", {
      cookie: admin,
      json: { name: "Guessed at", scopes: [ONEROSTER_SCOPES.core] },
    });
    const { data } = (await created.json()) as { data: { clientId: string; clientSecret: string } };
    const responses = await Promise.all(
      Array.from({ length: 30 }, () =>
        tokenRequest(t, { ...grant, client_id: data.clientId, client_secret: "guess" }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    const paused = responses.find((response) => response.status === 429) as Response;
    expect(Number(paused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await paused.json()).toEqual({
      error: "invalid_client",
      error_description: expect.stringMatching(
        /^Too many failed client authentications\. Try again in \d+ minutes?\.$/,
      ),
    });

    const right = { ...grant, client_id: data.clientId, client_secret: data.clientSecret };
    expect((await tokenRequest(t, right)).status).toBe(429);
    t.clock.advance(16 * 60_000);
    expect((await tokenRequest(t, right)).status).toBe(200);
  });

  it("answers 400 validation_failed, naming the field, to a NUL in the form", async () => {
    const response = await tokenRequest(t, { ...grant, client_id: "demo\u0000sis", client_secret: "x" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: "validation_failed",
      issues: [{ path: "client_id", message: "must not contain a NUL character" }],
    });
  });
});

describe("/api/admin/api-clients", () => {
  it("lets an administrator create a client, whose secret is shown once and works", async () => {
    const response = await t.request("/api/admin/api-clients", {
      cookie: admin,
      json: { name: "  District SIS  ", scopes: [ONEROSTER_SCOPES.core, ONEROSTER_SCOPES.full] },
    });
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as {
      data: { id: string; name: string; clientId: string; clientSecret: string; createdBy: { name: string } };
    };
    expect(data.name).toBe("District SIS");
    expect(data.createdBy.name).toBe("Alex Morgan");
    expect(data.clientId).toMatch(/^dash-[0-9a-f]{16}$/);
    expect(data.clientSecret).toMatch(/^dash_cs_/);

    const token = await tokenRequest(t, {
      ...grant,
      client_id: data.clientId,
      client_secret: data.clientSecret,
    });
    expect(token.status).toBe(200);

    const list = await t.request("/api/admin/api-clients?search=district", { cookie: admin });
    const listed = (await list.json()) as { total: number; data: Record<string, unknown>[] };
    expect(listed.total).toBe(1);
    expect(listed.data[0]).toMatchObject({ clientId: data.clientId, revokedAt: null });
    expect(listed.data[0]?.lastUsedAt).toEqual(expect.any(String));
    expect(JSON.stringify(listed)).not.toContain(data.clientSecret);
  });

  it("lists clients with paging, sorting, search and filters", async () => {
    const page = await t.request("/api/admin/api-clients?sort=name&orderBy=asc&limit=1", { cookie: admin });
    const body = (await page.json()) as {
      success: boolean;
      total: number;
      data: { name: string }[];
      error: null;
    };
    expect(body.success).toBe(true);
    expect(body.error).toBeNull();
    expect(body.data).toHaveLength(1);
    expect(body.total).toBeGreaterThanOrEqual(2);

    const filtered = await t.request(
      `/api/admin/api-clients?filter=${encodeURIComponent("clientId='demo-sis'")}`,
      {
        cookie: admin,
      },
    );
    const demo = (await filtered.json()) as { total: number; data: { name: string; scopes: string[] }[] };
    expect(demo.total).toBe(1);
    expect(demo.data[0]?.name).toBe("Demo SIS");
    expect(demo.data[0]?.scopes).toHaveLength(3);

    const badFilter = await t.request(`/api/admin/api-clients?filter=${encodeURIComponent("secret='x'")}`, {
      cookie: admin,
    });
    expect(badFilter.status).toBe(400);
    const badSort = await t.request("/api/admin/api-clients?sort=secretHash", { cookie: admin });
    expect(badSort.status).toBe(400);
  });

  it("revokes a client: its tokens stop working at once and it gets no new ones", async () => {
    const created = await t.request("/api/admin/api-clients", {
      cookie: admin,
      json: { name: "Old SIS", scopes: [ONEROSTER_SCOPES.core] },
    });
    const { data } = (await created.json()) as {
      data: { id: string; clientId: string; clientSecret: string };
    };
    const credentials = { ...grant, client_id: data.clientId, client_secret: data.clientSecret };
    const token = ((await (await tokenRequest(t, credentials)).json()) as TokenAnswer).access_token;
    expect((await readUsers(token)).status).toBe(200);

    const revoked = await t.request(`/api/admin/api-clients/${data.id}`, { method: "DELETE", cookie: admin });
    expect(revoked.status).toBe(200);
    expect(((await revoked.json()) as { data: { revokedAt: string } }).data.revokedAt).toEqual(
      expect.any(String),
    );

    expect((await readUsers(token)).status).toBe(401);
    const again = await tokenRequest(t, credentials);
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ error: "invalid_client" });

    const twice = await t.request(`/api/admin/api-clients/${data.id}`, { method: "DELETE", cookie: admin });
    expect(twice.status).toBe(404);
    const listed = await t.request(
      `/api/admin/api-clients?filter=${encodeURIComponent("status='revoked'")}`,
      {
        cookie: admin,
      },
    );
    expect(((await listed.json()) as { data: { id: string }[] }).data.map((client) => client.id)).toContain(
      data.id,
    );
  });

  it("answers 404 to an unknown or malformed client id, in the reader's language", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      const response = await t.request(`/api/admin/api-clients/${id}`, { method: "DELETE", cookie: admin });
      expect(response.status).toBe(404);
      expect((await response.json()).message).toBe(
        id === "not-a-uuid" ? "No API client has this id" : "No active API client has this id",
      );
      const inSpanish = await t.request(`/api/admin/api-clients/${id}`, {
        method: "DELETE",
        cookie: admin,
        headers: { "accept-language": "es" },
      });
      expect(inSpanish.status).toBe(404);
      expect(await inSpanish.json()).toMatchObject({
        code: "not_found",
        message:
          id === "not-a-uuid"
            ? "No hay ningún cliente de API con este id"
            : "No hay ningún cliente de API activo con este id",
      });
    }
  });

  it("keeps the token endpoint's RFC 6749 errors, with their English descriptions, whatever the language", async () => {
    const response = await tokenRequest(
      t,
      { ...grant, client_id: "dash-nobody", client_secret: "wrong" },
      { "accept-language": "es" },
    );
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: "invalid_client",
      error_description: "Unknown client, wrong secret or revoked client",
    });
  });

  it.each([
    [{ name: "", scopes: [ONEROSTER_SCOPES.core] }, "Name the client"],
    [{ name: "No scopes", scopes: [] }, "at least one scope"],
    [{ name: "Bad scope", scopes: ["roster.everything"] }, "OneRoster scopes"],
  ])("refuses a client without a name or valid scopes (%#)", async (json, message) => {
    const response = await t.request("/api/admin/api-clients", { cookie: admin, json });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain(message);
  });

  it("answers 401 without a session", async () => {
    expect((await t.request("/api/admin/api-clients")).status).toBe(401);
  });

  it("tells other roles why, in the reader's language", async () => {
    const cookie = await t.signIn("guide@dash.demo");
    const english = await t.request("/api/admin/api-clients", { cookie });
    expect((await english.json()).message).toBe("Your role does not allow you to manage API clients");
    const spanish = await t.request("/api/admin/api-clients", {
      cookie,
      headers: { "accept-language": "es" },
    });
    expect(spanish.status).toBe(403);
    expect(await spanish.json()).toMatchObject({
      code: "forbidden",
      message: "Su rol no le permite administrar los clientes de API",
    });
  });

  it.each(["guide@dash.demo", "student@dash.demo", "parent@dash.demo", "proctor@dash.demo"])(
    "answers 403 to %s for every action",
    async (email) => {
      const cookie = await t.signIn(email);
      expect((await t.request("/api/admin/api-clients", { cookie })).status).toBe(403);
      const create = await t.request("/api/admin/api-clients", {
        cookie,
        json: { name: "Sneaky", scopes: [ONEROSTER_SCOPES.full] },
      });
      expect(create.status).toBe(403);
      const [demo] = await t.db.select().from(apiClients).where(eq(apiClients.clientId, "demo-sis"));
      const revoke = await t.request(`/api/admin/api-clients/${demo?.id}`, { method: "DELETE", cookie });
      expect(revoke.status).toBe(403);
    },
  );
});
