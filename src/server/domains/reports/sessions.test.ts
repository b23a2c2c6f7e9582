import { parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReportResult, ReportTable } from "../../../shared/contracts/reports";
import { columnHeading } from "../../../shared/report-values";
import { localDateOf, SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { lastSchoolDayBefore } from "./definitions/period";

let t: TestApp;
const cookies: Record<string, string> = {};

const SCHOOL = demoId("maple-grove");
const CLASS = "sessions-test-class";
const SOL = "sessions-test-sol";
const KENJI = "sessions-test-kenji";
const IDA = "sessions-test-ida";
const DAY = "2026-02-10";
/** Two learning apps: every event comes from the first. */
let apps: string[] = [];

/** An event as the flow sees it: it ends at `end` and lasts its active, wasted and gaming seconds. */
interface TestEvent {
  student: string;
  localDate: string;
  end: string;
  active: number;
  waste: number;
  antiPattern?: number;
  xp: number;
  subject?: string;
}

// Sol (New York, UTC−5 in February): a 9-minute pause keeps one session, a 10-minute pause starts another.
// Kenji (Tokyo, UTC+9): a session across midnight UTC, on his own 10 February; the next event is his 11th.
const EVENTS: TestEvent[] = [
  { student: SOL, localDate: DAY, end: "2026-02-10T14:10:00Z", active: 540, waste: 60, xp: 10 },
  { student: SOL, localDate: DAY, end: "2026-02-10T14:29:00Z", active: 480, waste: 120, xp: 8 },
  {
    student: SOL,
    localDate: DAY,
    end: "2026-02-10T14:49:00Z",
    active: 540,
    waste: 0,
    antiPattern: 60,
    xp: 12,
    subject: "Reading",
  },
  { student: KENJI, localDate: DAY, end: "2026-02-10T00:10:00Z", active: 900, waste: 300, xp: 20 },
  { student: KENJI, localDate: DAY, end: "2026-02-10T00:25:00Z", active: 600, waste: 0, xp: 5 },
  { student: KENJI, localDate: "2026-02-11", end: "2026-02-10T15:40:00Z", active: 600, waste: 0, xp: 9 },
];

beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
  const [course] = await queryRows<{ id: string }>(
    t.db,
    sql`select course_sourced_id as id from classes where sourced_id = ${demoId("class-maple-grove-guide-patel-Math")}`,
  );
  await t.db.execute(sql`insert into classes (sourced_id, title, course_sourced_id, school_sourced_id, subjects)
    values (${CLASS}, 'Session Test Class', ${course?.id}, ${SCHOOL}, '{Math}')`);
  const students = [
    [SOL, "Sol", "America/New_York"],
    [KENJI, "Kenji", "Asia/Tokyo"],
    [IDA, "Ida", "America/New_York"],
  ] as const;
  for (const [id, name, timezone] of students) {
    await t.db.execute(sql`insert into users (sourced_id, given_name, family_name, grades, primary_org_sourced_id, timezone)
      values (${id}, ${name}, 'Sessiontest', '{04}', ${SCHOOL}, ${timezone})`);
    await t.db.execute(sql`insert into user_roles (user_sourced_id, role, role_type, org_sourced_id)
      values (${id}, 'student', 'primary', ${SCHOOL})`);
    await t.db.execute(sql`insert into enrollments (sourced_id, user_sourced_id, class_sourced_id, school_sourced_id, role)
      values (${`${id}-enrollment`}, ${id}, ${CLASS}, ${SCHOOL}, 'student')`);
  }
  const found = await queryRows<{ id: string }>(
    t.db,
    sql`select id from learning_apps order by name limit 2`,
  );
  apps = found.map((row) => row.id);
  const app = found[0];
  for (const [index, event] of EVENTS.entries())
    await t.db.execute(sql`insert into activity_events (app_id, event_id, student_sourced_id, occurred_at, local_date,
        subject, active_seconds, waste_seconds, anti_pattern_seconds, awarded_xp, xp_explanation)
      values (${app?.id}::uuid, ${`sessions-test-${index}`}, ${event.student}, ${event.end}::timestamptz,
        ${event.localDate}::date, ${event.subject ?? "Math"}, ${event.active}, ${event.waste}, ${event.antiPattern ?? 0},
        ${event.xp}, 'test')`);
});
afterAll(() => t.close());

