import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { z } from "zod";
import type {
  BonusAllowance,
  GuideBudget,
  grantSchema,
  MovementResult,
  PayoutRequest,
  RewardSettings,
  TransferRequest,
} from "../../../shared/contracts/rewards";
import { localDateOf, SCHOOL_TIME_ZONE, weekStartOf } from "../../../shared/time-zone";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { canSeeStudent } from "../rostering/scope";
import { assertAffordable, moveAlphas, type NewEntry } from "./ledger";
import { rewardSettingsOf } from "./settings";

type Grant = z.output<typeof grantSchema>;

/** The caller acts as a child's family, or as school staff. */
export const isFamily = (actor: Actor) => actor.activeRole === "parent" || actor.activeRole === "guardian";
export const isStaff = (actor: Actor) =>
  actor.activeRole === "teacher" || actor.activeRole === "administrator";

/** Refuses a student the caller may not see in their active role. */
export async function assertSeesStudent(db: Database, actor: Actor, studentId: string): Promise<void> {
  if (!(await canSeeStudent(db, actor, studentId)))
    throw new AppError("forbidden", message("rewards:students.forbidden"));
}

/** The first day of the school year `at` falls in, as `yyyy-MM-dd`. */
export function schoolYearStartOf(date: string, settings: RewardSettings): string {
  const year = Number(date.slice(0, 4));
  const thisYears = `${year}-${settings.schoolYearStart}`;
  return date >= thisYears ? thisYears : `${year - 1}-${settings.schoolYearStart}`;
}

/** What a grant moves: a staff award as given, a parent's bonus or debit as the school's rule says. */
function amountOf(grant: Grant, settings: RewardSettings): number {
  if (grant.kind === "award") {
    if (grant.amount === undefined)
      throw new AppError("validation_failed", message("rewards:grants.amountRequired"));
    return grant.amount;
  }
  const fixed = grant.kind === "parent_bonus" ? settings.parents.weeklyBonus : -settings.parents.weeklyDebit;
  if (grant.amount !== undefined && grant.amount !== fixed)
    throw new AppError("validation_failed", message("rewards:grants.amountFixed", { amount: fixed }));
  return fixed;
}

/**
 * A staff award or deduction, or a parent's weekly bonus or debit, once per idempotency key.
 * A Guide's awards count against their weekly budget; a parent's bonuses against the year's limit.
 */
export async function grantAlphas(
  db: Database,
  actor: Actor,
  grant: Grant,
  now: Date,
): Promise<MovementResult> {
  const mayUse = grant.kind === "award" ? isStaff(actor) : isFamily(actor);
  if (!mayUse) throw new AppError("validation_failed", message(`rewards:grants.kindNotYours.${grant.kind}`));
  await assertSeesStudent(db, actor, grant.studentId);
  const settings = await rewardSettingsOf(db);
  const amount = amountOf(grant, settings);
  const actorId = actor.user.sourcedId;
  const today = localDateOf(now, SCHOOL_TIME_ZONE);

  const { entryIds, account } = await moveAlphas(db, {
    studentId: grant.studentId,
    actorId,
    idempotencyKey: grant.idempotencyKey,
    at: now,
    plan: async (totals, tx) => {
      if (amount < 0) assertAffordable(totals.balance - totals.held, -amount);
      if (grant.kind === "parent_bonus") await assertBonusLeft(tx, grant.studentId, today, settings);
      if (grant.kind === "award" && amount > 0 && actor.activeRole === "teacher")
        await spendGuideBudget(tx, actorId, weekStartOf(today), amount, settings.guideWeeklyBudget);
      return [{ account: "spending", amount, kind: grant.kind, reason: grant.reason }];
    },
  });
  return { entryIds, account };
}

/** The weekly bonuses a child has had this school year and how many are left; reversed ones do not count. */
async function bonusesOf(
  db: Database,
  studentId: string,
  today: string,
  settings: RewardSettings,
): Promise<BonusAllowance> {
  const schoolYearStart = schoolYearStartOf(today, settings);
  const [row] = await queryRows<{ given: number }>(
    db,
    sql`select count(*)::int as given from reward_ledger l
        where l.student_sourced_id = ${studentId} and l.kind = 'parent_bonus'
          and l.created_at >= ${schoolYearStart}::date
          and not exists (select 1 from reward_ledger r where r.reverses_entry_id = l.id)`,
  );
  const given = row?.given ?? 0;
  const limit = settings.parents.bonusesPerSchoolYear;
  return { schoolYearStart, given, limit, remaining: Math.max(0, limit - given) };
}

/** A child's bonuses this school year, for the family and staff who see them. */
export async function bonusAllowance(
  db: Database,
  actor: Actor,
  studentId: string,
  now: Date,
): Promise<BonusAllowance> {
  await assertSeesStudent(db, actor, studentId);
  return bonusesOf(db, studentId, localDateOf(now, SCHOOL_TIME_ZONE), await rewardSettingsOf(db));
}

