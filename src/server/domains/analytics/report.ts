import { type SQL, sql } from "drizzle-orm";
import {
  type AnalyticsReport,
  type AnalyticsReportQuery,
  DEFAULT_REPORT_DAYS,
  MAX_REPORT_DAYS,
} from "../../../shared/contracts/analytics";
import { addDays, daysBetween, localDateOf, SCHOOL_TIME_ZONE, weekStartOf } from "../../../shared/time-zone";
import { type Database, isoInstant, queryJsonRows } from "../../db/client";
import { message } from "../../lib/i18n";
import { invalidFields } from "../../lib/validation";

const TOP_PAGES = 20;
const ERROR_GROUPS = 20;
const PATHS_PER_ERROR = 5;

/** The report's days: the asked span, else the four weeks up to today (the school's day). */
export function reportSpan(query: AnalyticsReportQuery, now: Date): { from: string; to: string } {
  const to = query.to ?? localDateOf(now, SCHOOL_TIME_ZONE);
  const from = query.from ?? addDays(to, -(DEFAULT_REPORT_DAYS - 1));
  if (from > to) throw invalidFields([{ path: "from", message: message("analytics:report.fromAfterTo") }]);
  if (daysBetween(from, to) >= MAX_REPORT_DAYS)
    throw invalidFields([
      { path: "to", message: message("analytics:report.spanTooLong", { days: MAX_REPORT_DAYS }) },
    ]);
  return { from, to };
}

/** The week (its Sunday) of a `date` column, as PostgreSQL computes it. */
const weekOf = (day: SQL) => sql`(${day} - extract(dow from ${day})::int)`;

/**
 * How Dash was used in a span, for administrators (who see every school): active people per day
 * and week, by role and school, the most viewed pages and the newest errors grouped by message.
 */
export async function analyticsReport(
  db: Database,
  query: AnalyticsReportQuery,
  now: Date,
): Promise<AnalyticsReport> {
  const { from, to } = reportSpan(query, now);
  const filters = [sql`e.day between ${from}::date and ${to}::date`];
  if (query.schoolId) filters.push(sql`e.school_sourced_id = ${query.schoolId}`);
  if (query.role) filters.push(sql`e.role = ${query.role}`);
  const where = sql.join(filters, sql` and `);
  const dayCount = daysBetween(from, to) + 1;
  const weekCount = daysBetween(weekStartOf(from), weekStartOf(to)) / 7 + 1;

  const [days, weeks, active, topPages, errors, schools] = await Promise.all([
    queryJsonRows<{ day: string; activePeople: number; pageViews: number; exceptions: number }>(
      db,
      sql`select to_char(e.day, 'YYYY-MM-DD') as day,
            count(distinct e.user_sourced_id)::int as "activePeople",
            (count(*) filter (where e.type = 'page_view'))::int as "pageViews",
            (count(*) filter (where e.type = 'exception'))::int as exceptions
          from analytics_events e where ${where} group by e.day`,
    ),
    queryJsonRows<{ weekStart: string; activePeople: number }>(
      db,
      sql`select to_char(${weekOf(sql`e.day`)}, 'YYYY-MM-DD') as "weekStart",
            count(distinct e.user_sourced_id)::int as "activePeople"
          from analytics_events e where ${where} group by 1 order by 1`,
    ),
    queryJsonRows<{
      role: string | null;
      schoolId: string | null;
      schoolName: string | null;
      personDays: number;
      personWeeks: number;
      people: number;
    }>(
      db,
      sql`select e.role, e.school_sourced_id as "schoolId", o.name as "schoolName",
            count(distinct (e.user_sourced_id, e.day))::int as "personDays",
            count(distinct (e.user_sourced_id, ${weekOf(sql`e.day`)}))::int as "personWeeks",
            count(distinct e.user_sourced_id)::int as people
          from analytics_events e left join orgs o on o.sourced_id = e.school_sourced_id
          where ${where} and e.user_sourced_id is not null
          group by e.role, e.school_sourced_id, o.name
          order by people desc, e.role, o.name`,
    ),
    queryJsonRows<{ path: string; views: number; people: number }>(
      db,
      sql`select e.path, count(*)::int as views, count(distinct e.user_sourced_id)::int as people
          from analytics_events e where ${where} and e.type = 'page_view'
          group by e.path order by views desc, e.path limit ${TOP_PAGES}`,
    ),
    queryJsonRows<AnalyticsReport["errors"][number]>(
      db,
      sql`select e.message, count(*)::int as count, count(distinct e.user_sourced_id)::int as people,
            ${isoInstant(sql`max(e.occurred_at)`)} as "lastSeenAt",
            (array_agg(e.stack order by e.occurred_at desc, e.id desc) filter (where e.stack is not null))[1] as "sampleStack",
            (array_agg(distinct e.path))[1:${PATHS_PER_ERROR}] as paths
          from analytics_events e where ${where} and e.type = 'exception'
          group by e.message order by max(e.occurred_at) desc limit ${ERROR_GROUPS}`,
    ),
    queryJsonRows<{ id: string; name: string }>(
      db,
      sql`select o.sourced_id as id, o.name from orgs o
          where o.type = 'school' and o.status = 'active' order by o.name, o.sourced_id`,
    ),
  ]);

  const byDay = new Map(days.map((row) => [row.day, row]));
  return {
    from,
    to,
    days: Array.from({ length: dayCount }, (_, offset) => {
      const day = addDays(from, offset);
      return byDay.get(day) ?? { day, activePeople: 0, pageViews: 0, exceptions: 0 };
    }),
    weeks,
    activeByRoleAndSchool: active.map(({ personDays, personWeeks, ...row }) => ({
      ...row,
      dailyActive: Math.round((personDays / dayCount) * 10) / 10,
      weeklyActive: Math.round((personWeeks / weekCount) * 10) / 10,
    })),
    topPages,
    errors,
    schools,
  };
}
