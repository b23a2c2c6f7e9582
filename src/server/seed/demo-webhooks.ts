import { sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { DEMO_APPS, demoId } from "./demo-accounts";

/** Hours of a school day at which the demo's apps report (UTC, the school's morning and afternoon). */
const REPORT_HOURS = [14, 16, 18, 20];

/**
 * The webhook monitor's ingestion log for the demo school: the last week of requests from each
 * demo learning app, mostly accepted, with the odd duplicate, rejected event and refused request.
 * (No subscription is seeded: a subscription's secret is sealed with the server's own key.)
 */
export async function seedDemoWebhooks(db: Database, today: Date): Promise<void> {
  const apps = DEMO_APPS.map((app, position) => ({ id: demoId(`app-${app.key}`), position }));
  await db.execute(
    sql`insert into ingest_requests (id, app_id, endpoint, received_at, status_code, accepted, duplicates,
          rejected, reasons, duration_ms)
        select md5(a.id || d.n::text || h.hour::text)::uuid, a.id::uuid,
          case when a.position = 1 then 'caliper' else 'activity' end,
          ${today}::timestamptz - d.n * interval '1 day' - interval '1 day' + h.hour * interval '1 hour',
          case when (d.n + h.hour + a.position) % 17 = 0 then 400 else 200 end,
          case when (d.n + h.hour + a.position) % 17 = 0 then 0 else 8 + (d.n * 7 + h.hour + a.position) % 23 end,
          case when (d.n + h.hour) % 5 = 0 and (d.n + h.hour + a.position) % 17 <> 0 then 1 else 0 end,
          case when (d.n + h.hour + a.position) % 7 = 0 and (d.n + h.hour + a.position) % 17 <> 0 then 2 else 0 end,
          case
            when (d.n + h.hour + a.position) % 17 = 0 then '{"events": 1}'::jsonb
            when (d.n + h.hour + a.position) % 7 = 0 then '{"Unknown student": 1, "activeSeconds": 1}'::jsonb
            else '{}'::jsonb end,
          40 + (d.n * 13 + h.hour * 7 + a.position * 5) % 90
        from jsonb_to_recordset(${JSON.stringify(apps)}::jsonb) as a(id text, position int)
          cross join generate_series(0, 6) as d(n)
          cross join unnest(${sql.param(REPORT_HOURS)}::int[]) as h(hour)
        on conflict (id) do nothing`,
  );
}
