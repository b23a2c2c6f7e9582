import { type SQL, sql } from "drizzle-orm";
import {
  type ActivityChanges,
  type ActivityInput,
  type AthleticEntry,
  type AthleticsWeek,
  HISTORY_WEEKS,
  LOG_MAX_PAST_DAYS,
} from "../../../shared/contracts/athletics";
import type { DashRole } from "../../../shared/roles";
import { addDays, localDateOf, weekStartOf } from "../../../shared/time-zone";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { invalidFields } from "../../lib/validation";
import { displayNameOfU, nameOf } from "../rostering/queries";
import { studentIdsInReach, studentVisibleTo } from "../rostering/scope";
import { athleticsSettingsOf } from "./settings";

/** Who may log and change activities; parents and guardians read their children's logs. */
const LOGGERS: ReadonlySet<DashRole> = new Set(["student", "teacher", "administrator"]);

const mayLog = (actor: Actor) => LOGGERS.has(actor.activeRole as DashRole);

const forbidden = (action: string) =>
  new AppError(
    "forbidden",
    message("common:roleForbids", { action: message(`athletics:actions.${action}`) }),
  );

interface Student {
  id: string;
  name: string;
  timezone: string;
}

/**
 * The student the caller means: the one named, or (a student) themself. Read only when the caller
 * may see them; a role that sees no student is refused, a student out of reach is not found.
 */
async function studentInReach(
  db: Database,
  actor: Actor,
  requested: string | undefined,
  action: string,
): Promise<Student> {
  const studentId = requested ?? (actor.activeRole === "student" ? actor.user.sourcedId : undefined);
  const visible = studentId ? studentVisibleTo(actor, studentId) : studentIdsInReach(actor);
  if (!visible) throw forbidden(action);
  if (!studentId) throw new AppError("bad_request", message("athletics:chooseStudent"));
  const [student] = await queryRows<Student>(
    db,
    sql`select u.sourced_id as id, ${displayNameOfU} as name, u.timezone
      from users u where u.sourced_id = ${studentId} and ${visible}`,
  );
  if (!student) throw new AppError("not_found", message("athletics:studentNotFound"));
  return student;
}

/** The days an activity may be logged for: the student's today and LOG_MAX_PAST_DAYS before it. */
function logWindow(timezone: string, now: Date) {
  const today = localDateOf(now, timezone);
  return { today, earliest: addDays(today, -LOG_MAX_PAST_DAYS) };
}

function assertLoggableDay(date: string, timezone: string, now: Date) {
  const { today, earliest } = logWindow(timezone, now);
  if (date > today) throw invalidFields([{ path: "date", message: message("athletics:dateAhead") }]);
  if (date < earliest)
    throw invalidFields([
      { path: "date", message: message("athletics:dateTooOld", { days: LOG_MAX_PAST_DAYS }) },
    ]);
}

/** Whether the caller may change an entry `a` they can see: whoever logged it, or an administrator. */
function changeableBy(actor: Actor): SQL {
  if (actor.activeRole === "administrator") return sql`true`;
  if (!mayLog(actor)) return sql`false`;
  return sql`a.recorded_by in (${actor.user.sourcedId}, ${actor.realUser.sourcedId})`;
}

/** One student's week of activities with its progress toward the goal, and the weeks before it. */
export async function studentWeek(
  db: Database,
  actor: Actor,
  query: { studentId?: string; week?: string },
  now: Date,
): Promise<AthleticsWeek> {
  const student = await studentInReach(db, actor, query.studentId, "see");
  const { today, earliest } = logWindow(student.timezone, now);
  const weekStart = weekStartOf(query.week ?? today);
  if (weekStart > weekStartOf(today))
    throw invalidFields([{ path: "week", message: message("athletics:weekAhead") }]);
  const weekEnd = addDays(weekStart, 6);
  const firstWeek = addDays(weekStart, -7 * (HISTORY_WEEKS - 1));
  // The reach is asked again with each read, so no row of a student out of reach is ever read.
  const visible = studentVisibleTo(actor, student.id) ?? sql`false`;
  const [entries, history, settings] = await Promise.all([
    queryRows<AthleticEntry & { recordedById: string; recordedByName: string | null }>(
      db,
      sql`select a.id::text as id, a.activity, a.minutes, to_char(a.activity_date, 'YYYY-MM-DD') as date, a.note,
          a.recorded_by as "recordedById", ${nameOf(sql`a.recorded_by`)} as "recordedByName",
          to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "recordedAt",
          to_char(a.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "changedAt",
          ${changeableBy(actor)} as "canChange"
        from athletic_activities a
        where a.student_sourced_id = ${student.id} and a.removed_at is null and ${visible}
          and a.activity_date between ${weekStart}::date and ${weekEnd}::date
        order by a.activity_date desc, a.created_at desc, a.id`,
    ),
    queryRows<{ weekStart: string; minutes: number }>(
      db,
      sql`select to_char(w.start, 'YYYY-MM-DD') as "weekStart", coalesce(sum(a.minutes), 0)::int as minutes
        from generate_series(${firstWeek}::date, ${weekStart}::date, interval '7 days') as w(start)
          left join athletic_activities a on a.student_sourced_id = ${student.id} and a.removed_at is null
            and ${visible} and a.activity_date >= w.start::date and a.activity_date < w.start::date + 7
        group by w.start order by w.start`,
    ),
    athleticsSettingsOf(db),
  ]);
  return {
    student,
    today,
    earliestDate: earliest,
    week: {
      start: weekStart,
      end: weekEnd,
      minutes: history.at(-1)?.minutes ?? 0,
      goalMinutes: settings.weeklyGoalMinutes,
      entries: entries.map(({ recordedById, recordedByName, ...entry }) => ({
        ...entry,
        recordedBy: { id: recordedById, name: recordedByName },
      })),
    },
    history,
    canLog: mayLog(actor),
  };
}

