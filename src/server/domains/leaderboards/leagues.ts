import { sql } from "drizzle-orm";
import {
  LEAGUE_DEMOTED,
  LEAGUE_PROMOTED,
  LEAGUE_SIZE,
  LEAGUE_TIERS,
} from "../../../shared/contracts/leaderboards";
import { addDays } from "../../../shared/time-zone";
import { type Database, queryRows } from "../../db/client";
import { isStudent } from "../rostering/queries";

/**
 * Weekly leagues. Each week every active student is placed in a league of about LEAGUE_SIZE
 * students of similar grade within a tier. A student placed last week moves by where they finished
 * in their league, counted by the XP of their own days of that week: the top LEAGUE_PROMOTED move
 * up a tier (if they earned any XP), the bottom LEAGUE_DEMOTED down, the rest stay; a student never
 * placed starts in the lowest tier. The same data always gives the same leagues, and a week is
 * placed once: two processes running the job at once write the same rows, the second's skipped.
 */

const TIERS = sql.raw(`(array[${LEAGUE_TIERS.map((tier) => `'${tier}'`).join(", ")}]::text[])`);

/** A grade's place in school order (pre-kindergarten first), for leagues of similar grade. */
const gradeOrder = sql`case u.grades[1] when 'IT' then -3 when 'PR' then -2 when 'PK' then -1 when 'TK' then -1
  when 'KG' then 0 else coalesce(nullif(regexp_replace(u.grades[1], '\\D', '', 'g'), '')::int, 99) end`;

/** Places every active student for the week starting `weekStart` (a Sunday); answers how many were placed. */
export async function placeLeagues(db: Database, weekStart: string): Promise<number> {
  const lastWeek = addDays(weekStart, -7);
  const rows = await queryRows<{ placed: number }>(
    db,
    sql`with finished as (
        select p.student_sourced_id, p.tier,
          row_number() over (partition by p.tier, p.league
            order by coalesce(x.xp, 0) desc, p.student_sourced_id) as position,
          count(*) over (partition by p.tier, p.league) as size,
          coalesce(x.xp, 0) as xp
        from league_placements p
        left join (
          select d.student_sourced_id, sum(d.xp) as xp from daily_student_metrics d
          where d.local_date between ${lastWeek}::date and ${addDays(lastWeek, 6)}::date
          group by d.student_sourced_id) x on x.student_sourced_id = p.student_sourced_id
        where p.week_start = ${lastWeek}::date),
      moved as (
        select f.student_sourced_id,
          ${TIERS}[least(greatest(array_position(${TIERS}, f.tier)
            + case when f.position <= ${LEAGUE_PROMOTED} and f.xp > 0 then 1
                   when f.position > f.size - ${LEAGUE_DEMOTED} then -1 else 0 end, 1), ${LEAGUE_TIERS.length})] as tier
        from finished f),
      students as (
        select u.sourced_id, coalesce(m.tier, ${LEAGUE_TIERS[0]}) as tier, ${gradeOrder} as grade_order
        from users u left join moved m on m.student_sourced_id = u.sourced_id
        where u.status = 'active' and ${isStudent(sql`u.sourced_id`)}),
      ordered as (
        select s.sourced_id, s.tier,
          row_number() over (partition by s.tier order by s.grade_order, s.sourced_id) - 1 as position,
          count(*) over (partition by s.tier) as size
        from students s),
      placed as (
        insert into league_placements (student_sourced_id, week_start, tier, league)
        select o.sourced_id, ${weekStart}::date, o.tier,
          floor(o.position * ceil(o.size / ${LEAGUE_SIZE}::numeric) / o.size)::int
        from ordered o
        where not exists (select 1 from league_placements p where p.week_start = ${weekStart}::date)
        order by o.sourced_id
        on conflict do nothing
        returning 1)
      select count(*)::int as placed from placed`,
  );
  return rows[0]?.placed ?? 0;
}
