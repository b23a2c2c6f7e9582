import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  MapActualsPage,
  MapGrowthReport,
  MapStudentsPage,
  MapTermSummary,
} from "../../../shared/contracts/assessment";
import type { StudentGoals } from "../../../shared/contracts/goals";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";

/**
 * The overviews and reports over imported results. The post-2015 fixture holds three students'
 * Mathematics in fall, winter and spring 2016-2017: B2001 grows 11 against a projection of 11,
 * B2002 13 against 8, B2003 3 against 6 (fall to spring, CGP 50, 78 and 32).
 */

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const AVA = demoId("student-ava");
const MAYA = demoId("guide-patel");

let t: TestApp;
const cookies: Record<string, string> = {};
/** A classmate of Ava's in Maya Patel's class, and a student at the other school. */
let classmate: string;
let elsewhere: string;
let mayaClass: string;

beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
  const [row] = await queryRows<{ classmate: string; elsewhere: string; classId: string }>(
    t.db,
    sql`select (select s.user_sourced_id from enrollments s join enrollments g on g.class_sourced_id = s.class_sourced_id
          where g.user_sourced_id = ${MAYA} and g.role = 'teacher' and s.role = 'student' and s.user_sourced_id <> ${AVA}
          order by s.user_sourced_id limit 1) as classmate,
        (select u.sourced_id from users u where u.primary_org_sourced_id = ${demoId("riverside")}
          and u.identifier like 'student-%' order by u.identifier limit 1) as elsewhere,
        (select e.class_sourced_id from enrollments e where e.user_sourced_id = ${AVA} and e.role = 'student'
          and e.class_sourced_id in (select class_sourced_id from enrollments where user_sourced_id = ${MAYA})
          order by e.class_sourced_id limit 1) as "classId"`,
  );
  classmate = row?.classmate as string;
  elsewhere = row?.elsewhere as string;
  mayaClass = row?.classId as string;
  // Only the fixture's results: the demo school's own are left out.
  await t.db.execute(sql`delete from map_results`);
  await t.db.execute(sql`delete from map_growth`);
  await t.db.execute(sql`update users set identifier = 'B2001' where sourced_id = ${AVA}`);
  await t.db.execute(sql`update users set identifier = 'B2002' where sourced_id = ${classmate}`);
  await t.db.execute(sql`update users set identifier = 'B2003' where sourced_id = ${elsewhere}`);
  const form = new FormData();
  form.set("dryRun", "false");
  form.set(
    "file",
    new Blob([new Uint8Array(readFileSync(path.join(FIXTURES, "map-2015.csv")))]),
    "map-2015.csv",
  );
  const imported = await t.request("/api/assessment/map/imports", {
    method: "POST",
    body: form,
    cookie: cookies.admin,
  });
  expect(imported.status).toBe(200);
});
afterAll(() => t.close());

async function get<Body>(url: string, who: string) {
  const response = await t.request(url, { cookie: cookies[who] });
  return { status: response.status, body: (await response.json()) as Body & { message?: string } };
}

describe("the stored growth", () => {
  it("keeps every window the tests span, with the export's figures", async () => {
    const rows = await queryRows<{ window: string; observed: number; projected: number; multiple: number }>(
      t.db,
      sql`select "window", observed, projected::float8 as projected, multiple::float8 as multiple
        from map_growth where student_sourced_id = ${classmate} order by "window"`,
    );
    expect(rows).toEqual([
      { window: "fallToSpring", observed: 13, projected: 8, multiple: 1.63 },
      { window: "fallToWinter", observed: 7, projected: 5, multiple: 1.4 },
      { window: "winterToSpring", observed: 6, projected: 3, multiple: 2 },
    ]);
  });
});

describe("the growth report", () => {
  it("answers the latest school year's fall-to-spring growth by grade and subject, with the subject's total", async () => {
    const { status, body } = await get<MapGrowthReport>("/api/assessment/map/report", "admin");
    expect(status).toBe(200);
    expect(body).toMatchObject({ schoolYear: 2016, window: "fallToSpring" });
    expect(body.choices).toEqual([
      { schoolYear: 2016, windows: ["fallToWinter", "fallToSpring", "winterToSpring"] },
    ]);
    const total = body.rows.find((row) => row.total);
    expect(total).toEqual({
      grade: null,
      total: true,
      subject: "Mathematics",
      students: 3,
      metProjected: 2,
      shareMetProjected: 2 / 3,
      medianConditionalGrowthPercentile: 50,
      atTarget: 0,
      shareAtTarget: 0,
      medianMultiple: 1,
    });
  });

  it("narrows to a school, a class and another window", async () => {
    const school = await get<MapGrowthReport>(
      `/api/assessment/map/report?schoolId=${demoId("maple-grove")}&window=winterToSpring`,
      "admin",
    );
    const total = school.body.rows.find((row) => row.total);
    // B2001 grew 5 against 4, B2002 6 against 3 (2×); B2003 is at Riverside.
    expect(total).toMatchObject({ students: 2, metProjected: 2, atTarget: 1, shareAtTarget: 0.5 });
    const inClass = await get<MapGrowthReport>(`/api/assessment/map/report?classId=${mayaClass}`, "admin");
    expect(inClass.body.rows.find((row) => row.total)?.students).toBeGreaterThanOrEqual(1);
    expect(inClass.body.rows.find((row) => row.total)?.students).toBeLessThanOrEqual(2);
  });

  it("is a CSV with the same figures", async () => {
    const response = await t.request("/api/assessment/map/report.csv", { cookie: cookies.admin });
    expect(response.headers.get("content-type")).toContain("text/csv");
    expect(response.headers.get("content-disposition")).toContain("map-growth-report.csv");
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines[0]).toBe(
      "School year,Growth window,Subject,Grade,Students,Met projected growth,Share meeting projection,Median conditional growth percentile,At 2× growth,Share at 2× growth,Median growth multiple",
    );
    expect(lines).toContain("2016,fallToSpring,Mathematics,All grades,3,2,0.667,50,0,0.000,1");
  });

  it("refuses everyone but administrators, and a window that is not one", async () => {
    for (const who of ["guide", "student", "parent"])
      expect((await get("/api/assessment/map/report", who)).status).toBe(403);
    const bad = await get("/api/assessment/map/report?window=fallToSummer&schoolYear=20", "admin");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("window is one of");
  });
});

