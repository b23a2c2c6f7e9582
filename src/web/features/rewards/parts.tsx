import { useQuery } from "@tanstack/react-query";
import { Coins, Hourglass, PiggyBank, Wallet } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { LedgerEntry, RedemptionStatus, RewardAccount } from "../../../shared/contracts/rewards";
import { Pager } from "../../components/ui/pager";
import { TableRegion } from "../../components/ui/table-region";
import { formatNumber, instantLabel } from "../../lib/format";
import { EmptyState, Loading, QueryError } from "../home/parts";
import { accountQuery, ledgerQuery } from "./api";

/** Pieces every rewards page shares: amounts, request states, an account's figures, a ledger. */

/** "1,250 Alphas" (or "+30" / "−50" with `signed`), in the shown language. */
export function AlphaAmount({
  value,
  signed = false,
  className = "",
}: {
  value: number;
  signed?: boolean;
  className?: string;
}) {
  const { t } = useTranslation("rewards");
  const text = signed && value > 0 ? `+${formatNumber(value, 0)}` : formatNumber(value, 0);
  return <span className={`tabular-nums ${className}`}>{t("alphas", { count: value, amount: text })}</span>;
}

const STATUS_STYLES: Record<RedemptionStatus, string> = {
  pending: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100",
  approved: "bg-sky-100 text-sky-900 dark:bg-sky-900/40 dark:text-sky-100",
  fulfilled: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100",
  rejected: "bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-100",
  cancelled: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100",
  expired: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100",
};

/** A request's state as a labelled badge. */
export function StatusBadge({ status }: { status: RedemptionStatus }) {
  const { t } = useTranslation("rewards");
  return (
    <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_STYLES[status]}`}>
      {t(`status.${status}`)}
    </span>
  );
}

/** An account's four figures as tiles: what can be spent, what waits on requests, the total, savings. */
export function AccountFigures({ account }: { account: RewardAccount }) {
  const { t } = useTranslation("rewards");
  const tiles = [
    {
      key: "available",
      icon: Wallet,
      value: account.available,
      tone: "text-emerald-700 dark:text-emerald-300",
    },
    { key: "held", icon: Hourglass, value: account.held, tone: "text-amber-700 dark:text-amber-300" },
    { key: "balance", icon: Coins, value: account.balance, tone: "text-slate-900 dark:text-slate-50" },
    { key: "savings", icon: PiggyBank, value: account.savings, tone: "text-sky-700 dark:text-sky-300" },
  ] as const;
  return (
    <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      {tiles.map(({ key, icon: Icon, value, tone }) => (
        <div
          key={key}
          className="min-w-0 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
        >
          <dt className="flex items-center gap-2 text-sm font-medium text-slate-600 dark:text-slate-300">
            <Icon aria-hidden="true" className="size-4 shrink-0" />
            {t(`account.${key}`)}
          </dt>
          <dd className={`mt-1 text-2xl font-extrabold tabular-nums ${tone}`}>{formatNumber(value, 0)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A student's account, loaded: its figures, or why they could not be shown. */
export function StudentAccount({ studentId }: { studentId: string }) {
  const { t } = useTranslation("rewards");
  const account = useQuery(accountQuery(studentId));
  if (account.isPending) return <Loading label={t("account.loading")} rows={1} />;
  if (account.isError)
    return (
      <QueryError
        error={account.error}
        fallback={t("account.loadFailed")}
        onRetry={() => account.refetch()}
      />
    );
  return <AccountFigures account={account.data} />;
}

const PAGE_SIZE = 20;

/** A student's ledger, newest first, a page at a time. */
export function StudentLedger({ studentId }: { studentId: string }) {
  const { t } = useTranslation("rewards");
  const [offset, setOffset] = useState(0);
  const ledger = useQuery(ledgerQuery(studentId, offset, PAGE_SIZE));
  if (ledger.isPending) return <Loading label={t("ledger.loading")} />;
  if (ledger.isError)
    return (
      <QueryError error={ledger.error} fallback={t("ledger.loadFailed")} onRetry={() => ledger.refetch()} />
    );
  if (ledger.data.total === 0)
    return (
      <EmptyState icon={Coins} title={t("ledger.empty.title")}>
        {t("ledger.empty.body")}
      </EmptyState>
    );
  return (
    <>
      <LedgerTable entries={ledger.data.data} />
      <Pager
        offset={offset}
        limit={PAGE_SIZE}
        total={ledger.data.total}
        onChange={setOffset}
        label={t("ledger.pagerLabel")}
      />
    </>
  );
}

/** Ledger entries as a table: when, what, how many Alphas and why. */
export function LedgerTable({
  entries,
  showStudent = false,
  actions,
}: {
  entries: LedgerEntry[];
  showStudent?: boolean;
  /** A last column per entry (an administrator's Reverse button). */
  actions?: (entry: LedgerEntry) => React.ReactNode;
}) {
  const { t } = useTranslation("rewards");
  return (
    <TableRegion label={t("ledger.caption")}>
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="sr-only">{t("ledger.caption")}</caption>
        <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold">
              {t("ledger.when")}
            </th>
            {showStudent && (
              <th scope="col" className="px-3 py-2 font-semibold">
                {t("ledger.student")}
              </th>
            )}
            <th scope="col" className="px-3 py-2 font-semibold">
              {t("ledger.what")}
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              {t("ledger.amount")}
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              {t("ledger.by")}
            </th>
            {actions && (
              <th scope="col" className="px-3 py-2 font-semibold">
                <span className="sr-only">{t("ledger.actions")}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td className="px-3 py-2.5 whitespace-nowrap text-slate-600 dark:text-slate-300">
                {instantLabel(entry.createdAt)}
              </td>
              {showStudent && <td className="px-3 py-2.5 font-medium">{entry.student?.name}</td>}
              <td className="px-3 py-2.5">
                <span className="font-medium">{t(`kind.${entry.kind}`)}</span>
                {entry.account === "savings" && (
                  <span className="ml-1 text-slate-600 dark:text-slate-300">({t("account.savings")})</span>
                )}
                {entry.reason && (
                  <span className="block text-slate-600 dark:text-slate-300">{entry.reason}</span>
                )}
                {entry.reversedByEntryId !== null && (
                  <span className="block text-xs font-semibold text-red-700 dark:text-red-300">
                    {t("ledger.reversedBy", { id: entry.reversedByEntryId })}
                  </span>
                )}
              </td>
              <td className={`px-3 py-2.5 text-right font-semibold whitespace-nowrap ${entryTone(entry)}`}>
                {entry.kind === "hold" || entry.kind === "release" ? (
                  <span>{t("ledger.heldAmount", { amount: formatNumber(Math.abs(entry.amount), 0) })}</span>
                ) : (
                  <AlphaAmount value={entry.amount} signed />
                )}
              </td>
              <td className="px-3 py-2.5 text-slate-600 dark:text-slate-300">
                {entry.actor?.name ?? t("ledger.dash")}
              </td>
              {actions && <td className="px-3 py-2.5">{actions(entry)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

function entryTone(entry: LedgerEntry): string {
  if (entry.kind === "hold" || entry.kind === "release") return "text-slate-600 dark:text-slate-300";
  return entry.amount >= 0 ? "text-emerald-700 dark:text-emerald-300" : "text-red-700 dark:text-red-300";
}
