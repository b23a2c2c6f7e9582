import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importReportSchema, importStreamLineSchema } from "../../../../shared/contracts/roster-bulk";
import { queryRows } from "../../../db/client";
import { createTestApp, type TestApp } from "../../../test/harness";
import { filesOf, fixture, manifestWith, rosterSnapshot, zipOf } from "./test-support";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const IMPORT = "/api/admin/roster/import";
const EXPORT = "/api/admin/roster/export";

function postZip(
  body: Uint8Array | string,
  cookie: string,
  options: { query?: string; accept?: string; language?: string } = {},
) {
  return t.app.request(`${IMPORT}${options.query ?? ""}`, {
    method: "POST",
    headers: {
      cookie,
      "content-type": "application/zip",
      ...(options.accept && { accept: options.accept }),
      ...(options.language && { "accept-language": options.language }),
    },
    body: typeof body === "string" ? body : new Blob([new Uint8Array(body)]),
  });
}

/** The school set as a delta, zipped: it adds to the demo school and removes nobody. */
async function schoolZip(extra: Record<string, string | Buffer> = {}) {
  const files = await filesOf(fixture("school-v1p2"));
  const modes = Object.fromEntries(
    ["orgs", "academicSessions", "courses", "classes", "users", "roles", "demographics", "enrollments"].map(
      (file) => [file, "delta"],
    ),
  );
  return zipOf({ ...files, "manifest.csv": await manifestWith("school-v1p2", modes), ...extra });
}

describe("who may import and export", () => {
  it("answers 401 without a session", async () => {
    expect((await postZip(await schoolZip(), "")).status).toBe(401);
    expect((await t.request(EXPORT)).status).toBe(401);
  });

  it.each([
    "guide@dash.demo",
    "student@dash.demo",
    "parent@dash.demo",
    "guardian@dash.demo",
    "proctor@dash.demo",
  ])("answers 403 to %s, and changes nothing", async (email) => {
    const cookie = await t.signIn(email);
    const before = await rosterSnapshot(t.db);
    const imported = await postZip(await schoolZip(), cookie);
    expect(imported.status).toBe(403);
    expect(await imported.json()).toMatchObject({ code: "forbidden" });
    expect((await t.request(EXPORT, { cookie })).status).toBe(403);
    expect(await rosterSnapshot(t.db)).toEqual(before);
  });

  it("answers 403 to an administrator viewing Dash as a student", async () => {
    const cookie = await t.signIn("admin@dash.demo");
    const [student] = await queryRows<{ id: string }>(
      t.db,
      sql`select sourced_id as id from users where email = 'student@dash.demo'`,
    );
    const started = await t.request("/api/auth/impersonation", {
      cookie,
      json: { userId: student?.id, reason: "checking the roster page" },
    });
    expect(started.status).toBe(200);
    expect((await postZip(await schoolZip(), cookie)).status).toBe(403);
    await t.request("/api/auth/impersonation", { cookie, method: "DELETE" });
  });
});

describe("what an import accepts", () => {
  let admin: string;
  beforeAll(async () => {
    admin = await t.signIn("admin@dash.demo");
  });

  it("answers 400 to a body that is not a zip, an empty body and a bad dryRun", async () => {
    const notZip = await postZip("sourcedId,name\n1,x\n", admin);
    expect(notZip.status).toBe(400);
    expect((await notZip.json()).message).toMatch(/not a \.zip archive/);
    const empty = await postZip(new Uint8Array(), admin);
    expect(empty.status).toBe(400);
    expect((await empty.json()).message).toMatch(/request body/);
    const badFlag = await postZip(await schoolZip(), admin, { query: "?dryRun=maybe" });
    expect(badFlag.status).toBe(400);
    expect(await badFlag.json()).toMatchObject({ code: "validation_failed", issues: [{ path: "dryRun" }] });
  });

  it("answers 413 to a body announced as larger than 200 MB, before reading it", async () => {
    const response = await t.app.request(IMPORT, {
      method: "POST",
      headers: {
        cookie: admin,
        "content-type": "application/zip",
        "content-length": String(201 * 1024 * 1024),
      },
      body: "PK",
    });
    expect(response.status).toBe(413);
    expect((await response.json()).message).toBe("The .zip is larger than 200 MB");
    const spanish = await t.app.request(IMPORT, {
      method: "POST",
      headers: {
        cookie: admin,
        "content-type": "application/zip",
        "content-length": String(201 * 1024 * 1024),
        "accept-language": "es",
      },
      body: "PK",
    });
    expect(spanish.status).toBe(413);
    expect((await spanish.json()).message).toBe("El .zip pesa más de 200 MB");
  });

  it("reports the set's problems, line by line, in the reader's language", async () => {
    const files = await filesOf(fixture("school-v1p2"));
    const users = (files["users.csv"] as string).replace("hana.lee@fixture.school", "hana.lee");
    const zip = await schoolZip({ "users.csv": users, "photo.jpg": "not a csv" });
    const problemsIn = async (language?: string) => {
      const response = await postZip(zip, admin, { query: "?dryRun=true", language });
      expect(response.status).toBe(200);
      const report = importReportSchema.parse(await response.json());
      expect(report).toMatchObject({ ok: false, applied: false, errorCount: 1, warningCount: 1 });
      return report.problems.map(({ file, line, column, message }) => ({ file, line, column, message }));
    };
    expect(await problemsIn()).toEqual([
      { file: "users.csv", line: 2, column: "email", message: "hana.lee is not an email address" },
      { file: "photo.jpg", line: null, column: null, message: "Not a CSV file: skipped" },
    ]);
    expect(await problemsIn("es")).toEqual([
      {
        file: "users.csv",
        line: 2,
        column: "email",
        message: "hana.lee no es una dirección de correo electrónico",
      },
      { file: "photo.jpg", line: null, column: null, message: "No es un archivo CSV: se omitió" },
    ]);
  });

  it("takes a .zip larger than the API's 1 MB limit", async () => {
    const padding = randomBytes(2 * 1024 * 1024);
    const zip = await schoolZip({ "photo.jpg": padding });
    expect(zip.length).toBeGreaterThan(2 * 1024 * 1024);
    const response = await postZip(zip, admin, { query: "?dryRun=true" });
    expect(response.status).toBe(200);
    const report = importReportSchema.parse(await response.json());
    expect(report).toMatchObject({ ok: true, dryRun: true, applied: false });
    expect(report.problems).toEqual([
      expect.objectContaining({ file: "photo.jpg", message: "Not a CSV file: skipped" }),
    ]);
  });
});

