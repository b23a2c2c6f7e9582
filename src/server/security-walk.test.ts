import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UPLOAD_BODY_TYPES } from "./app";
import { createTestApp, type TestApp } from "./test/harness";

/**
 * Walks every route the app registers with hostile input, so a route added later is covered
 * without being named here: no answer may be a 500, and the request guards hold everywhere.
 */

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signIn("admin@dash.demo");
});
afterAll(() => t.close());

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
// Routes that do not take a JSON body with a session; each names why.
const FORM_BODY_ROUTES = new Set(["POST /oauth/token"]); // OAuth 2.0 takes a form (RFC 6749 §4.4.2).
const BEARER_ONLY_PREFIX = "/api/ingest/"; // authenticated by a learning app's key, never a cookie.
// Routes that take an upload instead of JSON, and its type: the app's own list (UPLOAD_BODY_TYPES).

interface WalkedRoute {
  method: string;
  path: string;
}

function registeredRoutes(): WalkedRoute[] {
  const seen = new Set<string>();
  const routes: WalkedRoute[] = [];
  for (const { method, path } of t.app.routes) {
    // Middleware and catch-alls are registered as ALL; the routes themselves name their method.
    if (method === "ALL" || path.includes("*")) continue;
    const key = `${method} ${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    routes.push({ method, path });
  }
  return routes;
}

/** The route's path with each parameter (`:id`, `:id{regex}`) replaced by `value`. */
function fill(path: string, value: string): string {
  return path.replace(/:[A-Za-z0-9_]+(\{[^}]*\})?/g, value);
}

const hasParams = (route: WalkedRoute) => route.path.includes(":");
const HOSTILE_TEXTS = ["a\u0000b", "a\uD800b", "\uDC00"];
const HOSTILE_URL_PARTS = ["a%00b", "%ED%A0%80", "%FF"];

async function call(
  route: WalkedRoute,
  path: string,
  init: { json?: unknown; headers?: Record<string, string> } = {},
) {
  const response = await t.request(path, { method: route.method, cookie: admin, ...init });
  // Signing out or ending a view-as would leave the rest of the walk without its session.
  if (route.path.endsWith("/logout") && response.status < 400) admin = await t.signIn("admin@dash.demo");
  return response;
}

describe("every registered route", () => {
  it("has routes to walk", () => {
    const routes = registeredRoutes();
    expect(routes.length).toBeGreaterThan(50);
    expect(routes).toContainEqual({ method: "POST", path: "/api/auth/login" });
    expect(routes).toContainEqual({ method: "POST", path: "/oauth/token" });
  });

  it("answers 400 to a NUL or a broken character in a path parameter", async () => {
    const failures: string[] = [];
    for (const route of registeredRoutes().filter(hasParams)) {
      for (const part of HOSTILE_URL_PARTS) {
        const response = await call(route, fill(route.path, part));
        if (response.status !== 400)
          failures.push(`${route.method} ${route.path} (${part}): ${response.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("answers 400 to a NUL or a broken character in the query string", async () => {
    const failures: string[] = [];
    for (const route of registeredRoutes()) {
      for (const part of HOSTILE_URL_PARTS) {
        const response = await call(route, `${fill(route.path, "x")}?search=${part}&filter=${part}`);
        if (response.status !== 400)
          failures.push(`${route.method} ${route.path} (${part}): ${response.status}`);
        else expect((await response.json()).code).toBe("validation_failed");
      }
    }
    expect(failures).toEqual([]);
  });

  it("never answers 500 to NUL or lone surrogates in a JSON body", async () => {
    const failures: string[] = [];
    let refused = 0;
    const withBody = registeredRoutes().filter(
      (route) => STATE_CHANGING.has(route.method) && route.method !== "DELETE",
    );
    for (const route of withBody) {
      for (const text of HOSTILE_TEXTS) {
        const body = {
          name: text,
          email: text,
          password: text,
          title: text,
          reason: text,
          events: [{ eventId: text }],
          [text]: "key",
        };
        const response = await call(route, fill(route.path, "x"), { json: body });
        if (response.status >= 500) failures.push(`${route.method} ${route.path}: ${response.status}`);
        if (response.status === 400) refused++;
      }
    }
    expect(failures).toEqual([]);
    // Nearly every route with a body reads it: most must have refused the text itself.
    expect(refused).toBeGreaterThan(withBody.length);
  });

  it("never answers 500 to dates that cannot exist or numbers past 64 bits in the query", async () => {
    const failures: string[] = [];
    const impossible = [
      "startDate=2024-02-30&endDate=2024-99-99&date=2024-02-30&from=2024-99-99&to=2024-02-30&weekStart=2024-02-30",
      "offset=9223372036854775808&limit=99999999999999999999999&page=1e400&days=18446744073709551616",
      "offset=-1&limit=0&page=-5",
      "filter=dateLastModified%3E%272024-02-30%27",
      "filter=dateLastModified%3E%272024-99-99T00:00:00Z%27",
      "filter=birthDate%3D%272024-02-30%27",
      "filter=grades%3D%2799999999999999999999%27",
    ];
    for (const route of registeredRoutes().filter((route) => route.method === "GET")) {
      for (const query of impossible) {
        const response = await call(route, `${fill(route.path, "x")}?${query}`);
        if (response.status >= 500)
          failures.push(`${route.method} ${route.path}?${query}: ${response.status}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000); // Seven queries on every GET route, one after another: seconds alone, longer on a busy machine.

  it("answers 400 Nothing to change to a PATCH without a known field", async () => {
    const failures: string[] = [];
    for (const route of registeredRoutes().filter((route) => route.method === "PATCH")) {
      for (const body of [{}, { unknownField: 1 }]) {
        const response = await call(route, fill(route.path, "x"), { json: body });
        const answer = await response.json();
        if (response.status !== 400 || !String(answer.message).includes("Nothing to change"))
          failures.push(
            `${route.method} ${route.path} ${JSON.stringify(body)}: ${response.status} ${answer.message}`,
          );
      }
    }
    expect(failures).toEqual([]);
  });

  it("names the field of a NUL in the sign-in body", async () => {
    const response = await t.request("/api/auth/login", { json: { email: "a\u0000@b.c", password: "x" } });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.code).toBe("validation_failed");
    expect(body.issues).toEqual([{ path: "email", message: "must not contain a NUL character" }]);
  });

  it("answers 415 to a state-changing request that is not JSON", async () => {
    const failures: string[] = [];
    for (const route of registeredRoutes().filter((route) => STATE_CHANGING.has(route.method))) {
      if (FORM_BODY_ROUTES.has(`${route.method} ${route.path}`)) continue;
      for (const contentType of [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
      ]) {
        if ((UPLOAD_BODY_TYPES[route.path] ?? []).some((type) => contentType.startsWith(type))) continue;
        const response = await call(route, fill(route.path, "x"), {
          headers: { "content-type": contentType },
        });
        if (response.status !== 415)
          failures.push(`${route.method} ${route.path} (${contentType}): ${response.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("answers 403 to a state-changing request from another origin or site", async () => {
    const failures: string[] = [];
    const routes = registeredRoutes().filter(
      (route) =>
        STATE_CHANGING.has(route.method) &&
        route.path.startsWith("/api/") &&
        !route.path.startsWith(BEARER_ONLY_PREFIX),
    );
    for (const route of routes) {
      const foreignHeaders: Record<string, string>[] = [
        { origin: "http://localhost:3001" },
        { origin: "null" },
        { "sec-fetch-site": "cross-site" },
        { "sec-fetch-site": "same-site" },
      ];
      for (const headers of foreignHeaders) {
        const response = await call(route, fill(route.path, "x"), {
          headers: UPLOAD_BODY_TYPES[route.path]
            ? { ...headers, "content-type": UPLOAD_BODY_TYPES[route.path]?.[0] as string }
            : headers,
        });
        const body = await response.json();
        if (response.status !== 403 || body.message !== "Cross-site request refused")
          failures.push(`${route.method} ${route.path} (${JSON.stringify(headers)}): ${response.status}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
