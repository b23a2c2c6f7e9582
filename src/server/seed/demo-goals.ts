import { sql } from "drizzle-orm";
import { addDays, localDateOf, SCHOOL_TIME_ZONE } from "../../shared/time-zone";
import type { Database } from "../db/client";
import { demoId } from "./demo-accounts";

/**
 * Goals for the demo school: every student's own weekly XP goal, set by their Guide, and target
 * goals from four weeks ago with deadlines three weeks ahead, sized from each student's own pace
 * so some are on track and some behind (a student's two the other way round): mastering units (every student), finishing their Math
 * course (every other student) and a RIT score in Reading (every third, waiting for the next
 * test). A class of Ms Patel's has a weekly goal of its own.
 */
export async function seedDemoGoals(db: Database, today: Date): Promise<void> {
  const day = localDateOf(today, SCHOOL_TIME_ZONE);
  const startsOn = addDays(day, -28);
  const deadline = addDays(day, 21);
  // Seven weeks from start to deadline, four of them gone: at the same pace a student makes 7/4 of
  // what they did so far. A target of 1.4 times so far is on track; 2.4 times is behind.
  const sizeOf = (done: string, onTrackWhen: 0 | 1) =>
    sql`greatest(1, ceil(${sql.raw(done)} * case when s.n % 2 = ${onTrackWhen} then 1.4 else 2.4 end))::int`;
  await db.execute(sql`with students as (
      select u.sourced_id as id, u.primary_org_sourced_id as school, row_number() over (order by u.sourced_id) as n,
        (select e.user_sourced_id from enrollments e where e.class_sourced_id in (
            select e2.class_sourced_id from enrollments e2 where e2.user_sourced_id = u.sourced_id and e2.role = 'student')
          and e.role = 'teacher' order by e."primary" desc, e.user_sourced_id limit 1) as guide
      from users u join user_roles r on r.user_sourced_id = u.sourced_id and r.role = 'student'),
    done as (
      select s.id, s.n, s.school, coalesce(s.guide, ${demoId("admin")}) as guide,
        coalesce(sum(d.mastered_units), 0) as units,
        coalesce(sum(d.xp) filter (where d.subject = 'Math'), 0) as math_xp
      from students s left join daily_student_metrics d on d.student_sourced_id = s.id and d.local_date >= ${startsOn}::date
      group by s.id, s.n, s.school, s.guide)
    insert into goals (kind, student_sourced_id, subject, course_sourced_id, target, baseline, starts_on, deadline,
      set_by_sourced_id, set_by_role)
    select 'weekly_xp', s.id, null::text, null::text, (400 + (s.n % 4) * 50)::int, null::int, ${startsOn}::date,
      null::date, s.guide, 'teacher' from done s
    union all
    select 'units', s.id, null, null, ${sizeOf("s.units", 0)}, null, ${startsOn}::date, ${deadline}::date, s.guide, 'teacher'
      from done s
    union all
    select 'course', s.id, 'Math', c.sourced_id, ${sizeOf("s.math_xp", 1)}, null, ${startsOn}::date, ${addDays(day, 35)}::date,
      s.guide, 'teacher'
      from done s join courses c on c.org_sourced_id = s.school and c.subjects[1] = 'Math'
      where s.n % 2 = 1 or s.id = ${demoId("student-ava")}
    union all
    select 'rit', s.id, 'Reading', null, (215 + (s.n % 3) * 5)::int, (203 + (s.n % 5))::int, ${startsOn}::date, ${addDays(day, 150)}::date,
      s.guide, 'teacher'
      from done s where s.n % 3 = 0 or s.id = ${demoId("student-ava")}`);
  await db.execute(sql`insert into goals (kind, class_sourced_id, target, starts_on, set_by_sourced_id, set_by_role)
    select 'weekly_xp', c.sourced_id, 450, ${startsOn}::date, ${demoId("guide-patel")}, 'teacher'
    from classes c where c.sourced_id in (
      select e.class_sourced_id from enrollments e where e.user_sourced_id = ${demoId("guide-patel")} and e.role = 'teacher')
    order by c.title limit 1`);
}
