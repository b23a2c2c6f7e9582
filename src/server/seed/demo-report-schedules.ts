import { sql } from "drizzle-orm";
import { addDays, localDateOf, SCHOOL_TIME_ZONE, weekStartOf } from "../../shared/time-zone";
import type { Database } from "../db/client";
import { demoId } from "./demo-accounts";

/**
 * Reports the demo's administrator has emailed: the week report of Maple Grove to themself and
 * Guide Patel every Monday (last sent this Monday), and the daily metrics to themself alone.
 */
export async function seedDemoReportSchedules(db: Database, today: Date): Promise<void> {
  const day = localDateOf(today, SCHOOL_TIME_ZONE);
  const lastWeek = addDays(weekStartOf(day), -7);
  const admin = demoId("admin");
  const schedules = [
    {
      id: demoId("report-schedule-week"),
      reportId: "week-report",
      filters: { schoolId: demoId("maple-grove") },
      frequency: "weekly",
      recipients: [admin, demoId("guide-patel")],
      lastPeriod: lastWeek,
      lastSentAt: `${addDays(lastWeek, 8)}T11:00:00Z`,
    },
    {
      id: demoId("report-schedule-daily"),
      reportId: "daily-metrics",
      filters: {},
      frequency: "daily",
      recipients: [admin],
      lastPeriod: null,
      lastSentAt: null,
    },
  ];
  await db.execute(
    sql`insert into report_schedules (id, report_id, filters, frequency, recipient_ids, created_by, created_at,
          last_period, last_sent_at)
        select s.id, s."reportId", s.filters, s.frequency,
          array(select jsonb_array_elements_text(s.recipients)), ${admin},
          ${today.toISOString()}::timestamptz - interval '30 days', s."lastPeriod", s."lastSentAt"
        from jsonb_to_recordset(${JSON.stringify(schedules)}::jsonb) as s(id uuid, "reportId" text, filters jsonb,
          frequency text, recipients jsonb, "lastPeriod" text, "lastSentAt" timestamptz)
        on conflict (id) do nothing`,
  );
}
