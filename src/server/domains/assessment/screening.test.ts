import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CsvImportReport, ScreeningList, ScreeningResult } from "../../../shared/contracts/assessment";
import { addDays, localDateOf, SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";

const AVA = demoId("student-ava");

let t: TestApp;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
});
afterAll(() => t.close());

async function call(who: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await t.request(`/api/assessment${path}`, { ...init, cookie: cookies[who] });
  const text = await response.text();
  const isJson = response.headers.get("content-type")?.includes("json");
  return { status: response.status, body: text && isJson ? JSON.parse(text) : text };
}

async function upload(who: string, csv: string, dryRun: boolean) {
  const form = new FormData();
  form.set("dryRun", String(dryRun));
  form.set("file", new Blob([csv], { type: "text/csv" }), "screening.csv");
  const response = await t.request("/api/assessment/screening/imports", {
    method: "POST",
    body: form,
    cookie: cookies[who],
  });
  return { status: response.status, body: (await response.json()) as CsvImportReport & { message?: string } };
}

const today = () => localDateOf(t.clock.now(), SCHOOL_TIME_ZONE);
const stored = async () =>
  (await queryRows<{ count: number }>(t.db, sql`select count(*)::int as count from screening_results`))[0]
    ?.count;

describe("screening results", () => {
  let added: ScreeningResult;

  it("are added one at a time by an administrator, once per applicant, subject, test and date", async () => {
    const input = {
      applicantName: "Nora Quinn",
      subject: "Math",
      grade: 4,
      rit: 212,
      testName: "MAP Screener",
      testedOn: addDays(today(), -5),
      notes: "Calm and focused",
    };
    const created = await call("admin", "/screening", { json: input });
    expect(created.status).toBe(201);
    added = created.body as ScreeningResult;
    expect(added).toMatchObject({ ...input, decision: "pending", student: null, recordedBy: "Alex Morgan" });
    const twice = await call("admin", "/screening", { json: input });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toContain("Nora Quinn's MAP Screener in Math");
  });

  it("refuse a date in the future, a RIT outside 100 to 350, an unknown decision and a link to a non-student", async () => {
    const base = {
      applicantName: "Omar Diaz",
      subject: "Reading",
      grade: 0,
      testName: "Screener",
      testedOn: today(),
    };
    const future = await call("admin", "/screening", { json: { ...base, testedOn: addDays(today(), 1) } });
    expect(future.status).toBe(400);
    expect(future.body.message).toContain("The test date cannot be in the future");
    expect((await call("admin", "/screening", { json: { ...base, rit: 99 } })).status).toBe(400);
    expect((await call("admin", "/screening", { json: { ...base, rit: 351 } })).status).toBe(400);
    expect((await call("admin", "/screening", { json: { ...base, decision: "maybe" } })).status).toBe(400);
    expect((await call("admin", "/screening", { json: { ...base, testedOn: "2025-02-30" } })).status).toBe(
      400,
    );
    const teacher = await call("admin", "/screening", {
      json: { ...base, studentId: demoId("guide-patel") },
    });
    expect(teacher.status).toBe(400);
    expect(teacher.body.issues[0]).toMatchObject({ path: "studentId" });
  });

  it("change their decision and notes, and link the applicant to a rostered student", async () => {
    const decided = await call("admin", `/screening/${added.id}`, {
      method: "PATCH",
      json: { decision: "admit" },
    });
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({ decision: "admit", notes: "Calm and focused" });
    const linked = await call("admin", `/screening/${added.id}`, {
      method: "PATCH",
      json: { studentId: AVA },
    });
    expect(linked.body.student).toEqual({ id: AVA, name: "Ava Johnson" });
    const unlinked = await call("admin", `/screening/${added.id}`, {
      method: "PATCH",
      json: { studentId: null, notes: null },
    });
    expect(unlinked.body).toMatchObject({ student: null, notes: null, decision: "admit" });
    expect((await call("admin", `/screening/${added.id}`, { method: "PATCH", json: {} })).status).toBe(400);
    expect(
      (await call("admin", "/screening/not-an-id", { method: "PATCH", json: { decision: "admit" } })).status,
    ).toBe(404);
    const missing = "00000000-0000-4000-8000-000000000000";
    expect(
      (await call("admin", `/screening/${missing}`, { method: "PATCH", json: { decision: "admit" } })).status,
    ).toBe(404);
  });

  it("are for administrators only", async () => {
    for (const who of ["guide", "student", "parent"]) {
      expect((await call(who, "/screening")).status).toBe(403);
      expect((await call(who, "/screening/export.csv")).status).toBe(403);
      expect(
        (await call(who, `/screening/${added.id}`, { method: "PATCH", json: { decision: "decline" } }))
          .status,
      ).toBe(403);
      expect((await upload(who, "applicantName\n", true)).status).toBe(403);
    }
    expect((await call("guide", "/screening", { json: { applicantName: "X" } })).status).toBe(403);
  });
});

