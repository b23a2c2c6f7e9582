import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type {
  BountyRunResult,
  bountyRunSchema,
  LedgerAccount,
  LedgerKind,
  RewardSettings,
} from "../../../shared/contracts/rewards";
import type { Language } from "../../../shared/languages";
import { addDays, weekStartOf } from "../../../shared/time-zone";
import { type Database, queryJsonRows, queryRows } from "../../db/client";
import { AppError } from "../../lib/errors";
import { type Message, message, translate } from "../../lib/i18n";
import {
  dailyGoalsFrom,
  goalsWith,
  ownGoalsOf,
  storedDailyGoals,
  weeklyXpOfDailyGoals,
} from "../goals/daily-goals";
import { weeklyGoalIdOf } from "../goals/progress";
import { nameOf } from "../rostering/queries";
import { lockAccount, postEntries } from "./ledger";
import { rewardSettingsOf } from "./settings";

/**
 * Earning rules: each finds the Alphas due to students over a range of days, once per student,
 * rule and period (a day, a week, one activity event). Paying writes each award under a key of
 * its rule and period, so a rule run twice, by the daily job and as activity arrives, or by two
 * processes at once, pays once. Other domains add rules (a MAP growth bounty) with
 * `registerEarningRule`; the ledger does not change.
 */

type BountyRun = z.output<typeof bountyRunSchema>;

export interface DueAward {
  studentId: string;
  period: string;
  /** The day it was earned (`yyyy-MM-dd`). */
  date: string;
  amount: number;
  /** What the ledger says about it, in each reader's language. */
  reason: Message;
}

export interface EarningRule {
  key: string;
  /** The rule's name on the bounty page. */
  name: Message;
  kind?: LedgerKind;
  account?: LedgerAccount;
  awardsDue(db: Database, range: EarningRange, settings: RewardSettings): Promise<DueAward[]>;
}

export interface EarningRange {
  /** Days in the students' own calendars, `yyyy-MM-dd`, both included. */
  from: string;
  to: string;
  /** Only these students; everyone when absent. */
  studentIds?: string[];
}

const rules = new Map<string, EarningRule>();

export function registerEarningRule(rule: EarningRule): void {
  if (rules.has(rule.key)) throw new Error(`The earning rule "${rule.key}" is registered twice`);
  rules.set(rule.key, rule);
}

export const earningRules = (): EarningRule[] => [...rules.values()];

