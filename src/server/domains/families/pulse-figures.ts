import { type SQL, sql } from "drizzle-orm";
import type { PulseFigures, PulseLockout, PulseNews, PulseSubject } from "../../../shared/contracts/families";
import { addDays, datesAfter, isWeekday } from "../../../shared/time-zone";
import { type Database, queryJsonRows } from "../../db/client";
import {
  allGoalsMet,
  dailyGoalsFrom,
  goalsWith,
  holidaysOf,
  ownGoalsOf,
  type SubjectGoals,
  storedDailyGoals,
  streakOf,
} from "../goals/daily-goals";

/**
 * The figures of children's weeks, many children at a time: one statement reads each child's daily
 * totals, goals, holidays, Alphas, assessment news and integrity records of the week (every
 * boundary in the child's own timezone), and the streak is counted the way the home counts it.
 * Never the raw events.
 */

/**
 * How far back a streak is followed after the week itself: as the home's summaries do
 * (activity/summaries.ts), two school weeks first, then at most 90 days.
 */
const RECENT_DAYS = 14;
const STREAK_WINDOW_DAYS = 90;
const LOOK_BACKS = [RECENT_DAYS, STREAK_WINDOW_DAYS] as const;
/** Children read by one statement. */
const CHILDREN_PER_STATEMENT = 1_000;

/** Ledger entries that only move Alphas between a child's own accounts, or hold them for a request. */
const MOVES_WITHIN = ["hold", "release", "transfer"] as const;

interface DailyColumns {
  /** Days after the read's first day, subjects, XP and mastered units: one entry per day and subject. */
  dayOffsets: number[] | null;
  subjects: string[] | null;
  xp: number[] | null;
  units: number[] | null;
}

interface ChildWeekRow extends DailyColumns {
  id: string;
  timeZone: string;
  through: string;
  goalSubjects: string[] | null;
  goalXp: number[] | null;
  holidayOffsets: number[] | null;
  schoolGoals: unknown;
  earned: number;
  spent: number;
  news: PulseNews[];
  strikesConfirmed: number;
  activeStrikes: number;
  lockouts: PulseLockout[];
  isLocked: boolean;
}

/** A day's XP and mastered units per subject. */
type Day = Map<string, { xp: number; units: number }>;

const round2 = (value: number) => Math.round(value * 100) / 100;

function daysOf(columns: DailyColumns, dateAt: (offset: number) => string): Map<string, Day> {
  const days = new Map<string, Day>();
  columns.dayOffsets?.forEach((offset, index) => {
    const date = dateAt(offset);
    const day = days.get(date) ?? new Map();
    day.set(columns.subjects?.[index] as string, {
      xp: columns.xp?.[index] as number,
      units: columns.units?.[index] as number,
    });
    days.set(date, day);
  });
  return days;
}

const xpBySubjectOf = (day: Day | undefined): Record<string, number> =>
  Object.fromEntries([...(day ?? new Map()).entries()].map(([subject, { xp }]) => [subject, xp]));

/** A sub-query of one child's XP and mastered units per day and subject (apps added up) between two days. */
function dailyTotals(from: string, to: SQL): SQL {
  return sql`select array_agg(x.day - ${from}::date order by x.day, x.subject) as "dayOffsets",
      array_agg(x.subject order by x.day, x.subject) as subjects,
      array_agg(x.xp order by x.day, x.subject) as xp, array_agg(x.units order by x.day, x.subject) as units
    from (select m.local_date as day, m.subject, round(sum(m.xp), 2)::float8 as xp, sum(m.mastered_units)::int as units
      from daily_student_metrics m
      where m.student_sourced_id = s.id and m.local_date between ${from}::date and ${to}
      group by m.local_date, m.subject) x`;
}

