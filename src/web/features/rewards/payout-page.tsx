import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { HandCoins } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { MovementResult, RewardSettings } from "../../../shared/contracts/rewards";
import { PageHeader } from "../../components/page-header";
import { ConfirmDialog } from "../../components/ui/dialog";
import { buttonClass, NumberField, TextField } from "../../components/ui/form";
import { formatNumber, shownLocale } from "../../lib/format";
import { newIdempotencyKey } from "../../lib/idempotency";
import { childrenQuery } from "../auth/api";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { ledgerQuery, recordPayout, rewardKeys, settingsQuery } from "./api";
import { LedgerTable, StudentAccount } from "./parts";
import { DoneNote } from "./store-done-note";

/** How far back to look for payouts among the child's latest movements. */
const RECENT_MOVEMENTS = 100;

/** "$2.50" in the school's currency, in the shown language. */
function money(amount: number, currency: string): string {
  return new Intl.NumberFormat(shownLocale(), { style: "currency", currency }).format(amount);
}

/** Alphas' worth at the school's rate, rounded to the cent as the server records it. */
const worthOf = (alphas: number, payout: RewardSettings["payout"]) =>
  Math.round((alphas / payout.alphasPerUnit) * 100) / 100;

/** A parent turns some of a child's Alphas into a real-world reward and records it. */
export function PayoutPage() {
  const { t } = useTranslation("rewards");
  const { childId } = useParams({ strict: false }) as { childId: string };
  const children = useQuery(childrenQuery);
  const child = children.data?.data.find((entry) => entry.sourcedId === childId);
  // Until the family's list arrives (or if it leaves this child out) the page still works, unnamed.
  const name = child?.givenName ?? t("payout.theChild");
  const settings = useQuery(settingsQuery);

  return (
    <div>
      <PageHeader
        title={t("common:pages./app/child/$childId/payout.title")}
        description={t("payout.description", { name })}
        actions={
          <Link
            to="/app/parent-emporium"
            search={{ childId }}
            className="text-sm font-semibold text-brand-700 underline hover:text-brand-900 dark:text-brand-100"
          >
            {t("payout.back")}
          </Link>
        }
      />
      <div className="space-y-6">
        <Section title={t("payout.account", { name })}>
          <StudentAccount studentId={childId} />
        </Section>
        <Section title={t("payout.form.title")}>
          {settings.isPending && <Loading label={t("payout.rulesLoading")} rows={2} />}
          {settings.isError && (
            <QueryError
              error={settings.error}
              fallback={t("payout.rulesFailed")}
              onRetry={() => settings.refetch()}
            />
          )}
          {settings.data && <PayoutForm childId={childId} name={name} payout={settings.data.payout} />}
        </Section>
        <Section title={t("payout.recent.title")} description={t("payout.recent.description", { name })}>
          <RecentPayouts childId={childId} name={name} />
        </Section>
      </div>
    </div>
  );
}

function PayoutForm({
  childId,
  name,
  payout,
}: {
  childId: string;
  name: string;
  payout: RewardSettings["payout"];
}) {
  const { t } = useTranslation("rewards");
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState("");
  const [reward, setReward] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [isConfirming, setIsConfirming] = useState(false);
  const [recorded, setRecorded] = useState<{ amount: number; reward: string; result: MovementResult } | null>(
    null,
  );
  // One key per form fill, kept across retries; a new one once the payout is recorded.
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);

  const alphas = Number(amount);
  const isWhole = Number.isInteger(alphas) && alphas >= 1;
  const worth = isWhole ? money(worthOf(alphas, payout), payout.currency) : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    setRecorded(null);
    if (!isWhole) return setProblem(t("payout.problems.amount"));
    if (reward.trim().length < 3) return setProblem(t("payout.problems.reward", { name }));
    setIsConfirming(true);
  }

  async function record() {
    const result = await recordPayout(childId, { amount: alphas, reward: reward.trim(), idempotencyKey });
    setRecorded({ amount: alphas, reward: reward.trim(), result });
    setAmount("");
    setReward("");
    setIdempotencyKey(newIdempotencyKey());
    void queryClient.invalidateQueries({ queryKey: rewardKeys.all });
  }

  return (
    <>
      <form onSubmit={submit} noValidate className="space-y-4">
        <p className="text-sm text-slate-600 dark:text-slate-300">
          {t("payout.rate", {
            count: payout.alphasPerUnit,
            alphas: formatNumber(payout.alphasPerUnit, 0),
            money: money(1, payout.currency),
          })}
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <NumberField
            label={t("payout.form.amount")}
            min={1}
            step={1}
            inputMode="numeric"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
          />
          <TextField
            label={t("payout.form.reward", { name })}
            placeholder={t("payout.form.rewardPlaceholder")}
            maxLength={500}
            value={reward}
            onChange={(event) => setReward(event.target.value)}
          />
        </div>
        <p aria-live="polite" className="text-base font-semibold">
          {worth ? t("payout.worth", { money: worth }) : t("payout.worthEmpty")}
        </p>
        {problem && (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
            {problem}
          </p>
        )}
        <div role="status">
          {recorded && (
            <DoneNote>
              {t("payout.done", {
                name,
                count: recorded.amount,
                amount: formatNumber(recorded.amount, 0),
                reward: recorded.reward,
                money: recorded.result.worth
                  ? money(recorded.result.worth.amount, recorded.result.worth.currency)
                  : "",
                available: formatNumber(recorded.result.account.available, 0),
              })}
            </DoneNote>
          )}
        </div>
        <button type="submit" className={buttonClass("primary", "w-full sm:w-auto")}>
          {t("payout.form.submit")}
        </button>
      </form>
      {isConfirming && (
        <ConfirmDialog
          tone="primary"
          title={t("payout.confirm.title")}
          message={t("payout.confirm.message", {
            name,
            count: alphas,
            amount: formatNumber(alphas, 0),
            reward: reward.trim(),
            money: worth ?? "",
          })}
          confirmLabel={t("payout.confirm.button")}
          onConfirm={record}
          onClose={() => setIsConfirming(false)}
        />
      )}
    </>
  );
}

/** The child's payouts among their latest movements. */
function RecentPayouts({ childId, name }: { childId: string; name: string }) {
  const { t } = useTranslation("rewards");
  const ledger = useQuery(ledgerQuery(childId, 0, RECENT_MOVEMENTS));
  if (ledger.isPending) return <Loading label={t("payout.recent.loading")} rows={2} />;
  if (ledger.isError)
    return (
      <QueryError
        error={ledger.error}
        fallback={t("payout.recent.loadFailed")}
        onRetry={() => ledger.refetch()}
      />
    );
  const payouts = ledger.data.data.filter((entry) => entry.kind === "payout");
  if (payouts.length === 0)
    return (
      <EmptyState icon={HandCoins} title={t("payout.recent.empty.title")}>
        {t("payout.recent.empty.body", { name })}
      </EmptyState>
    );
  return <LedgerTable entries={payouts} />;
}
