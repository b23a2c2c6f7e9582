import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./test/harness";

/** The QTI embeds may be framed by any site; every other page, file and answer by none. */

let t: TestApp;
let webRoot: string;
let student: string;

beforeAll(async () => {
  webRoot = mkdtempSync(path.join(tmpdir(), "dash-embed-"));
  mkdirSync(path.join(webRoot, "assets"));
  writeFileSync(path.join(webRoot, "index.html"), "<!doctype html><title>Dash</title><div id=root></div>");
  writeFileSync(path.join(webRoot, "assets", "index-abc123.js"), "console.log('dash');");
  t = await createTestApp({ webRoot });
  student = await t.signIn("student@dash.demo");
});
afterAll(async () => {
  await t.close();
  rmSync(webRoot, { recursive: true, force: true });
});

const EMBEDS = [
  "/qti-embed",
  "/qti-embed/",
  "/qti-embed/choice-1",
  "/qti-embed/no-such-item?x=1",
  "/qti-stimulus-embed",
  "/qti-stimulus-embed/passage.1",
];

function expectTheAppPolicy(csp: string) {
  for (const directive of [
    "default-src 'self'",
    "script-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ])
    expect(csp).toContain(directive);
  expect(csp).not.toContain("unsafe-eval");
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
}

describe("the QTI embeds", () => {
  it.each(EMBEDS)("%s may be framed by any site, without a session", async (page) => {
    const response = await t.request(page);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("<div id=root>");
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors *");
    expect(csp).not.toContain("frame-ancestors 'none'");
    expectTheAppPolicy(csp);
    // X-Frame-Options has no "any site": sent at all, it would refuse the frame.
    expect(response.headers.get("x-frame-options")).toBeNull();
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("keep their policy for a signed-in visitor", async () => {
    const response = await t.request("/qti-embed/choice-1", { cookie: student });
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors *");
    expect(response.headers.get("x-frame-options")).toBeNull();
  });
});

describe("every other page", () => {
  it.each([
    ["/login", null],
    ["/app", "student"],
    ["/app/goals", "student"],
    ["/qti-embedded", "student"],
    ["/qti-embeds/choice-1", "student"],
    ["/app/qti-embed/choice-1", "student"],
    ["/assets/index-abc123.js", null],
    ["/api/health", null],
  ] as const)("%s refuses every frame", async (page, who) => {
    const response = await t.request(page, who ? { cookie: student } : {});
    expect(response.status).toBe(200);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expectTheAppPolicy(csp);
    expect(response.headers.get("x-frame-options")).toBe("DENY");
  });

  it("still sends an anonymous visitor of a page that is not an embed to sign in", async () => {
    const response = await t.request("/qti-embedded");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login?redirect=%2Fqti-embedded");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
  });
});