/** One statement's worth of children: everything of their week but the longer streaks. */
async function readWeeks(
  db: Database,
  childIds: readonly string[],
  week: { start: string; end: string; holidaysFrom: string },
  now: Date,
): Promise<ChildWeekRow[]> {
  const at = sql`${now.toISOString()}::timestamptz`;
  return queryJsonRows<ChildWeekRow>(
    db,
    sql`with s as (
          select u.sourced_id as id, u.timezone as tz,
            least((${at} at time zone u.timezone)::date, ${week.end}::date) as through,
            (${week.start}::date::timestamp at time zone u.timezone) as starts_at,
            least(((${week.end}::date + 1)::timestamp at time zone u.timezone), ${at}) as ends_at
          from users u where u.sourced_id in (select jsonb_array_elements_text(${JSON.stringify(childIds)}::jsonb)))
        select s.id, s.tz as "timeZone", s.through::text as through, d.*,
          g.subjects as "goalSubjects", g.daily_xp as "goalXp", h.offsets as "holidayOffsets",
          ${storedDailyGoals} as "schoolGoals",
          coalesce(a.earned, 0)::int as earned, coalesce(a.spent, 0)::int as spent,
          coalesce(n.news, '[]'::json) as news,
          i.strikes_confirmed as "strikesConfirmed", i.active_strikes as "activeStrikes",
          coalesce(l.lockouts, '[]'::json) as lockouts,
          exists (select 1 from integrity_lockouts o where o.student_sourced_id = s.id and o.locked_at < s.ends_at
            and (o.unlocked_at is null or o.unlocked_at >= s.ends_at)) as "isLocked"
        from s
          left join lateral (${dailyTotals(week.start, sql`s.through`)}) d on true
          left join lateral (${ownGoalsOf(sql`s.id`)}) g on true
          left join lateral (${holidaysOf(sql`s.id`, week.holidaysFrom, week.end)}) h on true
          left join lateral (
            select sum(r.amount) filter (where r.amount > 0) as earned, -sum(r.amount) filter (where r.amount < 0) as spent
            from reward_ledger r
            where r.student_sourced_id = s.id and r.created_at >= s.starts_at and r.created_at < s.ends_at
              and r.kind not in ${MOVES_WITHIN}) a on true
          left join lateral (
            select json_agg(x.item order by x.date, x.kind, x.subject) as news from (
              select r.test_date as date, 'map' as kind, r.subject, json_build_object('kind', 'map', 'subject', r.subject,
                  'termName', r.term_name, 'date', r.test_date::text, 'rit', r.rit, 'percentile', r.percentile) as item
                from map_results r
                where r.student_sourced_id = s.id and r.test_date between ${week.start}::date and s.through
              union all
              select (c.changed_at at time zone s.tz)::date, 'placement', c.subject, json_build_object('kind', 'placement',
                  'subject', c.subject, 'date', (c.changed_at at time zone s.tz)::date::text, 'fromGrade', c.from_grade,
                  'toGrade', c.to_grade)
                from placement_changes c
                where c.student_sourced_id = s.id and c.changed_at >= s.starts_at and c.changed_at < s.ends_at
              union all
              select t.taken_on, 'placement_test', t.subject, json_build_object('kind', 'placement_test',
                  'subject', t.subject, 'date', t.taken_on::text, 'gradeLevel', t.grade_level, 'testName', t.test_name,
                  'status', t.status)
                from placement_tests t
                where t.student_sourced_id = s.id and t.taken_on between ${week.start}::date and s.through) x) n on true
          left join lateral (
            select count(*) filter (where f.struck_at >= s.starts_at)::int as strikes_confirmed,
              count(*) filter (where f.strike_expires_at > s.ends_at)::int as active_strikes
            from integrity_incidents f
            where f.student_sourced_id = s.id and f.review_status in ('confirmed', 'appealed') and f.struck_at < s.ends_at
              and (f.struck_at >= s.starts_at or f.strike_expires_at > s.ends_at)) i on true
          left join lateral (
            select json_agg(json_build_object('lockedOn', (o.locked_at at time zone s.tz)::date::text,
                'unlockedOn', case when o.unlocked_at < s.ends_at then (o.unlocked_at at time zone s.tz)::date::text end)
                order by o.locked_at) as lockouts
            from integrity_lockouts o
            where o.student_sourced_id = s.id and o.locked_at >= s.starts_at and o.locked_at < s.ends_at) l on true`,
  );
}

/** Each child's days from `from` to their `through`, for a streak that goes back further than the week. */
async function readDaysFrom(
  db: Database,
  childIds: readonly string[],
  from: string,
  weekEnd: string,
  now: Date,
): Promise<Map<string, Map<string, Day>>> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const rows = await queryJsonRows<DailyColumns & { id: string }>(
    db,
    sql`with s as (
          select u.sourced_id as id, least((${at} at time zone u.timezone)::date, ${weekEnd}::date) as through
          from users u where u.sourced_id in (select jsonb_array_elements_text(${JSON.stringify(childIds)}::jsonb)))
        select s.id, d.* from s left join lateral (${dailyTotals(from, sql`s.through`)}) d on true`,
  );
  const dateAt = datesAfter(from);
  return new Map(rows.map((row) => [row.id, daysOf(row, dateAt)]));
}

/** Goals' subjects first, in their order; then the others learned this week, by name. */
function subjectsOf(goals: SubjectGoals, days: Day[]): string[] {
  const learned = new Set(days.flatMap((day) => [...day.keys()]));
  const withGoals = Object.keys(goals);
  return [...withGoals, ...[...learned].filter((subject) => !(subject in goals)).sort()];
}