describe("an administrator's import", () => {
  let admin: string;
  beforeAll(async () => {
    admin = await t.signIn("admin@dash.demo");
  });

  it("previews without changing anything", async () => {
    const before = await rosterSnapshot(t.db);
    const response = await postZip(await schoolZip(), admin, { query: "?dryRun=true" });
    expect(response.status).toBe(200);
    const report = importReportSchema.parse(await response.json());
    expect(report).toMatchObject({ ok: true, dryRun: true, applied: false });
    expect(report.files.find((file) => file.file === "users.csv")).toMatchObject({ created: 8 });
    expect(await rosterSnapshot(t.db)).toEqual(before);
  });

  it("streams progress then the report when asked for JSON lines, and applies the set", async () => {
    const response = await postZip(await schoolZip(), admin, { accept: "application/x-ndjson" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/x-ndjson");
    const lines = (await response.text())
      .trim()
      .split("\n")
      .map((line) => importStreamLineSchema.parse(JSON.parse(line)));
    const last = lines.at(-1);
    expect(last?.type).toBe("report");
    if (last?.type !== "report") return;
    expect(last.report).toMatchObject({ ok: true, applied: true });
    const progress = lines.filter((line) => line.type === "progress");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.map((line) => line.fraction)).toEqual([...progress.map((line) => line.fraction)].sort());
    const [imported] = await queryRows<{ count: number }>(
      t.db,
      sql`select count(*)::int as count from users where sourced_id like 'fx-%' and status = 'active'`,
    );
    expect(imported?.count).toBe(8);
    expect(t.logLines.some((line) => line.includes("roster import"))).toBe(true);
  });

  it("refuses a set that would remove the administrator's own account, changing nothing", async () => {
    const before = await rosterSnapshot(t.db);
    const files = await filesOf(fixture("school-v1p2"));
    const zip = await zipOf({
      ...files,
      "manifest.csv": await manifestWith("school-v1p2", { users: "bulk", roles: "delta" }),
    });
    const response = await postZip(zip, admin);
    const report = importReportSchema.parse(await response.json());
    expect(report.ok).toBe(false);
    expect(report.problems).toContainEqual(
      expect.objectContaining({
        severity: "error",
        file: "users.csv",
        message: expect.stringContaining("remove your own account"),
      }),
    );
    expect(await rosterSnapshot(t.db)).toEqual(before);
  });

  it("refuses a set that would take away the administrator's own administrator role", async () => {
    const files = await filesOf(fixture("school-v1p2"));
    const zip = await zipOf({
      ...files,
      "manifest.csv": await manifestWith("school-v1p2", { users: "delta", roles: "bulk" }),
    });
    const report = importReportSchema.parse(
      await (await postZip(zip, admin, { query: "?dryRun=true" })).json(),
    );
    expect(report.problems).toContainEqual(
      expect.objectContaining({
        file: "roles.csv",
        message: expect.stringContaining("your own administrator role"),
      }),
    );
  });
});

describe("the export", () => {
  it("is a .zip download of the roster for administrators", async () => {
    const admin = await t.signIn("admin@dash.demo");
    const response = await t.request(EXPORT, { cookie: admin });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="oneroster-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 2).toString()).toBe("PK");
    const text = bytes.toString("latin1");
    for (const name of [
      "manifest.csv",
      "orgs.csv",
      "users.csv",
      "roles.csv",
      "enrollments.csv",
      "demographics.csv",
    ]) {
      expect(text).toContain(name);
    }
  });
});
