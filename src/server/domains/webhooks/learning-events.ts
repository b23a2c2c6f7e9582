import { sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { FALLBACK_DAILY_GOALS, storedDailyGoals } from "../goals/daily-goals";
import { emitWebhookEvent, emitWebhookEvents } from "./emit";

/** XP credited to (or, by hand, taken from) a student. */
export interface XpAward {
  studentId: string;
  /** The learning app's event id; null for XP given by hand. */
  eventId: string | null;
  subject: string;
  /** The student's own day the XP counts for. */
  localDate: string;
  xp: number;
}

/**
 * Where XP came from: a learning app's batch, a held event a reviewer approved, or a person's
 * manual award. `key` names a credit that has one (a review, a manual award's idempotency key),
 * so telling it again queues nothing new.
 */
export type XpOrigin =
  | { source: "activity"; appId: string }
  | { source: "review"; appId: string; key: string }
  | { source: "manual"; key: string };

/**
 * The events XP makes, inside the transaction that credits it (after the ledger and daily totals
 * are written): one `xp.awarded` carrying the awards, and a `goal.met` for each daily subject goal
 * they made a student meet (their own goal for the subject, else the school's). Goals are judged
 * on read elsewhere; here "met" is the moment the day's XP first reaches the goal, so a goal met
 * once a day is told once (its event id is the student, day and subject).
 */
export async function emitLearningEvents(db: Database, origin: XpOrigin, awards: XpAward[], at: Date) {
  if (awards.length === 0) return;
  await emitWebhookEvent(
    db,
    "xp.awarded",
    {
      source: origin.source,
      appId: "appId" in origin ? origin.appId : null,
      awards: awards.map((award) => ({
        studentId: award.studentId,
        eventId: award.eventId,
        subject: award.subject,
        date: award.localDate,
        xp: award.xp,
      })),
    },
    { at, key: "key" in origin ? origin.key : undefined },
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
