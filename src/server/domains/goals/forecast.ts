import { type Forecast, PACE_SCHOOL_DAYS } from "../../../shared/contracts/goals";

const DAY_MS = 86_400_000;
/** Days since 1970-01-01 (a Thursday): the calendar's loops count integers, not dates. */
const dayNumberOf = (date: string) => Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
const dateOfDayNumber = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** A student's calendar: school days are weekdays that are not their school's holidays. */
export interface SchoolCalendar {
  isSchoolDay(date: string): boolean;
  /** The school days before `today`, the latest first, as many as asked for (a year back at most). */
  daysBefore(today: string, count: number): string[];
  /** How many school days there are from one date to another, both counted. */
  countBetween(from: string, to: string): number;
  /** The `n`th school day counting `from` itself (n ≥ 1), or null when it is past `horizonDays`. */
  nthFrom(from: string, n: number, horizonDays: number): string | null;
}

export function schoolCalendar(holidays: ReadonlySet<string>): SchoolCalendar {
  const holidayNumbers = new Set([...holidays].map(dayNumberOf));
  const isSchool = (day: number) => {
    const weekday = (((day + 4) % 7) + 7) % 7;
    return weekday !== 0 && weekday !== 6 && !holidayNumbers.has(day);
  };
  return {
    isSchoolDay: (date) => isSchool(dayNumberOf(date)),
    daysBefore(today, count) {
      const days: string[] = [];
      const first = dayNumberOf(today) - 1;
      for (let day = first; days.length < count && first - day < 366; day--)
        if (isSchool(day)) days.push(dateOfDayNumber(day));
      return days;
    },
    countBetween(from, to) {
      let count = 0;
      for (let day = dayNumberOf(from), last = dayNumberOf(to); day <= last; day++)
        if (isSchool(day)) count++;
      return count;
    },
    nthFrom(from, n, horizonDays) {
      const first = dayNumberOf(from);
      for (let day = first, seen = 0; day - first < horizonDays; day++)
        if (isSchool(day) && ++seen === n) return dateOfDayNumber(day);
      return null;
    },
  };
}

/** The furthest a forecast looks ahead for the day a target is reached. */
const HORIZON_DAYS = 3 * 366;

/**
 * Where a goal is heading: from the pace of the last school days (the amount earned on
 * PACE_SCHOOL_DAYS school days before today, divided by them), the school day the target is
 * reached counting today, whether that is by the deadline, and what each school day from today
 * to the deadline needs. Weekends and holidays earn nothing and need nothing.
 */
export function forecastOf(input: {
  value: number;
  target: number;
  today: string;
  deadline: string;
  calendar: SchoolCalendar;
  /** The amount earned on the PACE_SCHOOL_DAYS school days before today (calendar.daysBefore). */
  paceEarned: number;
}): Forecast {
  const { value, target, today, deadline, calendar } = input;
  const paceDays = calendar.daysBefore(today, PACE_SCHOOL_DAYS).length;
  const pacePerDay = paceDays > 0 ? round(input.paceEarned / paceDays) : 0;
  const remaining = target - value;
  if (remaining <= 0)
    return { status: "reached", pacePerDay, reachedOn: null, dailyNeeded: null, schoolDaysLeft: null };
  if (deadline < today)
    return { status: "missed", pacePerDay, reachedOn: null, dailyNeeded: null, schoolDaysLeft: 0 };
  const schoolDaysLeft = calendar.countBetween(today, deadline);
  const dailyNeeded = schoolDaysLeft > 0 ? Math.ceil(remaining / schoolDaysLeft) : remaining;
  if (pacePerDay <= 0) return { status: "no_pace", pacePerDay, reachedOn: null, dailyNeeded, schoolDaysLeft };
  // At the pace, the target falls on the school day that brings the projection to what remains.
  const reachedOn = calendar.nthFrom(today, Math.ceil(remaining / pacePerDay - 1e-9), HORIZON_DAYS);
  const onTrack = reachedOn !== null && reachedOn <= deadline;
  return { status: onTrack ? "on_track" : "behind", pacePerDay, reachedOn, dailyNeeded, schoolDaysLeft };
}

const round = (value: number) => Math.round(value * 10) / 10;
