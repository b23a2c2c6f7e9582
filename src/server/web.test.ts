import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./test/harness";

let t: TestApp;
let webRoot: string;
let cookie: string;
beforeAll(async () => {
  webRoot = mkdtempSync(path.join(tmpdir(), "dash-web-"));
  mkdirSync(path.join(webRoot, "assets"));
  writeFileSync(path.join(webRoot, "index.html"), "<!doctype html><title>Dash</title><div id=root></div>");
  writeFileSync(path.join(webRoot, "assets", "index-abc123.js"), "console.log('dash')");
  t = await createTestApp({ webRoot });
  cookie = await t.signIn("guide@dash.demo");
});
afterAll(async () => {
  await t.close();
  rmSync(webRoot, { recursive: true, force: true });
});

describe("page visits", () => {
  it("send a visitor without a session to sign in, keeping the path, search, schoolId and role", async () => {
    const response = await t.request("/app/learning-metrics?view=weekly&schoolId=s1&role=teacher");
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location") ?? "", "http://x");
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("redirect")).toBe(
      "/app/learning-metrics?view=weekly&schoolId=s1&role=teacher",
    );
    expect(location.searchParams.get("schoolId")).toBe("s1");
    expect(location.searchParams.get("role")).toBe("teacher");
  });

  it.each([
    "/login",
    "/login?error=access_denied",
    "/reset-password?token=reset_abc",
    "/qti-embed/item-1",
    "/qti-stimulus-embed/passage-1",
  ])("serve the public page %s without a session", async (page) => {
    const response = await t.request(page);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("<title>Dash</title>");
  });

  it("serve the page that takes a one-time token with no Referer to pass it on, signed in or not", async () => {
    for (const signedIn of [undefined, cookie]) {
      const response = await t.request("/reset-password?token=reset_abc", { cookie: signedIn });
      expect(response.status).toBe(200);
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    }
  });

  it("serve the app to a signed-in user, never cached", async () => {
    const response = await t.request("/app/learning-metrics", { cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("send the site root to the dashboard or to sign-in", async () => {
    expect((await t.request("/")).headers.get("location")).toBe("/login");
    expect((await t.request("/", { cookie })).headers.get("location")).toBe("/app");
  });
});

describe("files", () => {
  it("serve hashed assets with a long cache life and answer 404 for missing ones", async () => {
    const asset = await t.request("/assets/index-abc123.js");
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toContain("immutable");
    expect((await t.request("/assets/missing-file.js")).status).toBe(404);
  });

  it("never serve files outside the build", async () => {
    for (const attempt of ["/../package.json", "/%2e%2e/package.json", "/assets/..%2f..%2fpackage.json"]) {
      const response = await t.request(attempt, { cookie });
      expect(await response.text()).not.toContain('"name": "dash"');
    }
  });
});
