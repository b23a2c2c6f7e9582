import { sql } from "drizzle-orm";
import type { ServerTime } from "../../../shared/contracts/clock";
import { dayBoundsOf, SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { displayNameOfU } from "../rostering/queries";
import { studentVisibleTo } from "../rostering/scope";

/** The server process's own timezone, as the runtime reports it (TZ, else the system's). */
export const SERVER_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The server's clock beside the day it counts for a student: the one asked for, a student's own
 * when they ask, else the school's calendar.
 */
export async function serverTime(
  db: Database,
  actor: Actor,
  requested: string | undefined,
  now: Date,
): Promise<ServerTime> {
  const studentId = requested ?? (actor.activeRole === "student" ? actor.user.sourcedId : undefined);
  let student: { id: string; name: string; timezone: string } | null = null;
  if (studentId) {
    const visible = studentVisibleTo(actor, studentId);
    if (!visible)
      throw new AppError(
        "forbidden",
        message("common:roleForbids", { action: message("clock:actions.see") }),
      );
    const [found] = await queryRows<{ id: string; name: string; timezone: string }>(
      db,
      sql`select u.sourced_id as id, ${displayNameOfU} as name, u.timezone
        from users u where u.sourced_id = ${studentId} and ${visible}`,
    );
    if (!found) throw new AppError("not_found", message("clock:studentNotFound"));
    student = found;
  }
  const countedZone = student?.timezone ?? SCHOOL_TIME_ZONE;
  return {
    now: now.toISOString(),
    server: { timeZone: SERVER_TIME_ZONE, day: dayBoundsOf(now, SERVER_TIME_ZONE) },
    counted: {
      timeZone: countedZone,
      day: dayBoundsOf(now, countedZone),
      student: student && { id: student.id, name: student.name },
    },
  };
}
