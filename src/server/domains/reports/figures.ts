import { type SQL, sql } from "drizzle-orm";
import { datesAfter, isWeekday } from "../../../shared/time-zone";
import { type Database, queryRows } from "../../db/client";
import { type SubjectGoals, schoolDailyGoals } from "../goals/daily-goals";

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
 * Whether a student's day met every daily goal, as SQL over the day's XP per subject
 * (`subject_xp`) and the student's own goals (`own_goals`, null when they have none). The same
 * rule as `allGoalsMet(goalsWith(...))`: the school's goals, a student's own in their place. The
 * school's goals are written out as plain comparisons (most students have no goals of their own);
 * with a subject filter only that subject's goal counts.
 */
function goalsMetSql(defaults: SubjectGoals, subject: string | undefined): SQL {
  const entries = Object.entries(defaults).filter(([name]) => !subject || name === subject);
  const schoolGoals = entries.length
    ? sql.join(
        entries.map(
          ([name, goal]) => sql`coalesce((t.subject_xp ->> ${name})::numeric, 0) >= ${goal}::numeric`,
        ),
        sql` and `,
      )
    : sql`true`;
  const onlySubject = subject ? sql`and g.key = ${subject}` : sql``;
  return sql`case when og.goals is null then (${schoolGoals}) else not exists (
      select 1 from jsonb_each_text(${JSON.stringify(defaults)}::jsonb || og.goals) g
      where coalesce((t.subject_xp ->> g.key)::numeric, 0) < g.value::numeric ${onlySubject}) end`;
}

/**
 * A student's days as rows of `student_daily_totals`: that table itself, or, for one subject or
 * app, the daily totals of that subject or app added up per day the same way.
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
      jsonb_object_agg(subject, xp) as subject_xp
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
  goals: SubjectGoals;
}

/** The figures a line of the packed answers carries, after its key, in the order of FIELDS. */
const SUMS = sql`count(*) filter (where t.active_seconds > 0 or t.events > 0), sum(t.xp), sum(t.active_seconds),
  sum(t.waste_seconds), sum(t.total_questions), sum(t.correct_questions), sum(t.mastered_units),
  count(*) filter (where t.goals_met)`;

/**
 * The figures of the students a sub-query names over a period, per student and per day, and per
 * student over the period before it (for the change). The period is read in one pass grouped both
 * ways at once (`grouping sets`, hashed); the period before in a second, concurrent one. Answers
 * come back as one string each (fields apart by the unit separator, lines by the record
 * separator): far cheaper to hand over than a row per student, from PGlite above all.
 */
export async function periodFigures(
  db: Database,
  readDb: Database,
  studentIds: SQL,
  period: Range,
  previous: Range | null,
  filter: FigureFilter,
): Promise<PeriodFigures> {
  const goals = await schoolDailyGoals(db);
  const goalsMet = goalsMetSql(goals, filter.subject);
  const daysIn = (range: Range) => sql`(select t.*, ${goalsMet} as goals_met
    from ${daysSource(filter)} t
    left join (select student_sourced_id, jsonb_object_agg(subject, daily_xp) as goals
      from student_daily_goals group by 1) og on og.student_sourced_id = t.student_sourced_id
    where t.student_sourced_id in (${studentIds}) and t.local_date between ${range.start}::date and ${range.end}::date) t`;
  const packed = (query: SQL) =>
    queryRows<{ packed: string | null }>(
      readDb,
      sql`select string_agg(g.line, chr(30)) as packed from (${query}) g`,
    ).then(([row]) => (row?.packed ? row.packed.split("\u001e").map((line) => line.split("\u001f")) : []));
  const [periodLines, previousLines] = await Promise.all([
    packed(sql`select concat_ws(chr(31), case when grouping(t.student_sourced_id) = 0 then 's' else 'd' end,
        coalesce(t.student_sourced_id, (t.local_date - ${period.start}::date)::text), ${SUMS}) as line
      from ${daysIn(period)} group by grouping sets ((t.student_sourced_id), (t.local_date))`),
    previous
      ? packed(sql`select concat_ws(chr(31), t.student_sourced_id, ${SUMS}) as line
          from ${daysIn(previous)} group by t.student_sourced_id`)
      : Promise.resolve([]),
  ]);
  const current = new Map<string, Totals>();
  const days = new Map<string, Totals & { students: number }>();
  const dayAt = datesAfter(period.start);
  for (const [kind, key, ...figures] of periodLines) {
    const totals = totalsOf(figures, 0);
    if (kind === "s") current.set(key as string, totals);
    else days.set(dayAt(Number(key)), { ...totals, students: totals.daysLearned });
  }
  const before = new Map(previousLines.map((line) => [line[0] as string, totalsOf(line, 1)]));
  return { current, previous: before, days, goals };
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