const studentsIn = (column: SQL, range: EarningRange) =>
  range.studentIds
    ? sql`and ${column} in (${sql.join(
        range.studentIds.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;

/** Activity events that mastered units or scored a test, in the range. */
async function scoredEvents(db: Database, range: EarningRange, condition: SQL) {
  return queryJsonRows<{
    id: string;
    student: string;
    units: number;
    score: number | null;
    name: string | null;
    date: string;
  }>(
    db,
    sql`select e.id, e.student_sourced_id as student, e.mastered_units as units, e.score_percent::float8 as score,
          coalesce(e.activity_name, e.subject) as name, e.local_date::text as date
        from activity_events e
        where e.local_date between ${range.from}::date and ${range.to}::date and ${condition}
          ${studentsIn(sql`e.student_sourced_id`, range)}`,
  );
}

registerEarningRule({
  key: "mastered_units",
  name: message("rewards:rules.masteredUnits"),
  async awardsDue(db, range, settings) {
    const rate = settings.earning.perMasteredUnit;
    if (rate === 0) return [];
    const events = await scoredEvents(db, range, sql`e.mastered_units > 0`);
    return events.map((event) => ({
      studentId: event.student,
      period: `event:${event.id}`,
      date: event.date,
      amount: event.units * rate,
      reason: message("rewards:reasons.masteredUnits", { count: event.units, activity: event.name }),
    }));
  },
});

registerEarningRule({
  key: "mastery_test",
  name: message("rewards:rules.masteryTest"),
  async awardsDue(db, range, settings) {
    const events = await scoredEvents(db, range, sql`e.score_percent >= 90`);
    return events.flatMap((event) => {
      const amount =
        (event.score ?? 0) >= 100 ? settings.earning.masteryTest100 : settings.earning.masteryTest90;
      if (amount === 0) return [];
      return [
        {
          studentId: event.student,
          period: `event:${event.id}`,
          date: event.date,
          amount,
          reason: message("rewards:reasons.masteryTest", {
            score: Math.round(event.score ?? 0),
            activity: event.name,
          }),
        },
      ];
    });
  },
});

/** Each student's XP per day and subject in the range, with their daily goals. */
async function dailyXp(db: Database, range: EarningRange) {
  return queryJsonRows<{
    student: string;
    date: string;
    xp: Record<string, number>;
    subjects: string[] | null;
    daily_xp: number[] | null;
    defaults: unknown;
    weekly: { target: number; subject: string | null } | null;
  }>(
    db,
    sql`select d.student, d.date, d.xp, g.subjects, g.daily_xp, ${storedDailyGoals} as defaults,
          (select json_build_object('target', w.target, 'subject', w.subject) from goals w
            where w.id = (${weeklyGoalIdOf(sql`d.student`)})) as weekly
        from (select m.student_sourced_id as student, m.local_date::text as date, jsonb_object_agg(m.subject, m.xp) as xp
              from (select student_sourced_id, local_date, subject, sum(xp)::float8 as xp from daily_student_metrics
                    where local_date between ${range.from}::date and ${range.to}::date
                      ${studentsIn(sql`student_sourced_id`, range)}
                    group by student_sourced_id, local_date, subject) m
              group by m.student_sourced_id, m.local_date) d
        left join lateral (${ownGoalsOf(sql`d.student`)}) g on true`,
  );
}

const goalsOfRow = (row: { subjects: string[] | null; daily_xp: number[] | null; defaults: unknown }) =>
  goalsWith(dailyGoalsFrom(row.defaults), row.subjects, row.daily_xp);

registerEarningRule({
  key: "daily_goals",
  name: message("rewards:rules.dailyGoals"),
  async awardsDue(db, range, settings) {
    const amount = settings.earning.allDailyGoals;
    if (amount === 0) return [];
    const days = await dailyXp(db, range);
    return days
      .filter((day) =>
        Object.entries(goalsOfRow(day)).every(([subject, goal]) => (day.xp[subject] ?? 0) >= goal),
      )
      .map((day) => ({
        studentId: day.student,
        period: day.date,
        date: day.date,
        amount,
        reason: message("rewards:reasons.dailyGoals", { date: day.date }),
      }));
  },
});

/**
 * A week's goal: the student's weekly XP goal (theirs, their class's, else every daily goal on five
 * school days). "Beating" it is earning more XP than that in the week (Sunday to Saturday), of the
 * goal's subject when it has one.
 */
registerEarningRule({
  key: "weekly_goal",
  name: message("rewards:rules.weeklyGoal"),
  async awardsDue(db, range, settings) {
    const amount = settings.earning.weeklyGoal;
    if (amount === 0) return [];
    const weekOfFrom = weekStartOf(range.from);
    const days = await dailyXp(db, { ...range, from: weekOfFrom, to: addDays(weekStartOf(range.to), 6) });
    const weeks = new Map<
      string,
      { student: string; week: string; xp: number; goal: number; last: string }
    >();
    for (const day of days) {
      const week = weekStartOf(day.date);
      const key = `${day.student}|${week}`;
      const goal = day.weekly?.target ?? weeklyXpOfDailyGoals(goalsOfRow(day));
      const entry = weeks.get(key) ?? { student: day.student, week, xp: 0, goal, last: day.date };
      if (day.date > entry.last) entry.last = day.date;
      const subject = day.weekly?.subject;
      entry.xp += subject
        ? (day.xp[subject] ?? 0)
        : Object.values(day.xp).reduce((total, xp) => total + xp, 0);
      weeks.set(key, entry);
    }
    return [...weeks.values()]
      .filter((week) => week.goal > 0 && week.xp > week.goal)
      .map((week) => ({
        studentId: week.student,
        period: week.week,
        date: week.last,
        amount,
        reason: message("rewards:reasons.weeklyGoal", { week: week.week }),
      }));
  },
});

export interface RuleAward extends DueAward {
  ruleKey: string;
  name: string | null;
  alreadyPaid: boolean;
}

/** What every rule (or one) finds due over the range, each marked whether it was already paid. */
export async function awardsDue(db: Database, range: EarningRange, onlyRule?: string): Promise<RuleAward[]> {
  const settings = await rewardSettingsOf(db);
  const found: Omit<RuleAward, "alreadyPaid" | "name">[] = [];
  for (const rule of earningRules()) {
    if (onlyRule && rule.key !== onlyRule) continue;
    for (const award of await rule.awardsDue(db, range, settings))
      found.push({ ...award, ruleKey: rule.key });
  }
  if (found.length === 0) return [];
  const known = await queryJsonRows<{
    student: string;
    rule: string;
    period: string;
    paid: boolean;
    name: string | null;
  }>(
    db,
    sql`select f.student, f.rule, f.period, ${nameOf(sql`f.student`)} as name,
          exists (select 1 from reward_ledger l where l.student_sourced_id = f.student
            and l.rule_key = f.rule and l.period = f.period) as paid
        from jsonb_to_recordset(${JSON.stringify(
          found.map((award) => ({ student: award.studentId, rule: award.ruleKey, period: award.period })),
        )}::jsonb) as f(student text, rule text, period text)`,
  );
  const byKey = new Map(known.map((row) => [`${row.student}|${row.rule}|${row.period}`, row]));
  return found.map((award) => {
    const row = byKey.get(`${award.studentId}|${award.ruleKey}|${award.period}`);
    return { ...award, name: row?.name ?? null, alreadyPaid: row?.paid ?? false };
  });
}

/**
 * Pays what is due and not yet paid, one transaction per student. Answers the Alphas paid; an
 * award another run paid meanwhile is skipped by the ledger's unique rule period.
 */
export async function payAwards(
  db: Database,
  awards: RuleAward[],
  now: Date,
  options: { backdate?: boolean } = {},
): Promise<number> {
  const byStudent = new Map<string, RuleAward[]>();
  for (const award of awards) {
    if (award.alreadyPaid) continue;
    byStudent.set(award.studentId, [...(byStudent.get(award.studentId) ?? []), award]);
  }
  let paid = 0;
  for (const [studentId, due] of byStudent) {
    const ids = await db.transaction(async (transaction) => {
      const tx = transaction as unknown as Database;
      await lockAccount(tx, studentId);
      return postEntries(tx, {
        studentId,
        actorId: null,
        at: now,
        skipWritten: true,
        entries: due.map((award) => {
          const rule = rules.get(award.ruleKey);
          return {
            account: rule?.account ?? "spending",
            amount: award.amount,
            kind: rule?.kind ?? "earn",
            reasonMessage: award.reason,
            ruleKey: award.ruleKey,
            period: award.period,
            idempotencyKey: `rule:${award.ruleKey}:${award.period}:${studentId}`,
            // A history filled in afterwards (the demo school) dates each award on its day.
            ...(options.backdate && { createdAt: earnedAt(award.date, now) }),
          };
        }),
      });
    });
    if (ids.length === 0) continue;
    const [row] = await queryRows<{ total: number }>(
      db,
      sql`select coalesce(sum(amount), 0)::int as total from reward_ledger where id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
    paid += row?.total ?? 0;
  }
  return paid;
}

