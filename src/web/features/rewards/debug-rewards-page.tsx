import { useQuery } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { CircleCheck, CircleX } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { Reconciliation } from "../../../shared/contracts/rewards";
import type { searchSchemas } from "../../../shared/routes";
import { PageHeader } from "../../components/page-header";
import { TableRegion } from "../../components/ui/table-region";
import { formatNumber } from "../../lib/format";
import { Loading, QueryError, Section } from "../home/parts";
import { StudentChoice } from "./admin-student-choice";
import { reconciliationQuery } from "./api";
import { StudentLedger } from "./parts";

type OneStudentSearch = z.infer<(typeof searchSchemas)["oneStudent"]>;

/** One student's shown Alphas checked against the ledger, and the ledger itself. */
export function DebugRewardsPage() {
  const { t } = useTranslation("rewards");
  const { studentId } = useSearch({ strict: false }) as OneStudentSearch;
  const navigate = useNavigate();
  const reconciliation = useQuery({ ...reconciliationQuery(studentId ?? ""), enabled: Boolean(studentId) });

  return (
    <div className="space-y-6">
      <PageHeader
        title={t("common:pages./app/debug/rewards.title")}
        description={t("debug.reconcile.description")}
      />
      <Section title={t("debug.reconcile.studentTitle")}>
        <StudentChoice
          studentId={studentId}
          knownName={reconciliation.data?.name}
          onChange={(next) =>
            void navigate({ to: "/app/debug/rewards", search: { studentId: next } as never })
          }
        />
      </Section>
      {studentId && (
        <>
          <Section
            title={t("debug.reconcile.checkTitle")}
            description={t("debug.reconcile.checkDescription")}
          >
            {reconciliation.isPending ? (
              <Loading label={t("debug.reconcile.loading")} />
            ) : reconciliation.isError ? (
              <QueryError
                error={reconciliation.error}
                fallback={t("debug.reconcile.loadFailed")}
                onRetry={() => reconciliation.refetch()}
              />
            ) : (
              <ReconciliationView reconciliation={reconciliation.data} />
            )}
          </Section>
          <Section title={t("debug.reconcile.ledgerTitle")}>
            <StudentLedger studentId={studentId} />
          </Section>
        </>
      )}
    </div>
  );
}

function ReconciliationView({ reconciliation }: { reconciliation: Reconciliation }) {
  const { t } = useTranslation("rewards");
  const { shown, fromLedger, openRequests } = reconciliation;
  const rows = [
    { key: "balance", shown: shown.balance, expected: fromLedger.balance },
    { key: "held", shown: shown.held, expected: fromLedger.held },
    { key: "savings", shown: shown.savings, expected: fromLedger.savings },
    // What the ledger holds must be what the open requests ask.
    { key: "openHolds", shown: fromLedger.held, expected: openRequests.held },
  ] as const;
  const Icon = reconciliation.isBalanced ? CircleCheck : CircleX;
  return (
    <div className="space-y-4">
      <p
        role="status"
        className={`flex items-center gap-2 rounded-lg border px-3 py-2 font-semibold ${
          reconciliation.isBalanced
            ? "border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100"
            : "border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
        }`}
      >
        <Icon aria-hidden="true" className="size-5 shrink-0" />
        {reconciliation.isBalanced
          ? t("debug.reconcile.balanced", { name: reconciliation.name })
          : t("debug.reconcile.outOfBalance", { name: reconciliation.name })}
      </p>
      <TableRegion label={t("debug.reconcile.tableCaption")}>
        <table className="w-full min-w-[30rem] text-left text-sm">
          <caption className="sr-only">{t("debug.reconcile.tableCaption")}</caption>
          <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
            <tr>
              <th scope="col" className="px-3 py-2 font-semibold">
                {t("debug.reconcile.figure")}
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                {t("debug.reconcile.shown")}
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                {t("debug.reconcile.expected")}
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                {t("debug.reconcile.difference")}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 tabular-nums dark:divide-slate-800">
            {rows.map((row) => {
              const difference = row.shown - row.expected;
              return (
                <tr key={row.key}>
                  <th scope="row" className="px-3 py-2 font-medium">
                    {t(`debug.reconcile.rows.${row.key}`)}
                  </th>
                  <td className="px-3 py-2 text-right">{formatNumber(row.shown, 0)}</td>
                  <td className="px-3 py-2 text-right">{formatNumber(row.expected, 0)}</td>
                  <td
                    className={`px-3 py-2 text-right font-semibold ${
                      difference === 0
                        ? "text-emerald-800 dark:text-emerald-200"
                        : "text-red-700 dark:text-red-300"
                    }`}
                  >
                    {difference === 0
                      ? t("debug.reconcile.none")
                      : `${difference > 0 ? "+" : ""}${formatNumber(difference, 0)}`}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableRegion>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {t("debug.reconcile.counts", { entries: reconciliation.entries, requests: openRequests.count })}
      </p>
    </div>
  );
}
