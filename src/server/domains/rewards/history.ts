import { type SQL, sql } from "drizzle-orm";
import type {
  LedgerAccount,
  LedgerEntry,
  LedgerKind,
  LedgerQuery,
  MovementResult,
  Reconciliation,
} from "../../../shared/contracts/rewards";
import { csvLine } from "../../../shared/csv";
import type { Language } from "../../../shared/languages";
import { type Database, queryJsonRows, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { type Message, message, translate } from "../../lib/i18n";
import { isStudent, nameOf } from "../rostering/queries";
import { assertSeesStudent } from "./grants";
import { assertAffordable, moveAlphas, readAccount } from "./ledger";

/** The ledger as people read it: each entry with its reason in their language and who made it. */

interface EntryRow {
  id: number;
  student_id: string;
  student_name: string | null;
  account: LedgerAccount;
  amount: number;
  kind: LedgerKind;
  reason: string | null;
  reason_message: Message | null;
  actor_id: string | null;
  actor_name: string | null;
  redemption_id: string | null;
  reverses_entry_id: number | null;
  reversed_by: number | null;
  created_at: string;
}

const ENTRY_COLUMNS = sql`l.id, l.student_sourced_id as student_id, ${nameOf(sql`l.student_sourced_id`)} as student_name,
  l.account, l.amount, l.kind, l.reason, l.reason_message, l.actor_sourced_id as actor_id,
  ${nameOf(sql`l.actor_sourced_id`)} as actor_name, l.redemption_id, l.reverses_entry_id,
  (select r.id from reward_ledger r where r.reverses_entry_id = l.id) as reversed_by,
  to_char(l.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at`;

function toEntry(row: EntryRow, language: Language): LedgerEntry {
  return {
    id: Number(row.id),
    studentId: row.student_id,
    student: { sourcedId: row.student_id, name: row.student_name ?? row.student_id },
    account: row.account,
    amount: row.amount,
    kind: row.kind,
    reason: row.reason_message ? translate(row.reason_message, language) : (row.reason ?? ""),
    actor: row.actor_id ? { sourcedId: row.actor_id, name: row.actor_name ?? row.actor_id } : null,
    redemptionId: row.redemption_id,
    reversesEntryId: row.reverses_entry_id === null ? null : Number(row.reverses_entry_id),
    reversedByEntryId: row.reversed_by === null ? null : Number(row.reversed_by),
    createdAt: row.created_at,
  };
}

async function readEntries(
  db: Database,
  where: SQL,
  page: { offset: number; limit: number },
  language: Language,
  order: SQL = sql`l.id desc`,
): Promise<{ data: LedgerEntry[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    queryJsonRows<EntryRow>(
      db,
      sql`select ${ENTRY_COLUMNS} from reward_ledger l where ${where}
          order by ${order} offset ${page.offset} limit ${page.limit}`,
    ),
    queryRows<{ total: number }>(db, sql`select count(*)::int as total from reward_ledger l where ${where}`),
  ]);
  return { data: rows.map((row) => toEntry(row, language)), total: count?.total ?? 0 };
}

/** One student's entries, newest first, for whoever may see the student. */
export async function studentLedger(
  db: Database,
  actor: Actor,
  studentId: string,
  page: { offset: number; limit: number },
  language: Language,
) {
  await assertSeesStudent(db, actor, studentId);
  // By time: an entry recorded late (a correction, an award for last week) sits where it happened.
  return readEntries(
    db,
    sql`l.student_sourced_id = ${studentId}`,
    page,
    language,
    sql`l.created_at desc, l.id desc`,
  );
}

function ledgerFilter(query: Omit<LedgerQuery, "offset" | "limit">): SQL {
  const conditions: SQL[] = [sql`true`];
  if (query.studentId) conditions.push(sql`l.student_sourced_id = ${query.studentId}`);
  if (query.kind) conditions.push(sql`l.kind = ${query.kind}`);
  if (query.from) conditions.push(sql`l.created_at >= ${query.from}::date`);
  if (query.to) conditions.push(sql`l.created_at < ${query.to}::date + 1`);
  return sql.join(conditions, sql` and `);
}

/** The whole ledger, filtered, for administrators. */
export async function wholeLedger(db: Database, query: LedgerQuery, language: Language) {
  return readEntries(db, ledgerFilter(query), query, language);
}

const CSV_PAGE = 5_000;

