import { type SQL, sql } from "drizzle-orm";
import type { LedgerAccount, LedgerKind, RewardAccount } from "../../../shared/contracts/rewards";
import { type Database, isUniqueViolation, queryRows } from "../../db/client";
import { AppError } from "../../lib/errors";
import { type Message, message } from "../../lib/i18n";

/**
 * The Alphas ledger's one way in. Every movement locks the student's account row first, checks
 * what is available under that lock, appends its entries and moves the account's totals by the
 * same amounts in one statement. Concurrent movements of one student's Alphas therefore run one
 * after another on PostgreSQL (the row lock) and on PGlite (one transaction at a time), and a
 * check constraint on the account refuses anything that would still take `available` below zero.
 */

export interface NewEntry {
  account: LedgerAccount;
  amount: number;
  kind: LedgerKind;
  /** A person's own words. */
  reason?: string | null;
  /** Dash's words, said in each reader's language. */
  reasonMessage?: Message | null;
  redemptionId?: string | null;
  reversesEntryId?: number | null;
  ruleKey?: string | null;
  period?: string | null;
  /** Unique per actor: the same key never moves Alphas twice. */
  idempotencyKey: string;
  /** When it happened, if not now (a history filled in afterwards). */
  createdAt?: Date;
}

export interface AccountTotals {
  balance: number;
  held: number;
  savings: number;
}

/** Who wrote an entry: a person, or Dash itself (its jobs and earning rules). */
export const DASH_ACTOR_KEY = "dash";
const actorKeyOf = (actorId: string | null) => actorId ?? DASH_ACTOR_KEY;

/** Kinds that record a hold without moving the balance. */
const HOLD_KINDS: readonly LedgerKind[] = ["hold", "release"];

export const toAccount = (studentId: string, totals: AccountTotals): RewardAccount => ({
  studentId,
  balance: totals.balance,
  held: totals.held,
  available: totals.balance - totals.held,
  savings: totals.savings,
});

/** How entries move an account's totals: holds count against `held`, never the balance. */
export function totalsMovedBy(entries: readonly NewEntry[]): AccountTotals {
  const moved = { balance: 0, held: 0, savings: 0 };
  for (const entry of entries) {
    if (entry.account === "savings") moved.savings += entry.amount;
    else if (HOLD_KINDS.includes(entry.kind)) moved.held -= entry.amount;
    else moved.balance += entry.amount;
  }
  return moved;
}

/**
 * The student's account, locked until the transaction ends; made (empty) on first use. An upsert
 * locks the row it meets, so making and locking take one round trip.
 */
export async function lockAccount(tx: Database, studentId: string): Promise<AccountTotals> {
  const [row] = await queryRows<AccountTotals>(
    tx,
    sql`insert into reward_accounts (student_sourced_id) values (${studentId})
      on conflict (student_sourced_id) do update set student_sourced_id = excluded.student_sourced_id
      returning balance, held, savings`,
  );
  if (!row) throw new Error(`The Alphas account of ${studentId} was neither made nor found`);
  return row;
}

/** The columns of new entries, as the query given to `entriesWritten` answers them. */
const ENTRY_COLUMNS = sql`account text, amount integer, kind text, reason text, reason_message jsonb,
  idempotency_key text, redemption_id uuid, reverses_entry_id bigint, rule_key text, period text, created_at timestamptz`;

/**
 * The `with` queries that append entries for one student (`inserted`: id, account, amount, kind)
 * and move the account's totals by what was written (`moved`), for a statement that writes more
 * beside them. `entries` is a query answering the columns of ENTRY_COLUMNS. With `skipWritten`,
 * entries whose key or rule period is already in the ledger are left out instead of failing.
 */
export function entriesWritten(input: {
  studentId: string;
  actorId: string | null;
  entries: SQL;
  at: Date;
  skipWritten?: boolean;
}): SQL {
  const at = input.at.toISOString();
  return sql`inserted as (
      insert into reward_ledger (student_sourced_id, account, amount, kind, reason, reason_message,
        actor_sourced_id, actor_key, idempotency_key, redemption_id, reverses_entry_id, rule_key, period, created_at)
      select ${input.studentId}, e.account, e.amount, e.kind, e.reason, e.reason_message,
        ${input.actorId}, ${actorKeyOf(input.actorId)}, e.idempotency_key, e.redemption_id,
        e.reverses_entry_id, e.rule_key, e.period, coalesce(e.created_at, ${at}::timestamptz)
      from (${input.entries}) as e
      ${input.skipWritten ? sql`on conflict do nothing` : sql``}
      returning id, account, amount, kind),
    moved as (
      update reward_accounts a set
        balance = a.balance + coalesce((select sum(i.amount) from inserted i
          where i.account = 'spending' and i.kind not in ('hold', 'release')), 0),
        held = a.held - coalesce((select sum(i.amount) from inserted i where i.kind in ('hold', 'release')), 0),
        savings = a.savings + coalesce((select sum(i.amount) from inserted i where i.account = 'savings'), 0),
        updated_at = ${at}::timestamptz
      where a.student_sourced_id = ${input.studentId} and exists (select 1 from inserted))`;
}

/**
 * Appends entries for one student and moves the account's totals by what was written; answers
 * the new entries' ids. With `skipWritten`, entries whose key or rule period is already in the
 * ledger are left out instead of failing (earning rules and jobs that may run twice).
 */
