import { type Forecast, PACE_SCHOOL_DAYS } from "../../../shared/contracts/goals";
import { addDays, isWeekday } from "../../../shared/time-zone";

/** A student's calendar: which days are school days (weekdays that are not their school's holidays). */
export function schoolCalendar(holidays: ReadonlySet<string>) {
  return (date: string) => isWeekday(date) && !holidays.has(date);
}

/** The school days before `today`, the latest first, as many as asked for. */
export function schoolDaysBefore(
  today: string,
  count: number,
  isSchoolDay: (date: string) => boolean,
): string[] {
  const days: string[] = [];
  // A year back is far more than any run of holidays.
  for (let date = addDays(today, -1), steps = 0; days.length < count && steps < 366; steps++) {
    if (isSchoolDay(date)) days.push(date);
    date = addDays(date, -1);
  }
  return days;
}

/** How far back a forecast's pace reads, at most: 15 school days fit in five weeks unless holidays intervene. */
export const PACE_WINDOW_DAYS = 60;

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
  isSchoolDay: (date: string) => boolean;
  /** The amount of each recent day (missing days earned nothing). */
  amountOn: (date: string) => number;
}): Forecast {
  const { value, target, today, deadline, isSchoolDay } = input;
  const paceDays = schoolDaysBefore(today, PACE_SCHOOL_DAYS, isSchoolDay);
  const earned = paceDays.reduce((total, date) => total + input.amountOn(date), 0);
  const pacePerDay = paceDays.length > 0 ? round(earned / paceDays.length) : 0;
  const remaining = target - value;
  if (remaining <= 0)
    return { status: "reached", pacePerDay, reachedOn: null, dailyNeeded: null, schoolDaysLeft: null };
  let schoolDaysLeft = 0;
  for (let date = today; date <= deadline; date = addDays(date, 1)) if (isSchoolDay(date)) schoolDaysLeft++;
  if (deadline < today)
    return { status: "missed", pacePerDay, reachedOn: null, dailyNeeded: null, schoolDaysLeft: 0 };
  const dailyNeeded = schoolDaysLeft > 0 ? Math.ceil(remaining / schoolDaysLeft) : remaining;
  if (pacePerDay <= 0) return { status: "no_pace", pacePerDay, reachedOn: null, dailyNeeded, schoolDaysLeft };
  let reachedOn: string | null = null;
  let projected = 0;
  for (let date = today, steps = 0; steps < HORIZON_DAYS; steps++, date = addDays(date, 1)) {
    if (!isSchoolDay(date)) continue;
    projected += pacePerDay;
    if (projected >= remaining) {
      reachedOn = date;
      break;
    }
  }
  const onTrack = reachedOn !== null && reachedOn <= deadline;
  return { status: onTrack ? "on_track" : "behind", pacePerDay, reachedOn, dailyNeeded, schoolDaysLeft };
}

const round = (value: number) => Math.round(value * 10) / 10;
