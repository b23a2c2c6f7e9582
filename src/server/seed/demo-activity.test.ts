import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { daysBetween, isWeekday, localDateOf } from "../../shared/time-zone";
import { type Database, queryRows } from "../db/client";
import { getMeta } from "../db/meta";
import { DASH_LESSONS_APP_ID } from "../domains/content/lesson-app";
import { createTestApp, type TestApp } from "../test/harness";
import { demoId } from "./demo-accounts";
import { DEMO_DAILY_GOALS, DEMO_SCHOOL_DAYS, schoolDaysUntil, seedDemoActivity } from "./demo-activity";

let t: TestApp;
let seededAt: Date;
beforeAll(async () => {
  t = await createTestApp();
  seededAt = new Date(String(await getMeta(t.db, "demo_seeded_at")));
});
afterAll(() => t.close());

const AVA = demoId("student-ava");
const NEW_YORK = "America/New_York";
const rowsOf = <Row>(query: SQL, db: Database = t.db) => queryRows<Row>(db, query);
const countOf = async (query: SQL) => Number((await rowsOf<{ n: number | string }>(query))[0]?.n);

const activityDatesOf = async (studentId: string, db: Database = t.db) =>
  (
    await rowsOf<{ date: string }>(
      sql`select distinct to_char(local_date, 'YYYY-MM-DD') as date from daily_student_metrics
          where student_sourced_id = ${studentId} and app_key <> 'manual' order by 1`,
      db,
    )
  ).map((row) => row.date);

const holidayDates = async () =>
  new Set(
    (
      await rowsOf<{ date: string }>(
        sql`select to_char(date, 'YYYY-MM-DD') as date from school_holidays where org_sourced_id = ${demoId("district")}`,
      )
    ).map((row) => row.date),
  );

