import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Check } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { BountyRunResult } from "../../../shared/contracts/rewards";
import { addDays, localDateOf } from "../../../shared/time-zone";
import { PageHeader } from "../../components/page-header";
import { ConfirmDialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { TableRegion } from "../../components/ui/table-region";
import { dateLabel } from "../../lib/format";
import { i18next } from "../../lib/i18n";
import { Section } from "../home/parts";
import { ADMIN_INPUT_CLASS, SuccessNote } from "./admin-form";
import { rewardKeys, runBounty } from "./api";
import { AlphaAmount } from "./parts";

type Award = BountyRunResult["awards"][number];

const today = () => localDateOf(new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone);

/** Runs the earning rules over a period: first to see who would get what, then to pay what is due. */
export function BountyPage() {
  const { t } = useTranslation("rewards");
  const queryClient = useQueryClient();
  const ids = { from: useId(), to: useId() };
  const [period, setPeriod] = useState(() => ({ from: addDays(today(), -6), to: today() }));
  const [result, setResult] = useState<BountyRunResult | null>(null);
  const [isConfirming, setIsConfirming] = useState(false);

  const preview = useMutation({
    mutationFn: () => runBounty({ ...period, dryRun: true }),
    onSuccess: setResult,
  });

  async function pay() {
    const paid = await runBounty({ ...period, dryRun: false });
    setResult(paid);
    void queryClient.invalidateQueries({ queryKey: rewardKeys.all });
  }

  function choose(field: "from" | "to", value: string) {
    setPeriod({ ...period, [field]: value });
    // What was shown was for the other period.
    setResult(null);
    preview.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (period.from && period.to) preview.mutate();
  }

  return (
    <div className="space-y-6">
      <PageHeader
        title={t("common:pages./app/admin/test-bounty-payout.title")}
        description={t("bounty.description")}
      />
      <Section title={t("bounty.period.title")} description={t("bounty.period.description")}>
        <form onSubmit={submit} noValidate className="flex flex-wrap items-end gap-4">
          <div>
            <label htmlFor={ids.from} className="text-sm font-medium">
              {t("bounty.period.from")}
            </label>
            <input
              id={ids.from}
              type="date"
              required
              value={period.from}
              max={period.to}
              onChange={(event) => choose("from", event.target.value)}
              className={`${ADMIN_INPUT_CLASS} h-11`}
            />
          </div>
          <div>
            <label htmlFor={ids.to} className="text-sm font-medium">
              {t("bounty.period.to")}
            </label>
            <input
              id={ids.to}
              type="date"
              required
              value={period.to}
              min={period.from}
              onChange={(event) => choose("to", event.target.value)}
              className={`${ADMIN_INPUT_CLASS} h-11`}
            />
          </div>
          <button
            type="submit"
            disabled={preview.isPending || !period.from || !period.to}
            className={buttonClass("primary", "h-11")}
          >
            {preview.isPending ? t("bounty.period.checking") : t("bounty.period.check")}
          </button>
        </form>
        {preview.isError && (
          <p role="alert" className="mt-3 text-sm font-medium text-red-700 dark:text-red-300">
            {failureMessage(preview.error, t("bounty.failed"))}
          </p>
        )}
      </Section>

      <p role="status" className="sr-only">
        {result && summaryOf(result)}
      </p>
      {result && <BountyResult result={result} onPay={() => setIsConfirming(true)} />}

      {isConfirming && result && (
        <ConfirmDialog
          title={t("bounty.confirm.title")}
          message={t("bounty.confirm.message", {
            count: result.due,
            from: dateLabel(result.from),
            to: dateLabel(result.to),
          })}
          confirmLabel={t("bounty.pay", { count: result.due })}
          onConfirm={pay}
          onClose={() => setIsConfirming(false)}
        />
      )}
    </div>
  );
}

/** What an award is for: a day, a week (named by its first day) or one activity. */
function periodText(award: Award): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(award.period)) return i18next.t("rewards:bounty.table.oneActivity");
  const isWeek = award.ruleKey === "weekly_goal" || award.ruleKey === "interest";
  return isWeek
    ? i18next.t("rewards:bounty.table.weekOf", { date: dateLabel(award.period) })
    : dateLabel(award.period);
}

