import { sql } from "drizzle-orm";
import { addDays, localDateOf, SCHOOL_TIME_ZONE, weekStartOf } from "../../shared/time-zone";
import type { Database } from "../db/client";
import { demoId } from "./demo-accounts";

/** Ava's week pattern: day of the week (0 = Sunday), activity, minutes; some weeks skip a day or two. */
const AVA_WEEK = [
  { weekday: 1, activity: "Soccer practice", minutes: 45 },
  { weekday: 2, activity: "Walking the dog", minutes: 20 },
  { weekday: 3, activity: "Swimming", minutes: 30 },
  { weekday: 4, activity: "Jump rope at recess", minutes: 15 },
  { weekday: 6, activity: "Soccer game", minutes: 60 },
] as const;

/**
 * Athletics for the demo school: Ava logs her activities for the last five weeks and this one so
 * far (some weeks short of the goal, most past it), her Guide logged one soccer game for her, and
 * a few of her classmates logged a week or two.
 */
export async function seedDemoAthletics(db: Database, today: Date): Promise<void> {
  const day = localDateOf(today, SCHOOL_TIME_ZONE);
  const thisWeek = weekStartOf(day);
  const ava = demoId("student-ava");
  const rows: {
    id: string;
    student: string;
    activity: string;
    minutes: number;
    date: string;
    note: string | null;
    by: string;
  }[] = [];
  for (let week = 5; week >= 0; week -= 1) {
    const start = addDays(thisWeek, -7 * week);
    for (const [index, entry] of AVA_WEEK.entries()) {
      const date = addDays(start, entry.weekday);
      // Every third week she misses a day; only days that have come are logged.
      if (date > day || (week % 3 === 1 && index === 3)) continue;
      const isGuideLogged = week === 2 && entry.weekday === 6;
      rows.push({
        id: demoId(`athletics-ava-${week}-${entry.weekday}`),
        student: ava,
        activity: entry.activity,
        minutes: entry.minutes + ((week * 5) % 15),
        date,
        note: entry.weekday === 6 && week === 0 ? "We won 3 to 2!" : null,
        by: isGuideLogged ? demoId("guide-patel") : ava,
      });
    }
  }
  if (rows.length > 0)
    await db.execute(sql`insert into athletic_activities
        (id, student_sourced_id, activity, minutes, activity_date, note, recorded_by, created_at)
      values ${sql.join(
        rows.map(
          (row) =>
            sql`(${row.id}::uuid, ${row.student}, ${row.activity}, ${row.minutes}, ${row.date}::date, ${row.note}::text,
              ${row.by}, least(${row.date}::date + time '18:00', ${today.toISOString()}::timestamptz))`,
        ),
        sql`, `,
      )}`);
  // A few of Ava's classmates, two weeks each.
  await db.execute(sql`insert into athletic_activities
      (id, student_sourced_id, activity, minutes, activity_date, recorded_by, created_at)
    select md5(s.id || w.n::text || d.weekday::text)::uuid, s.id, d.activity, d.minutes, (${thisWeek}::date - 7 * w.n + d.weekday),
      s.id, (${thisWeek}::date - 7 * w.n + d.weekday) + time '17:30'
    from (select e.user_sourced_id as id from enrollments e
        where e.role = 'student' and e.user_sourced_id <> ${ava} and e.class_sourced_id in (
          select t.class_sourced_id from enrollments t where t.user_sourced_id = ${demoId("guide-patel")} and t.role = 'teacher')
        group by e.user_sourced_id order by e.user_sourced_id limit 4) s
      cross join (values (1), (2)) as w(n)
      cross join (values (1, 'Basketball', 40), (3, 'Running', 25), (5, 'Dance class', 50)) as d(weekday, activity, minutes)`);
}
