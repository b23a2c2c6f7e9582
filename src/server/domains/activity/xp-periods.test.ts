import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const AVA = demoId("student-ava");

/** The periods' XP as kept, against the same sums read from the daily totals. */
async function keptAndSummed() {
  return queryRows<{ period: string; starts_on: string; subject: string; kept: number; summed: number }>(
    t.db,
    sql`with summed as (
        select k.period, k.starts_on, d.subject, sum(d.xp) as xp
        from daily_student_metrics d cross join lateral (values
          ('week', d.local_date - extract(dow from d.local_date)::int),
          ('month', date_trunc('month', d.local_date)::date),
          ('all', date '2000-01-01')) k (period, starts_on)
        where d.student_sourced_id = ${AVA} group by 1, 2, 3)
      select coalesce(p.period, s.period) as period, coalesce(p.starts_on, s.starts_on)::text as starts_on,
        coalesce(p.subject, s.subject) as subject, coalesce(p.xp, 0)::float8 as kept, coalesce(s.xp, 0)::float8 as summed
      from (select * from student_xp_periods where student_sourced_id = ${AVA}) p
      full join summed s on s.period = p.period and s.starts_on = p.starts_on and s.subject = p.subject`,
  );
}

describe("XP per week, month and all time", () => {
  it("starts equal to the daily totals the demo school was seeded with", async () => {
    const rows = await keptAndSummed();
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) expect(row.kept).toBeCloseTo(row.summed, 2);
  });

  it("follows every insert, update, upsert and delete of the daily totals", async () => {
    const add = (day: string, xp: number) =>
      t.db.execute(sql`insert into daily_student_metrics (student_sourced_id, local_date, subject, app_key, xp)
        values (${AVA}, ${day}::date, 'Science', 'periods-test', ${xp})
        on conflict (student_sourced_id, local_date, subject, app_key) do update set xp = daily_student_metrics.xp + excluded.xp`);
    const science = async (period: string, startsOn: string) => {
      const [row] = await queryRows<{ xp: number }>(
        t.db,
        sql`select xp::float8 as xp from student_xp_periods where student_sourced_id = ${AVA}
          and period = ${period} and starts_on = ${startsOn}::date and subject = 'Science'`,
      );
      return row?.xp ?? 0;
    };
    const before = { week: await science("week", "2030-03-03"), all: await science("all", "2000-01-01") };
    // Saturday 9 March 2030 and Sunday 10 March: two weeks, one month.
    await add("2030-03-09", 12.5);
    await add("2030-03-10", 7);
    await add("2030-03-09", -2.5);
    expect(await science("week", "2030-03-03")).toBe(before.week + 10);
    expect(await science("week", "2030-03-10")).toBe(7);
    expect(await science("month", "2030-03-01")).toBe(17);
    expect(await science("all", "2000-01-01")).toBe(before.all + 17);

    await t.db.execute(sql`update daily_student_metrics set xp = xp * 2
      where student_sourced_id = ${AVA} and app_key = 'periods-test'`);
    expect(await science("month", "2030-03-01")).toBe(34);

    await t.db.execute(sql`delete from daily_student_metrics where student_sourced_id = ${AVA}
      and app_key = 'periods-test' and local_date = '2030-03-10'`);
    expect(await science("week", "2030-03-10")).toBe(0);
    expect(await science("month", "2030-03-01")).toBe(20);
    for (const row of await keptAndSummed()) expect(row.kept).toBeCloseTo(row.summed, 2);
  });
});