/** A run's outcome in one sentence: what was paid, or what is due. */
function summaryOf(result: BountyRunResult): string {
  if (!result.dryRun) return i18next.t("rewards:bounty.result.paid", { count: result.paid });
  if (result.due === 0) return i18next.t("rewards:bounty.result.nothingDue");
  const due = result.awards.filter((award) => !award.alreadyPaid);
  return i18next.t("rewards:bounty.result.due", {
    count: result.due,
    awards: due.length,
    students: new Set(due.map((award) => award.studentId)).size,
  });
}

function BountyResult({ result, onPay }: { result: BountyRunResult; onPay: () => void }) {
  const { t } = useTranslation("rewards");
  const range = { from: dateLabel(result.from), to: dateLabel(result.to) };
  const isDue = result.dryRun && result.due > 0;
  return (
    <Section
      title={result.dryRun ? t("bounty.result.previewTitle", range) : t("bounty.result.paidTitle", range)}
      description={t("bounty.result.safe")}
    >
      {isDue ? (
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 dark:border-amber-800 dark:bg-amber-950">
          <p className="text-sm text-amber-950 dark:text-amber-100">{summaryOf(result)}</p>
          <button type="button" onClick={onPay} className={buttonClass("primary")}>
            {t("bounty.pay", { count: result.due })}
          </button>
        </div>
      ) : (
        <SuccessNote className="mb-4">{summaryOf(result)}</SuccessNote>
      )}
      {result.awards.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">{t("bounty.result.none")}</p>
      ) : (
        <>
          <RuleTotals awards={result.awards} />
          <AwardsTable awards={result.awards} />
        </>
      )}
    </Section>
  );
}

/** Each rule's awards in the period: how many, how many Alphas, how many of them still due. */
function RuleTotals({ awards }: { awards: Award[] }) {
  const { t } = useTranslation("rewards");
  const rules = new Map<
    string,
    { ruleKey: string; name: string; count: number; amount: number; due: number }
  >();
  for (const award of awards) {
    const total = rules.get(award.ruleKey) ?? {
      ruleKey: award.ruleKey,
      name: award.rule,
      count: 0,
      amount: 0,
      due: 0,
    };
    total.count += 1;
    total.amount += award.amount;
    if (!award.alreadyPaid) total.due += award.amount;
    rules.set(award.ruleKey, total);
  }
  return (
    <ul className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
      {[...rules.values()].map((total) => (
        <li
          key={total.ruleKey}
          className="rounded-xl border border-slate-200 p-3 text-sm dark:border-slate-800"
        >
          <p className="font-semibold">{total.name}</p>
          <p className="mt-1 text-slate-600 dark:text-slate-300">
            {t("bounty.totals.awards", { count: total.count })} · <AlphaAmount value={total.amount} />
          </p>
          <p className="text-slate-600 dark:text-slate-300">{t("bounty.totals.due", { count: total.due })}</p>
        </li>
      ))}
    </ul>
  );
}

function AwardsTable({ awards }: { awards: Award[] }) {
  const { t } = useTranslation("rewards");
  return (
    <TableRegion label={t("bounty.table.caption")} maxHeight="max-h-[36rem]">
      <table className="w-full min-w-[40rem] text-left text-sm">
        <caption className="sr-only">{t("bounty.table.caption")}</caption>
        <thead className="sticky top-0 z-20 border-b border-slate-200 bg-white text-xs tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:bg-slate-900 dark:text-slate-300">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold">
              {t("bounty.table.student")}
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              {t("bounty.table.rule")}
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              {t("bounty.table.period")}
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              {t("bounty.table.amount")}
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              {t("bounty.table.paid")}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {awards.map((award) => (
            <tr key={`${award.studentId}|${award.ruleKey}|${award.period}`}>
              <td className="px-3 py-2 font-medium">{award.name}</td>
              <td className="px-3 py-2">{award.reason}</td>
              <td className="px-3 py-2 whitespace-nowrap">{periodText(award)}</td>
              <td className="px-3 py-2 text-right font-semibold whitespace-nowrap">
                <AlphaAmount value={award.amount} />
              </td>
              <td className="px-3 py-2 whitespace-nowrap">
                {award.alreadyPaid ? (
                  <span className="inline-flex items-center gap-1 text-emerald-800 dark:text-emerald-200">
                    <Check aria-hidden="true" className="size-4" />
                    {t("bounty.table.yes")}
                  </span>
                ) : (
                  <span className="font-semibold text-amber-800 dark:text-amber-200">
                    {t("bounty.table.no")}
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