function figuresOf(
  row: ChildWeekRow,
  days: Map<string, Day>,
  holidays: Set<string>,
  weekStart: string,
  weekEnd: string,
  streak: number,
): PulseFigures {
  const goals = goalsWith(dailyGoalsFrom(row.schoolGoals), row.goalSubjects, row.goalXp);
  const weekDates = Array.from({ length: 7 }, (_, offset) => addDays(weekStart, offset));
  const counted = weekDates.filter((date) => date <= row.through);
  const weekDays = counted.map((date) => days.get(date) ?? new Map());
  const subjects: PulseSubject[] = subjectsOf(goals, weekDays).map((subject) => {
    const dailyGoal = goals[subject] ?? null;
    let xp = 0;
    let daysMet = 0;
    for (const day of weekDays) {
      const dayXp = day.get(subject)?.xp ?? 0;
      xp += dayXp;
      if (dailyGoal !== null && dayXp >= dailyGoal) daysMet++;
    }
    return { subject, xp: round2(xp), dailyGoal, daysMet };
  });
  return {
    weekStart,
    weekEnd,
    timeZone: row.timeZone,
    through: row.through,
    schoolDays: weekDates.filter((date) => isWeekday(date) && !holidays.has(date)).length,
    xp: round2(subjects.reduce((total, subject) => total + subject.xp, 0)),
    daysAllGoalsMet: counted.filter((date) => allGoalsMet(goals, xpBySubjectOf(days.get(date)))).length,
    subjects,
    streak,
    masteredUnits: weekDays.reduce(
      (total, day) => total + [...day.values()].reduce((sum, entry) => sum + entry.units, 0),
      0,
    ),
    alphas: { earned: row.earned, spent: row.spent },
    news: row.news,
    integrity: {
      strikesConfirmed: row.strikesConfirmed,
      activeStrikes: row.activeStrikes,
      lockouts: row.lockouts,
      isLocked: row.isLocked,
    },
  };
}

/**
 * The figures of each child's week (from `weekStart`, a Sunday), as they stand at `now`: a week
 * still running counts up to the child's today. Children who do not exist are left out.
 */
export async function pulseFiguresOf(
  db: Database,
  childIds: readonly string[],
  weekStart: string,
  now: Date,
): Promise<Map<string, PulseFigures>> {
  const weekEnd = addDays(weekStart, 6);
  const holidaysFrom = addDays(weekStart, -(STREAK_WINDOW_DAYS + 1));
  const weekDate = datesAfter(weekStart);
  const holidayDate = datesAfter(holidaysFrom);
  const figures = new Map<string, PulseFigures>();
  for (let start = 0; start < childIds.length; start += CHILDREN_PER_STATEMENT) {
    const ids = childIds.slice(start, start + CHILDREN_PER_STATEMENT);
    const rows = await readWeeks(db, ids, { start: weekStart, end: weekEnd, holidaysFrom }, now);
    const read = rows.map((row) => {
      const goals = goalsWith(dailyGoalsFrom(row.schoolGoals), row.goalSubjects, row.goalXp);
      const holidays = new Set((row.holidayOffsets ?? []).map(holidayDate));
      const days = daysOf(row, weekDate);
      const streakSince = (since: string, xpDays: Map<string, Day>) =>
        streakOf({
          today: row.through,
          goals,
          xpByDay: new Map([...xpDays].map(([date, day]) => [date, xpBySubjectOf(day)])),
          holidays,
          since,
        });
      return { row, days, holidays, streakSince, streak: streakSince(weekStart, days) };
    });
    // The streak as the home counts it: further back only for the children whose run of complete
    // days reached as far as was read. Most runs end within the week, so most children need no more.
    for (const lookBack of LOOK_BACKS) {
      const reaching = read.filter((child) => child.streak.reachesSince);
      if (reaching.length === 0) break;
      const from = addDays(weekStart, -(lookBack + 1));
      const earlier = await readDaysFrom(
        db,
        reaching.map((child) => child.row.id),
        from,
        weekEnd,
        now,
      );
      for (const child of reaching)
        child.streak = child.streakSince(
          addDays(child.row.through, -lookBack),
          earlier.get(child.row.id) ?? new Map(),
        );
    }
    for (const { row, days, holidays, streak } of read)
      figures.set(row.id, figuresOf(row, days, holidays, weekStart, weekEnd, streak.days));
  }
  return figures;
}

/** Rows a statement writes at most. */
const PULSES_PER_STATEMENT = 1_000;

/** Stores the figures as the children's pulses of the week, replacing earlier ones. */
export async function savePulses(
  db: Database,
  weekStart: string,
  figures: ReadonlyMap<string, PulseFigures>,
  builtAt: Date,
): Promise<void> {
  const entries = [...figures].map(([id, value]) => ({ id, figures: value }));
  for (let start = 0; start < entries.length; start += PULSES_PER_STATEMENT) {
    const batch = entries.slice(start, start + PULSES_PER_STATEMENT);
    await db.execute(sql`insert into weekly_pulses (student_sourced_id, week_start, figures, built_at)
      select e.id, ${weekStart}::date, e.figures, ${builtAt.toISOString()}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as e(id text, figures jsonb)
      on conflict (student_sourced_id, week_start)
        do update set figures = excluded.figures, built_at = excluded.built_at`);
  }
}

/** Builds and stores the children's pulses of a week; answers the figures. */
export async function buildPulses(
  db: Database,
  childIds: readonly string[],
  weekStart: string,
  now: Date,
): Promise<Map<string, PulseFigures>> {
  const figures = await pulseFiguresOf(db, childIds, weekStart, now);
  await savePulses(db, weekStart, figures, now);
  return figures;
}
