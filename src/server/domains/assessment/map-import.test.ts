import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MapImportReport, StudentMapResults } from "../../../shared/contracts/assessment";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { zipOf } from "../rostering/bulk/test-support";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const AVA = demoId("student-ava");
const LEO = demoId("student-leo");

let t: TestApp;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
  // Only the fixtures' results: the demo school's own are left out.
  for (const table of ["map_results", "map_growth", "map_imports", "map_unmatched_rows"])
    await t.db.execute(sql.raw(`delete from ${table}`));
  // The roster's identifier is how a school's StudentIDs usually match.
  await t.db.execute(sql`update users set identifier = 'B2001' where sourced_id = ${AVA}`);
});
afterAll(() => t.close());

async function upload(fileName: string, dryRun: boolean, who = "admin", bytes?: Buffer) {
  const form = new FormData();
  form.set("dryRun", String(dryRun));
  form.set(
    "file",
    new Blob([new Uint8Array(bytes ?? readFileSync(path.join(FIXTURES, fileName)))]),
    fileName,
  );
  const response = await t.request("/api/assessment/map/imports", {
    method: "POST",
    body: form,
    cookie: cookies[who],
  });
  return {
    status: response.status,
    body: (await response.json()) as MapImportReport & { applied: boolean; message?: string },
  };
}

const storedCount = async () =>
  (await queryRows<{ count: number }>(t.db, sql`select count(*)::int as count from map_results`))[0]?.count;

describe("the MAP import", () => {
  it("reads a post-2015 export, stores nothing on a dry run, stores once, and changes nothing the second time", async () => {
    const dry = await upload("map-2015.csv", true);
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, applied: false, errors: [] });
    expect(dry.body.rows).toMatchObject({ read: 9, imported: 3, unmatched: 6, rejected: 0 });
    expect(await storedCount()).toBe(0);

    const applied = await upload("map-2015.csv", false);
    expect(applied.body).toMatchObject({
      applied: true,
      rows: { read: 9, imported: 3, updated: 0, unchanged: 0 },
    });
    expect(applied.body.unmatched.map((row) => row.studentId)).toEqual(
      expect.arrayContaining(["B2002", "B2003"]),
    );
    expect(await storedCount()).toBe(3);

    const again = await upload("map-2015.csv", false);
    expect(again.body.rows).toMatchObject({ imported: 0, updated: 0, unchanged: 3, unmatched: 6 });
    expect(await storedCount()).toBe(3);
  });

  it("imports the held rows of a StudentID an administrator links, and matches it first next time", async () => {
    const linked = await t.request("/api/assessment/map/unmatched/link", {
      json: { nweaStudentId: "B2002", studentId: LEO },
      cookie: cookies.admin,
    });
    expect(linked.status).toBe(200);
    expect(await linked.json()).toEqual({ imported: 3 });
    const held = (await (
      await t.request("/api/assessment/map/unmatched", { cookie: cookies.admin })
    ).json()) as {
      rows: { studentId: string }[];
    };
    expect(held.rows.map((row) => row.studentId)).not.toContain("B2002");
    const again = await upload("map-2015.csv", false);
    expect(again.body.rows).toMatchObject({ unchanged: 6, unmatched: 3 });
  });

  it("refuses the whole file when a row cannot be read, naming the line and column", async () => {
    const before = await storedCount();
    const result = await upload("map-bad.csv", false);
    expect(result.status).toBe(200);
    expect(result.body.applied).toBe(false);
    expect(result.body.rows.rejected).toBeGreaterThan(0);
    expect(result.body.errors[0]).toEqual({
      line: expect.any(Number),
      column: expect.any(String),
      message: expect.any(String),
    });
    expect(await storedCount()).toBe(before);
  });

  it("lists unmatched rows with the names of a CDF package's StudentsBySchool.csv", async () => {
    const zip = await zipOf({
      "AssessmentResults.csv": readFileSync(path.join(FIXTURES, "map-2013.csv")),
      "StudentsBySchool.csv": readFileSync(path.join(FIXTURES, "StudentsBySchool.csv")),
    });
    const result = await upload("cdf.zip", true, "admin", zip);
    expect(result.status).toBe(200);
    expect(result.body.errors).toEqual([]);
    expect(result.body.unmatched[0]).toMatchObject({ studentId: "C13001", school: "Cedar Hollow School" });
    expect(result.body.unmatched[0]?.name).toBeTruthy();
  });

  it("is for administrators, and says what is wrong with a form that is not one", async () => {
    expect((await upload("map-2015.csv", true, "guide")).status).toBe(403);
    const notForm = await t.request("/api/assessment/map/imports", {
      body: "plain",
      headers: { "content-type": "multipart/form-data" },
      cookie: cookies.admin,
    });
    expect(notForm.status).toBe(400);
    const form = new FormData();
    form.set("dryRun", "maybe");
    form.set("file", new Blob(["TermName\n"]), "x.csv");
    const badFlag = await t.request("/api/assessment/map/imports", {
      method: "POST",
      body: form,
      cookie: cookies.admin,
    });
    expect(badFlag.status).toBe(400);
  });
});

describe("the MAP growth bounty", () => {
  it("pays once per window, scaled by growth against the projection, when winter and spring results arrive", async () => {
    const growthEntries = () =>
      queryRows<{ amount: number; period: string }>(
        t.db,
        sql`select amount::int as amount, period from reward_ledger
          where student_sourced_id = ${AVA} and rule_key = 'map_growth' order by period`,
      );
    await t.jobs.runDueJobs();
    // Fall 201, winter 207 against a projection of 7: 6/7 of the projection earns 86 of 200.
    // Spring 212 against 11: the projection itself earns half, 100.
    expect(await growthEntries()).toEqual([
      { amount: 100, period: "map:Mathematics:2016:fallToSpring" },
      { amount: 86, period: "map:Mathematics:2016:fallToWinter" },
    ]);
    await upload("map-2015.csv", false);
    await t.jobs.runDueJobs();
    expect(await growthEntries()).toHaveLength(2);
    const ledger = await t.request(`/api/rewards/students/${AVA}/ledger?limit=50`, {
      cookie: cookies.student,
    });
    const reasons = ((await ledger.json()).data as { reason: string }[]).map((entry) => entry.reason);
    expect(reasons).toContain("Mathematics on MAP: 1× the projected growth from fall to spring");
  });
});

describe("a student's MAP results", () => {
  it("show every test with growth across the terms, to the student, the family, the Guide and administrators", async () => {
    for (const who of ["student", "parent", "guide", "admin"]) {
      const response = await t.request(`/api/assessment/map/students/${AVA}`, { cookie: cookies[who] });
      expect(response.status).toBe(200);
      const results = (await response.json()) as StudentMapResults;
      const [subject] = results.subjects;
      expect(subject?.tests.map((test) => test.season)).toEqual(["fall", "winter", "spring"]);
      const fallToSpring = subject?.growth.find((growth) => growth.window === "fallToSpring");
      expect(fallToSpring?.observed).toBe((subject?.tests[2]?.rit ?? 0) - (subject?.tests[0]?.rit ?? 0));
    }
  });

  it("are not shown to people who may not see the student", async () => {
    const response = await t.request(`/api/assessment/map/students/${LEO}`, { cookie: cookies.student });
    expect(response.status).toBe(404);
    expect((await t.request(`/api/assessment/map/imports`, { cookie: cookies.student })).status).toBe(403);
  });
});
