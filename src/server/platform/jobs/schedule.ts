import { DEFAULT_LANGUAGE, type Language } from "../../../shared/languages";
import { addDays, localDateOf, timeZoneOffsetMs } from "../../../shared/time-zone";
import { type Message, message, translate } from "../../lib/i18n";

/** How often a scheduled job runs: at a fixed interval (from the epoch), or once a day at a local time. */
export type JobSchedule = { everyMs: number } | { dailyAt: string; timeZone: string };

/** One period's run: the key that makes it once per period, and when it is due. */
export interface Occurrence {
  key: string;
  at: Date;
}

const TIME_OF_DAY = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function assertValidSchedule(schedule: JobSchedule): void {
  if ("everyMs" in schedule) {
    if (!Number.isInteger(schedule.everyMs) || schedule.everyMs < 1000)
      throw new Error("A job's interval must be a whole number of milliseconds, at least one second");
    return;
  }
  if (!TIME_OF_DAY.test(schedule.dailyAt))
    throw new Error(`"${schedule.dailyAt}" is not a time of day (HH:MM)`);
  localDateOf(new Date(), schedule.timeZone); // throws a RangeError for an unknown timezone
}

/** The most recent run due at or before `now`: what a runner makes sure exists. */
export function latestOccurrence(schedule: JobSchedule, now: Date): Occurrence {
  if ("everyMs" in schedule) {
    const at = new Date(Math.floor(now.getTime() / schedule.everyMs) * schedule.everyMs);
    return { key: at.toISOString(), at };
  }
  let date = localDateOf(now, schedule.timeZone);
  let at = localInstant(date, schedule.dailyAt, schedule.timeZone);
  if (at > now) {
    date = addDays(date, -1);
    at = localInstant(date, schedule.dailyAt, schedule.timeZone);
  }
  return { key: date, at };
}

/** When the run after the latest one is due. */
export function nextOccurrenceAt(schedule: JobSchedule, now: Date): Date {
  const latest = latestOccurrence(schedule, now);
  if ("everyMs" in schedule) return new Date(latest.at.getTime() + schedule.everyMs);
  return localInstant(addDays(latest.key, 1), schedule.dailyAt, schedule.timeZone);
}

/** "Every hour", "Daily at 02:00 (UTC)", in a language (English by default). */
export function describeSchedule(schedule: JobSchedule, language: Language = DEFAULT_LANGUAGE): string {
  return translate(scheduleMessage(schedule), language);
}

function scheduleMessage(schedule: JobSchedule): Message {
  if ("dailyAt" in schedule)
    return message("common:jobs.schedule.daily", { time: schedule.dailyAt, timeZone: schedule.timeZone });
  const minutes = schedule.everyMs / 60_000;
  if (minutes >= 60 && minutes % 60 === 0)
    return message("common:jobs.schedule.hours", { hours: minutes / 60 });
  if (Number.isInteger(minutes)) return message("common:jobs.schedule.minutes", { minutes });
  return message("common:jobs.schedule.seconds", { seconds: schedule.everyMs / 1000 });
}

/** The instant a `yyyy-MM-dd` date shows `HH:MM` on the clocks of a timezone. */
function localInstant(date: string, time: string, timeZone: string): Date {
  const asUtc = Date.UTC(
    Number(date.slice(0, 4)),
    Number(date.slice(5, 7)) - 1,
    Number(date.slice(8, 10)),
    Number(time.slice(0, 2)),
    Number(time.slice(3, 5)),
  );
  // The offset at the guess, then again at the result: right on both sides of a DST change. A
  // time that a change skips (02:30 on a spring-forward night) lands an hour later.
  const first = asUtc - timeZoneOffsetMs(new Date(asUtc), timeZone);
  return new Date(asUtc - timeZoneOffsetMs(new Date(first), timeZone));
}
