import { sql } from "drizzle-orm";
import { MAX_METRICS_DAYS } from "../../../shared/contracts/activity";
import type {
  ChildProgress,
  ChildProgressQuery,
  PeriodFigures,
  SubjectFigures,
} from "../../../shared/contracts/families";
import { addDays, datesAfter, isWeekday, localDateOf, weekStartOf } from "../../../shared/time-zone";
import { type Database, queryJsonRows, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import {
  allGoalsMet,
  dailyGoalsFrom,
  goalsWith,
  holidaysOf,
  ownGoalsOf,
  type SubjectGoals,
  storedDailyGoals,
  weeklyXpOfDailyGoals,
} from "../goals/daily-goals";
import { weeklyGoalIdOf } from "../goals/progress";
import { childIdsOf } from "./children";

/** The terms a progress page shows: the latest that have begun. */
const MAX_TERMS = 4;

interface ChildRow {
  sourcedId: string;
  givenName: string;
  familyName: string;
  grades: string[];
  timezone: string;
  schoolGoals: unknown;
  ownSubjects: string[] | null;
  ownDailyXp: number[] | null;
  weeklyGoal: number | null;
  terms: { sourcedId: string; title: string; startDate: string; endDate: string }[];
}

/** A day's totals of one subject, every app added up. */
interface DayRow {
  date: string;
  subject: string;
  xp: number;
  activeSeconds: number;
  masteredUnits: number;
}

/** The child, their goals and their classes' terms, only if they are one of the caller's children. */
async function childOf(db: Database, actor: Actor, childId: string): Promise<ChildRow> {
  const [child] = await queryJsonRows<ChildRow>(
    db,
    sql`select u.sourced_id as "sourcedId", u.given_name as "givenName", u.family_name as "familyName",
        u.grades, u.timezone, ${storedDailyGoals} as "schoolGoals",
        own.subjects as "ownSubjects", own.daily_xp as "ownDailyXp",
        (select g.target from goals g where g.id = (${weeklyGoalIdOf(sql`u.sourced_id`)})) as "weeklyGoal",
        (select coalesce(json_agg(json_build_object('sourcedId', s.sourced_id, 'title', s.title,
            'startDate', to_char(s.start_date, 'YYYY-MM-DD'), 'endDate', to_char(s.end_date, 'YYYY-MM-DD'))
            order by s.start_date, s.sourced_id), '[]'::json)
          from academic_sessions s where s.type = 'term' and s.status = 'active' and s.sourced_id in (
            select unnest(k.term_sourced_ids) from classes k join enrollments e on e.class_sourced_id = k.sourced_id
            where e.user_sourced_id = u.sourced_id and e.role = 'student' and e.status = 'active')) as terms
      from users u left join lateral (${ownGoalsOf(sql`u.sourced_id`)}) own on true
      where u.sourced_id = ${childId} and u.sourced_id in (${childIdsOf(actor)})`,
  );
  if (!child) throw new AppError("not_found", message("families:children.notFound"));
  return child;
}

/** The child's daily totals per subject between two days, and their days without school. */
async function daysOf(db: Database, childId: string, from: string, to: string) {
  const [days, [holidays]] = await Promise.all([
    queryRows<DayRow>(
      db,
      sql`select to_char(m.local_date, 'YYYY-MM-DD') as date, m.subject, sum(m.xp)::float8 as xp,
          sum(m.active_seconds)::int as "activeSeconds", sum(m.mastered_units)::int as "masteredUnits"
        from daily_student_metrics m
        where m.student_sourced_id = ${childId} and m.local_date between ${from}::date and ${to}::date
        group by m.local_date, m.subject`,
    ),
    queryRows<{ offsets: number[] | null }>(db, holidaysOf(sql`${childId}::text`, from, to)),
  ]);
  const dateOf = datesAfter(from);
  return { days, holidays: new Set((holidays?.offsets ?? []).map(dateOf)) };
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** The subjects in the order every period lists them: the goals' first, then the others by name. */
function subjectsOf(goals: SubjectGoals, days: DayRow[]): string[] {
  const others = [...new Set(days.map((day) => day.subject))].filter((subject) => !(subject in goals));
  return [...Object.keys(goals), ...others.sort()];
}

/**
 * Adds up a period's days (from `from` to `to`, never after today): XP, time and mastered units
 * per subject, the days each subject's goal was met, the days every goal was, and the school days.
 */
function figuresBetween(
  from: string,
  to: string,
  input: {
    today: string;
    goals: SubjectGoals;
    subjects: string[];
    byDate: Map<string, DayRow[]>;
    holidays: Set<string>;
  },
): PeriodFigures {
  const sums = new Map<string, SubjectFigures>(
    input.subjects.map((subject) => [
      subject,
      {
        subject,
        xp: 0,
        activeSeconds: 0,
        masteredUnits: 0,
        goalDays: subject in input.goals ? 0 : null,
      },
    ]),
  );
  let goalDaysMet = 0;
  let schoolDays = 0;
  const last = to < input.today ? to : input.today;
  for (let date = from; date <= last; date = addDays(date, 1)) {
    if (isWeekday(date) && !input.holidays.has(date)) schoolDays++;
    const rows = input.byDate.get(date) ?? [];
    const xpBySubject: Record<string, number> = {};
    for (const row of rows) {
      const sum = sums.get(row.subject) as SubjectFigures;
      sum.xp += row.xp;
      sum.activeSeconds += row.activeSeconds;
      sum.masteredUnits += row.masteredUnits;
      xpBySubject[row.subject] = row.xp;
    }
    for (const [subject, goal] of Object.entries(input.goals)) {
      const sum = sums.get(subject) as SubjectFigures;
      if ((xpBySubject[subject] ?? 0) >= goal) sum.goalDays = (sum.goalDays ?? 0) + 1;
    }
    // A day without learning meets no goal, even when every goal is zero.
    if (rows.some((row) => row.xp > 0) && allGoalsMet(input.goals, xpBySubject)) goalDaysMet++;
  }
  const subjects = [...sums.values()].map((sum) => ({ ...sum, xp: round2(sum.xp) }));
  return {
    xp: round2(subjects.reduce((total, sum) => total + sum.xp, 0)),
    activeSeconds: subjects.reduce((total, sum) => total + sum.activeSeconds, 0),
    masteredUnits: subjects.reduce((total, sum) => total + sum.masteredUnits, 0),
    goalDaysMet,
    schoolDays,
    subjects,
  };
}

/**
 * One child's progress: the last weeks (this one included) and the terms of their classes that
 * have begun, each added up from the daily totals in the child's own timezone. A child who is not
 * the caller's is not found.
 */
export async function childProgress(
  db: Database,
  actor: Actor,
  childId: string,
  query: ChildProgressQuery,
  now: Date,
): Promise<ChildProgress> {
  const child = await childOf(db, actor, childId);
  const today = localDateOf(now, child.timezone);
  const thisWeek = weekStartOf(today);
  const weekStarts = Array.from({ length: query.weeks }, (_, index) =>
    addDays(thisWeek, -7 * (query.weeks - 1 - index)),
  );
  const terms = child.terms.filter((term) => term.startDate <= today).slice(-MAX_TERMS);
  // Far enough back for the first week and the first term, never more than a long report reads.
  const earliest = [weekStarts[0] as string, ...terms.map((term) => term.startDate)].sort()[0] as string;
  const from = earliest > addDays(today, -MAX_METRICS_DAYS) ? earliest : addDays(today, -MAX_METRICS_DAYS);
  const { days, holidays } = await daysOf(db, childId, from, today);

  const goals = goalsWith(dailyGoalsFrom(child.schoolGoals), child.ownSubjects, child.ownDailyXp);
  const byDate = Map.groupBy(days, (day) => day.date);
  const figures = { today, goals, subjects: subjectsOf(goals, days), byDate, holidays };
  return {
    child: {
      sourcedId: child.sourcedId,
      givenName: child.givenName,
      familyName: child.familyName,
      grades: child.grades,
      timezone: child.timezone,
      today,
    },
    dailyGoals: Object.entries(goals).map(([subject, goal]) => ({ subject, goal })),
    weeklyGoal: child.weeklyGoal ?? weeklyXpOfDailyGoals(goals),
    weeks: weekStarts.map((weekStart) => ({
      weekStart,
      ...figuresBetween(weekStart, addDays(weekStart, 6), figures),
    })),
    terms: terms.map((term) => ({
      ...term,
      isCurrent: term.startDate <= today && today <= term.endDate,
      ...figuresBetween(term.startDate < from ? from : term.startDate, term.endDate, figures),
    })),
  };
}
