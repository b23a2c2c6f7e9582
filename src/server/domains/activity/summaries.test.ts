import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, isWeekday } from "../../../shared/time-zone";
import { queryRows } from "../../db/client";
import { DEMO_APP_KEY, demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { forgetHomeSummaries } from "./home-summaries";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const AVA = demoId("student-ava");
const LEO = demoId("student-leo");
const get = async (path: string, cookie: string) => {
  const response = await t.request(path, { cookie });
  return { status: response.status, body: await response.json() };
};

describe("a student's home", () => {
  it("shows today's XP per subject against the goal once events arrive", async () => {
    const occurredAt = new Date(t.clock.now().getTime() - 60_000).toISOString();
    const events = ["Math", "Reading", "Language", "Science"].map((subject) => ({
      eventId: `summary-${subject}`,
      email: "student@dash.demo",
      occurredAt,
      subject,
      expectedXp: 40,
      totalQuestions: 10,
      correctQuestions: 9,
    }));
    const ingested = await t.request("/api/ingest/activity", {
      json: { events },
      headers: { authorization: `Bearer ${DEMO_APP_KEY}` },
    });
    expect((await ingested.json()).accepted).toHaveLength(4);

    const home = await get(`/api/students/${AVA}/home`, await t.signIn("student@dash.demo"));
    expect(home.status).toBe(200);
    const { summary, apps } = home.body.data;
    expect(summary.timezone).toBe("America/New_York");
    for (const subject of summary.subjects) {
      expect(subject.xp).toBeGreaterThanOrEqual(40);
      expect(subject.isComplete).toBe(true);
    }
    expect(summary.week).toHaveLength(7);
    expect(new Date(`${summary.week[0].date}T12:00:00Z`).getUTCDay()).toBe(0);
    expect(summary.lastActivityAt).not.toBeNull();
    expect(apps.find((app: { name: string }) => app.name === "Math Academy").lastReportedAt).not.toBeNull();
  });

  it("is visible to the student's family and Guide but not to others", async () => {
    expect((await get(`/api/students/${AVA}/home`, await t.signIn("parent@dash.demo"))).status).toBe(200);
    expect((await get(`/api/students/${AVA}/home`, await t.signIn("guide@dash.demo"))).status).toBe(200);
    expect((await get(`/api/students/${LEO}/home`, await t.signIn("guide@dash.demo"))).status).toBe(403);
    expect((await get(`/api/students/${LEO}/home`, await t.signIn("student@dash.demo"))).status).toBe(403);
  });
});

describe("streaks", () => {
  it("counts a streak longer than the two weeks read first", async () => {
    const parent = await t.signIn("parent@dash.demo");
    // A goal no seeded day meets, then thirty days with every goal met.
    await t.db.execute(
      sql`insert into student_daily_goals (student_sourced_id, subject, daily_xp) values (${LEO}, 'Math', 900)
        on conflict (student_sourced_id, subject) do update set daily_xp = 900`,
    );
    const before = (await get(`/api/students/${LEO}/home`, parent)).body.data.summary;
    expect(before.streak).toBe(0);
    const firstDay = addDays(before.today, -29);
    for (const { subject } of before.subjects) {
      await t.db.execute(sql`insert into daily_student_metrics (student_sourced_id, local_date, subject, app_key, xp)
        select ${LEO}, d::date, ${subject}, 'streak-test', 1000
        from generate_series(${firstDay}::date, ${before.today}::date, interval '1 day') d`);
    }
    // Written past the app's writers, which keep the stored summaries: they are forgotten by hand.
    await forgetHomeSummaries(t.db);
    // The demo school's holidays are its district's.
    const holidays = new Set(
      (
        await queryRows<{ date: string }>(
          t.db,
          sql`select to_char(date, 'YYYY-MM-DD') as date from school_holidays where org_sourced_id = ${demoId("district")}`,
        )
      ).map((row) => row.date),
    );
    let schoolDays = 0;
    for (let date = firstDay; date <= before.today; date = addDays(date, 1))
      if (isWeekday(date) && !holidays.has(date)) schoolDays++;
    expect(schoolDays).toBeGreaterThan(14);
    const after = (await get(`/api/students/${LEO}/home`, parent)).body.data.summary;
    expect(after.streak).toBe(schoolDays);
  });
});

describe("lists of students", () => {
  it("gives a Guide their own students only", async () => {
    const guide = await get("/api/guide/students", await t.signIn("guide@dash.demo"));
    expect(guide.status).toBe(200);
    const ids = guide.body.data.map((student: { sourcedId: string }) => student.sourcedId);
    expect(ids).toContain(AVA);
    expect(ids).not.toContain(LEO);
    expect(ids.length).toBeGreaterThan(15);
    expect((await get("/api/guide/students", await t.signIn("parent@dash.demo"))).status).toBe(403);
  });

  it("gives a parent their children and a guardian theirs", async () => {
    const parent = await get("/api/parent/children/summary", await t.signIn("parent@dash.demo"));
    expect(parent.body.data.map((child: { givenName: string }) => child.givenName)).toEqual(["Ava", "Leo"]);
    const guardian = await get("/api/parent/children/summary", await t.signIn("guardian@dash.demo"));
    expect(guardian.body.data.map((child: { givenName: string }) => child.givenName)).toEqual(["Ava"]);
    expect((await get("/api/parent/children/summary", await t.signIn("student@dash.demo"))).status).toBe(403);
  });

  it("gives an administrator totals per school", async () => {
    const schools = await get("/api/admin/schools/summary", await t.signIn("admin@dash.demo"));
    expect(schools.status).toBe(200);
    expect(schools.body.data.map((school: { name: string }) => school.name)).toEqual([
      "Maple Grove School",
      "Riverside School",
    ]);
    const maple = schools.body.data[0];
    expect(maple.students).toBeGreaterThan(70);
    expect(maple.xpToday).toBeGreaterThanOrEqual(160);
    expect(maple.xpThisWeek).toBeGreaterThanOrEqual(maple.xpToday);
    expect(maple.activeThisWeek).toBeGreaterThanOrEqual(maple.activeToday);
    expect(maple.activeThisWeek).toBeLessThanOrEqual(maple.students);
    // The trend's last day is today; the four weeks hold this week and the same days of last week.
    expect(maple.dailyXp).toHaveLength(28);
    expect(maple.dailyXp.at(-1)).toBeCloseTo(maple.xpToday, 2);
    const fourWeeks = maple.dailyXp.reduce((sum: number, xp: number) => sum + xp, 0);
    expect(fourWeeks).toBeGreaterThanOrEqual(maple.xpThisWeek + maple.xpLastWeekToDate - 0.01);
    expect(maple.xpLastWeekToDate).toBeGreaterThan(0);
    expect((await get("/api/admin/schools/summary", await t.signIn("guide@dash.demo"))).status).toBe(403);
  });
});
