import { sql } from "drizzle-orm";
import { addDays, localDateOf, SCHOOL_TIME_ZONE, startOfDayIn } from "../../shared/time-zone";
import type { Database } from "../db/client";

/** Pages the demo school's people open, and the errors their browsers met now and then. */
const PAGES = ["/app", "/app/goals", "/app/learning-metrics", "/app/leaderboards", "/app/notifications"];
/** The pages as a PostgreSQL array literal (a list given as a parameter would be spread into values). */
const PAGE_ARRAY = `{${PAGES.join(",")}}`;
const ERRORS = [
  { message: "TypeError: Cannot read properties of undefined (reading 'xp')", path: "/app/learning-metrics" },
  { message: "Error: Loading chunk 42 failed.", path: "/app/leaderboards" },
];
const DAYS = 28;

/**
 * Four weeks of Dash's own analytics for the demo school: every person with a role is active on
 * about two school days in three (a sign-in, their day of use and a few page views in their
 * highest role, at their primary school), and two kinds of browser error turn up on some days.
 */
export async function seedDemoAnalytics(db: Database, today: Date): Promise<void> {
  const first = addDays(localDateOf(today, SCHOOL_TIME_ZONE), -(DAYS - 1));
  // Mid-morning of the first day, in the school's time zone; each later day adds whole days.
  const firstMorning = new Date(startOfDayIn(first, SCHOOL_TIME_ZONE).getTime() + 10 * 3_600_000);
  await db.execute(sql`with people as (
      select u.sourced_id as id, u.primary_org_sourced_id as school,
        (select r.role from user_roles r where r.user_sourced_id = u.sourced_id
          order by array_position(array['administrator','teacher','proctor','guardian','parent','student'], lower(r.role)) limit 1) as role
      from users u where u.status = 'active' and exists (select 1 from user_roles r where r.user_sourced_id = u.sourced_id)),
    active as (
      select p.*, d.n, (${first}::date + d.n) as day, ${firstMorning.toISOString()}::timestamptz + make_interval(days => d.n) as at
      from people p cross join generate_series(0, ${DAYS - 1}) d(n)
      where extract(isodow from ${first}::date + d.n) < 6 and abs(hashtext(p.id || d.n::text)) % 3 < 2)
    insert into analytics_events (type, path, occurred_at, received_at, day, user_sourced_id, role, school_sourced_id, session_key)
    select kind.type, kind.path, a.at + kind.offset_minutes * interval '1 minute', a.at + kind.offset_minutes * interval '1 minute',
      a.day, a.id, lower(a.role), a.school, md5('demo-session:' || a.id || a.n)
    from active a cross join lateral (values
      ('login', '/app', 0), ('daily_active', '/app', 0),
      ('page_view', '/app', 1),
      ('page_view', (${PAGE_ARRAY}::text[])[1 + abs(hashtext(a.id || a.n || 'a')) % ${PAGES.length}], 4),
      ('page_view', (${PAGE_ARRAY}::text[])[1 + abs(hashtext(a.id || a.n || 'b')) % ${PAGES.length}], 9)
    ) as kind(type, path, offset_minutes)`);
  for (const [index, error] of ERRORS.entries()) {
    await db.execute(sql`insert into analytics_events (type, path, occurred_at, received_at, day, user_sourced_id, role,
        school_sourced_id, message, stack)
      select 'exception', ${error.path}, e.occurred_at + interval '2 minutes', e.occurred_at + interval '2 minutes', e.day, e.user_sourced_id, e.role, e.school_sourced_id, ${error.message},
        ${`${error.message}\n    at render (/assets/index.js:1:${1200 + index})\n    at commitRoot (/assets/react.js:9:88)`}
      from analytics_events e
      where e.type = 'daily_active' and e.role = 'student' and abs(hashtext(e.user_sourced_id || e.day::text || ${index})) % 9 = 0`);
  }
}