describe("the demo school's activity", () => {
  it("gives Ava about 60 school days, none on a weekend or a district holiday", async () => {
    const dates = await activityDatesOf(AVA);
    expect(dates.length).toBeGreaterThanOrEqual(55);
    expect(dates.length).toBeLessThanOrEqual(62);
    const holidays = await holidayDates();
    expect(holidays.size).toBeGreaterThan(0);
    for (const date of dates) {
      expect(isWeekday(date), date).toBe(true);
      expect(holidays.has(date), date).toBe(false);
    }
  });

  it("ends at the moment of seeding, on the last school day in New York", async () => {
    const [latest] = await rowsOf<{ at: string | Date }>(
      sql`select max(occurred_at) as at from activity_events`,
    );
    expect(new Date(latest?.at as string).getTime()).toBeLessThanOrEqual(seededAt.getTime());
    const today = localDateOf(seededAt, NEW_YORK);
    const schoolDays = schoolDaysUntil(today, DEMO_SCHOOL_DAYS).days;
    const lastDate = (await activityDatesOf(AVA)).at(-1);
    // Before the first lesson of a school day, the day before is the latest.
    expect(schoolDays.slice(-2)).toContain(lastDate);
    const hourInNewYork = Number(
      new Intl.DateTimeFormat("en-US", { timeZone: NEW_YORK, hour: "numeric", hourCycle: "h23" }).format(
        seededAt,
      ),
    );
    if (schoolDays.at(-1) === today && hourInNewYork >= 10) expect(lastDate).toBe(today);
  });

  it("gives every student some XP, with the daily totals matching the ledger", async () => {
    const students = await countOf(
      sql`select count(distinct user_sourced_id) as n from user_roles where role = 'student'`,
    );
    const withXp =
      await countOf(sql`select count(*) as n from (select student_sourced_id from daily_student_metrics
        group by student_sourced_id having sum(xp) > 0) s`);
    expect(withXp).toBe(students);
    const mismatches = await countOf(sql`select count(*) as n from (
        select student_sourced_id, sum(amount) as xp from xp_ledger group by 1) l
      full join (select student_sourced_id, sum(xp) as xp from daily_student_metrics group by 1) m using (student_sourced_id)
      where l.xp is distinct from m.xp`);
    expect(mismatches).toBe(0);
  });

  it("has failed attempts that earn nothing, retries, waste and gaming that costs XP", async () => {
    const [stats] = await rowsOf<Record<string, number | string>>(sql`select count(*) as events,
        count(*) filter (where awarded_xp = 0 and correct_questions < 0.8 * total_questions) as failed,
        count(*) filter (where awarded_xp < 0) as negative,
        count(*) filter (where awarded_xp < 0 and anti_pattern_seconds = 0) as "negativeWithoutGaming",
        count(*) filter (where attempt = 2) as retries,
        count(*) filter (where waste_seconds > 0) as wasted
      from activity_events where event_id like 'demo-%'`);
    const share = (key: string) => Number(stats?.[key]) / Number(stats?.events);
    expect(share("failed")).toBeGreaterThan(0.03);
    expect(share("failed")).toBeLessThan(0.15);
    expect(share("negative")).toBeGreaterThan(0);
    expect(share("negative")).toBeLessThan(0.03);
    expect(Number(stats?.negativeWithoutGaming)).toBe(0);
    expect(share("retries")).toBeGreaterThan(0);
    expect(share("wasted")).toBeGreaterThan(0);
  });

  it("has Maya Patel's award to Ava a few days ago", async () => {
    const awards = await rowsOf<{ amount: string | number; subject: string; date: string; actor: string }>(
      sql`select l.amount, l.subject, to_char(l.local_date, 'YYYY-MM-DD') as date,
            a.given_name || ' ' || a.family_name as actor
          from xp_ledger l join users a on a.sourced_id = l.actor_sourced_id
          where l.student_sourced_id = ${AVA} and l.source = 'manual' and l.reason = 'Helped a classmate with fractions'`,
    );
    expect(awards).toHaveLength(1);
    const [award] = awards;
    expect(award).toMatchObject({ subject: "Math", actor: "Maya Patel" });
    expect(Number(award?.amount)).toBe(15);
    const daysAgo = daysBetween(award?.date as string, localDateOf(seededAt, NEW_YORK));
    expect(daysAgo).toBeGreaterThan(0);
    expect(daysAgo).toBeLessThanOrEqual(14);
  });

  it("stores the school's daily goals and a few students' own", async () => {
    expect(await getMeta(t.db, "daily_xp_goals")).toEqual(DEMO_DAILY_GOALS);
    const students = await countOf(
      sql`select count(distinct student_sourced_id) as n from student_daily_goals`,
    );
    expect(students).toBeGreaterThanOrEqual(2);
    expect(students).toBeLessThanOrEqual(3);
  });

  it("shows Ava a streak of a few days, after days when she missed a goal", async () => {
    const home = await t.request(`/api/students/${AVA}/home`, {
      cookie: await t.signIn("student@dash.demo"),
    });
    const { summary } = (await home.json()).data;
    const today = localDateOf(t.clock.now(), NEW_YORK);
    const lastSchoolDay = schoolDaysUntil(today, 1).days[0] as string;
    // Only a weekend (not a break with no holiday rows, such as the summer) may lie between.
    if (daysBetween(lastSchoolDay, today) <= 3) expect(summary.streak).toBeGreaterThanOrEqual(5);
    expect(summary.streak).toBeLessThan(DEMO_SCHOOL_DAYS);
  });

  it("is deterministic: the same moment gives the same data, each student on their own", async () => {
    const copy = await createTestApp();
    try {
      // The activity the learning apps reported (lessons taken in Dash are seeded apart, seed/demo-content.ts).
      const snapshot = async (db: Database) =>
        rowsOf<Record<string, unknown>>(
          sql`select e.event_id, e.occurred_at, e.local_date, e.subject, e.activity_name, e.expected_xp,
                e.total_questions, e.correct_questions, e.active_seconds, e.waste_seconds,
                e.anti_pattern_seconds, e.attempt, e.awarded_xp, e.received_at,
                (select sum(amount) from xp_ledger where student_sourced_id = ${AVA}
                  and app_id is distinct from ${DASH_LESSONS_APP_ID}::uuid) as "ledgerXp",
                (select sum(xp) from daily_student_metrics where student_sourced_id = ${AVA}
                  and app_key <> ${DASH_LESSONS_APP_ID}) as "dailyXp"
              from activity_events e where e.student_sourced_id = ${AVA} and e.app_id <> ${DASH_LESSONS_APP_ID}::uuid
              order by e.event_id`,
          db,
        );
      const wipeAva = async () => {
        for (const table of ["activity_events", "xp_ledger", "daily_student_metrics"])
          await copy.db.execute(sql`delete from ${sql.identifier(table)} where student_sourced_id = ${AVA}`);
      };
      await wipeAva();
      await seedDemoActivity(copy.db, seededAt, { only: [AVA] });
      const original = await snapshot(t.db);
      expect(original.length).toBeGreaterThan(100);
      expect(await snapshot(copy.db)).toEqual(original);

      // A Wednesday afternoon: the seed ends that day, at that time.
      const wednesday = new Date("2026-11-18T19:30:00Z");
      await wipeAva();
      await seedDemoActivity(copy.db, wednesday, { only: [AVA] });
      const dates = await activityDatesOf(AVA, copy.db);
      expect(dates.at(-1)).toBe("2026-11-18");
      expect(dates.length).toBeGreaterThanOrEqual(55);
      const [latest] = await rowsOf<{ at: string | Date }>(
        sql`select max(occurred_at) as at from activity_events where student_sourced_id = ${AVA}`,
        copy.db,
      );
      expect(new Date(latest?.at as string).getTime()).toBeLessThanOrEqual(wednesday.getTime());
    } finally {
      await copy.close();
    }
  }, 120_000); // Seeds the activity of a student twice over: slow on a busy machine.
});
