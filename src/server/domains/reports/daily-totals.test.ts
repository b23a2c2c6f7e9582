import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { FALLBACK_DAILY_GOALS } from "../goals/daily-goals";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const AVA = demoId("student-ava");

/** Every student day whose kept row differs from the sums of its daily totals (none when the triggers keep up). */
async function mismatches() {
  return queryRows<{ student: string; day: string }>(
    t.db,
    sql`with summed as (
        select student_sourced_id, local_date, count(*)::int as n, sum(xp) as xp, sum(active_seconds)::int as a,
          sum(waste_seconds)::int as w, sum(total_questions)::int as q, sum(correct_questions)::int as c,
          sum(mastered_units)::int as m, sum(events)::int as e
        from daily_student_metrics group by 1, 2),
      subjects as (
        select student_sourced_id, local_date, coalesce(jsonb_object_agg(subject, xp) filter (where xp <> 0), '{}') as sx
        from (select student_sourced_id, local_date, subject, sum(xp) as xp from daily_student_metrics group by 1, 2, 3) s
        group by 1, 2)
      select coalesce(k.student_sourced_id, s.student_sourced_id) as student, coalesce(k.local_date, s.local_date)::text as day
      from student_daily_totals k
      full join summed s on s.student_sourced_id = k.student_sourced_id and s.local_date = k.local_date
      left join subjects j on j.student_sourced_id = s.student_sourced_id and j.local_date = s.local_date
      where k.student_sourced_id is null or s.student_sourced_id is null or k.metric_rows <> s.n or k.xp <> s.xp
        or k.active_seconds <> s.a or k.waste_seconds <> s.w or k.total_questions <> s.q
        or k.correct_questions <> s.c or k.mastered_units <> s.m or k.events <> s.e
        or (select coalesce(jsonb_object_agg(key, value::numeric), '{}') from jsonb_each_text(k.subject_xp))
          <> (select coalesce(jsonb_object_agg(key, value::numeric), '{}') from jsonb_each_text(j.sx))`,
  );
}

/** Every kept week and month that differs from the days it adds up (none when the triggers keep up). */
async function periodMismatches() {
  return queryRows<{ student: string; period: string; starts: string }>(
    t.db,
    sql`with summed as (
        select t.student_sourced_id, k.period, k.starts_on, count(*)::int as n,
          count(*) filter (where t.active_seconds > 0 or t.events > 0)::int as l, count(*) filter (where t.goals_met)::int as g,
          sum(t.xp) as xp, sum(t.active_seconds)::int as a, sum(t.waste_seconds)::int as w,
          sum(t.total_questions)::int as q, sum(t.correct_questions)::int as c, sum(t.mastered_units)::int as m
        from student_daily_totals t cross join lateral (values ('week', t.local_date - extract(dow from t.local_date)::int),
          ('month', date_trunc('month', t.local_date)::date)) k (period, starts_on)
        group by 1, 2, 3)
      select coalesce(p.student_sourced_id, s.student_sourced_id) as student, coalesce(p.period, s.period) as period,
        coalesce(p.starts_on, s.starts_on)::text as starts
      from student_period_totals p
      full join summed s on s.student_sourced_id = p.student_sourced_id and s.period = p.period and s.starts_on = p.starts_on
      where p.student_sourced_id is null or s.student_sourced_id is null or p.days <> s.n or p.days_learned <> s.l
        or p.goal_days <> s.g or p.xp <> s.xp or p.active_seconds <> s.a or p.waste_seconds <> s.w
        or p.total_questions <> s.q or p.correct_questions <> s.c or p.mastered_units <> s.m`,
  );
}

/** Days whose goal flag is not what the rule says under the goals as they stand. */
async function staleGoalFlags() {
  return queryRows<{ student: string }>(
    t.db,
    sql`select student_sourced_id as student from student_daily_totals
      where goals_met <> daily_goals_met(student_sourced_id, subject_xp)`,
  );
}

const upsert = (day: string, subject: string, app: string, xp: number, seconds: number) =>
  t.db.execute(sql`insert into daily_student_metrics (student_sourced_id, local_date, subject, app_key, xp,
      active_seconds, total_questions, correct_questions, events)
    values (${AVA}, ${day}::date, ${subject}, ${app}, ${xp}, ${seconds}, 4, 3, 1)
    on conflict (student_sourced_id, local_date, subject, app_key) do update set
      xp = daily_student_metrics.xp + excluded.xp,
      active_seconds = daily_student_metrics.active_seconds + excluded.active_seconds,
      total_questions = daily_student_metrics.total_questions + excluded.total_questions,
      correct_questions = daily_student_metrics.correct_questions + excluded.correct_questions,
      events = daily_student_metrics.events + excluded.events`);

async function dayOf(day: string) {
  const [row] = await queryRows<{
    xp: number;
    active: number;
    rows: number;
    subjects: Record<string, number>;
  }>(
    t.db,
    sql`select xp::float8 as xp, active_seconds as active, metric_rows as rows, subject_xp as subjects
      from student_daily_totals where student_sourced_id = ${AVA} and local_date = ${day}::date`,
  );
  return row ?? null;
}