/** A 13th bonus in a school year (the default limit is 12) is refused. */
async function assertBonusLeft(tx: Database, studentId: string, today: string, settings: RewardSettings) {
  const { remaining, limit } = await bonusesOf(tx, studentId, today, settings);
  if (remaining === 0) throw new AppError("limit_reached", message("rewards:grants.bonusLimit", { limit }));
}

/** Adds an award to the Guide's week, in one statement that refuses to pass the budget. */
async function spendGuideBudget(
  tx: Database,
  guideId: string,
  weekStart: string,
  amount: number,
  budget: number,
) {
  const [row] = await queryRows<{ awarded: number }>(
    tx,
    sql`insert into reward_guide_weeks as w (guide_sourced_id, week_start, awarded)
        select ${guideId}, ${weekStart}::date, ${amount} where ${amount} <= ${budget}
        on conflict (guide_sourced_id, week_start) do update set awarded = w.awarded + excluded.awarded
          where w.awarded + excluded.awarded <= ${budget}
        returning awarded`,
  );
  if (!row) {
    const left = await guideBudgetOf(tx, guideId, weekStart, budget);
    throw new AppError(
      "limit_reached",
      message("rewards:grants.budgetLeft", { remaining: left.remaining, budget }),
    );
  }
}

async function guideBudgetOf(
  db: Database,
  guideId: string,
  weekStart: string,
  budget: number,
): Promise<GuideBudget> {
  const [row] = await queryRows<{ awarded: number }>(
    db,
    sql`select awarded from reward_guide_weeks where guide_sourced_id = ${guideId} and week_start = ${weekStart}::date`,
  );
  const awarded = row?.awarded ?? 0;
  return { weekStart, budget, awarded, remaining: Math.max(0, budget - awarded) };
}

/** The caller's award budget this week (Guides; administrators have none). */
export async function guideBudget(db: Database, actor: Actor, now: Date): Promise<GuideBudget> {
  const settings = await rewardSettingsOf(db);
  return guideBudgetOf(
    db,
    actor.user.sourcedId,
    weekStartOf(localDateOf(now, SCHOOL_TIME_ZONE)),
    settings.guideWeeklyBudget,
  );
}

/** A student (or their family) moves Alphas between spending and savings. */
export async function transferAlphas(
  db: Database,
  actor: Actor,
  studentId: string,
  transfer: TransferRequest,
  now: Date,
): Promise<MovementResult> {
  const isOwn = actor.activeRole === "student" && actor.user.sourcedId === studentId;
  if (!isOwn && !isFamily(actor)) throw new AppError("forbidden", message("rewards:transfers.notYours"));
  await assertSeesStudent(db, actor, studentId);
  const toSavings = "toSavings" in transfer;
  const amount = toSavings ? transfer.toSavings : transfer.toSpending;
  const reasonMessage = message(toSavings ? "rewards:reasons.toSavings" : "rewards:reasons.toSpending");
  const { entryIds, account } = await moveAlphas(db, {
    studentId,
    actorId: actor.user.sourcedId,
    idempotencyKey: transfer.idempotencyKey ?? randomUUID(),
    at: now,
    plan: async (totals) => {
      if (toSavings) assertAffordable(totals.balance - totals.held, amount);
      else assertAffordable(totals.savings, amount, "savings");
      const entries: Omit<NewEntry, "idempotencyKey">[] = [
        { account: "spending", amount: toSavings ? -amount : amount, kind: "transfer", reasonMessage },
        { account: "savings", amount: toSavings ? amount : -amount, kind: "transfer", reasonMessage },
      ];
      return entries;
    },
  });
  return { entryIds, account };
}

/** A parent records turning some of their child's Alphas into a real-world reward. */
export async function recordPayout(
  db: Database,
  actor: Actor,
  studentId: string,
  payout: PayoutRequest,
  now: Date,
): Promise<MovementResult> {
  if (!isFamily(actor)) throw new AppError("forbidden", message("rewards:payouts.familyOnly"));
  await assertSeesStudent(db, actor, studentId);
  const settings = await rewardSettingsOf(db);
  const { entryIds, account } = await moveAlphas(db, {
    studentId,
    actorId: actor.user.sourcedId,
    idempotencyKey: payout.idempotencyKey,
    at: now,
    plan: async (totals) => {
      assertAffordable(totals.balance - totals.held, payout.amount);
      return [{ account: "spending", amount: -payout.amount, kind: "payout", reason: payout.reward }];
    },
  });
  const worth = Math.round((payout.amount / settings.payout.alphasPerUnit) * 100) / 100;
  return { entryIds, account, worth: { amount: worth, currency: settings.payout.currency } };
}
