import { type SQL, sql } from "drizzle-orm";
import { addDays, datesAfter, isWeekday } from "../../../shared/time-zone";
import { type Database, queryRows } from "../../db/client";
import { packedLine, packedLines } from "./packed";

/** The figures of a student's days (or of many students' days) added up. */
export interface Totals {
  /** Days with learning (time on task or an event). */
  daysLearned: number;
  xp: number;
  activeSeconds: number;
  wasteSeconds: number;
  totalQuestions: number;
  correctQuestions: number;
  masteredUnits: number;
  /** Days on which every daily goal was met. */
  goalDays: number;
}

export const emptyTotals = (): Totals => ({
  daysLearned: 0,
  xp: 0,
  activeSeconds: 0,
  wasteSeconds: 0,
  totalQuestions: 0,
  correctQuestions: 0,
  masteredUnits: 0,
  goalDays: 0,
});

export function addTotals(into: Totals, from: Totals): Totals {
  into.daysLearned += from.daysLearned;
  into.xp += from.xp;
  into.activeSeconds += from.activeSeconds;
  into.wasteSeconds += from.wasteSeconds;
  into.totalQuestions += from.totalQuestions;
  into.correctQuestions += from.correctQuestions;
  into.masteredUnits += from.masteredUnits;
  into.goalDays += from.goalDays;
  return into;
}

export interface Range {
  start: string;
  end: string;
}

/** What the figures count: every subject and app, or one subject, one app or both. */
export interface FigureFilter {
  subject?: string;
  appKey?: string;
}

/**
 * A student's days as rows of `student_daily_totals`: that table itself, or, for one subject or
 * app, the daily totals of that subject or app added up per day the same way, with whether the day
 * met that subject's goal (every goal, for an app) by the same rule (`daily_goals_met`).
 */
export function daysSource(filter: FigureFilter): SQL {
  if (!filter.subject && !filter.appKey) return sql`student_daily_totals`;
  const conditions = [
    filter.subject ? sql`m.subject = ${filter.subject}` : null,
    filter.appKey ? sql`m.app_key = ${filter.appKey}` : null,
  ].filter((condition) => condition !== null);
  return sql`(select student_sourced_id, local_date, sum(xp) as xp, sum(active_seconds) as active_seconds,
      sum(waste_seconds) as waste_seconds, sum(total_questions) as total_questions,
      sum(correct_questions) as correct_questions, sum(mastered_units) as mastered_units, sum(events) as events,
      jsonb_object_agg(subject, xp) as subject_xp,
      daily_goals_met(student_sourced_id, jsonb_object_agg(subject, xp), ${filter.subject ?? null}) as goals_met
    from (select m.student_sourced_id, m.local_date, m.subject, sum(m.xp) as xp, sum(m.active_seconds) as active_seconds,
        sum(m.waste_seconds) as waste_seconds, sum(m.total_questions) as total_questions,
        sum(m.correct_questions) as correct_questions, sum(m.mastered_units) as mastered_units, sum(m.events) as events
      from daily_student_metrics m where ${sql.join(conditions, sql` and `)} group by 1, 2, 3) s
    group by 1, 2)`;
}

const FIELDS = [
  "daysLearned",
  "xp",
  "activeSeconds",
  "wasteSeconds",
  "totalQuestions",
  "correctQuestions",
  "masteredUnits",
  "goalDays",
] as const;

function totalsOf(parts: string[], from: number): Totals {
  const totals = emptyTotals();
  FIELDS.forEach((field, index) => {
    totals[field] = Number(parts[from + index]);
  });
  return totals;
}

export interface PeriodFigures {
  /** Each student's totals in the period (only students with a day in it). */
  current: Map<string, Totals>;
  /** Each student's totals in the previous period, when one is compared. */
  previous: Map<string, Totals>;
  /** Every day of the period with learning: all students' totals, and how many learned. */
  days: Map<string, Totals & { students: number }>;
}

/** The figures a line of the packed answers carries, after its key, in the order of FIELDS. */
const SUMS = sql`count(*) filter (where t.active_seconds > 0 or t.events > 0), sum(t.xp), sum(t.active_seconds),
  sum(t.waste_seconds), sum(t.total_questions), sum(t.correct_questions), sum(t.mastered_units),
  count(*) filter (where t.goals_met)`;

