import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, localDateOf } from "../../../shared/time-zone";
import { DEMO_APP_KEY, demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";

let t: TestApp;
beforeAll(async () => {
  // These tests report activity on fixed dates before any seeded day, further back than apps may.
  t = await createTestApp({ env: { INGEST_MAX_PAST_DAYS: "36500" } });
});
afterAll(() => t.close());

const AVA = demoId("student-ava");
const LEO = demoId("student-leo");
const PATEL_MATH = demoId("class-maple-grove-guide-patel-Math");
const OKORO_MATH = demoId("class-maple-grove-guide-okoro-Math");

interface Row {
  period: string;
  studentId: string;
  group: string;
  groupName: string;
  xp: number;
  activeSeconds: number;
  totalQuestions: number;
  correctQuestions: number;
  accuracy: number | null;
  events: number;
}

const cookies = new Map<string, string>();
async function as(email: string) {
  let cookie = cookies.get(email);
  if (!cookie) {
    cookie = await t.signIn(email);
    cookies.set(email, cookie);
  }
  return cookie;
}

async function metrics(email: string, query: Record<string, string>) {
  const response = await t.request(`/api/learning-metrics?${new URLSearchParams(query)}`, {
    cookie: await as(email),
  });
  return { status: response.status, body: await response.json() };
}

let sequence = 0;
async function ingest(events: Record<string, unknown>[]): Promise<number[]> {
  const response = await t.request("/api/ingest/activity", {
    json: {
      events: events.map((event) => ({
        eventId: `metrics-${++sequence}-${Math.random().toString(36).slice(2, 8)}`,
        email: "student@dash.demo",
        subject: "Math",
        activityId: `metrics-activity-${sequence}`,
        activityName: "Metrics test",
        expectedXp: 10,
        totalQuestions: 10,
        correctQuestions: 8,
        activeSeconds: 600,
        ...event,
      })),
    },
    headers: { authorization: `Bearer ${DEMO_APP_KEY}` },
  });
  const result = await response.json();
  expect(result.rejected).toEqual([]);
  return result.accepted.map((entry: { xp: number }) => entry.xp);
}

const round = (value: number) => Math.round(value * 100) / 100;

/** XP per period of one student's rows, summed over groups. */
function xpByPeriod(rows: Row[], studentId = AVA): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const row of rows.filter((entry) => entry.studentId === studentId)) {
    totals[row.period] = round((totals[row.period] ?? 0) + row.xp);
  }
  return totals;
}

/** XP per group name over the whole range. */
function xpByGroup(rows: Row[], studentId = AVA): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const row of rows.filter((entry) => entry.studentId === studentId)) {
    totals[row.groupName] = round((totals[row.groupName] ?? 0) + row.xp);
  }
  return totals;
}

