import { type SQL, sql } from "drizzle-orm";
import type { FlowEvent } from "../../../shared/flow";
import { type Database, queryRows } from "../../db/client";

export interface FlowStudent {
  sourcedId: string;
  givenName: string;
  familyName: string;
  timezone: string;
  events: FlowEvent[];
}

/**
 * The day of each student a scope names, as timed events: each ends when the app reported it and
 * lasts its active, wasted and gaming time. `date` is each student's own calendar day.
 */
export async function flowDay(db: Database, studentIdsQuery: SQL, date: string): Promise<FlowStudent[]> {
  const rows = await queryRows<{
    sourcedId: string;
    givenName: string;
    familyName: string;
    timezone: string;
    id: string | null;
    subject: string | null;
    activityName: string | null;
    appName: string | null;
    start: string | null;
    end: string | null;
    xp: string | number | null;
    totalQuestions: number | null;
    correctQuestions: number | null;
  }>(
    db,
    sql`select u.sourced_id as "sourcedId", u.given_name as "givenName", u.family_name as "familyName", u.timezone,
          e.id, e.subject, e.activity_name as "activityName", a.name as "appName",
          to_char((e.occurred_at - make_interval(secs => e.active_seconds + e.waste_seconds + e.anti_pattern_seconds)) at time zone 'UTC',
            'YYYY-MM-DD"T"HH24:MI:SS"Z"') as start,
          to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "end",
          e.awarded_xp as xp, e.total_questions as "totalQuestions", e.correct_questions as "correctQuestions"
        from users u
        left join activity_events e on e.student_sourced_id = u.sourced_id and e.local_date = ${date}
        left join learning_apps a on a.id = e.app_id
        where u.sourced_id in (${studentIdsQuery})
        order by u.family_name, u.given_name, u.sourced_id, e.occurred_at`,
  );
  const students = new Map<string, FlowStudent>();
  for (const row of rows) {
    const student = students.get(row.sourcedId) ?? {
      sourcedId: row.sourcedId,
      givenName: row.givenName,
      familyName: row.familyName,
      timezone: row.timezone,
      events: [],
    };
    students.set(row.sourcedId, student);
    if (!row.id || !row.start || !row.end || !row.subject) continue;
    student.events.push({
      id: row.id,
      subject: row.subject,
      activityName: row.activityName,
      appName: row.appName,
      start: row.start,
      end: row.end,
      xp: Number(row.xp),
      accuracy: row.totalQuestions ? (row.correctQuestions ?? 0) / row.totalQuestions : null,
    });
  }
  return [...students.values()];
}