describe("each student's day, kept from the daily totals", () => {
  it("starts equal to the daily totals the demo school was seeded with", async () => {
    const [count] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from student_daily_totals`,
    );
    expect(count?.n).toBeGreaterThan(10);
    expect(await mismatches()).toEqual([]);
    expect(await periodMismatches()).toEqual([]);
    expect(await staleGoalFlags()).toEqual([]);
    const [met] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from student_daily_totals where goals_met`,
    );
    expect(met?.n).toBeGreaterThan(0);
  });

  it("says again which days met every goal when a student's or the school's goals change", async () => {
    await upsert("2031-03-03", "Math", "goal-app", 25, 600);
    const flag = async () =>
      (
        await queryRows<{ met: boolean }>(
          t.db,
          sql`select goals_met as met from student_daily_totals where student_sourced_id = ${AVA} and local_date = '2031-03-03'`,
        )
      )[0]?.met;
    const [before] = await queryRows<{ value: Record<string, number> }>(
      t.db,
      sql`select value from app_meta where key = 'daily_xp_goals'`,
    );
    const own = await queryRows<{ subject: string; xp: number }>(
      t.db,
      sql`select subject, daily_xp as xp from student_daily_goals where student_sourced_id = ${AVA}`,
    );
    // Only Math counts, with a goal of 20: the day meets it.
    await t.db.execute(sql`update app_meta set value = '{"Math": 20}' where key = 'daily_xp_goals'`);
    await t.db.execute(sql`delete from student_daily_goals where student_sourced_id = ${AVA}`);
    expect(await flag()).toBe(true);
    await t.db.execute(
      sql`insert into student_daily_goals (student_sourced_id, subject, daily_xp) values (${AVA}, 'Math', 30)`,
    );
    expect(await flag()).toBe(false);
    await t.db.execute(sql`update student_daily_goals set daily_xp = 25 where student_sourced_id = ${AVA}`);
    expect(await flag()).toBe(true);
    expect(await periodMismatches()).toEqual([]);
    // Everything back as it was.
    await t.db.execute(sql`delete from student_daily_goals where student_sourced_id = ${AVA}`);
    for (const goal of own)
      await t.db.execute(
        sql`insert into student_daily_goals (student_sourced_id, subject, daily_xp) values (${AVA}, ${goal.subject}, ${goal.xp})`,
      );
    await t.db.execute(
      sql`update app_meta set value = ${JSON.stringify(before?.value)}::jsonb where key = 'daily_xp_goals'`,
    );
    await t.db.execute(
      sql`delete from daily_student_metrics where student_sourced_id = ${AVA} and local_date = '2031-03-03'`,
    );
    expect(await staleGoalFlags()).toEqual([]);
    expect(await periodMismatches()).toEqual([]);
  });

  it("reads the goals the app falls back to when a school never set its own", async () => {
    const [saved] = await queryRows<{ value: unknown }>(
      t.db,
      sql`select value from app_meta where key = 'daily_xp_goals'`,
    );
    await t.db.execute(sql`delete from app_meta where key = 'daily_xp_goals'`);
    const met = async (xp: Record<string, number>) =>
      (
        await queryRows<{ met: boolean }>(
          t.db,
          sql`select daily_goals_met('nobody', ${JSON.stringify(xp)}::jsonb) as met`,
        )
      )[0]?.met;
    expect(await met(FALLBACK_DAILY_GOALS)).toBe(true);
    for (const subject of Object.keys(FALLBACK_DAILY_GOALS))
      expect(
        await met({ ...FALLBACK_DAILY_GOALS, [subject]: (FALLBACK_DAILY_GOALS[subject] ?? 0) - 1 }),
      ).toBe(false);
    await t.db.execute(
      sql`insert into app_meta (key, value) values ('daily_xp_goals', ${JSON.stringify(saved?.value)}::jsonb)`,
    );
    expect(await staleGoalFlags()).toEqual([]);
  });

  it("follows inserts, upserts, updates and deletes, subject by subject", async () => {
    await upsert("2031-02-03", "Math", "app-a", 12.5, 300);
    await upsert("2031-02-03", "Math", "app-b", 7.25, 120);
    await upsert("2031-02-03", "Reading", "app-a", 10, 60);
    await upsert("2031-02-03", "Math", "app-a", 2.5, 30);
    expect(await dayOf("2031-02-03")).toEqual({
      xp: 32.25,
      active: 510,
      rows: 3,
      subjects: { Math: 22.25, Reading: 10 },
    });
    await t.db.execute(sql`update daily_student_metrics set xp = 0 where student_sourced_id = ${AVA}
      and local_date = '2031-02-03' and subject = 'Reading'`);
    expect((await dayOf("2031-02-03"))?.subjects).toEqual({ Math: 22.25 });
    await t.db.execute(sql`delete from daily_student_metrics where student_sourced_id = ${AVA}
      and local_date = '2031-02-03' and app_key = 'app-a'`);
    expect(await dayOf("2031-02-03")).toEqual({ xp: 7.25, active: 120, rows: 1, subjects: { Math: 7.25 } });
    await t.db.execute(sql`delete from daily_student_metrics where student_sourced_id = ${AVA}
      and local_date = '2031-02-03'`);
    expect(await dayOf("2031-02-03")).toBeNull();
    expect(await mismatches()).toEqual([]);
    expect(await periodMismatches()).toEqual([]);
    expect(await staleGoalFlags()).toEqual([]);
  });

  it("adds up writers of one day that run at the same time", async () => {
    await Promise.all(
      Array.from({ length: 24 }, (_, index) =>
        upsert("2031-02-04", index % 2 ? "Math" : "Science", `app-${index % 3}`, 1.5, 10),
      ),
    );
    expect(await dayOf("2031-02-04")).toEqual({
      xp: 36,
      active: 240,
      rows: 6,
      subjects: { Math: 18, Science: 18 },
    });
    expect(await mismatches()).toEqual([]);
    expect(await periodMismatches()).toEqual([]);
  });
});