describe("the cached growth report", () => {
  it("is answered again once an import changes results", async () => {
    const before = await get<MapGrowthReport>("/api/assessment/map/report?window=fallToWinter", "admin");
    expect(before.body.rows.find((row) => row.total)?.metProjected).toBe(1);
    // B2003 retakes the winter test and now meets the projection of 4 (from 230 to 236).
    const csv = `${readFileSync(path.join(FIXTURES, "map-2015.csv"), "utf8").split("\n")[0]}\n${readFileSync(
      path.join(FIXTURES, "map-2015.csv"),
      "utf8",
    )
      .split("\n")
      .find((line) => line.startsWith("B2003,228,"))
      ?.replace("B2003,228,", "B2003,236,")
      .replace(",-2,4,", ",6,4,")}\n`;
    const form = new FormData();
    form.set("dryRun", "false");
    form.set("file", new Blob([csv]), "retake.csv");
    const imported = await t.request("/api/assessment/map/imports", {
      method: "POST",
      body: form,
      cookie: cookies.admin,
    });
    expect((await imported.json()).rows).toMatchObject({ updated: 1 });
    const after = await get<MapGrowthReport>("/api/assessment/map/report?window=fallToWinter", "admin");
    expect(after.body.rows.find((row) => row.total)?.metProjected).toBe(2);
  });
});

describe("a Guide's overview of their students", () => {
  it("shows only the Guide's students, each subject's latest RIT and growth", async () => {
    const { status, body } = await get<MapStudentsPage>("/api/assessment/map/students?perPage=200", "guide");
    expect(status).toBe(200);
    const ids = body.students.map((student) => student.sourcedId);
    expect(ids).toContain(AVA);
    expect(ids).toContain(classmate);
    expect(ids).not.toContain(elsewhere);
    const ava = body.students.find((student) => student.sourcedId === AVA);
    expect(ava?.subjects).toEqual([
      expect.objectContaining({
        subject: "Mathematics",
        termName: "Spring 2016-2017",
        rit: 212,
        percentile: 58,
        growth: expect.objectContaining({ window: "fallToSpring", observed: 11, projected: 11, multiple: 1 }),
      }),
    ]);
    expect(body.summary).toEqual({ tested: 2, belowProjection: 0, atTarget: 0 });
    expect(body.subjects).toEqual(["Mathematics"]);
  });

  it("lets an administrator find the student below projection", async () => {
    const { body } = await get<MapStudentsPage>("/api/assessment/map/students?belowProjection=true", "admin");
    expect(body.students.map((student) => student.sourcedId)).toEqual([elsewhere]);
    expect(body.total).toBe(1);
    expect(body.summary.belowProjection).toBe(1);
  });

  it("is not for students or families", async () => {
    for (const who of ["student", "parent"])
      expect((await get("/api/assessment/map/students", who)).status).toBe(403);
  });
});

describe("the actuals report and RIT goals", () => {
  it("sets the latest RIT against the projection and the student's goal", async () => {
    await t.db.execute(sql`insert into goals (kind, student_sourced_id, subject, target, baseline, starts_on, deadline,
        set_by_sourced_id, set_by_role)
      values ('rit', ${AVA}, 'Math', 210, 201, '2016-09-01', '2017-06-01', ${MAYA}, 'teacher')`);
    const { body } = await get<MapActualsPage>("/api/assessment/map/actuals", "admin");
    expect(body).toMatchObject({ schoolYear: 2016, schoolYears: [2016], total: 3 });
    expect(body.rows.find((row) => row.studentId === AVA)).toMatchObject({
      startRit: 201,
      latestRit: 212,
      latestTerm: "Spring 2016-2017",
      projectedRit: 212,
      goalRit: 210,
      status: "goalReached",
    });
    expect(body.rows.find((row) => row.studentId === elsewhere)).toMatchObject({
      projectedRit: 236,
      goalRit: null,
      status: "belowProjection",
    });
    const csv = await (await t.request("/api/assessment/map/actuals.csv", { cookie: cookies.admin })).text();
    expect(csv.split("\r\n")).toHaveLength(5);
  });

  it("moves a RIT goal with the latest result of its subject since the goal was set", async () => {
    const { body } = await get<StudentGoals>(`/api/goals?studentId=${AVA}`, "guide");
    const goal = body.targets.find((target) => target.kind === "rit");
    expect(goal).toMatchObject({
      value: 212,
      percent: 100,
      forecast: { status: "reached", reachedOn: "2017-05-10" },
    });
  });
});

describe("the terms", () => {
  it("lists each term with its subjects, students and test dates", async () => {
    const { body } = await get<{ terms: MapTermSummary[] }>("/api/assessment/map/terms", "admin");
    expect(body.terms.map((term) => term.termName)).toEqual([
      "Spring 2016-2017",
      "Winter 2016-2017",
      "Fall 2016-2017",
    ]);
    expect(body.terms[0]).toMatchObject({
      subjects: ["Mathematics"],
      students: 3,
      tests: 3,
      firstTestDate: "2017-05-10",
    });
    expect((await get("/api/assessment/map/terms", "guide")).status).toBe(403);
  });
});
