import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  BulkPlacementResult,
  CsvImportReport,
  PlacementReport,
  PlacementStudentList,
  PlacementTestStatus,
  StudentPlacements,
} from "../../../shared/contracts/assessment";
import { addDays, localDateOf, SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { nextPlacementTest } from "./placements";

const AVA = demoId("student-ava");
const LEO = demoId("student-leo");

let t: TestApp;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent", "proctor"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
});
afterAll(() => t.close());

async function call(who: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await t.request(`/api/assessment${path}`, { ...init, cookie: cookies[who] });
  const text = await response.text();
  const isJson = response.headers.get("content-type")?.includes("json");
  return {
    status: response.status,
    body: text && isJson ? JSON.parse(text) : text,
    headers: response.headers,
  };
}

const today = () => localDateOf(t.clock.now(), SCHOOL_TIME_ZONE);

/** A student of Maple Grove other than Ava whom Maya Patel teaches. */
async function mayasOtherStudent() {
  const [row] = await queryRows<{ id: string }>(
    t.db,
    sql`select distinct s.user_sourced_id as id from enrollments s join enrollments g on g.class_sourced_id = s.class_sourced_id
      where g.user_sourced_id = ${demoId("guide-patel")} and g.role = 'teacher' and s.role = 'student'
        and s.user_sourced_id not in (${AVA}, ${demoId("multi")}) order by 1 limit 1`,
  );
  return row?.id as string;
}

async function upload(who: string, csv: string, dryRun: boolean) {
  const form = new FormData();
  form.set("dryRun", String(dryRun));
  form.set("file", new Blob([csv], { type: "text/csv" }), "levels.csv");
  const response = await t.request("/api/assessment/placements/imports", {
    method: "POST",
    body: form,
    cookie: cookies[who],
  });
  return { status: response.status, body: (await response.json()) as CsvImportReport & { message?: string } };
}

describe("the next test", () => {
  const test = (gradeLevel: number, status: PlacementTestStatus, testName = `grade ${gradeLevel}`) => ({
    gradeLevel,
    status,
    testName,
  });

  it("is the first test at or above the current grade that is neither passed nor skipped", () => {
    const tests = [test(5, "NOT_STARTED"), test(2, "FAILED"), test(3, "PASSED"), test(4, "FAILED")];
    expect(nextPlacementTest(tests, 3)).toEqual(test(4, "FAILED"));
    expect(nextPlacementTest(tests, 5)).toEqual(test(5, "NOT_STARTED"));
  });

  it("counts a failed or started test at the current grade, and skips passed and skipped ones", () => {
    expect(nextPlacementTest([test(3, "STARTED"), test(4, "NOT_STARTED")], 3)).toEqual(test(3, "STARTED"));
    expect(nextPlacementTest([test(3, "SKIP"), test(4, "PASSED"), test(5, "FAILED")], 3)).toEqual(
      test(5, "FAILED"),
    );
  });

  it("is none when every test is passed or skipped, when there are none, or all are below the grade", () => {
    expect(nextPlacementTest([test(3, "PASSED"), test(4, "SKIP")], 3)).toBeNull();
    expect(nextPlacementTest([], 3)).toBeNull();
    expect(nextPlacementTest([test(1, "FAILED")], 3)).toBeNull();
  });

  it("takes every grade without a level, and orders tests of one grade by name", () => {
    expect(nextPlacementTest([test(1, "FAILED")], null)).toEqual(test(1, "FAILED"));
    expect(nextPlacementTest([test(2, "STARTED", "b"), test(2, "FAILED", "a")], 2)).toEqual(
      test(2, "FAILED", "a"),
    );
  });
});

