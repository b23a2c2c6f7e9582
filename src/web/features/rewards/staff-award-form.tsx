import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { MAX_MANUAL_ALPHAS, type MovementResult } from "../../../shared/contracts/rewards";
import { failureMessage } from "../../components/ui/dialog";
import { buttonClass, GainOrLossChoice } from "../../components/ui/form";
import { formatNumber } from "../../lib/format";
import { ApiRequestError } from "../../lib/http";
import { newIdempotencyKey } from "../../lib/idempotency";
import { accountQuery, budgetQuery, grantAlphas, rewardKeys } from "./api";
import type { ChosenStudent } from "./staff-student-balances";

const INPUT_CLASS =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base shadow-sm focus:border-brand-600 aria-invalid:border-red-600 dark:border-slate-700 dark:bg-slate-950 dark:aria-invalid:border-red-400";

type Direction = "award" | "deduct";
type Field = "amount" | "reason";

interface Problem {
  /** The field to fix, if it is one. */
  field?: Field;
  /** What went wrong, when the server said no for a reason worth a heading. */
  title?: string;
  text: string;
}

interface Outcome {
  name: string;
  amount: number;
  account: MovementResult["account"];
}

/**
 * Awards Alphas to a student, or deducts them, with a reason the student and family see. A
 * Guide's awards count against their weekly budget (`hasBudget`); deductions never do.
 */
export function StaffAwardForm({ student, hasBudget }: { student: ChosenStudent; hasBudget: boolean }) {
  const { t } = useTranslation("rewards");
  const queryClient = useQueryClient();
  const [direction, setDirection] = useState<Direction>("award");
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  // One key per form fill: a retry after a failure sends the same one, a success renews it.
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const fields = { amount: useRef<HTMLInputElement>(null), reason: useRef<HTMLTextAreaElement>(null) };
  const ids = { amount: useId(), amountHint: useId(), reason: useId(), reasonHint: useId() };
  const account = useQuery(accountQuery(student.studentId));
  const budget = useQuery({ ...budgetQuery, enabled: hasBudget });

  const grant = useMutation({
    mutationFn: grantAlphas,
    onSuccess: (result, input) => {
      setOutcome({ name: student.name, amount: input.amount ?? 0, account: result.account });
      setIdempotencyKey(newIdempotencyKey());
      setAmount("");
      setReason("");
      queryClient.invalidateQueries({ queryKey: rewardKeys.all });
    },
    onError: (error) => fail(refusalOf(error)),
  });

  function refusalOf(error: Error): Problem {
    const text = failureMessage(error, t("awards.form.failed"));
    const code = error instanceof ApiRequestError ? error.code : "";
    if (code === "limit_reached") return { field: "amount", title: t("awards.form.refused.budget"), text };
    if (code === "insufficient_balance")
      return { field: "amount", title: t("awards.form.refused.balance"), text };
    return { text };
  }

  function fail(next: Problem) {
    setProblem(next);
    if (next.field) fields[next.field].current?.focus();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (grant.isPending) return;
    setProblem(null);
    setOutcome(null);
    const value = Number(amount);
    if (!Number.isInteger(value) || value < 1 || value > MAX_MANUAL_ALPHAS || amount.trim() === "")
      return fail({
        field: "amount",
        text: t("awards.form.problems.amount", { max: formatNumber(MAX_MANUAL_ALPHAS, 0) }),
      });
    if (reason.trim().length < 3) return fail({ field: "reason", text: t("awards.form.problems.reason") });
    grant.mutate({
      studentId: student.studentId,
      kind: "award",
      amount: direction === "deduct" ? -value : value,
      reason: reason.trim(),
      idempotencyKey,
    });
  }

  const amountHint =
    direction === "deduct"
      ? account.data &&
        t("awards.form.deductHint", {
          name: student.name,
          available: formatNumber(account.data.available, 0),
        })
      : hasBudget && budget.data
        ? t("awards.form.budgetHint", { remaining: formatNumber(budget.data.remaining, 0) })
        : t("awards.form.amountHint", { max: formatNumber(MAX_MANUAL_ALPHAS, 0) });
  const invalid = (field: Field) => (problem?.field === field ? true : undefined);

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <GainOrLossChoice
        legend={t("awards.form.direction")}
        name="direction"
        value={direction}
        onChange={(value) => {
          setDirection(value);
          setProblem(null);
        }}
        options={(["award", "deduct"] as const).map((value) => ({
          value,
          label: t(`awards.form.directions.${value}.label`),
          hint: t(`awards.form.directions.${value}.hint`),
          adds: value === "award",
        }))}
      />
      <div>
        <label htmlFor={ids.amount} className="text-sm font-medium">
          {t("awards.form.amount")}
        </label>
        <input
          ref={fields.amount}
          id={ids.amount}
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_MANUAL_ALPHAS}
          step={1}
          required
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          aria-invalid={invalid("amount")}
          aria-describedby={ids.amountHint}
          className={`${INPUT_CLASS} h-11 tabular-nums sm:max-w-48`}
        />
        <p id={ids.amountHint} className="mt-1 text-xs text-slate-600 dark:text-slate-300">
          {amountHint}
        </p>
      </div>
      <div>
        <label htmlFor={ids.reason} className="text-sm font-medium">
          {t("awards.form.reason")}
        </label>
        <textarea
          ref={fields.reason}
          id={ids.reason}
          required
          minLength={3}
          maxLength={500}
          rows={3}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          placeholder={t(`awards.form.reasonPlaceholder.${direction}`)}
          aria-invalid={invalid("reason")}
          aria-describedby={ids.reasonHint}
          className={INPUT_CLASS}
        />
        <p id={ids.reasonHint} className="mt-1 text-xs text-slate-600 dark:text-slate-300">
          {t("awards.form.reasonHint", { name: student.name })}
        </p>
      </div>
      {problem && (
        <div
          role="alert"
          className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {problem.title && <p className="font-semibold">{problem.title}</p>}
          <p>{problem.text}</p>
        </div>
      )}
      <div role="status">
        {outcome && (
          <p className="rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100">
            {t("awards.form.done", {
              direction: outcome.amount < 0 ? "deduct" : "award",
              amount: formatNumber(Math.abs(outcome.amount), 0),
              count: Math.abs(outcome.amount),
              name: outcome.name,
            })}{" "}
            {t("awards.form.newBalance", {
              balance: formatNumber(outcome.account.balance, 0),
              available: formatNumber(outcome.account.available, 0),
            })}
          </p>
        )}
      </div>
      <button type="submit" disabled={grant.isPending} className={buttonClass("primary", "w-full sm:w-auto")}>
        {grant.isPending
          ? t("awards.form.saving")
          : t(`awards.form.submit.${direction}`, { name: student.name })}
      </button>
    </form>
  );
}