describe("GET /api/learning-metrics buckets", () => {
  // Long before the demo school's activity: every figure in this range comes from these events.
  const range = { startDate: "2024-02-25", endDate: "2024-04-06" };
  let xp: number[] = [];

  beforeAll(async () => {
    xp = await ingest([
      { occurredAt: "2024-03-02T15:00:00Z" }, // Saturday
      { occurredAt: "2024-03-03T15:00:00Z" }, // Sunday: a new week
      // 22:00 on Monday 4 March in New York (Ava's timezone), already Tuesday in UTC.
      { occurredAt: "2024-03-05T03:00:00Z", subject: "Reading" },
      { occurredAt: "2024-03-31T15:00:00Z" }, // Sunday
      { occurredAt: "2024-04-01T15:00:00Z", totalQuestions: 0, correctQuestions: 0 }, // a new month
    ]);
    expect(xp).toHaveLength(5);
  });
  const xpOf = (index: number) => () => xp[index] as number;
  const [a, b, c, d, e] = [xpOf(0), xpOf(1), xpOf(2), xpOf(3), xpOf(4)];

  it("gives days in the student's own timezone", async () => {
    const { status, body } = await metrics("student@dash.demo", { ...range, view: "daily" });
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({ view: "daily", groupBy: "subject", ...range });
    expect(body.data.students).toEqual([{ sourcedId: AVA, givenName: "Ava", familyName: "Johnson" }]);
    expect(xpByPeriod(body.data.rows)).toEqual({
      "2024-03-02": a(),
      "2024-03-03": b(),
      "2024-03-04": c(),
      "2024-03-31": d(),
      "2024-04-01": e(),
    });
    const monday = body.data.rows.find((row: Row) => row.period === "2024-03-04");
    expect(monday).toMatchObject({
      studentId: AVA,
      group: "Reading",
      groupName: "Reading",
      totalQuestions: 10,
      correctQuestions: 8,
      accuracy: 0.8,
      activeSeconds: 600,
      events: 1,
    });
    expect(body.data.rows.find((row: Row) => row.period === "2024-04-01").accuracy).toBeNull();
  });

  it("gives weeks from Sunday", async () => {
    const { status, body } = await metrics("student@dash.demo", { ...range, view: "weekly" });
    expect(status).toBe(200);
    expect(xpByPeriod(body.data.rows)).toEqual({
      "2024-02-25": a(),
      "2024-03-03": round(b() + c()),
      "2024-03-31": round(d() + e()),
    });
    const mathWeek = body.data.rows.find((row: Row) => row.period === "2024-03-31");
    expect(mathWeek).toMatchObject({ group: "Math", events: 2, totalQuestions: 10, activeSeconds: 1200 });
  });

  it("gives months from their first day", async () => {
    const { status, body } = await metrics("student@dash.demo", { ...range, view: "monthly" });
    expect(status).toBe(200);
    expect(xpByPeriod(body.data.rows)).toEqual({
      "2024-03-01": round(a() + b() + c() + d()),
      "2024-04-01": e(),
    });
    const marchMath = body.data.rows.find((row: Row) => row.period === "2024-03-01" && row.group === "Math");
    expect(marchMath).toMatchObject({ events: 3, totalQuestions: 30, correctQuestions: 24, accuracy: 0.8 });
  });

  it("counts only the days of the range", async () => {
    const { body } = await metrics("student@dash.demo", {
      startDate: "2024-03-03",
      endDate: "2024-03-03",
      view: "weekly",
    });
    expect(xpByPeriod(body.data.rows)).toEqual({ "2024-03-03": b() });
  });

  it("answers the same days to a Guide and a parent, whatever their own timezone", async () => {
    for (const email of ["guide@dash.demo", "parent@dash.demo", "admin@dash.demo"]) {
      const { status, body } = await metrics(email, { ...range, view: "daily", studentId: AVA });
      expect(status).toBe(200);
      expect(Object.keys(xpByPeriod(body.data.rows))).toEqual([
        "2024-03-02",
        "2024-03-03",
        "2024-03-04",
        "2024-03-31",
        "2024-04-01",
      ]);
    }
  });
});

