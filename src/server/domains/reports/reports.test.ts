import { parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReportResult, ReportTable } from "../../../shared/contracts/reports";
import { addDays, localDateOf, SCHOOL_TIME_ZONE, weekStartOf } from "../../../shared/time-zone";
import { queryRows } from "../../db/client";
import { DEMO_APP_KEY, demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { allGoalsMet, dailyGoalsFrom, goalsWith } from "../goals/daily-goals";
import { periodFigures } from "./figures";

/**
 * The daily, weekly and monthly reports, the subject report and the learning reports, on a school
 * of their own: three students (one in Tokyo, one who never learns) in one class with their own
 * Guide, and daily totals written by hand, so every figure can be worked out from them.
 */

let t: TestApp;
const cookies: Record<string, string> = {};
const SCHOOL = "reports-test-school";
const CLASS = "reports-test-class";
const GUIDE = "reports-test-guide";
const NORA = "reports-test-nora"; // New York
const KAI = "reports-test-kai"; // Tokyo
const OWEN = "reports-test-owen"; // never learns
const AVA = demoId("student-ava");
const GOALS = { Math: 20, Reading: 10 };

// A whole week well in the past (Sunday to Saturday) and the one before it.
let week: string;
let monday: string;
let app: string;

/** [student, day offset from the week's Sunday, subject, xp, active seconds, waste seconds, questions, correct, mastered] */
type Day = [string, number, string, number, number, number, number, number, number];
const WEEK_DAYS: Day[] = [
  [NORA, 1, "Math", 25, 1200, 60, 10, 8, 1],
  [NORA, 1, "Reading", 12, 600, 0, 5, 5, 0],
  [NORA, 2, "Math", 15, 900, 120, 10, 6, 0],
  [NORA, 3, "Math", 30.5, 1500, 0, 20, 18, 2],
  [NORA, 3, "Reading", 10, 300, 30, 4, 4, 1],
  [KAI, 2, "Math", 40, 1800, 300, 12, 9, 1],
  [KAI, 2, "Reading", 9.5, 400, 0, 6, 3, 0],
  [KAI, 5, "Science", 7, 420, 0, 3, 3, 0],
];
const PREVIOUS_WEEK: Day[] = [[NORA, -6, "Math", 50, 2400, 0, 20, 10, 1]];

beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
  const today = localDateOf(t.clock.now(), SCHOOL_TIME_ZONE);
  week = addDays(weekStartOf(today), -35);
  monday = addDays(week, 1);
  await t.db.execute(sql`insert into orgs (sourced_id, name, type, parent_sourced_id)
    values (${SCHOOL}, 'Report Test School', 'school', ${demoId("district")})`);
  const [course] = await queryRows<{ id: string }>(t.db, sql`select sourced_id as id from courses limit 1`);
  await t.db.execute(sql`insert into classes (sourced_id, title, course_sourced_id, school_sourced_id, subjects)
    values (${CLASS}, 'Report Test Class', ${course?.id}, ${SCHOOL}, '{Math,Reading}')`);
  const people = [
    [GUIDE, "Gwen", "teacher", "America/New_York"],
    [NORA, "Nora", "student", "America/New_York"],
    [KAI, "Kai", "student", "Asia/Tokyo"],
    [OWEN, "Owen", "student", "America/New_York"],
  ] as const;
  for (const [id, name, role, timezone] of people) {
    await t.db.execute(sql`insert into users (sourced_id, given_name, family_name, email, grades, primary_org_sourced_id, timezone)
      values (${id}, ${name}, 'Reportson', ${`${id}@reports.test`}, '{04}', ${SCHOOL}, ${timezone})`);
    await t.db.execute(sql`insert into user_roles (user_sourced_id, role, role_type, org_sourced_id)
      values (${id}, ${role}, 'primary', ${SCHOOL})`);
    await t.db.execute(sql`insert into enrollments (sourced_id, user_sourced_id, class_sourced_id, school_sourced_id, role)
      values (${`${id}-enrollment`}, ${id}, ${CLASS}, ${SCHOOL}, ${role})`);
  }
  // The students' own goals replace the school's: a day counts when Math reaches 20 XP and Reading 10.
  const [meta] = await queryRows<{ value: Record<string, number> }>(
    t.db,
    sql`select value from app_meta where key = 'daily_xp_goals'`,
  );
  for (const student of [NORA, KAI, OWEN])
    for (const subject of Object.keys(meta?.value ?? {}))
      await t.db.execute(sql`insert into student_daily_goals (student_sourced_id, subject, daily_xp)
        values (${student}, ${subject}, ${GOALS[subject as keyof typeof GOALS] ?? 0})`);
  const [found] = await queryRows<{ id: string }>(
    t.db,
    sql`select id::text as id from learning_apps order by name limit 1`,
  );
  app = found?.id as string;
  for (const [student, offset, subject, xp, active, waste, questions, correct, mastered] of [
    ...WEEK_DAYS,
    ...PREVIOUS_WEEK,
  ])
    await t.db.execute(sql`insert into daily_student_metrics (student_sourced_id, local_date, subject, app_key, xp,
        active_seconds, waste_seconds, total_questions, correct_questions, mastered_units, events)
      values (${student}, ${addDays(week, offset)}::date, ${subject}, ${app}, ${xp}, ${active}, ${waste},
        ${questions}, ${correct}, ${mastered}, 1)`);
  await t.db.execute(sql`insert into daily_student_metrics (student_sourced_id, local_date, subject, app_key, xp, active_seconds, events)
    values (${OWEN}, ${addDays(week, -20)}::date, 'Math', ${app}, 5, 60, 1)`);
});
afterAll(() => t.close());