export async function postEntries(
  tx: Database,
  input: {
    studentId: string;
    actorId: string | null;
    entries: readonly NewEntry[];
    at: Date;
    skipWritten?: boolean;
  },
): Promise<number[]> {
  if (input.entries.length === 0) return [];
  const rows = input.entries.map((entry) => ({
    account: entry.account,
    amount: entry.amount,
    kind: entry.kind,
    reason: entry.reason ?? null,
    reason_message: entry.reasonMessage ?? null,
    idempotency_key: entry.idempotencyKey,
    redemption_id: entry.redemptionId ?? null,
    reverses_entry_id: entry.reversesEntryId ?? null,
    rule_key: entry.ruleKey ?? null,
    period: entry.period ?? null,
    created_at: entry.createdAt?.toISOString() ?? null,
  }));
  const written = entriesWritten({
    ...input,
    entries: sql`select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as e(${ENTRY_COLUMNS})`,
  });
  const inserted = await queryRows<{ id: number }>(
    tx,
    sql`with ${written} select id from inserted order by id`,
  );
  return inserted.map((row) => Number(row.id));
}

/** The account as shown: the running totals (zero before the first entry). */
export async function readAccount(db: Database, studentId: string): Promise<RewardAccount> {
  const [row] = await queryRows<AccountTotals>(
    db,
    sql`select coalesce(a.balance, 0) as balance, coalesce(a.held, 0) as held, coalesce(a.savings, 0) as savings
        from (select 1) one left join reward_accounts a on a.student_sourced_id = ${studentId}`,
  );
  return toAccount(studentId, row ?? { balance: 0, held: 0, savings: 0 });
}

/** A movement's entries take its key, then `#2`, `#3`: a movement writes at most this many. */
const MAX_ENTRIES_PER_MOVEMENT = 3;
const keysOfMovement = (key: string) =>
  Array.from({ length: MAX_ENTRIES_PER_MOVEMENT }, (_, index) => (index === 0 ? key : `${key}#${index + 1}`));

/** Entries an actor already wrote under an idempotency key, with the student they moved. */
async function entriesUnderKey(
  db: Database,
  actorId: string | null,
  idempotencyKey: string,
): Promise<{ studentId: string; ids: number[] } | null> {
  const keys = keysOfMovement(idempotencyKey);
  const rows = await queryRows<{ id: number; student_sourced_id: string }>(
    db,
    sql`select id, student_sourced_id from reward_ledger
        where actor_key = ${actorKeyOf(actorId)} and idempotency_key in (${sql.join(
          keys.map((key) => sql`${key}`),
          sql`, `,
        )})
        order by id`,
  );
  const first = rows[0];
  return first ? { studentId: first.student_sourced_id, ids: rows.map((row) => Number(row.id)) } : null;
}

/**
 * One movement a person asked for (an award, a transfer, a payout…), idempotent by their key: the
 * account is locked, `plan` decides the entries from the locked totals (or refuses), and the
 * entries are written. A second entry of one movement takes the key with `#2`, `#3`…. Asked again
 * with the same key, it answers the first movement's entries and the account as it is now.
 */
export async function moveAlphas(
  db: Database,
  input: {
    studentId: string;
    actorId: string | null;
    idempotencyKey: string;
    at: Date;
    plan: (totals: AccountTotals, tx: Database) => Promise<Omit<NewEntry, "idempotencyKey">[]>;
  },
): Promise<{ entryIds: number[]; account: RewardAccount; isReplay: boolean }> {
  const replay = async () => {
    const earlier = await entriesUnderKey(db, input.actorId, input.idempotencyKey);
    if (!earlier) return null;
    return { entryIds: earlier.ids, account: await readAccount(db, earlier.studentId), isReplay: true };
  };
  const earlier = await replay();
  if (earlier) return earlier;
  try {
    return await db.transaction(async (transaction) => {
      const tx = transaction as unknown as Database;
      const totals = await lockAccount(tx, input.studentId);
      const planned = await input.plan(totals, tx);
      if (planned.length > MAX_ENTRIES_PER_MOVEMENT)
        throw new Error("A movement writes at most three entries");
      const keys = keysOfMovement(input.idempotencyKey);
      const entries = planned.map((entry, index) => ({ ...entry, idempotencyKey: keys[index] as string }));
      const moved = totalsMovedBy(entries);
      const after = {
        balance: totals.balance + moved.balance,
        held: totals.held + moved.held,
        savings: totals.savings + moved.savings,
      };
      const entryIds = await postEntries(tx, { ...input, entries });
      return { entryIds, account: toAccount(input.studentId, after), isReplay: false };
    });
  } catch (error) {
    // The same key arrived twice at once: the first one in moved the Alphas; answer it.
    if (isUniqueViolation(error)) {
      const first = await replay();
      if (first) return first;
    }
    throw error;
  }
}

/** Refuses a movement that would take the spendable Alphas below zero. */
export function assertAffordable(
  available: number,
  amount: number,
  account: LedgerAccount = "spending",
): void {
  if (available - amount < 0)
    throw new AppError(
      "insufficient_balance",
      message(account === "savings" ? "rewards:ledger.notEnoughSavings" : "rewards:ledger.notEnough", {
        available,
        amount,
      }),
    );
}