describe("GET /api/learning-metrics groups", () => {
  it("groups by subject or by app, with XP awarded by hand as Manual", async () => {
    const today = localDateOf(t.clock.now(), "America/New_York");
    const range = { startDate: addDays(today, -1), endDate: today };
    const before = {
      subject: (await metrics("guide@dash.demo", { ...range, studentId: AVA })).body.data.rows,
      app: (await metrics("guide@dash.demo", { ...range, studentId: AVA, groupBy: "app" })).body.data.rows,
    };

    const occurredAt = new Date(t.clock.now().getTime() - 60_000).toISOString();
    const [mathXp, readingXp] = (await ingest([
      { occurredAt, subject: "Math" },
      { occurredAt, subject: "Reading" },
    ])) as [number, number];
    const manual = await t.request("/api/xp/manual", {
      cookie: await as("guide@dash.demo"),
      json: {
        studentId: AVA,
        amount: 7,
        subject: "Science",
        reason: "Helped a classmate",
        idempotencyKey: `metrics-manual-${Date.now()}`,
      },
    });
    expect(manual.status).toBe(201);

    const bySubject = await metrics("guide@dash.demo", { ...range, studentId: AVA });
    expect(bySubject.status).toBe(200);
    expect(bySubject.body.data.groupBy).toBe("subject");
    const subjectBefore = xpByGroup(before.subject);
    const subjectAfter = xpByGroup(bySubject.body.data.rows);
    expect(round((subjectAfter.Math ?? 0) - (subjectBefore.Math ?? 0))).toBe(mathXp);
    expect(round((subjectAfter.Reading ?? 0) - (subjectBefore.Reading ?? 0))).toBe(readingXp);
    expect(round((subjectAfter.Science ?? 0) - (subjectBefore.Science ?? 0))).toBe(7);
    for (const row of bySubject.body.data.rows) expect(row.group).toBe(row.groupName);

    const byApp = await metrics("guide@dash.demo", { ...range, studentId: AVA, groupBy: "app" });
    expect(byApp.status).toBe(200);
    expect(byApp.body.data.groupBy).toBe("app");
    const appBefore = xpByGroup(before.app);
    const appAfter = xpByGroup(byApp.body.data.rows);
    expect(round((appAfter["Math Academy"] ?? 0) - (appBefore["Math Academy"] ?? 0))).toBe(
      round(mathXp + readingXp),
    );
    expect(round((appAfter.Manual ?? 0) - (appBefore.Manual ?? 0))).toBe(7);
    const manualRow = byApp.body.data.rows.find((row: Row) => row.groupName === "Manual");
    expect(manualRow.group).toBe("manual");
    const mathRow = byApp.body.data.rows.find((row: Row) => row.groupName === "Math Academy");
    expect(mathRow.group).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("gives the sum of the school's daily goals", async () => {
    const { body } = await metrics("student@dash.demo", {});
    expect(body.data.dailyGoal).toBeGreaterThan(0);
    expect(Number.isInteger(body.data.dailyGoal)).toBe(true);
  });
});

describe("GET /api/learning-metrics defaults and whom", () => {
  it("defaults to the last 30 days ending today in New York, daily, by subject", async () => {
    const today = localDateOf(t.clock.now(), "America/New_York");
    const { status, body } = await metrics("student@dash.demo", {});
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      view: "daily",
      groupBy: "subject",
      startDate: addDays(today, -29),
      endDate: today,
    });
    for (const row of body.data.rows) {
      expect(row.studentId).toBe(AVA);
      expect(row.period >= body.data.startDate && row.period <= body.data.endDate).toBe(true);
    }
  });

  it("gives a student themself, even when they ask for all students", async () => {
    const queries: Record<string, string>[] = [{}, { allStudents: "1" }, { studentId: AVA }];
    for (const query of queries) {
      const { status, body } = await metrics("student@dash.demo", query);
      expect(status).toBe(200);
      expect(body.data.students.map((student: { sourcedId: string }) => student.sourcedId)).toEqual([AVA]);
    }
  });

  it("gives a parent their children and a guardian theirs", async () => {
    const parent = await metrics("parent@dash.demo", {});
    expect(parent.body.data.students.map((student: { givenName: string }) => student.givenName)).toEqual([
      "Ava",
      "Leo",
    ]);
    expect((await metrics("parent@dash.demo", { studentId: LEO })).status).toBe(200);
    const guardian = await metrics("guardian@dash.demo", {});
    expect(guardian.body.data.students.map((student: { sourcedId: string }) => student.sourcedId)).toEqual([
      AVA,
    ]);
  });

  it("gives a Guide their students, one class of theirs, or a few of them", async () => {
    const all = await metrics("guide@dash.demo", {});
    expect(all.status).toBe(200);
    const ids = all.body.data.students.map((student: { sourcedId: string }) => student.sourcedId);
    expect(ids).toContain(AVA);
    expect(ids).not.toContain(LEO);
    expect(ids.length).toBeGreaterThan(15);
    for (const row of all.body.data.rows) expect(ids).toContain(row.studentId);

    const byClass = await metrics("guide@dash.demo", { classId: PATEL_MATH, view: "weekly" });
    expect(byClass.status).toBe(200);
    expect(byClass.body.data.students.map((student: { sourcedId: string }) => student.sourcedId)).toContain(
      AVA,
    );

    const two = ids.slice(0, 2).join(",");
    const some = await metrics("guide@dash.demo", { studentIds: two });
    expect(some.status).toBe(200);
    expect(some.body.data.students).toHaveLength(2);
  });

  it("gives an administrator every student and any class", async () => {
    const all = await metrics("admin@dash.demo", { allStudents: "1", view: "monthly" });
    expect(all.status).toBe(200);
    expect(all.body.data.students.length).toBeGreaterThan(140);
    expect((await metrics("admin@dash.demo", { studentId: LEO })).status).toBe(200);
    expect((await metrics("admin@dash.demo", { classId: OKORO_MATH })).status).toBe(200);
  });
});

