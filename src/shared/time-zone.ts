/** Days in a person's own timezone: the same instant can be a different date for different students. */

/**
 * The school's own calendar, where no person's timezone applies: its weeks (Guides' budgets,
 * leagues), months and default date ranges.
 */
export const SCHOOL_TIME_ZONE = "America/New_York";

/** The formats kept per timezone: a date as `yyyy-MM-dd`, and the wall clock to the second. */
const STYLES = {
  date: { locale: "en-CA", options: { year: "numeric", month: "2-digit", day: "2-digit" } },
  wallClock: {
    locale: "en-US",
    options: {
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    },
  },
} satisfies Record<string, { locale: string; options: Intl.DateTimeFormatOptions }>;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per timezone and style, made once: making one costs far more than using it. */
function formatterFor(timeZone: string, style: keyof typeof STYLES = "date"): Intl.DateTimeFormat {
  const key = `${style} ${timeZone}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    const { locale, options } = STYLES[style];
    formatter = new Intl.DateTimeFormat(locale, { timeZone, ...options });
    formatters.set(key, formatter);
  }
  return formatter;
}

export function isTimeZone(value: string): boolean {
  try {
    formatterFor(value);
    return true;
  } catch {
    return false;
  }
}

/** How far a timezone's clocks are ahead of UTC at an instant. */
export function timeZoneOffsetMs(instant: Date, timeZone: string): number {
  const formatter = formatterFor(timeZone, "wallClock");
  const parts = Object.fromEntries(formatter.formatToParts(instant).map((part) => [part.type, part.value]));
  const wallClock = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wallClock - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The `yyyy-MM-dd` date of an instant in a timezone. */
export function localDateOf(instant: Date, timeZone: string): string {
  return formatterFor(timeZone).format(instant);
}

/**
 * Milliseconds of a `yyyy-MM-dd` date at midnight UTC, moved by a number of days. Built from the
 * parts rather than parsed: calendars call this thousands of times per request.
 */
function utcMillis(isoDate: string, days = 0): number {
  return Date.UTC(
    Number(isoDate.slice(0, 4)),
    Number(isoDate.slice(5, 7)) - 1,
    Number(isoDate.slice(8, 10)) + days,
  );
}

function isoDateOf(millis: number): string {
  return new Date(millis).toISOString().slice(0, 10);
}

/** The Sunday that starts the week of a `yyyy-MM-dd` date. */
export function weekStartOf(isoDate: string): string {
  return addDays(isoDate, -new Date(utcMillis(isoDate)).getUTCDay());
}

/** The first day of the month of a `yyyy-MM-dd` date. */
export function monthStartOf(isoDate: string): string {
  return `${isoDate.slice(0, 7)}-01`;
}

/** A `yyyy-MM-dd` date moved by a number of days (calendar days: no DST edge applies). */
export function addDays(isoDate: string, days: number): string {
  return isoDateOf(utcMillis(isoDate, days));
}

/** The date `offset` days after `first`, each worked out once: for reading many rows of the same days. */
export function datesAfter(first: string): (offset: number) => string {
  const dates = new Map<number, string>();
  return (offset) => {
    let date = dates.get(offset);
    if (date === undefined) {
      date = addDays(first, offset);
      dates.set(offset, date);
    }
    return date;
  };
}

/** Monday to Friday. */
export function isWeekday(isoDate: string): boolean {
  const day = new Date(utcMillis(isoDate)).getUTCDay();
  return day !== 0 && day !== 6;
}

/** Whole days from one `yyyy-MM-dd` date to another. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T12:00:00Z`) - Date.parse(`${from}T12:00:00Z`)) / 86_400_000);
}

/** The instant a `yyyy-MM-dd` date's midnight falls on in a timezone (its first instant, where DST skips midnight). */
export function startOfDayIn(isoDate: string, timeZone: string): Date {
  const wallClock = utcMillis(isoDate);
  // The offset at the guess may differ from the offset at midnight across a DST change: a second pass settles it.
  const guess = wallClock - timeZoneOffsetMs(new Date(wallClock), timeZone);
  return new Date(wallClock - timeZoneOffsetMs(new Date(guess), timeZone));
}

/** The day an instant falls on in a timezone: its date, its first instant and the next day's, and its week's Sunday. */
export function dayBoundsOf(
  instant: Date,
  timeZone: string,
): { date: string; startsAt: string; endsAt: string; weekStart: string } {
  const date = localDateOf(instant, timeZone);
  return {
    date,
    startsAt: startOfDayIn(date, timeZone).toISOString(),
    endsAt: startOfDayIn(addDays(date, 1), timeZone).toISOString(),
    weekStart: weekStartOf(date),
  };
}