describe("a student's placements", () => {
  it("show the student their own levels, current course, tests and the next test", async () => {
    const { status, body } = await call("student", "/placements");
    expect(status).toBe(200);
    const placements = body as StudentPlacements;
    expect(placements.student.id).toBe(AVA);
    expect(placements.canEdit).toBe(false);
    const math = placements.subjects.find((subject) => subject.subject === "Math");
    expect(math).toMatchObject({
      startingGrade: 3,
      currentGrade: 4,
      currentCourse: { title: "Math 4", gradeLevel: 4, courseId: demoId("course-maple-grove-Math") },
      nextTest: { gradeLevel: 4, status: "STARTED" },
    });
    expect(math?.tests.map((test) => test.gradeLevel)).toEqual([3, 4, 5]);
    expect(math?.history[0]).toMatchObject({ fromGrade: 3, toGrade: 4, changedBy: "Maya Patel" });
    expect(math?.history.at(-1)).toMatchObject({ fromGrade: null, toGrade: 3 });
    const reading = placements.subjects.find((subject) => subject.subject === "Reading");
    expect(reading?.nextTest).toMatchObject({ gradeLevel: 3, status: "FAILED", score: 64 });
    const language = placements.subjects.find((subject) => subject.subject === "Language");
    expect(language).toMatchObject({ currentGrade: 3, nextTest: null, currentCourse: null });
  });

  it("are the student's own only: another student's id is not found", async () => {
    expect((await call("student", `/placements?studentId=${LEO}`)).status).toBe(404);
    expect((await call("student", `/placements?studentId=${AVA}`)).status).toBe(200);
  });

  it("are read by the student's parent, Guide and administrators, and no one else", async () => {
    expect((await call("parent", `/placements?studentId=${AVA}`)).status).toBe(200);
    expect((await call("guide", `/placements?studentId=${AVA}`)).body.canEdit).toBe(true);
    expect((await call("admin", `/placements?studentId=${LEO}`)).status).toBe(200);
    expect((await call("guide", `/placements?studentId=${LEO}`)).status).toBe(404);
    expect((await call("parent", `/placements?studentId=${await mayasOtherStudent()}`)).status).toBe(404);
    expect((await call("proctor", `/placements?studentId=${AVA}`)).status).toBe(403);
    expect((await call("guide", "/placements")).status).toBe(400);
    const anonymous = await t.request(`/api/assessment/placements?studentId=${AVA}`);
    expect(anonymous.status).toBe(401);
  });
});