describe("the screening import", () => {
  const file = [
    "applicantName,studentId,subject,grade,rit,testName,date,decision,notes",
    `Iris Park,,Math,K,150,MAP Screener,${addDays(localDateOf(new Date(), SCHOOL_TIME_ZONE), -10)},waitlist,`,
    `Iris Park,,Reading,K,,Reading Screener,${addDays(localDateOf(new Date(), SCHOOL_TIME_ZONE), -10)},,"Reads CVC words, some sight words"`,
    `Ava Johnson,student@dash.demo,Math,3,201,MAP Screener,1/15/2025,Admit,`,
  ].join("\n");

  it("says what would change, stores all rows, and changes nothing the second time", async () => {
    const before = await stored();
    const dry = await upload("admin", file, true);
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      dryRun: true,
      applied: false,
      errors: [],
      rows: { read: 3, changed: 3, unchanged: 0 },
    });
    expect(await stored()).toBe(before);
    const applied = await upload("admin", file, false);
    expect(applied.body).toMatchObject({ applied: true, rows: { changed: 3 } });
    expect(await stored()).toBe((before ?? 0) + 3);
    const again = await upload("admin", file, false);
    expect(again.body).toMatchObject({ applied: false, rows: { changed: 0, unchanged: 3 } });

    const list = (await call("admin", "/screening?search=iris")).body as ScreeningList;
    expect(list.results.map((result) => result.subject).sort()).toEqual(["Math", "Reading"]);
    expect(list.results.find((result) => result.subject === "Reading")).toMatchObject({
      grade: 0,
      rit: null,
      decision: "pending",
      notes: "Reads CVC words, some sight words",
    });
    const ava = (await call("admin", "/screening?search=ava")).body as ScreeningList;
    expect(ava.results[0]).toMatchObject({
      student: { id: AVA },
      decision: "admit",
      testedOn: "2025-01-15",
      rit: 201,
    });
  });

  it("replaces a changed row on the next import", async () => {
    const changed = file.replace("waitlist", "admit");
    const result = await upload("admin", changed, false);
    expect(result.body).toMatchObject({ applied: true, rows: { changed: 1, unchanged: 2 } });
  });

  it("refuses the whole file when a row is wrong, naming each line and column", async () => {
    const before = await stored();
    const bad = [
      "Applicant Name,Subject,Grade,RIT,Test Name,Date,Decision",
      "Ben Cole,Math,3,400,Screener,2025-01-10,admit",
      `Ben Cole,Math,3,200,Screener,${addDays(localDateOf(new Date(), SCHOOL_TIME_ZONE), 3)},admit`,
      "Ben Cole,Reading,3,200,Screener,2025-01-10,perhaps",
      ",Reading,3,200,Screener,2025-13-01,",
      "Cara Bell,Math,3,,Screener,2025-01-10,",
      "Cara Bell,Math,4,,Screener,2025-01-10,",
    ].join("\n");
    const result = await upload("admin", bad, false);
    expect(result.body.applied).toBe(false);
    expect(result.body.rows.rejected).toBe(5);
    expect(result.body.errors).toEqual(
      expect.arrayContaining([
        { line: 2, column: "rit", message: "400 is not a whole number from 100 to 350" },
        { line: 3, column: "date", message: expect.stringContaining("is in the future") },
        { line: 4, column: "decision", message: "perhaps is not one of pending, admit, waitlist, decline" },
        { line: 5, column: "applicantName", message: "applicantName is required" },
        { line: 5, column: "date", message: "2025-13-01 is not a date in the form YYYY-MM-DD or M/D/YYYY" },
        {
          line: 7,
          column: null,
          message: "Line 6 already has this applicant's test in this subject on this date",
        },
      ]),
    );
    expect(await stored()).toBe(before);
  });

  it("lists with filters and decision counts, and downloads the filtered list as CSV", async () => {
    const math = (await call("admin", "/screening?subject=Math&perPage=1")).body as ScreeningList;
    expect(math.results).toHaveLength(1);
    expect(math.total).toBe(3);
    expect(math.decisions).toEqual({ pending: 0, admit: 3, waitlist: 0, decline: 0 });
    const admitted = (await call("admin", "/screening?decision=admit")).body as ScreeningList;
    expect(admitted.results.every((result) => result.decision === "admit")).toBe(true);
    const january = (await call("admin", "/screening?from=2025-01-01&to=2025-01-31")).body as ScreeningList;
    expect(january.results.map((result) => result.applicantName)).toEqual(["Ava Johnson"]);
    expect((await call("admin", "/screening?from=2025-02-01&to=2025-01-01")).status).toBe(400);
    const csv = (await call("admin", "/screening/export.csv?subject=Reading")).body as string;
    const lines = csv.trim().split("\r\n");
    expect(lines[0]).toBe("applicantName,studentId,student,subject,grade,rit,testName,date,decision,notes");
    expect(lines[1]).toContain("Iris Park,,,Reading,K,,Reading Screener,");
    // The export reads back in: importing it changes nothing.
    const back = await upload("admin", csv, true);
    expect(back.body).toMatchObject({ errors: [], rows: { changed: 0, unchanged: 1 } });
  });
});