/** The filtered ledger as CSV lines, read a page at a time so a year of entries never sits in memory. */
export async function* ledgerCsv(
  db: Database,
  query: Omit<LedgerQuery, "offset" | "limit">,
  language: Language,
): AsyncGenerator<string> {
  const say = (key: string) => translate(message(`rewards:csv.${key}`), language);
  yield csvLine(
    [
      "id",
      "createdAt",
      "studentId",
      "student",
      "account",
      "kind",
      "amount",
      "reason",
      "actor",
      "redemptionId",
      "reversesEntryId",
    ].map(say),
  );
  const where = ledgerFilter(query);
  // Keyset paging on the id: stable while new entries arrive, and each page one index range.
  for (let before = Number.MAX_SAFE_INTEGER; ; ) {
    const rows = await queryJsonRows<EntryRow>(
      db,
      sql`select ${ENTRY_COLUMNS} from reward_ledger l where ${where} and l.id < ${before}
          order by l.id desc limit ${CSV_PAGE}`,
    );
    let chunk = "";
    for (const row of rows) {
      const entry = toEntry(row, language);
      chunk += csvLine([
        entry.id,
        entry.createdAt,
        entry.studentId,
        entry.student?.name,
        entry.account,
        entry.kind,
        entry.amount,
        entry.reason,
        entry.actor?.name ?? "",
        entry.redemptionId,
        entry.reversesEntryId,
      ]);
    }
    if (chunk) yield chunk;
    const last = rows.at(-1);
    if (!last || rows.length < CSV_PAGE) return;
    before = Number(last.id);
  }
}

/** Kinds an administrator may reverse: holds and transfers belong to a request or a pair. */
const REVERSIBLE: readonly LedgerKind[] = [
  "earn",
  "award",
  "parent_bonus",
  "parent_debit",
  "interest",
  "payout",
  "spend",
];

/**
 * Undoes an entry with a compensating one, never by changing it; once per entry. Undoing a spend
 * is a refund. Taking back Alphas the student no longer has is refused.
 */
export async function reverseEntry(
  db: Database,
  actor: Actor,
  entryId: number,
  reason: string,
  now: Date,
): Promise<MovementResult> {
  const [entry] = await queryRows<{
    student: string;
    account: LedgerAccount;
    amount: number;
    kind: LedgerKind;
    reversed: boolean;
  }>(
    db,
    sql`select l.student_sourced_id as student, l.account, l.amount, l.kind,
          exists (select 1 from reward_ledger r where r.reverses_entry_id = l.id) as reversed
        from reward_ledger l where l.id = ${entryId}`,
  );
  if (!entry) throw new AppError("not_found", message("rewards:ledger.entryNotFound"));
  if (!REVERSIBLE.includes(entry.kind))
    throw new AppError("conflict", message("rewards:ledger.notReversible", { kind: entry.kind }));
  if (entry.reversed) throw new AppError("conflict", message("rewards:ledger.alreadyReversed"));
  const { entryIds, account } = await moveAlphas(db, {
    studentId: entry.student,
    actorId: actor.user.sourcedId,
    idempotencyKey: `reverse:${entryId}`,
    at: now,
    plan: async (totals) => {
      const amount = -entry.amount;
      if (amount < 0)
        assertAffordable(
          entry.account === "savings" ? totals.savings : totals.balance - totals.held,
          -amount,
          entry.account,
        );
      return [
        {
          account: entry.account,
          amount,
          kind: entry.kind === "spend" ? "refund" : "reversal",
          reason,
          reversesEntryId: entryId,
        },
      ];
    },
  });
  return { entryIds, account };
}

/** One student's shown figures against what the ledger and the open requests say they should be. */
export async function reconcile(db: Database, studentId: string): Promise<Reconciliation> {
  const [row] = await queryRows<{
    name: string | null;
    balance: number;
    held: number;
    savings: number;
    entries: number;
    open_count: number;
    open_held: number;
    is_student: boolean;
  }>(
    db,
    sql`select ${nameOf(sql`${studentId}::text`)} as name,
          ${isStudent(sql`${studentId}`)} as is_student,
          coalesce(sum(l.amount) filter (where l.account = 'spending' and l.kind not in ('hold', 'release')), 0)::int as balance,
          coalesce(-sum(l.amount) filter (where l.kind in ('hold', 'release')), 0)::int as held,
          coalesce(sum(l.amount) filter (where l.account = 'savings'), 0)::int as savings,
          count(l.id)::int as entries,
          (select count(*) from reward_redemptions r where r.student_sourced_id = ${studentId}
            and r.status in ('pending', 'approved'))::int as open_count,
          (select coalesce(sum(r.price), 0) from reward_redemptions r where r.student_sourced_id = ${studentId}
            and r.status in ('pending', 'approved'))::int as open_held
        from reward_ledger l where l.student_sourced_id = ${studentId}`,
  );
  if (!row?.is_student) throw new AppError("not_found", message("rewards:students.notFound"));
  const shown = await readAccount(db, studentId);
  const fromLedger = { balance: row.balance, held: row.held, savings: row.savings };
  return {
    studentId,
    name: row.name ?? studentId,
    shown,
    fromLedger,
    openRequests: { count: row.open_count, held: row.open_held },
    entries: row.entries,
    isBalanced:
      shown.balance === fromLedger.balance &&
      shown.held === fromLedger.held &&
      shown.savings === fromLedger.savings &&
      fromLedger.held === row.open_held,
  };
}
