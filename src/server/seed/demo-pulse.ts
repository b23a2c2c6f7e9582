import { sql } from "drizzle-orm";
import { addDays, localDateOf, SCHOOL_TIME_ZONE, weekStartOf } from "../../shared/time-zone";
import { type Database, queryRows } from "../db/client";
import { buildPulses } from "../domains/families/pulse-figures";
import { demoId } from "./demo-accounts";

/** Weeks of digests the demo families have, before the week running now (built when it is read). */
const WEEKS = 4;

/** What a Guide writes to a family about a week; `{name}` is the child's first name. */
const NOTES = [
  "{name} stayed focused through every Math session this week and asked great questions. At home, ask {name} to explain one problem they solved.",
  "{name} finished the reading unit early and then helped a classmate with theirs. Ask about the book: there is a lot to tell!",
  "A quieter week for {name}: a few sessions ended early. We talked about a plan for next week, and a word of encouragement at home will help.",
  "{name} mastered several Language units and was proud of it. The next step is to keep the streak going on Monday.",
  "Science was the highlight for {name} this week: the experiment write-up was one of the best in the group.",
  "{name} worked steadily and met the daily goals on most days. Keep the mornings calm and the evenings screen-free before school days.",
];

/**
 * The weekly pulse of the demo families: every child's digest of each of the last four weeks, as
 * the weekly job builds it, and their Guide's note on most of those weeks (always on Ava's).
 */
export async function seedDemoPulse(db: Database, today: Date): Promise<void> {
  const currentWeek = weekStartOf(localDateOf(today, SCHOOL_TIME_ZONE));
  const weeks = Array.from({ length: WEEKS }, (_, index) => addDays(currentWeek, -7 * (index + 1)));
  const children = await queryRows<{ id: string; name: string; guide: string | null }>(
    db,
    sql`select u.sourced_id as id, coalesce(u.preferred_first_name, u.given_name) as name,
          (select t.user_sourced_id from enrollments e join enrollments t on t.class_sourced_id = e.class_sourced_id
            where e.user_sourced_id = u.sourced_id and e.role = 'student' and e.status = 'active'
              and t.role = 'teacher' and t.status = 'active'
            order by t."primary" desc, t.user_sourced_id limit 1) as guide
        from users u
        where u.status = 'active' and u.sourced_id in (select a.user_sourced_id from user_agents a)
          and exists (select 1 from user_roles r where r.user_sourced_id = u.sourced_id and lower(r.role) = 'student')
        order by u.sourced_id`,
  );
  for (const week of weeks)
    await buildPulses(
      db,
      children.map((child) => child.id),
      week,
      today,
    );

  const ava = demoId("student-ava");
  const notes = children.flatMap((child, index) =>
    weeks.flatMap((week, weekIndex) => {
      const writes = child.id === ava || (index + weekIndex) % 3 !== 0;
      if (!child.guide || !writes) return [];
      const template = NOTES[(index + weekIndex) % NOTES.length] as string;
      return [
        {
          id: child.id,
          week,
          note: template.replaceAll("{name}", child.name),
          author: child.guide,
          // Friday afternoon of the week, when Guides write them.
          at: `${addDays(week, 5)} 14:30`,
        },
      ];
    }),
  );
  await db.execute(sql`insert into pulse_notes (student_sourced_id, week_start, note, author_sourced_id, updated_at)
    select e.id, e.week::date, e.note, e.author, e.at::timestamp at time zone ${SCHOOL_TIME_ZONE}
    from jsonb_to_recordset(${JSON.stringify(notes)}::jsonb) as e(id text, week text, note text, author text, at text)`);
}
