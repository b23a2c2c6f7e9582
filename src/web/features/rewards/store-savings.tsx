import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { MovementResult, TransferRequest } from "../../../shared/contracts/rewards";
import { failureMessage } from "../../components/ui/dialog";
import { buttonClass, NumberField } from "../../components/ui/form";
import { formatNumber } from "../../lib/format";
import { newIdempotencyKey } from "../../lib/idempotency";
import { QueryError } from "../home/parts";
import { rewardKeys, settingsQuery, transferAlphas } from "./api";
import { DoneNote } from "./store-done-note";

type Direction = "toSavings" | "toSpending";

/** A student moves Alphas to savings (which earn weekly interest) and back. */
export function SavingsPanel({ studentId }: { studentId: string }) {
  const { t } = useTranslation("rewards");
  const queryClient = useQueryClient();
  const settings = useQuery(settingsQuery);
  const [amount, setAmount] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<{ direction: Direction; amount: number; result: MovementResult } | null>(
    null,
  );
  // One key per form fill: a retry of the same move is answered, not made twice.
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);

  const transfer = useMutation({
    mutationFn: (request: TransferRequest) => transferAlphas(studentId, request),
    onSuccess: (result, request) => {
      const direction: Direction = "toSavings" in request ? "toSavings" : "toSpending";
      setDone({ direction, amount: Number(amount), result });
      setAmount("");
      setIdempotencyKey(newIdempotencyKey());
      queryClient.invalidateQueries({ queryKey: rewardKeys.all });
    },
    onError: (error) => setProblem(failureMessage(error, t("emporium.savings.failed"))),
  });

  function move(direction: Direction) {
    if (transfer.isPending) return;
    setProblem(null);
    setDone(null);
    const value = Number(amount);
    if (!Number.isInteger(value) || value < 1) return setProblem(t("emporium.savings.wholeNumber"));
    transfer.mutate(
      direction === "toSavings"
        ? { toSavings: value, idempotencyKey }
        : { toSpending: value, idempotencyKey },
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    move("toSavings");
  }

  return (
    <div>
      {settings.isError ? (
        <QueryError error={settings.error} fallback={t("emporium.savings.rulesFailed")} />
      ) : (
        settings.data && (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {t("emporium.savings.interest", {
              percent: formatNumber(settings.data.savings.weeklyInterestPercent),
              count: settings.data.savings.weeklyInterestCap,
              cap: formatNumber(settings.data.savings.weeklyInterestCap, 0),
            })}
          </p>
        )
      )}
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        <NumberField
          label={t("emporium.savings.amount")}
          min={1}
          step={1}
          inputMode="numeric"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          className="sm:max-w-48"
        />
        <div className="flex flex-wrap gap-3">
          <button type="submit" disabled={transfer.isPending} className={buttonClass("primary")}>
            {t("emporium.savings.toSavings")}
          </button>
          <button
            type="button"
            disabled={transfer.isPending}
            onClick={() => move("toSpending")}
            className={buttonClass("secondary")}
          >
            {t("emporium.savings.toSpending")}
          </button>
        </div>
        {problem && (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
            {problem}
          </p>
        )}
        <div role="status">
          {done && (
            <DoneNote>
              {t(`emporium.savings.moved.${done.direction}`, {
                count: done.amount,
                amount: formatNumber(done.amount, 0),
                available: formatNumber(done.result.account.available, 0),
                savings: formatNumber(done.result.account.savings, 0),
              })}
            </DoneNote>
          )}
        </div>
      </form>
    </div>
  );
}