/** Logs an activity: a student for themself, a Guide for their student, an administrator for anyone. */
export async function logActivity(
  db: Database,
  actor: Actor,
  input: ActivityInput,
  now: Date,
): Promise<{ id: string }> {
  const { studentId, activity, minutes, date, note } = input;
  if (!mayLog(actor)) throw forbidden("log");
  if (actor.activeRole === "student" && studentId !== undefined && studentId !== actor.user.sourcedId)
    throw new AppError("forbidden", message("athletics:onlyYourOwn"));
  const student = await studentInReach(db, actor, studentId, "log");
  assertLoggableDay(date, student.timezone, now);
  const visible = studentVisibleTo(actor, student.id) ?? sql`false`;
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`insert into athletic_activities (student_sourced_id, activity, minutes, activity_date, note, recorded_by, created_at)
      select ${student.id}, ${activity}, ${minutes}, ${date}::date, ${note ?? null}::text, ${actor.realUser.sourcedId},
        ${now.toISOString()}::timestamptz
      where ${visible}
      returning id::text as id`,
  );
  if (!row) throw new AppError("not_found", message("athletics:studentNotFound"));
  return row;
}

/** An entry the caller may see and change, with its student's time zone; locked for the change that follows. */
async function entryToChange(db: Database, actor: Actor, entryId: string) {
  const reach = studentIdsInReach(actor);
  if (!reach) throw forbidden("log");
  const [entry] = await queryRows<{ timezone: string; changeable: boolean }>(
    db,
    sql`select u.timezone, ${changeableBy(actor)} as changeable
      from athletic_activities a join users u on u.sourced_id = a.student_sourced_id
      where a.id::text = ${entryId} and a.removed_at is null and a.student_sourced_id in (${reach})
      for update of a`,
  );
  if (!entry) throw new AppError("not_found", message("athletics:entryNotFound"));
  if (!entry.changeable) {
    if (!mayLog(actor)) throw forbidden("log");
    throw new AppError("forbidden", message("athletics:notYoursToChange"));
  }
  return entry;
}

/** Changes an entry; who changed it and when is kept on it. */
export async function changeActivity(
  db: Database,
  actor: Actor,
  entryId: string,
  changes: ActivityChanges,
  now: Date,
): Promise<void> {
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const entry = await entryToChange(tx, actor, entryId);
    if (changes.date !== undefined) assertLoggableDay(changes.date, entry.timezone, now);
    await tx.execute(sql`update athletic_activities set
        activity = coalesce(${changes.activity ?? null}::text, activity),
        minutes = coalesce(${changes.minutes ?? null}::int, minutes),
        activity_date = coalesce(${changes.date ?? null}::date, activity_date),
        note = ${changes.note === undefined ? sql`note` : sql`${changes.note}::text`},
        updated_by = ${actor.realUser.sourcedId}, updated_at = ${now.toISOString()}::timestamptz
      where id::text = ${entryId}`);
  });
}

/** Removes an entry from the log and the week's total; the row stays, marked with who removed it and when. */
export async function removeActivity(db: Database, actor: Actor, entryId: string, now: Date): Promise<void> {
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    await entryToChange(tx, actor, entryId);
    await tx.execute(sql`update athletic_activities set
        removed_by = ${actor.realUser.sourcedId}, removed_at = ${now.toISOString()}::timestamptz
      where id::text = ${entryId}`);
  });
}
