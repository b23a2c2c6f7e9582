import { parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReportResult, ReportTable } from "../../../shared/contracts/reports";
import { addDays, localDateOf, SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";

let t: TestApp;
const cookies: Record<string, string> = {};

const SCHOOL = demoId("maple-grove");
const CLASS = "student-xp-test-class";
const SOL = "student-xp-test-sol";
const KENJI = "student-xp-test-kenji";
const IDA = "student-xp-test-ida";
const RANGE = { startDate: "2026-02-02", endDate: "2026-02-08" };
const ofClass = { classId: CLASS, ...RANGE };
/** Each student's own daily goals: a day counts when Math reaches 20 XP and Reading 10. */
const GOALS: Record<string, number> = { Math: 20, Reading: 10 };

let apps: [string, string];

beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
  const [course] = await queryRows<{ id: string }>(
    t.db,
    sql`select course_sourced_id as id from classes where sourced_id = ${demoId("class-maple-grove-guide-patel-Math")}`,
  );
  await t.db.execute(sql`insert into classes (sourced_id, title, course_sourced_id, school_sourced_id, subjects)
    values (${CLASS}, 'XP Test Class', ${course?.id}, ${SCHOOL}, '{Math}')`);
  const [meta] = await queryRows<{ value: Record<string, number> | null }>(
    t.db,
    sql`select value from app_meta where key = 'daily_xp_goals'`,
  );
  const schoolSubjects = Object.keys(meta?.value ?? {});
  const students = [
    [SOL, "Sol", "America/New_York"],
    [KENJI, "Kenji", "Asia/Tokyo"],
    [IDA, "Ida", "America/New_York"],
  ] as const;
  for (const [id, name, timezone] of students) {
    await t.db.execute(sql`insert into users (sourced_id, given_name, family_name, grades, primary_org_sourced_id, timezone)
      values (${id}, ${name}, 'Xptest', '{03}', ${SCHOOL}, ${timezone})`);
    await t.db.execute(sql`insert into user_roles (user_sourced_id, role, role_type, org_sourced_id)
      values (${id}, 'student', 'primary', ${SCHOOL})`);
    await t.db.execute(sql`insert into enrollments (sourced_id, user_sourced_id, class_sourced_id, school_sourced_id, role)
      values (${`${id}-enrollment`}, ${id}, ${CLASS}, ${SCHOOL}, 'student')`);
    for (const subject of new Set([...schoolSubjects, ...Object.keys(GOALS)]))
      await t.db.execute(sql`insert into student_daily_goals (student_sourced_id, subject, daily_xp)
        values (${id}, ${subject}, ${GOALS[subject] ?? 0})`);
  }
  const found = await queryRows<{ id: string }>(
    t.db,
    sql`select id from learning_apps order by name limit 2`,
  );
  apps = [found[0]?.id as string, found[1]?.id as string];
  // The days are each student's own: Kenji's 8 February is his day in Tokyo.
  const days: [string, string, string, number, number][] = [
    [SOL, "2026-02-02", "Math", 0, 25],
    [SOL, "2026-02-02", "Reading", 0, 12],
    [SOL, "2026-02-03", "Math", 0, 15],
    [SOL, "2026-02-03", "Math", 1, 10],
    [SOL, "2026-02-03", "Reading", 1, 10],
    [SOL, "2026-02-05", "Math", 0, 30],
    [KENJI, "2026-02-04", "Science", 0, 7.5],
    [KENJI, "2026-02-08", "Math", 1, 20],
    [KENJI, "2026-02-08", "Reading", 1, 10],
    [KENJI, "2026-02-09", "Math", 0, 50],
  ];
  for (const [student, day, subject, app, xp] of days)
    await t.db.execute(sql`insert into daily_student_metrics (student_sourced_id, local_date, subject, app_key, xp, events)
      values (${student}, ${day}::date, ${subject}, ${apps[app]}, ${xp}, 1)`);
});
afterAll(() => t.close());

async function report(search: Record<string, string>, who = "admin") {
  const response = await t.request(`/api/reports/student-xp-report?${new URLSearchParams(search)}`, {
    cookie: cookies[who],
  });
  return { status: response.status, result: (await response.json()).data as ReportResult };
}

const mainTable = (result: ReportResult) => result.tables.find((table) => table.main) as ReportTable;
const figureOf = (result: ReportResult, key: string) =>
  result.figures.find((figure) => figure.key === key)?.value;
const rowsOf = (table: ReportTable) =>
  table.rows.map((row) => Object.fromEntries(table.columns.map((column, index) => [column.key, row[index]])));

/** What the kept daily totals of the class's students add up to over the range. */
async function keptTotals(range = RANGE) {
  return queryRows<{ id: string; xp: number }>(
    t.db,
    sql`select student_sourced_id as id, sum(xp)::float8 as xp from student_daily_totals
      where student_sourced_id in (${SOL}, ${KENJI}, ${IDA})
        and local_date between ${range.startDate}::date and ${range.endDate}::date
      group by 1 order by 1`,
  );
}