describe("GET /api/learning-metrics refusals", () => {
  const FORBIDDEN_STUDENT = { code: "forbidden", message: "You do not have access to this student" };

  it("refuses a student asking for another student", async () => {
    const alone = await metrics("student@dash.demo", { studentId: LEO });
    expect(alone.status).toBe(403);
    expect(alone.body).toEqual(FORBIDDEN_STUDENT);
    const among = await metrics("student@dash.demo", { studentIds: `${AVA},${LEO}` });
    expect(among.status).toBe(403);
    expect(among.body).toEqual(FORBIDDEN_STUDENT);
    expect((await metrics("student@dash.demo", { classId: PATEL_MATH })).status).toBe(403);
  });

  it("refuses a Guide asking for another Guide's student or class", async () => {
    const student = await metrics("guide@dash.demo", { studentId: LEO });
    expect(student.status).toBe(403);
    expect(student.body).toEqual(FORBIDDEN_STUDENT);
    expect((await metrics("guide@dash.demo", { studentIds: `${AVA},${LEO}` })).status).toBe(403);
    const otherClass = await metrics("guide@dash.demo", { classId: OKORO_MATH });
    expect(otherClass.status).toBe(403);
    expect(otherClass.body.code).toBe("forbidden");
    expect((await metrics("guide@dash.demo", { classId: "no-such-class" })).status).toBe(403);
  });

  it("refuses a parent or guardian asking for a child not theirs", async () => {
    const classmates = await metrics("guide@dash.demo", {});
    const other = classmates.body.data.students.find(
      (student: { sourcedId: string }) => student.sourcedId !== AVA,
    ).sourcedId;
    const parent = await metrics("parent@dash.demo", { studentId: other });
    expect(parent.status).toBe(403);
    expect(parent.body).toEqual(FORBIDDEN_STUDENT);
    expect((await metrics("guardian@dash.demo", { studentId: LEO })).status).toBe(403);
    expect((await metrics("parent@dash.demo", { classId: PATEL_MATH })).status).toBe(403);
  });

  it("refuses unknown students, other roles and anonymous callers", async () => {
    expect((await metrics("admin@dash.demo", { studentId: "nobody" })).status).toBe(403);
    expect((await metrics("admin@dash.demo", { studentId: demoId("guide-patel") })).status).toBe(403);
    expect((await metrics("proctor@dash.demo", {})).status).toBe(403);
    expect((await t.request("/api/learning-metrics")).status).toBe(401);
  });

  it("answers 400 to a bad query", async () => {
    const bad: Record<string, string>[] = [
      { view: "yearly" },
      { groupBy: "teacher" },
      { startDate: "2024-02-30" },
      { endDate: "03/01/2024" },
      { startDate: "2024-03-10", endDate: "2024-03-01" },
      { startDate: "2024-01-01", endDate: "2025-02-04" },
      { endDate: "1999-01-01", startDate: "1999-01-02" },
      { studentId: AVA, classId: PATEL_MATH },
      { allStudents: "yes" },
      { studentIds: " , " },
    ];
    for (const query of bad) {
      const { status, body } = await metrics("admin@dash.demo", query);
      expect({ query, status }).toEqual({ query, status: 400 });
      expect(body.code).toBe("validation_failed");
    }
    // 400 days is the most.
    expect(
      (await metrics("admin@dash.demo", { startDate: "2024-01-01", endDate: "2025-02-03" })).status,
    ).toBe(200);
  });
});
