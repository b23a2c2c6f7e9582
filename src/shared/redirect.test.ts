import { describe, expect, it } from "vitest";
import { isPublicPath, loginUrlFor, safeRedirectPath } from "./redirect";

describe("safeRedirectPath", () => {
  it.each([
    ["/app", "/app"],
    ["/app/learning-metrics?view=weekly&schoolId=s1", "/app/learning-metrics?view=weekly&schoolId=s1"],
    ["/app/child/42#today", "/app/child/42#today"],
  ])("keeps the same-origin path %s", (target, expected) => {
    expect(safeRedirectPath(target)).toBe(expected);
  });

  it.each([
    "https://evil.example/",
    "//evil.example/path",
    "/\\evil.example",
    "/\t/evil.example",
    "javascript:alert(1)",
    "app",
    "",
    null,
    undefined,
    "/login",
    "/login?redirect=/app",
    "/.//evil.example",
    "/./\\evil.example",
    "/..//evil.example",
    "/a/..//evil.example",
    "/%2F%2Fevil.example",
    "/%2f/evil.example",
    "/%5Cevil.example",
    "/%5C%5Cevil.example",
    "/.%2F%2Fevil.example",
    "/\\/evil.example",
    "/app\\..\\..\\evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "/.\t//evil.example",
    "/\u007f/evil.example",
    "/%E0%A4%A",
    "/%2e/%2fevil.example",
  ])("refuses %j", (target) => {
    expect(safeRedirectPath(target)).toBeNull();
  });

  it("never answers a protocol-relative or absolute URL, whatever the input", () => {
    const pieces = ["/", "\\", ".", "..", "%2F", "%2f", "%5C", "%2e", "\t", "evil.example", "app", "?", "#"];
    const inputs = pieces.flatMap((a) => pieces.flatMap((b) => pieces.map((c) => `/${a}${b}${c}`)));
    for (const input of inputs) {
      const answer = safeRedirectPath(input);
      if (answer === null) continue;
      expect(answer).toMatch(/^\/(?![/\\])/);
      expect(new URL(answer, "http://dash.invalid").origin).toBe("http://dash.invalid");
    }
  });
});

describe("loginUrlFor", () => {
  it("keeps the path and search as redirect and copies schoolId and role", () => {
    const url = new URL(
      loginUrlFor("/app/learning-metrics?view=weekly&schoolId=s1&role=teacher"),
      "http://x",
    );
    expect(url.pathname).toBe("/login");
    expect(url.searchParams.get("redirect")).toBe(
      "/app/learning-metrics?view=weekly&schoolId=s1&role=teacher",
    );
    expect(url.searchParams.get("schoolId")).toBe("s1");
    expect(url.searchParams.get("role")).toBe("teacher");
  });

  it("sends a plain /app visit to a plain sign-in page", () => {
    expect(loginUrlFor("/app")).toBe("/login");
  });
});

describe("isPublicPath", () => {
  it.each([
    "/login",
    "/reset-password",
    "/api/health",
    "/qti-embed",
    "/qti-embed/item-1",
    "/qti-stimulus-embed/s-1",
  ])("%s is public", (path) => {
    expect(isPublicPath(path)).toBe(true);
  });

  it.each(["/app", "/protected", "/course-builder/c1", "/qti-embedded", "/loginx", "/reset-password/x"])(
    "%s needs a session",
    (path) => {
      expect(isPublicPath(path)).toBe(false);
    },
  );
});