describe("the student XP report", () => {
  it("shows every student's XP per subject, total, goal days and a daily sparkline", async () => {
    const { status, result } = await report(ofClass);
    expect(status).toBe(200);
    const table = mainTable(result);
    expect(table.columns.map((column) => [column.key, column.unit])).toEqual([
      ["student", "text"],
      ["school", "text"],
      ["grade", "text"],
      ["subject:Math", "xp"],
      ["subject:Reading", "xp"],
      ["subject:Science", "xp"],
      ["totalXp", "xp"],
      ["goalDays", "count"],
      ["trend", "trend"],
    ]);
    expect(table.columns[3]?.label).toBe("Math");
    expect(table.rows).toEqual([
      ["Ida Xptest", "Maple Grove School", "3", 0, 0, 0, 0, 0, [0, 0, 0, 0, 0, 0, 0]],
      ["Kenji Xptest", "Maple Grove School", "3", 20, 10, 7.5, 37.5, 1, [0, 0, 7.5, 0, 0, 0, 30]],
      ["Sol Xptest", "Maple Grove School", "3", 80, 22, 0, 102, 2, [37, 35, 0, 30, 0, 0, 0]],
    ]);
    expect(table.studentIds).toEqual([IDA, KENJI, SOL]);
    const kept = await keptTotals();
    expect(kept).toEqual([
      { id: KENJI, xp: 37.5 },
      { id: SOL, xp: 102 },
    ]);
    expect(figureOf(result, "students")).toBe(3);
    expect(figureOf(result, "xp")).toBe(139.5);
    expect(figureOf(result, "averageXp")).toBe(46.5);
    expect(figureOf(result, "goalDays")).toBe(3);
    const chart = result.charts[0];
    expect(chart?.categories).toHaveLength(7);
    expect(chart?.series[0]?.values).toEqual([37, 35, 7.5, 30, 0, 0, 30]);
  });

  it("counts one app's XP when asked", async () => {
    const { result } = await report({ ...ofClass, appKey: apps[1] });
    expect(result.filters.appKey).toBe(apps[1]);
    expect(rowsOf(mainTable(result)).map((row) => [row.student, row.totalXp, row.goalDays])).toEqual([
      ["Ida Xptest", 0, 0],
      ["Kenji Xptest", 30, 1],
      ["Sol Xptest", 20, 0],
    ]);
    expect(mainTable(result).columns.map((column) => column.key)).not.toContain("subject:Science");
  });

  it("draws a point a week for a range over 31 days", async () => {
    const range = { startDate: "2026-01-25", endDate: "2026-03-07" };
    const { result } = await report({ classId: CLASS, ...range });
    expect(rowsOf(mainTable(result)).map((row) => [row.student, row.trend, row.totalXp])).toEqual([
      ["Ida Xptest", [0, 0, 0, 0, 0, 0], 0],
      ["Kenji Xptest", [0, 7.5, 80, 0, 0, 0], 87.5],
      ["Sol Xptest", [0, 102, 0, 0, 0, 0], 102],
    ]);
    expect(await keptTotals(range)).toEqual([
      { id: KENJI, xp: 87.5 },
      { id: SOL, xp: 102 },
    ]);
    expect(result.charts[0]?.categories).toHaveLength(42);
  });

  it("sorts by any column and searches by name", async () => {
    const byTotal = await report({ ...ofClass, sort: "totalXp", order: "desc" });
    expect(mainTable(byTotal.result).studentIds).toEqual([SOL, KENJI, IDA]);
    const byScience = await report({ ...ofClass, sort: "subject:Science", order: "desc" });
    expect(mainTable(byScience.result).studentIds?.[0]).toBe(KENJI);
    const byTrend = await report({ ...ofClass, sort: "trend", order: "asc" });
    expect(mainTable(byTrend.result).studentIds).toEqual([IDA, KENJI, SOL]);
    const found = await report({ ...ofClass, q: "SOL" });
    expect(mainTable(found.result).rows.map((row) => row[0])).toEqual(["Sol Xptest"]);
    expect(mainTable(found.result).total).toBe(1);
  });

  it("writes the same numbers in its CSV", async () => {
    const { result } = await report(ofClass);
    const table = mainTable(result);
    const response = await t.request(`/api/reports/student-xp-report/csv?${new URLSearchParams(ofClass)}`, {
      cookie: cookies.admin,
    });
    expect(response.status).toBe(200);
    const [heading, ...lines] = parse((await response.text()).replace(/^\uFEFF/, "")) as string[][];
    expect(heading).toEqual([
      "Student",
      "School",
      "Grade",
      "Math (XP)",
      "Reading (XP)",
      "Science (XP)",
      "Total (XP)",
      "Goal days",
      "Trend (XP)",
    ]);
    expect(lines).toEqual(
      table.rows.map((row) => row.map((value) => (Array.isArray(value) ? value.join(" ") : String(value)))),
    );
  });

  it("falls back on a bad search to the last 30 days through yesterday", async () => {
    const { status, result } = await report({
      classId: "no-such-class",
      startDate: "2026-02-30",
      endDate: "x",
    });
    expect(status).toBe(200);
    const yesterday = addDays(localDateOf(t.clock.now(), SCHOOL_TIME_ZONE), -1);
    expect(result.filters.classId).toBeUndefined();
    expect(result.filters).toMatchObject({ startDate: addDays(yesterday, -29), endDate: yesterday });
    expect(result.charts[0]?.categories).toHaveLength(30);
    expect(mainTable(result).total).toBeGreaterThan(100);
    const early = await report({ classId: CLASS, endDate: "2026-02-08" });
    expect(early.result.filters).toMatchObject({ startDate: "2026-01-10", endDate: "2026-02-08" });
    expect(figureOf(early.result, "xp")).toBe(139.5);
  });

  it("is for administrators only", async () => {
    for (const who of ["guide", "student", "parent"]) {
      expect((await report(ofClass, who)).status, who).toBe(403);
      const csv = await t.request(`/api/reports/student-xp-report/csv?${new URLSearchParams(ofClass)}`, {
        cookie: cookies[who],
      });
      expect(csv.status, who).toBe(403);
    }
  });
});