/** The same figures of a student's kept week or month. */
const PERIOD_SUMS = sql`p.days_learned, p.xp, p.active_seconds, p.waste_seconds, p.total_questions,
  p.correct_questions, p.mastered_units, p.goal_days`;

/** A whole week or month the figures may be read from as kept (see student_period_totals). */
export interface WholePeriod {
  period: "week" | "month";
  /** The last day of the period compared with, which `previous` may stop short of. */
  previousEnds: string;
}

/**
 * The figures of the students a sub-query names over a period, per student and per day, and per
 * student over the period before it (for the change). A whole week or month, not filtered by
 * subject or app, is read per student as kept (`student_period_totals`, a row per student); the
 * period before it too, less its days after the ones compared when it is compared in part. Other
 * periods are added up from the students' days. Answers come back packed (packed.ts).
 */
export async function periodFigures(
  readDb: Database,
  studentIds: SQL,
  period: Range,
  previous: Range | null,
  filter: FigureFilter,
  whole?: WholePeriod,
): Promise<PeriodFigures> {
  const kept = whole && !filter.subject && !filter.appKey ? whole : null;
  const daysIn = (range: Range) => sql`${daysSource(filter)} t
    where t.student_sourced_id in (${studentIds}) and t.local_date between ${range.start}::date and ${range.end}::date`;
  const packed = (lines: SQL) => packedLines(readDb, lines);
  const keptPeriod = (startsOn: string) =>
    packed(sql`select ${packedLine([sql`p.student_sourced_id`, PERIOD_SUMS])} as line
      from student_period_totals p
      where p.period = ${kept?.period} and p.starts_on = ${startsOn}::date and p.student_sourced_id in (${studentIds})`);
  const perStudent = (range: Range) =>
    packed(sql`select ${packedLine([sql`t.student_sourced_id`, SUMS])} as line from ${daysIn(range)}
      group by t.student_sourced_id`);
  const perDay = (range: Range) =>
    packed(sql`select ${packedLine([sql`t.local_date - ${range.start}::date`, SUMS])} as line from ${daysIn(range)}
      group by t.local_date`);

  const previousIsPart = Boolean(kept && previous && previous.end < kept.previousEnds);
  const [studentLines, dayLines, previousLines, previousRest] = await Promise.all([
    kept ? keptPeriod(period.start) : perStudent(period),
    perDay(period),
    previous ? (kept ? keptPeriod(previous.start) : perStudent(previous)) : Promise.resolve([]),
    previous && kept && previousIsPart
      ? perStudent({ start: addDays(previous.end, 1), end: kept.previousEnds })
      : Promise.resolve([]),
  ]);
  const byStudent = (lines: string[][]) =>
    new Map(lines.map((line) => [line[0] as string, totalsOf(line, 1)]));
  const before = byStudent(previousLines);
  // A period compared in part: its kept figures less the days after the part.
  for (const [student, rest] of byStudent(previousRest)) {
    const totals = before.get(student);
    if (totals) for (const field of FIELDS) totals[field] -= rest[field];
  }
  const dayAt = datesAfter(period.start);
  const days = new Map(
    dayLines.map((line) => {
      const totals = totalsOf(line, 1);
      return [dayAt(Number(line[0])), { ...totals, students: totals.daysLearned }] as const;
    }),
  );
  return { current: byStudent(studentLines), previous: before, days };
}

/** Weekdays of a range that are not holidays of every school (a district's breaks) or of the school asked for. */
export async function schoolDaysOf(
  db: Database,
  range: Range,
  schoolId: string | undefined,
): Promise<string[]> {
  const holidays = await queryRows<{ date: string }>(
    db,
    sql`select distinct h.date::text as date from school_holidays h
      where h.date between ${range.start}::date and ${range.end}::date
        and h.org_sourced_id in (select o.sourced_id from orgs o where o.parent_sourced_id is null
          ${schoolId ? sql`or o.sourced_id = ${schoolId} or o.sourced_id = (select p.parent_sourced_id from orgs p where p.sourced_id = ${schoolId})` : sql``})`,
  );
  const closed = new Set(holidays.map((holiday) => holiday.date));
  const days: string[] = [];
  const dayAt = datesAfter(range.start);
  for (let offset = 0; ; offset++) {
    const day = dayAt(offset);
    if (day > range.end) break;
    if (isWeekday(day) && !closed.has(day)) days.push(day);
  }
  return days;
}
