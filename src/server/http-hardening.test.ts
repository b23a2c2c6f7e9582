import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./test/harness";

let t: TestApp;
let webRoot: string;
let admin: string;
const SCRIPT = `console.log(${JSON.stringify("dash ".repeat(400))});`;

beforeAll(async () => {
  webRoot = mkdtempSync(path.join(tmpdir(), "dash-hardening-"));
  mkdirSync(path.join(webRoot, "assets"));
  writeFileSync(path.join(webRoot, "index.html"), "<!doctype html><title>Dash</title><div id=root></div>");
  writeFileSync(path.join(webRoot, "assets", "index-abc123.js"), SCRIPT);
  writeFileSync(path.join(webRoot, "assets", "index-abc123.js.gz"), gzipSync(SCRIPT));
  t = await createTestApp({ webRoot, env: { TRUST_PROXY: "true" } });
  admin = await t.signIn("admin@dash.demo");
});
afterAll(async () => {
  await t.close();
  rmSync(webRoot, { recursive: true, force: true });
});

describe("security headers", () => {
  it.each(["/api/health", "/api/auth/me", "/login", "/assets/index-abc123.js", "/no-such-file.png"])(
    "are on the answer to %s",
    async (page) => {
      const response = await t.request(page);
      const csp = response.headers.get("content-security-policy") ?? "";
      for (const directive of [
        "default-src 'self'",
        "script-src 'self'",
        "img-src 'self' data: https:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ])
        expect(csp).toContain(directive);
      expect(csp).not.toContain("unsafe-eval");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(response.headers.get("cross-origin-opener-policy")).toBe("same-origin");
      // Served over plain http here: no HSTS, which would lock a local install out.
      expect(response.headers.get("strict-transport-security")).toBeNull();
    },
  );

  it("keep API, OAuth and OneRoster answers out of caches, and hashed assets cached", async () => {
    for (const page of ["/api/health", "/api/no-such-route", "/ims/oneroster/rostering/v1p2/users"]) {
      expect((await t.request(page)).headers.get("cache-control")).toBe("no-store");
    }
    const token = await t.request("/oauth/token", {
      method: "POST",
      body: "grant_type=client_credentials",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(token.headers.get("cache-control")).toBe("no-store");
    expect((await t.request("/assets/index-abc123.js")).headers.get("cache-control")).toBe(
      "public, max-age=31536000, immutable",
    );
  });

  it("let pages frame only the privacy-enhanced video players besides Dash itself", async () => {
    const csp = (await t.request("/login")).headers.get("content-security-policy") ?? "";
    const frameSources = /(?:^|; )frame-src ([^;]*)/.exec(csp)?.[1]?.split(" ");
    expect(frameSources).toEqual(["'self'", "https://www.youtube-nocookie.com", "https://player.vimeo.com"]);
  });

  it("add Strict-Transport-Security only over https", async () => {
    const response = await t.request("/api/health", { headers: { "x-forwarded-proto": "https" } });
    expect(response.headers.get("strict-transport-security")).toMatch(/^max-age=\d{7,}; includeSubDomains$/);
  });
});

describe("cross-site request refusal", () => {
  const logout = (headers: Record<string, string>) =>
    t.request("/api/auth/logout", { method: "POST", headers });

  it("takes a same-origin request, by Origin and by Sec-Fetch-Site", async () => {
    expect((await logout({ origin: "http://localhost" })).status).toBe(200);
    expect((await logout({ "sec-fetch-site": "same-origin", origin: "http://localhost" })).status).toBe(200);
    expect((await logout({ "sec-fetch-site": "none" })).status).toBe(200);
  });

  it("refuses another port, scheme or host, and cross-site fetches", async () => {
    const foreign: Record<string, string>[] = [
      { origin: "http://localhost:3001" },
      { origin: "https://localhost" },
      { origin: "http://evil.example" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
    ];
    for (const headers of foreign) {
      const response = await logout(headers);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ code: "forbidden", message: "Cross-site request refused" });
    }
  });

  it("takes the origin a trusted proxy forwards", async () => {
    const headers = { "x-forwarded-proto": "https", "x-forwarded-host": "dash.school.example" };
    expect((await logout({ ...headers, origin: "https://dash.school.example" })).status).toBe(200);
    expect((await logout({ ...headers, origin: "http://dash.school.example" })).status).toBe(403);
  });

  it("refuses sign-in from a form, text or a foreign page", async () => {
    const body = JSON.stringify({ email: "admin@dash.demo", password: "dash-demo" });
    for (const contentType of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      const response = await t.request("/api/auth/login", { body, headers: { "content-type": contentType } });
      expect(response.status).toBe(415);
      expect((await response.json()).code).toBe("unsupported_media_type");
    }
    const noType = await t.app.request("/api/auth/login", { method: "POST", body });
    expect(noType.status).toBe(415);
    const foreign = await t.request("/api/auth/login", {
      json: { email: "admin@dash.demo", password: "dash-demo" },
      headers: { origin: "http://localhost:3001" },
    });
    expect(foreign.status).toBe(403);
  });

  it("takes the roster import's zip, and only a zip", async () => {
    const json = await t.request("/api/admin/roster/import?dryRun=true", { cookie: admin, json: {} });
    expect(json.status).toBe(415);
    expect((await json.json()).message).toContain("application/zip");
    const zip = await t.request("/api/admin/roster/import?dryRun=true", {
      method: "POST",
      cookie: admin,
      body: "not a zip",
      headers: { "content-type": "application/zip" },
    });
    expect(zip.status).toBe(400);
  });

  it("takes XML or a form at the QTI import, and nothing else", async () => {
    const item =
      '<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="guard"/>';
    for (const contentType of ["application/xml", "text/xml; charset=utf-8"]) {
      const response = await t.request("/api/qti/items", {
        cookie: admin,
        body: item,
        headers: { "content-type": contentType },
      });
      expect(response.status).toBe(200);
    }
    const json = await t.request("/api/qti/items", { cookie: admin, json: {} });
    expect(json.status).toBe(415);
    expect((await json.json()).message).toContain("application/xml, text/xml, multipart/form-data");
    const plain = await t.request("/api/qti/items", {
      cookie: admin,
      body: item,
      headers: { "content-type": "text/plain" },
    });
    expect(plain.status).toBe(415);
    // Its JSON routes stay JSON only.
    const patch = await t.request("/api/qti/items/guard", {
      method: "PATCH",
      cookie: admin,
      body: "<public/>",
      headers: { "content-type": "application/xml" },
    });
    expect(patch.status).toBe(415);
  });

  it("leaves learning apps, which sign with their key, to the key check", async () => {
    const response = await t.request("/api/ingest/activity", {
      json: { events: [] },
      headers: { origin: "https://app.example", authorization: "Bearer unknown" },
    });
    expect(response.status).toBe(401);
  });
});

describe("compression", () => {
  it("gzips a JSON answer for a client that takes gzip, and it decodes to the same JSON", async () => {
    const plain = await t.request("/api/admin/users?limit=100", { cookie: admin });
    const plainBody = await plain.text();
    expect(plainBody.length).toBeGreaterThan(1024);
    expect(plain.headers.get("content-encoding")).toBeNull();

    const zipped = await t.request("/api/admin/users?limit=100", {
      cookie: admin,
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("vary")).toContain("Accept-Encoding");
    const bytes = Buffer.from(await zipped.arrayBuffer());
    expect(bytes.length).toBeLessThan(plainBody.length);
    expect(JSON.parse(gunzipSync(bytes).toString("utf8"))).toEqual(JSON.parse(plainBody));
  });

  it("leaves a small answer, and a client that refuses gzip, with the plain JSON", async () => {
    const small = await t.request("/api/health", { headers: { "accept-encoding": "gzip" } });
    expect(small.headers.get("content-encoding")).toBeNull();
    expect(small.headers.get("vary")).toContain("Accept-Encoding");
    expect(await small.json()).toMatchObject({ ok: true });

    const refused = await t.request("/api/admin/users?limit=100", {
      cookie: admin,
      headers: { "accept-encoding": "gzip;q=0, identity" },
    });
    expect(refused.headers.get("content-encoding")).toBeNull();
    expect((await refused.json()).data).toBeDefined();
  });

  it("weakens a gzipped answer's ETag, and the weak tag still gets a 304", async () => {
    const guide = await t.signIn("guide@dash.demo");
    const headers = { "accept-encoding": "gzip" };
    const first = await t.request("/api/guide/students", { cookie: guide, headers });
    expect(first.status).toBe(200);
    expect(first.headers.get("content-encoding")).toBe("gzip");
    const tag = first.headers.get("etag") ?? "";
    expect(tag).toMatch(/^W\/"/);

    const again = await t.request("/api/guide/students", {
      cookie: guide,
      headers: { ...headers, "if-none-match": tag },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  it("serves a built file precompressed, as it was written", async () => {
    const response = await t.request("/assets/index-abc123.js", { headers: { "accept-encoding": "gzip" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("vary")).toContain("Accept-Encoding");
    expect(gunzipSync(Buffer.from(await response.arrayBuffer())).toString("utf8")).toBe(SCRIPT);

    const plain = await t.request("/assets/index-abc123.js");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(SCRIPT);
  });
});