async function report(id: string, search: Record<string, string>, who = "admin", language = "en") {
  const response = await t.request(`/api/reports/${id}?${new URLSearchParams(search)}`, {
    cookie: cookies[who],
    headers: { "accept-language": language },
  });
  const body = await response.json();
  return { status: response.status, body, data: body.data as ReportResult };
}

const figureOf = (result: ReportResult, key: string) => result.figures.find((figure) => figure.key === key);
const tableOf = (result: ReportResult, key: string) =>
  result.tables.find((table) => table.key === key) as ReportTable;
const cell = (table: ReportTable, row: number, key: string) =>
  table.rows[row]?.[table.columns.findIndex((column) => column.key === key)];
const sum = (days: Day[], pick: (day: Day) => number) => days.reduce((total, day) => total + pick(day), 0);

describe("the week report", () => {
  it("adds up the school's daily totals of the week, with the change against the week before", async () => {
    const { status, data } = await report("week-report", { schoolId: SCHOOL, date: addDays(week, 3) });
    expect(status).toBe(200);
    expect(data.title).toBe("Week report");
    expect(data.scope).toBe("Report Test School");
    expect(data.filters.date).toBe(week);
    expect(figureOf(data, "students")?.value).toBe(3);
    expect(figureOf(data, "learning")?.value).toBe(2);
    const xp = sum(WEEK_DAYS, (day) => day[3]);
    expect(figureOf(data, "xp")?.value).toBe(xp);
    expect(figureOf(data, "minutesOnTask")?.value).toBe(Math.round(sum(WEEK_DAYS, (day) => day[4]) / 60));
    expect(figureOf(data, "minutesWasted")?.value).toBe(Math.round(sum(WEEK_DAYS, (day) => day[5]) / 60));
    expect(figureOf(data, "accuracy")?.value).toBeCloseTo(
      sum(WEEK_DAYS, (day) => day[7]) / sum(WEEK_DAYS, (day) => day[6]),
      6,
    );
    expect(figureOf(data, "masteredUnits")?.value).toBe(sum(WEEK_DAYS, (day) => day[8]));
    // Goal days: Nora on Monday (25/12) and Wednesday (30.5/10), Kai never (9.5 Reading); 3 students × 5 school days.
    expect(figureOf(data, "goalShare")?.value).toBeCloseTo(2 / 15, 6);
    // The week before: only Nora, 50 XP.
    expect(figureOf(data, "xp")?.change).toBeCloseTo((xp - 50) / 50, 6);
    expect(figureOf(data, "learning")?.change).toBe(1);
    expect(data.comparedWith).toContain("Changes are against");

    const perDay = data.charts.find((chart) => chart.key === "xpPerDay");
    expect(perDay?.categories).toHaveLength(7);
    expect(perDay?.series[0]?.values).toEqual([0, 37, 64.5, 40.5, 0, 7, 0]);
    const learning = data.charts.find((chart) => chart.key === "learningPerDay");
    expect(learning?.series[0]?.values).toEqual([0, 1, 2, 1, 0, 1, 0]);

    const classes = tableOf(data, "class");
    expect(classes.main).toBe(true);
    expect(cell(classes, 0, "class")).toBe("Report Test Class");
    expect(cell(classes, 0, "guides")).toBe("Gwen Reportson");
    expect(cell(classes, 0, "students")).toBe(3);
    expect(cell(classes, 0, "xp")).toBe(xp);
    const absent = tableOf(data, "absent");
    expect(absent.rows).toEqual([
      ["Owen Reportson", "Report Test School", "4", "Report Test Class", addDays(week, -20)],
    ]);
    expect(absent.studentIds).toEqual([OWEN]);
  });

  it("counts a student's day in their own time zone: Tokyo's Tuesday is its own", async () => {
    const { data } = await report("daily-metrics", { schoolId: SCHOOL, date: addDays(week, 2) });
    expect(data.subtitle).toContain(String(Number(addDays(week, 2).slice(8))));
    expect(figureOf(data, "learning")?.value).toBe(2);
    expect(figureOf(data, "xp")?.value).toBe(64.5);
    // Neither met every goal on Tuesday (Nora had no Reading, Kai 9.5 of 10).
    expect(figureOf(data, "goalShare")?.value).toBe(0);
    expect(figureOf(data, "xp")?.change).toBeUndefined();
    const grades = data.charts.find((chart) => chart.key === "xpByGrade");
    expect(grades?.categories).toEqual(["4"]);
    expect(grades?.series[0]?.values).toEqual([64.5]);
  });

  it("takes an event at 20:00 UTC into the Tokyo student's next day", async () => {
    const today = localDateOf(t.clock.now(), SCHOOL_TIME_ZONE);
    const at = new Date(`${addDays(today, -2)}T20:00:00Z`);
    const response = await t.request("/api/ingest/activity", {
      json: {
        events: [
          {
            eventId: "reports-test-tokyo-evening",
            studentId: KAI,
            occurredAt: at.toISOString(),
            subject: "Reading",
            activityName: "Evening reading",
            expectedXp: 11,
            activeSeconds: 600,
          },
        ],
      },
      headers: { authorization: `Bearer ${DEMO_APP_KEY}` },
    });
    expect((await response.json()).accepted).toHaveLength(1);
    const tokyoDay = localDateOf(at, "Asia/Tokyo");
    expect(tokyoDay).toBe(addDays(today, -1));
    const [onTokyoDay, onUtcDay] = await Promise.all([
      report("daily-metrics", { schoolId: SCHOOL, date: tokyoDay }),
      report("daily-metrics", { schoolId: SCHOOL, date: addDays(today, -2) }),
    ]);
    expect(figureOf(onTokyoDay.data, "learning")?.value).toBe(1);
    expect(figureOf(onTokyoDay.data, "minutesOnTask")?.value).toBe(10);
    expect(figureOf(onUtcDay.data, "learning")?.value).toBe(0);
  });

  it("gives the month the sum of its daily totals", async () => {
    const { data } = await report("month-report", { schoolId: SCHOOL, date: addDays(week, 3) });
    const [expected] = await queryRows<{ xp: number; students: number }>(
      t.db,
      sql`select coalesce(sum(xp), 0)::float8 as xp, count(distinct student_sourced_id)::int as students
        from daily_student_metrics where student_sourced_id in (${NORA}, ${KAI}, ${OWEN})
          and date_trunc('month', local_date) = date_trunc('month', ${addDays(week, 3)}::date)`,
    );
    expect(figureOf(data, "xp")?.value).toBeCloseTo(expected?.xp ?? -1, 2);
    expect(figureOf(data, "learning")?.value).toBe(expected?.students);
    expect(data.filters.date?.endsWith("-01")).toBe(true);
  });

  it("writes the same figures to the CSV, with a byte order mark and units in the headings", async () => {
    const search = new URLSearchParams({ schoolId: SCHOOL, date: addDays(week, 3) });
    const { data } = await report("week-report", Object.fromEntries(search));
    const response = await t.request(`/api/reports/week-report/csv?${search}`, { cookie: cookies.admin });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    expect(response.headers.get("content-disposition")).toContain(`week-report-${week}.csv`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [headings, ...rows] = parse(new TextDecoder().decode(bytes)) as string[][];
    expect(headings).toEqual([
      "Class",
      "Guides",
      "School",
      "Students",
      "Learning",
      "XP",
      "On task (min)",
      "Wasted (min)",
      "Accuracy (%)",
      "Mastered",
      "Met every goal (%)",
    ]);
    const classes = tableOf(data, "class");
    expect(rows).toHaveLength(classes.total);
    expect(Number(rows[0]?.[5])).toBe(cell(classes, 0, "xp"));
    expect(Number(rows[0]?.[10])).toBeCloseTo(
      Math.round((cell(classes, 0, "goalShare") as number) * 1000) / 10,
      6,
    );
    const absent = await t.request(`/api/reports/week-report/csv?${search}&table=absent`, {
      cookie: cookies.admin,
    });
    expect(absent.headers.get("content-disposition")).toContain(`week-report-absent-${week}.csv`);
    expect(parse(await absent.text())).toEqual([
      ["Student", "School", "Grade", "Classes", "Last learned"],
      ["Owen Reportson", "Report Test School", "4", "Report Test Class", addDays(week, -20)],
    ]);
  });

  it("falls back on a bad search: a bad date, an unknown school, a page below zero", async () => {
    const { status, data } = await report("week-report", {
      date: "2026-13-45",
      schoolId: "nowhere",
      page: "-1",
    });
    expect(status).toBe(200);
    expect(data.scope).toBe("All schools");
    expect(data.filters.date).toBe(weekStartOf(localDateOf(t.clock.now(), SCHOOL_TIME_ZONE)));
    const daily = await report("daily-metrics", { date: "yesterday" });
    expect(daily.status).toBe(200);
  });

  it("speaks Spanish to a Spanish reader", async () => {
    const { data } = await report("week-report", { schoolId: SCHOOL, date: monday }, "admin", "es");
    expect(data.title).toBe("Informe semanal");
    expect(figureOf(data, "xp")?.label).toBe("XP ganados");
  });

  it("is for administrators only", async () => {
    for (const who of ["guide", "student", "parent"])
      for (const id of ["daily-metrics", "week-report", "month-report", "overall_students_subject_report"]) {
        const { status, body } = await report(id, {}, who);
        expect(status).toBe(403);
        expect(body.message).toBe("Only administrators can open this report");
      }
    const csv = await t.request("/api/reports/week-report/csv", { cookie: cookies.guide });
    expect(csv.status).toBe(403);
    expect((await t.request("/api/reports/week-report")).status).toBe(401);
    expect((await t.request("/api/reports/no-such-report", { cookie: cookies.admin })).status).toBe(400);
  });
});

describe("the subject report", () => {
  it("lists every student against each subject: level, course, XP this term and MAP percentile", async () => {
    await t.db.execute(sql`insert into placements (student_sourced_id, subject, starting_grade, current_grade, updated_by, updated_at)
      values (${NORA}, 'Math', 3, 5, 'test', now())`);
    await t.db.execute(sql`insert into map_results (student_sourced_id, nwea_student_id, term_name, season, school_year,
        subject, test_key, test_date, rit, percentile, content_hash, imported_at)
      values (${NORA}, 'N-1', 'Fall 2026', 'Fall', 2026, 'Mathematics', 'Growth', ${addDays(week, -30)}::date, 205, 71, 'x', now())`);
    const { status, data } = await report("overall_students_subject_report", {
      schoolId: SCHOOL,
      startDate: week,
      endDate: addDays(week, 6),
    });
    expect(status).toBe(200);
    const students = tableOf(data, "students");
    const row = (name: string, subject: string) =>
      students.rows.find((candidate) => candidate[0] === name && candidate[3] === subject) ?? [];
    const at = (key: string) => students.columns.findIndex((column) => column.key === key);
    expect(row("Nora Reportson", "Math")[at("termXp")]).toBe(70.5);
    expect(row("Nora Reportson", "Math")[at("masteredUnits")]).toBe(3);
    expect(row("Nora Reportson", "Math")[at("level")]).toBe("Grade 5");
    expect(row("Nora Reportson", "Math")[at("mapPercentile")]).toBe(71);
    expect(row("Kai Reportson", "Science")[at("termXp")]).toBe(7);
    expect(row("Owen Reportson", "Reading")[at("termXp")]).toBe(0);
    expect(row("Owen Reportson", "Reading")[at("mapPercentile")]).toBeNull();
    expect(figureOf(data, "termXp")?.value).toBe(sum(WEEK_DAYS, (day) => day[3]));
    expect(figureOf(data, "medianPercentile")?.value).toBe(71);
    const bySubject = await report("overall_students_subject_report", {
      schoolId: SCHOOL,
      subject: "Science",
      startDate: week,
      endDate: addDays(week, 6),
    });
    expect(tableOf(bySubject.data, "students").rows.map((entry) => entry[3])).toEqual([
      "Science",
      "Science",
      "Science",
    ]);
  });
});

describe("the learning reports", () => {
  const range = () => ({ startDate: addDays(week, -7), endDate: addDays(week, 6) });

  it("gives a student their own report, with highlights said to them", async () => {
    const { status, data } = await report("my-learning-report", {}, "student");
    expect(status).toBe(200);
    expect(data.scope).toContain("Ava Johnson");
    expect(data.highlights.length).toBeGreaterThan(0);
    expect(data.highlights.join(" ")).toMatch(/^(Your|You)/);
  });

  it("adds up a student's weeks, goal days and streak, said about them to an administrator", async () => {
    const { data } = await report("my-learning-report", { studentId: NORA, ...range() });
    const norasDays = [...WEEK_DAYS, ...PREVIOUS_WEEK].filter((day) => day[0] === NORA);
    expect(figureOf(data, "xp")?.value).toBe(sum(norasDays, (day) => day[3]));
    expect(figureOf(data, "goalDays")?.value).toBe(2);
    expect(figureOf(data, "longestStreak")?.value).toBe(1);
    expect(figureOf(data, "daysLearned")?.value).toBe(4);
    const weeks = tableOf(data, "weeks");
    expect(weeks.rows.map((row) => [row[0], row[1], row[3]])).toEqual([
      [addDays(week, -7), 50, 0],
      [week, 92.5, 2],
    ]);
    expect(data.highlights[0]).toBe(
      `Nora Reportson's best week was the week of ${new Intl.DateTimeFormat("en-US", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(`${week}T12:00:00Z`))}, with 92.5 XP.`,
    );
  });

  it("splits a student's learning by subject and app", async () => {
    const { data } = await report("my-learning-report-2", { studentId: KAI, ...range() });
    const subjects = tableOf(data, "subjects");
    expect(subjects.rows.map((row) => [row[0], row[1]])).toEqual([
      ["Math", 40],
      ["Reading", 9.5],
      ["Science", 7],
    ]);
    const apps = tableOf(data, "apps");
    expect(apps.rows).toHaveLength(1);
    expect(cell(apps, 0, "xp")).toBe(56.5);
    expect(cell(apps, 0, "minutesOnTask")).toBe(Math.round((1800 + 400 + 420) / 60));
    expect(data.highlights[0]).toBe("Kai Reportson earned the most XP in Math: 40 XP.");
  });

  it("opens for the student's Guide and family, and for no one else", async () => {
    // The demo Guide teaches Ava, not Nora; the demo parent is Ava's.
    expect((await report("my-learning-report", { studentId: NORA }, "guide")).status).toBe(403);
    expect((await report("my-learning-report", { studentId: AVA }, "guide")).status).toBe(200);
    expect((await report("my-learning-report", { studentId: AVA }, "parent")).status).toBe(200);
    expect((await report("my-learning-report-2", { studentId: NORA }, "parent")).status).toBe(403);
    expect((await report("my-learning-report", { studentId: NORA }, "student")).status).toBe(403);
    expect((await report("my-learning-report", {}, "parent")).status).toBe(400);
    const csv = await t.request(`/api/reports/my-learning-report/csv?studentId=${NORA}`, {
      cookie: cookies.parent,
    });
    expect(csv.status).toBe(403);
  });
});

describe("the daily goal rule", () => {
  it("counts the same goal days in SQL over many students as the goals domain's rule does", async () => {
    const today = localDateOf(t.clock.now(), SCHOOL_TIME_ZONE);
    const range = { start: addDays(today, -42), end: today };
    const students = sql`select r.user_sourced_id from user_roles r where lower(r.role) = 'student'`;
    const figures = await periodFigures(t.db, students, range, null, {});
    const rows = await queryRows<{ student: string; day: string; subject: string; xp: number }>(
      t.db,
      sql`select student_sourced_id as student, local_date::text as day, subject, sum(xp)::float8 as xp
        from daily_student_metrics where local_date between ${range.start}::date and ${range.end}::date
          and student_sourced_id in (${students})
        group by 1, 2, 3`,
    );
    const own = await queryRows<{ student: string; subjects: string[]; xp: number[] }>(
      t.db,
      sql`select student_sourced_id as student, array_agg(subject) as subjects, array_agg(daily_xp) as xp
        from student_daily_goals group by 1`,
    );
    const [meta] = await queryRows<{ value: unknown }>(
      t.db,
      sql`select value from app_meta where key = 'daily_xp_goals'`,
    );
    const school = dailyGoalsFrom(meta?.value);
    const ownGoals = new Map(own.map((row) => [row.student, goalsWith(school, row.subjects, row.xp)]));
    const days = new Map<string, Record<string, number>>();
    for (const row of rows) {
      const key = `${row.student}|${row.day}`;
      const day = days.get(key) ?? {};
      day[row.subject] = (day[row.subject] ?? 0) + row.xp;
      days.set(key, day);
    }
    const expected = new Map<string, number>();
    for (const [key, xp] of days) {
      const student = key.split("|")[0] as string;
      if (allGoalsMet(ownGoals.get(student) ?? school, xp))
        expected.set(student, (expected.get(student) ?? 0) + 1);
    }
    const counted = new Map(
      [...figures.current]
        .filter(([, totals]) => totals.goalDays > 0)
        .map(([id, totals]) => [id, totals.goalDays]),
    );
    expect(expected.size).toBeGreaterThan(5);
    expect(counted).toEqual(expected);
  });
});
