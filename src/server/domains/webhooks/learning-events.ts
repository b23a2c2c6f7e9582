import { sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { FALLBACK_DAILY_GOALS, storedDailyGoals } from "../goals/daily-goals";
import { emitWebhookEvent, emitWebhookEvents } from "./emit";

/** XP one stored activity event credited a student. */
export interface XpAward {
  studentId: string;
  eventId: string;
  subject: string;
  /** The student's own day the XP counts for. */
  localDate: string;
  xp: number;
}

/**
 * The events a batch of activity makes, inside its transaction (after its XP and daily totals
 * are written): one `xp.awarded` carrying the batch's awards, and a `goal.met` for each daily
 * subject goal the batch made a student meet (their own goal for the subject, else the school's).
 * Goals are judged on read elsewhere; here "met" is the moment the day's XP first reaches the
 * goal, so a goal met once a day is told once (its event id is the student, day and subject).
 */
export async function emitLearningEvents(db: Database, appId: string, awards: XpAward[], at: Date) {
  if (awards.length === 0) return;
  await emitWebhookEvent(
    db,
    "xp.awarded",
    {
      appId,
      awards: awards.map((award) => ({
        studentId: award.studentId,
        eventId: award.eventId,
        subject: award.subject,
        date: award.localDate,
        xp: award.xp,
      })),
    },
    { at },
  );
  const credited = awards.filter((award) => award.xp > 0);
  if (credited.length === 0) return;
  await emitWebhookEvents(
    db,
    "goal.met",
    sql`with awarded as (
          select a.student, a.day, a.subject, sum(a.xp) as xp
          from jsonb_to_recordset(${JSON.stringify(
            credited.map((award) => ({
              student: award.studentId,
              day: award.localDate,
              subject: award.subject,
              xp: award.xp,
            })),
          )}::jsonb) as a(student text, day date, subject text, xp numeric)
          group by a.student, a.day, a.subject),
        judged as (
          select a.*,
            (select coalesce(sum(m.xp), 0) from daily_student_metrics m
              where m.student_sourced_id = a.student and m.local_date = a.day and m.subject = a.subject) as day_xp,
            coalesce(
              (select g.daily_xp from student_daily_goals g
                where g.student_sourced_id = a.student and g.subject = a.subject),
              (coalesce(${storedDailyGoals}, ${JSON.stringify(FALLBACK_DAILY_GOALS)}::jsonb) ->> a.subject)::numeric
            ) as goal
          from awarded a)
        select md5('goal.met:' || j.student || ':' || j.day || ':' || j.subject)::uuid as event_id,
          jsonb_build_object('studentId', j.student, 'date', to_char(j.day, 'YYYY-MM-DD'), 'subject', j.subject,
            'goalXp', j.goal, 'dayXp', j.day_xp) as data
        from judged j
        where j.goal > 0 and j.day_xp >= j.goal and j.day_xp - j.xp < j.goal`,
    at,
  );
}
