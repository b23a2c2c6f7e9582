import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiDocument, apiDocumentSchema } from "../../../shared/contracts/api-docs";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT } from "../../../shared/contracts/webhooks";
import { message, translate } from "../../lib/i18n";
import { createTestApp, type TestApp } from "../../test/harness";
import { answersChecked, checkAnswerAgainstDocument } from "./answer-check";
import { apiDocument } from "./document";
import { DOCUMENTED_OPERATIONS } from "./operations";

let t: TestApp;
let adminCookie: string;
beforeAll(async () => {
  t = await createTestApp();
  adminCookie = await t.signIn("admin@dash.demo");
});
afterAll(() => t.close());

/** `{id}` in the document is `:id` in Hono's routes. */
const honoPathOf = (path: string) => path.replaceAll(/\{([^}]+)\}/g, ":$1");
const PLACEHOLDER_ID = "00000000-0000-4000-8000-000000000000";

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1 by the official schema", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(apiDocument()));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("describes ingestion, incidents, webhooks, rewards, leaderboards, OAuth and health, and every event Dash sends", () => {
    const document = apiDocument();
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        "GET /api/health",
        "POST /api/ingest/activity",
        "POST /api/ingest/caliper",
        "POST /api/integrity/incidents",
        "GET /api/admin/webhooks",
        "POST /api/admin/webhooks",
        "PATCH /api/admin/webhooks/{id}",
        "DELETE /api/admin/webhooks/{id}",
        "GET /api/admin/webhooks/deliveries",
        "POST /api/admin/webhooks/deliveries/{id}/replay",
        "POST /api/admin/webhooks/deliveries/replay",
        "GET /api/admin/ingest-requests",
        "GET /api/rewards/students",
        "GET /api/rewards/students/{studentId}/ledger",
        "GET /api/rewards/ledger",
        "GET /api/rewards/items",
        "GET /api/leaderboards",
        "POST /oauth/token",
        "GET /api/admin/api-clients",
      ]),
    );
    expect(Object.keys(document.webhooks).sort()).toEqual(
      [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT].sort(),
    );
    const signature = document.webhooks["xp.awarded"]?.post.parameters?.find(
      (header) => header.name === "X-Dash-Signature",
    );
    expect(signature?.schema.pattern).toBe("^sha256=[0-9a-f]{64}$");
    // The activity batch's events are documented with the schema each event is judged by.
    expect(document.components.schemas.ActivityBatch).toMatchObject({
      properties: { events: { items: { $ref: "#/components/schemas/ActivityFact" } } },
    });
    // Every error of every operation has a body, and so has any status not listed.
    for (const methods of Object.values(document.paths))
      for (const operation of Object.values(methods))
        expect(operation.responses.default?.content).toBeDefined();
  });

  it("is served at /api/openapi.json without a session, and the browser may keep it", async () => {
    const response = await t.request("/api/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-cache");
    expect(response.headers.get("etag")).toBeTruthy();
    const served = apiDocumentSchema.parse(await response.json()) as ApiDocument;
    expect(served.openapi).toBe("3.1.0");
    expect(Object.keys(served.paths)).toEqual(Object.keys(apiDocument().paths));
    expect(served.components.securitySchemes.session?.name).toBe("dash_session");
  });
});

describe("every documented operation", () => {
  it("is a route the app has registered", () => {
    const registered = new Set(t.app.routes.map((route) => `${route.method} ${route.path}`));
    const missing = DOCUMENTED_OPERATIONS.map(
      (operation) => `${operation.method.toUpperCase()} ${honoPathOf(operation.path)}`,
    ).filter((route) => !registered.has(route));
    expect(missing).toEqual([]);
  });

  it("answers a real request itself instead of falling through to the catch-all", async () => {
    for (const operation of DOCUMENTED_OPERATIONS) {
      const path = operation.path.replaceAll(/\{[^}]+\}/g, PLACEHOLDER_ID);
      const method = operation.method.toUpperCase();
      const response = await t.request(path, {
        method,
        cookie: operation.security.includes("session") ? adminCookie : undefined,
        ...(method === "GET" || method === "DELETE" ? {} : { body: "{}" }),
      });
      const body = (await response.json()) as { message?: string };
      const catchAll = translate(message("common:noApiRoute", { method, path }), "en");
      expect(body.message, `${method} ${path}`).not.toBe(catchAll);
      expect(response.status, `${method} ${path}`).not.toBe(405);
    }
    // The answers above went through the harness's check against the document.
    expect(answersChecked()).toBeGreaterThanOrEqual(DOCUMENTED_OPERATIONS.length);
  });
});

describe("the check of the API tests' answers", () => {
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

  it("refuses an answer that strays from the document, naming the operation, status and problem", async () => {
    await expect(
      checkAnswerAgainstDocument("GET", "/api/health", json({ ok: "yes", db: "pglite" })),
    ).rejects.toThrow(/GET \/api\/health answered 200 .*body\/ok must be boolean/);
    // An answer with a field the contract does not have.
    await expect(
      checkAnswerAgainstDocument("GET", "/api/health?x=1", json({ ok: true, db: "pglite", extra: 1 })),
    ).rejects.toThrow(/additional properties/);
    // A status the operation does not list is held to the error body.
    await expect(
      checkAnswerAgainstDocument(
        "POST",
        "/api/admin/webhooks/deliveries/abc/replay",
        json({ replayed: 1 }, 418),
      ),
    ).rejects.toThrow(/answered 418 .*\(\/api\/admin\/webhooks\/deliveries\/\{id\}\/replay\)/);
  });

  it("takes a matching answer, and leaves undocumented paths and non-JSON answers alone", async () => {
    await checkAnswerAgainstDocument("GET", "/api/health", json({ ok: false, db: "postgres" }, 503));
    await checkAnswerAgainstDocument("GET", "/api/goals", json({ anything: true }));
    await checkAnswerAgainstDocument(
      "GET",
      "/api/rewards/ledger.csv",
      new Response("a,b\n", { status: 200 }),
    );
  });
});