describe("changing a level", () => {
  it("lets the Guide move their student up with a reason, keeping the starting grade and the history", async () => {
    const changed = await call("guide", `/placements/${AVA}/level`, {
      json: { subject: "Math", grade: 5, reason: "Finished the grade 4 work early" },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ fromGrade: 4, toGrade: 5 });
    const math = ((await call("student", "/placements")).body as StudentPlacements).subjects.find(
      (subject) => subject.subject === "Math",
    );
    expect(math).toMatchObject({ startingGrade: 3, currentGrade: 5, currentCourse: { title: "Math 5" } });
    expect(math?.nextTest).toMatchObject({ gradeLevel: 5, status: "NOT_STARTED" });
    expect(math?.history[0]).toMatchObject({
      fromGrade: 4,
      toGrade: 5,
      reason: "Finished the grade 4 work early",
      changedBy: "Maya Patel",
    });
  });

  it("refuses the level the student is already at, and changes nothing", async () => {
    const again = await call("guide", `/placements/${AVA}/level`, {
      json: { subject: "Math", grade: 5, reason: "Again" },
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("Ava Johnson is already at grade 5 in Math");
    const [count] = await queryRows<{ count: number }>(
      t.db,
      sql`select count(*)::int as count from placement_changes where student_sourced_id = ${AVA} and subject = 'Math'`,
    );
    expect(count?.count).toBe(3);
  });

  it("sets a first placement's starting and current grade", async () => {
    const first = await call("admin", `/placements/${AVA}/level`, {
      json: { subject: "Writing", grade: 0, reason: "New subject this term" },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ fromGrade: null, toGrade: 0 });
    const writing = ((await call("student", "/placements")).body as StudentPlacements).subjects.find(
      (subject) => subject.subject === "Writing",
    );
    expect(writing).toMatchObject({ startingGrade: 0, currentGrade: 0, nextTest: null, tests: [] });
  });

  it("is for Guides of the student and administrators", async () => {
    const body = { subject: "Math", grade: 6, reason: "Try" };
    expect((await call("student", `/placements/${AVA}/level`, { json: body })).status).toBe(403);
    expect((await call("parent", `/placements/${AVA}/level`, { json: body })).status).toBe(403);
    expect((await call("proctor", `/placements/${AVA}/level`, { json: body })).status).toBe(403);
    expect((await call("guide", `/placements/${LEO}/level`, { json: body })).status).toBe(404);
    expect((await call("guide", "/placements/no-such-student/level", { json: body })).status).toBe(404);
    expect((await call("admin", `/placements/${demoId("guide-patel")}/level`, { json: body })).status).toBe(
      404,
    );
  });

  it("needs a reason, a grade from K to 12 and a subject", async () => {
    for (const json of [
      { subject: "Math", grade: 6, reason: "  " },
      { subject: "Math", grade: 6, reason: "x".repeat(501) },
      { subject: "Math", grade: 13, reason: "Too far" },
      { subject: "Math", grade: 2.5, reason: "Half" },
      { subject: "", grade: 2, reason: "No subject" },
      { subject: "M".repeat(61), grade: 2, reason: "Long subject" },
      { grade: 2, reason: "No subject" },
    ]) {
      const refused = await call("guide", `/placements/${AVA}/level`, { json });
      expect(refused.status, JSON.stringify(json)).toBe(400);
      expect(refused.body.message).toMatch(/^Invalid request/);
    }
  });
});

describe("recording a test", () => {
  it("keeps one result per subject, grade and test name, and a new one replaces it", async () => {
    const test = { subject: "Reading", gradeLevel: 3, testName: "Reading placement grade 3" };
    const passed = await call("guide", `/placements/${AVA}/tests`, {
      method: "PUT",
      json: { ...test, status: "PASSED", score: 81.5, takenOn: today() },
    });
    expect(passed.status).toBe(200);
    expect(passed.body).toMatchObject({ ...test, status: "PASSED", score: 81.5, takenOn: today() });
    const reading = ((await call("student", "/placements")).body as StudentPlacements).subjects.find(
      (subject) => subject.subject === "Reading",
    );
    expect(reading?.tests.filter((entry) => entry.gradeLevel === 3)).toHaveLength(1);
    expect(reading?.nextTest).toMatchObject({ gradeLevel: 4, status: "NOT_STARTED" });
  });

  it("needs the date of a passed or failed test, not in the future, and a score from 0 to 100", async () => {
    const base = { subject: "Math", gradeLevel: 6, testName: "Math placement grade 6" };
    const put = (json: unknown) => call("guide", `/placements/${AVA}/tests`, { method: "PUT", json });
    expect((await put({ ...base, status: "FAILED" })).status).toBe(400);
    const future = await put({ ...base, status: "PASSED", takenOn: addDays(today(), 2) });
    expect(future.status).toBe(400);
    expect(future.body.message).toContain("The test date cannot be in the future");
    expect((await put({ ...base, status: "STARTED", score: 101 })).status).toBe(400);
    expect((await put({ ...base, status: "DONE" })).status).toBe(400);
    expect((await put({ ...base, status: "STARTED" })).status).toBe(200);
  });

  it("is for Guides of the student and administrators", async () => {
    const json = { subject: "Math", gradeLevel: 6, testName: "Math placement grade 6", status: "SKIP" };
    expect((await call("student", `/placements/${AVA}/tests`, { method: "PUT", json })).status).toBe(403);
    expect((await call("parent", `/placements/${AVA}/tests`, { method: "PUT", json })).status).toBe(403);
    expect((await call("guide", `/placements/${LEO}/tests`, { method: "PUT", json })).status).toBe(404);
    expect((await call("admin", `/placements/${LEO}/tests`, { method: "PUT", json })).status).toBe(200);
  });
});

describe("the staff's list", () => {
  it("shows a Guide their own students only, with each subject's level and next test", async () => {
    const { status, body } = await call("guide", "/placements/students?perPage=500");
    expect(status).toBe(200);
    const list = body as PlacementStudentList;
    const ids = list.students.map((student) => student.id);
    expect(ids).toContain(AVA);
    expect(ids).not.toContain(LEO);
    expect(list.total).toBe(list.students.length);
    const ava = list.students.find((student) => student.id === AVA);
    expect(ava?.placements.find((placement) => placement.subject === "Math")).toMatchObject({
      currentGrade: 5,
      currentCourse: "Math 5",
    });
    expect(list.schools.map((school) => school.name)).toEqual(["Maple Grove School"]);
    expect(list.subjects).toEqual(expect.arrayContaining(["Math", "Reading", "Social Studies"]));
  });

  it("filters an administrator's everyone by school, subject, grade and name, a page at a time", async () => {
    const all = (await call("admin", "/placements/students?perPage=2")).body as PlacementStudentList;
    expect(all.students).toHaveLength(2);
    expect(all.total).toBeGreaterThan(150);
    const second = (await call("admin", "/placements/students?perPage=2&page=1"))
      .body as PlacementStudentList;
    expect(second.students[0]?.id).not.toBe(all.students[0]?.id);
    const atFive = (await call("admin", "/placements/students?subject=Math&grade=5&perPage=500"))
      .body as PlacementStudentList;
    expect(atFive.students.map((student) => student.id)).toContain(AVA);
    for (const student of atFive.students)
      expect(student.placements.find((placement) => placement.subject === "Math")?.currentGrade).toBe(5);
    const named = (await call("admin", "/placements/students?search=ava%20johnson"))
      .body as PlacementStudentList;
    expect(named.students.map((student) => student.id)).toEqual([AVA]);
    const riverside = (
      await call("admin", `/placements/students?schoolId=${demoId("riverside")}&perPage=500`)
    ).body as PlacementStudentList;
    expect(riverside.students.map((student) => student.id)).toContain(LEO);
    expect(riverside.students.map((student) => student.id)).not.toContain(AVA);
  });

  it("refuses students and parents, and a grade without a subject or a page too large", async () => {
    expect((await call("student", "/placements/students")).status).toBe(403);
    expect((await call("parent", "/placements/students")).status).toBe(403);
    expect((await call("admin", "/placements/students?grade=3")).status).toBe(400);
    expect((await call("admin", "/placements/students?perPage=501")).status).toBe(400);
    expect((await call("admin", "/placements/students?grade=K&subject=Math")).status).toBe(400);
  });

  it("downloads the filtered list as CSV, a Guide's with their students only", async () => {
    const admin = await call("admin", "/placements/students.csv?subject=Math");
    expect(admin.status).toBe(200);
    expect(admin.headers.get("content-type")).toContain("text/csv");
    const lines = (admin.body as string).trim().split("\r\n");
    expect(lines[0]).toBe(
      "Student ID,Student,Email,School,Subject,Starting grade,Current grade,Current course,Next test,Next test grade,Updated at",
    );
    expect(lines.find((line) => line.startsWith(AVA))).toContain("Math,3,5,Math 5,Math placement grade 5,5,");
    expect(lines.slice(1).every((line) => line.includes(",Math,"))).toBe(true);
    const guide = (await call("guide", "/placements/students.csv")).body as string;
    expect(guide).toContain(AVA);
    expect(guide).not.toContain(LEO);
    expect((await call("student", "/placements/students.csv")).status).toBe(403);
    const spanish = await t.request("/api/assessment/placements/students.csv", {
      cookie: cookies.admin,
      headers: { "accept-language": "es" },
    });
    expect((await spanish.text()).startsWith("ID del estudiante,Estudiante,")).toBe(true);
  });
});

describe("a bulk change", () => {
  it("moves every named student to one level of a subject, or none when one cannot be", async () => {
    const other = await mayasOtherStudent();
    const refused = await call("admin", "/placements/bulk", {
      json: {
        studentIds: [other, LEO, "not-a-student"],
        subject: "Science",
        grade: 6,
        reason: "Science fair results",
      },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain("not-a-student");
    const [before] = await queryRows<{ count: number }>(
      t.db,
      sql`select count(*)::int as count from placements where subject = 'Science' and current_grade = 6`,
    );
    expect(before?.count).toBe(0);

    const done = await call("admin", "/placements/bulk", {
      json: { studentIds: [other, LEO, LEO], subject: "Science", grade: 6, reason: "Science fair results" },
    });
    expect(done.status).toBe(200);
    expect(done.body as BulkPlacementResult).toEqual({ changed: 2, unchanged: 0 });
    const again = await call("admin", "/placements/bulk", {
      json: { studentIds: [other, LEO], subject: "Science", grade: 6, reason: "Science fair results" },
    });
    expect(again.body).toEqual({ changed: 0, unchanged: 2 });
  });

  it("is for administrators, with 1 to 1000 students", async () => {
    const json = { studentIds: [AVA], subject: "Science", grade: 4, reason: "Bulk" };
    expect((await call("guide", "/placements/bulk", { json })).status).toBe(403);
    expect((await call("student", "/placements/bulk", { json })).status).toBe(403);
    expect((await call("admin", "/placements/bulk", { json: { ...json, studentIds: [] } })).status).toBe(400);
    const many = Array.from({ length: 1001 }, (_, index) => `s-${index}`);
    expect((await call("admin", "/placements/bulk", { json: { ...json, studentIds: many } })).status).toBe(
      400,
    );
  });
});

describe("the CSV import of levels", () => {
  const good = [
    "Email,Subject,Grade,Reason",
    "student@dash.demo,Vocabulary,K,Start of the vocabulary programme",
    `${LEO},Vocabulary,6,"Start of the vocabulary programme, grade 6"`,
  ].join("\n");

  it("says what would change on a dry run, applies it, and changes nothing the second time", async () => {
    const dry = await upload("admin", good, true);
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      dryRun: true,
      applied: false,
      errors: [],
      rows: { read: 2, changed: 2, unchanged: 0 },
    });
    const stored = async () =>
      (
        await queryRows<{ count: number }>(
          t.db,
          sql`select count(*)::int as count from placements where subject = 'Vocabulary'`,
        )
      )[0]?.count;
    expect(await stored()).toBe(0);
    const applied = await upload("admin", good, false);
    expect(applied.body).toMatchObject({ applied: true, rows: { changed: 2, unchanged: 0, rejected: 0 } });
    expect(await stored()).toBe(2);
    const again = await upload("admin", good, false);
    expect(again.body).toMatchObject({ applied: false, rows: { changed: 0, unchanged: 2 } });
    const [history] = await queryRows<{ count: number }>(
      t.db,
      sql`select count(*)::int as count from placement_changes where subject = 'Vocabulary'`,
    );
    expect(history?.count).toBe(2);
  });

  it("refuses the whole file when a row is wrong, naming each line and column", async () => {
    const bad = [
      "student,subject,grade,reason",
      `${AVA},Vocabulary,2,Moved up`,
      "nobody@example.org,Vocabulary,3,Unknown",
      `${LEO},Vocabulary,14,Too far`,
      `${LEO},,3,`,
      `${AVA},Vocabulary,3,Twice`,
    ].join("\r\n");
    const result = await upload("admin", bad, false);
    expect(result.status).toBe(200);
    expect(result.body.applied).toBe(false);
    expect(result.body.rows).toMatchObject({ read: 5, rejected: 4 });
    expect(result.body.errors).toEqual(
      expect.arrayContaining([
        {
          line: 3,
          column: "student",
          message: "No student has the id, identifier or email nobody@example.org",
        },
        { line: 4, column: "grade", message: "14 is not a grade: K or a number from 1 to 12" },
        { line: 5, column: "subject", message: "subject is required" },
        { line: 5, column: "reason", message: "reason is required" },
        { line: 6, column: null, message: "Line 2 already sets this student's level in this subject" },
      ]),
    );
    const [ava] = await queryRows<{ grade: number }>(
      t.db,
      sql`select current_grade as grade from placements where student_sourced_id = ${AVA} and subject = 'Vocabulary'`,
    );
    expect(ava?.grade).toBe(0);
  });

  it("refuses a file without the columns, an empty one, and callers other than administrators", async () => {
    const missing = await upload("admin", "student,subject\nx,Math\n", true);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe("The file lacks these columns: grade, reason");
    expect((await upload("admin", "student,subject,grade,reason\n", true)).status).toBe(400);
    expect((await upload("guide", good, true)).status).toBe(403);
    const notForm = await t.request("/api/assessment/placements/imports", {
      method: "POST",
      json: { dryRun: true },
      cookie: cookies.admin,
    });
    expect(notForm.status).toBe(415);
  });
});

describe("the report of level changes", () => {
  it("lists changes newest first with who and why, per month, filtered, and as CSV", async () => {
    const { status, body } = await call("admin", "/placements/changes?subject=Math&perPage=5");
    expect(status).toBe(200);
    const report = body as PlacementReport;
    expect(report.changes).toHaveLength(5);
    expect(report.changes[0]).toMatchObject({
      student: { id: AVA, name: "Ava Johnson" },
      schoolName: "Maple Grove School",
      fromGrade: 4,
      toGrade: 5,
      changedBy: "Maya Patel",
    });
    expect(report.changes.every((change) => change.subject === "Math")).toBe(true);
    expect(report.perMonth.reduce((sum, month) => sum + month.count, 0)).toBe(report.total);
    const recent = (await call("admin", `/placements/changes?from=${today()}&to=${today()}`))
      .body as PlacementReport;
    expect(recent.changes.every((change) => change.changedAt >= addDays(today(), -1))).toBe(true);
    expect(recent.total).toBeGreaterThanOrEqual(1);
    const riverside = (await call("admin", `/placements/changes?schoolId=${demoId("riverside")}&perPage=500`))
      .body as PlacementReport;
    expect(riverside.changes.every((change) => change.schoolName === "Riverside School")).toBe(true);

    const csv = await call("admin", "/placements/changes.csv?subject=Math");
    expect((csv.body as string).split("\r\n")[0]).toBe(
      "Changed at,Student ID,Student,School,Subject,From grade,To grade,Reason,Changed by",
    );
    expect(csv.body as string).toContain("Finished the grade 4 work early");
  });

  it("is for administrators, with a date range in order", async () => {
    expect((await call("guide", "/placements/changes")).status).toBe(403);
    expect((await call("guide", "/placements/changes.csv")).status).toBe(403);
    expect((await call("admin", "/placements/changes?from=2025-02-01&to=2025-01-01")).status).toBe(400);
    expect((await call("admin", "/placements/changes?from=2025-02-30")).status).toBe(400);
  });
});