async function report(search: Record<string, string>, who = "admin") {
  const response = await t.request(`/api/reports/session-report?${new URLSearchParams(search)}`, {
    cookie: cookies[who],
  });
  return { status: response.status, result: (await response.json()).data as ReportResult };
}

const ofClass = { classId: CLASS, startDate: DAY, endDate: DAY };
const tableOf = (result: ReportResult, key: string) =>
  result.tables.find((table) => table.key === key) as ReportTable;
const figureOf = (result: ReportResult, key: string) =>
  result.figures.find((figure) => figure.key === key)?.value;
/** A table's rows as objects by column key. */
const rowsOf = (table: ReportTable) =>
  table.rows.map((row) => Object.fromEntries(table.columns.map((column, index) => [column.key, row[index]])));
const round1 = (value: number) => Math.round(value * 10) / 10;

describe("the session report", () => {
  it("splits each student's own day into sessions at a 10-minute pause, and adds them up", async () => {
    const { status, result } = await report(ofClass);
    expect(status).toBe(200);
    // Sol: 14:00–14:29 (29 min, a 9-minute pause inside) and 14:39–14:49 (10 min); Kenji: 23:50–00:25 UTC (35 min).
    const minutes = 29 + 10 + 35;
    const active = 540 + 480 + 540 + 900 + 600;
    const waste = 60 + 120 + 300;
    const xp = 10 + 8 + 12 + 20 + 5;
    expect(figureOf(result, "sessions")).toBe(3);
    expect(figureOf(result, "studentsWithSession")).toBe(2);
    expect(figureOf(result, "averageLength")).toBe(round1(minutes / 3));
    expect(figureOf(result, "focus")).toBeCloseTo(active / (active + waste), 10);
    expect(figureOf(result, "xpPerHour")).toBe(round1(xp / (minutes / 60)));
    expect(result.filters).toMatchObject({ classId: CLASS, startDate: DAY, endDate: DAY });

    expect(rowsOf(tableOf(result, "student"))).toEqual([
      {
        student: "Kenji Sessiontest",
        school: "Maple Grove School",
        grade: "4",
        sessions: 1,
        minutes: 35,
        averageLength: 35,
        focus: 1500 / 1800,
        xp: 25,
        xpPerHour: round1(25 / (35 / 60)),
      },
      {
        student: "Sol Sessiontest",
        school: "Maple Grove School",
        grade: "4",
        sessions: 2,
        minutes: 39,
        averageLength: 19.5,
        focus: 1560 / 1740,
        xp: 30,
        xpPerHour: round1(30 / (39 / 60)),
      },
    ]);
    expect(tableOf(result, "student").studentIds).toEqual([KENJI, SOL]);
    expect(rowsOf(tableOf(result, "class"))).toEqual([
      {
        class: "Session Test Class",
        guides: "",
        students: 2,
        sessions: 3,
        minutes: minutes,
        averageLength: round1(minutes / 3),
        focus: active / (active + waste),
        xp,
        xpPerHour: round1(xp / (minutes / 60)),
      },
    ]);
  });

  it("lists the longest and the most wasteful sessions with their start on the student's own clock", async () => {
    const { result } = await report(ofClass);
    const longest = rowsOf(tableOf(result, "longest"));
    expect(longest.map((row) => [row.student, row.day, row.start, row.length])).toEqual([
      ["Kenji Sessiontest", DAY, "08:50", 35],
      ["Sol Sessiontest", DAY, "09:00", 29],
      ["Sol Sessiontest", DAY, "09:39", 10],
    ]);
    expect(longest[2]).toMatchObject({ minutesOnTask: 9, minutesWasted: 0, focus: 1, xp: 12, xpPerHour: 72 });
    // Only sessions with wasted time, most wasted first.
    expect(
      rowsOf(tableOf(result, "wasteful")).map((row) => [row.student, row.minutesWasted, row.focus]),
    ).toEqual([
      ["Kenji Sessiontest", 5, 1500 / 1800],
      ["Sol Sessiontest", 3, 1020 / 1200],
    ]);
    const chart = result.charts.find((candidate) => candidate.key === "sessionsByHour");
    expect(chart?.categories).toEqual(["8 AM", "9 AM"]);
    expect(chart?.series[0]?.values).toEqual([1, 2]);
  });

  it("counts only the subject and app asked for, and a student's events of their next day on that day", async () => {
    const math = await report({ ...ofClass, subject: "Math" });
    expect(figureOf(math.result, "sessions")).toBe(2);
    expect(rowsOf(tableOf(math.result, "student")).map((row) => [row.student, row.minutes])).toEqual([
      ["Kenji Sessiontest", 35],
      ["Sol Sessiontest", 29],
    ]);
    const ofTheApp = await report({ ...ofClass, appKey: apps[0] as string });
    expect(ofTheApp.result.filters.appKey).toBe(apps[0]);
    expect(figureOf(ofTheApp.result, "sessions")).toBe(3);
    const ofAnother = await report({ ...ofClass, appKey: apps[1] as string });
    expect(figureOf(ofAnother.result, "sessions")).toBe(0);
    expect(figureOf(ofAnother.result, "focus")).toBeNull();
    expect(tableOf(ofAnother.result, "student").rows).toEqual([]);
    expect(ofAnother.result.charts[0]?.categories).toEqual([]);
    const twoDays = await report({ ...ofClass, endDate: "2026-02-11" });
    expect(figureOf(twoDays.result, "sessions")).toBe(4);
    expect(twoDays.result.subtitle).toContain("Feb 11, 2026");
    const day = rowsOf(tableOf(twoDays.result, "longest")).find((row) => row.day === "2026-02-11");
    expect(day).toMatchObject({ student: "Kenji Sessiontest", start: "00:30", length: 10 });
  });

  it("searches and sorts the table of students", async () => {
    const found = await report({ ...ofClass, q: "kenji" });
    expect(tableOf(found.result, "student").rows.map((row) => row[0])).toEqual(["Kenji Sessiontest"]);
    const most = await report({ ...ofClass, sort: "sessions", order: "desc" });
    expect(tableOf(most.result, "student").rows.map((row) => row[0])).toEqual([
      "Sol Sessiontest",
      "Kenji Sessiontest",
    ]);
    const longest = await report({ ...ofClass, sort: "averageLength", order: "desc" });
    expect(tableOf(longest.result, "student").studentIds).toEqual([KENJI, SOL]);
  });

  it("writes the same numbers in its CSV", async () => {
    const { result } = await report(ofClass);
    for (const key of ["student", "longest"]) {
      const table = tableOf(result, key);
      const response = await t.request(
        `/api/reports/session-report/csv?${new URLSearchParams({ ...ofClass, table: key })}`,
        { cookie: cookies.admin },
      );
      expect(response.status).toBe(200);
      const [heading, ...lines] = parse((await response.text()).replace(/^\uFEFF/, "")) as string[][];
      expect(heading).toEqual(table.columns.map(columnHeading));
      expect(lines).toEqual(
        table.rows.map((row) =>
          row.map((value, index) => {
            if (value === null) return "";
            const unit = table.columns[index]?.unit;
            return String(unit === "percent" ? Math.round((value as number) * 1000) / 10 : value);
          }),
        ),
      );
    }
  });

  it("cuts a range to 31 days and falls back on a bad search", async () => {
    const long = await report({ classId: CLASS, startDate: "2026-01-20", endDate: "2026-04-30" });
    expect(long.result.filters).toMatchObject({ startDate: "2026-01-20", endDate: "2026-02-19" });
    expect(long.result.subtitle).toContain("31");
    expect(figureOf(long.result, "sessions")).toBe(4);
    const reversed = await report({ classId: CLASS, startDate: "2026-02-11", endDate: DAY });
    expect(reversed.result.filters).toMatchObject({ startDate: DAY, endDate: "2026-02-11" });

    const { status, result } = await report({
      classId: "no-such-class",
      startDate: "2026-02-31",
      endDate: "soon",
    });
    expect(status).toBe(200);
    const lastSchoolDay = lastSchoolDayBefore(localDateOf(t.clock.now(), SCHOOL_TIME_ZONE));
    expect(result.filters.classId).toBeUndefined();
    expect(result.filters).toMatchObject({ startDate: lastSchoolDay, endDate: lastSchoolDay });
    expect(result.applied).toEqual([]);
    expect(result.scope).toBe("All schools");
  });

  it("is for administrators only", async () => {
    for (const who of ["guide", "student", "parent"]) {
      const { status } = await report(ofClass, who);
      expect(status, who).toBe(403);
      const csv = await t.request(`/api/reports/session-report/csv?${new URLSearchParams(ofClass)}`, {
        cookie: cookies[who],
      });
      expect(csv.status, who).toBe(403);
    }
    expect((await t.request("/api/reports/session-report")).status).toBe(401);
  });
});