/** Runs every rule over the range and pays what is due: as activity arrives and every night. */
export async function applyEarningRules(
  db: Database,
  range: EarningRange,
  now: Date,
  options: { backdate?: boolean } = {},
): Promise<number> {
  return payAwards(db, await awardsDue(db, range), now, options);
}

/**
 * The bounty run of the administrators' page: every rule over a period, as a dry run that shows
 * who would get what, or paid (each award once, whatever ran before).
 */
export async function runBounty(
  db: Database,
  run: BountyRun,
  now: Date,
  language: Language,
): Promise<BountyRunResult> {
  if (run.from > run.to) throw new AppError("validation_failed", message("rewards:bounty.fromAfterTo"));
  const awards = await awardsDue(db, { from: run.from, to: run.to });
  const due = awards.filter((award) => !award.alreadyPaid).reduce((total, award) => total + award.amount, 0);
  const paid = run.dryRun ? 0 : await payAwards(db, awards, now);
  return {
    from: run.from,
    to: run.to,
    dryRun: run.dryRun,
    awards: awards.map((award) => ({
      studentId: award.studentId,
      name: award.name ?? award.studentId,
      ruleKey: award.ruleKey,
      rule: translate(rules.get(award.ruleKey)?.name ?? award.ruleKey, language),
      reason: translate(award.reason, language),
      period: award.period,
      amount: award.amount,
      alreadyPaid: award.alreadyPaid || !run.dryRun,
    })),
    paid,
    due: run.dryRun ? due : 0,
  };
}

/** The end of the school day an award was earned on, never later than now. */
function earnedAt(date: string, now: Date): Date {
  const endOfDay = new Date(`${date}T22:00:00Z`);
  return endOfDay < now ? endOfDay : now;
}

/**
 * Savings interest for the week starting `weekStart`: each account with savings earns the
 * school's rate, rounded down, up to its cap. Paid once per student and week.
 */
registerEarningRule({
  key: "interest",
  name: message("rewards:rules.interest"),
  kind: "interest",
  account: "savings",
  async awardsDue(db, range, settings) {
    const { weeklyInterestPercent: rate, weeklyInterestCap: cap } = settings.savings;
    if (rate === 0 || cap === 0) return [];
    // Interest is paid for whole weeks that end in the range, on the savings held when it runs.
    const weeks: string[] = [];
    for (let week = weekStartOf(range.from); addDays(week, 6) <= range.to; week = addDays(week, 7))
      if (addDays(week, 6) >= range.from) weeks.push(week);
    if (weeks.length === 0) return [];
    const accounts = await queryJsonRows<{ student: string; savings: number }>(
      db,
      sql`select student_sourced_id as student, savings from reward_accounts where savings > 0
          ${studentsIn(sql`student_sourced_id`, range)}`,
    );
    return weeks.flatMap((week) =>
      accounts.flatMap((account) => {
        const amount = Math.min(cap, Math.floor((account.savings * rate) / 100));
        return amount > 0
          ? [
              {
                studentId: account.student,
                period: week,
                date: addDays(week, 6),
                amount,
                reason: message("rewards:reasons.interest", { week }),
              },
            ]
          : [];
      }),
    );
  },
});
