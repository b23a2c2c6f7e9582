import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Card, PageHeader } from "../../components/page-header";
import { buttonClass, GainOrLossChoice } from "../../components/ui/form";
import { newIdempotencyKey } from "../../lib/idempotency";
import { homeKeys } from "../home/keys";
import { awardXp } from "./api";
import { HeldForReview } from "./held-events";
import { xpKeys } from "./keys";
import { type PickedStudent, SELECT_CLASS, StudentPicker } from "./student-picker";
import { XpHistoryList, xpAmount } from "./xp-history";

export const SUBJECTS = ["Math", "Reading", "Language", "Science"] as const;

const INPUT_CLASS =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base shadow-sm focus:border-brand-600 dark:border-slate-700 dark:bg-slate-950";

interface Confirmation {
  studentName: string;
  amount: number;
  subject: string;
  isReplay: boolean;
}

export function ManualXpPage() {
  const { t } = useTranslation("xp");
  const queryClient = useQueryClient();
  const [student, setStudent] = useState<PickedStudent | null>(null);
  const [direction, setDirection] = useState<"award" | "deduct">("award");
  const [amount, setAmount] = useState("");
  const [subject, setSubject] = useState("");
  const [reason, setReason] = useState("");
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { amount: useId(), subject: useId(), reason: useId(), amountHint: useId(), history: useId() };

  const award = useMutation({
    mutationFn: awardXp,
    onSuccess: (result, input) => {
      setConfirmation({
        studentName: student?.name ?? t("manual.theStudent"),
        amount: input.amount,
        subject: input.subject,
        isReplay: result.isReplay,
      });
      // The next award is a new form fill with its own key.
      setIdempotencyKey(newIdempotencyKey());
      setAmount("");
      setReason("");
      // The award shows wherever the student's XP does: histories, days, homes and heatmaps.
      queryClient.invalidateQueries({ queryKey: xpKeys.all });
      queryClient.invalidateQueries({ queryKey: homeKeys.all });
    },
    onError: (error) => setProblem(error.message),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (award.isPending) return;
    setProblem(null);
    setConfirmation(null);
    const value = Number(amount);
    if (!student) return setProblem(t("manual.problems.student"));
    if (!Number.isFinite(value) || value <= 0) return setProblem(t("manual.problems.amount"));
    if (!subject) return setProblem(t("manual.problems.subject"));
    if (reason.trim().length < 3) return setProblem(t("manual.problems.reason"));
    award.mutate({
      studentId: student.sourcedId,
      amount: direction === "deduct" ? -value : value,
      subject,
      reason: reason.trim(),
      idempotencyKey,
    });
  }

  const chooseStudent = (next: PickedStudent | null) => {
    setStudent(next);
    setConfirmation(null);
    setProblem(null);
  };

  return (
    <div>
      <PageHeader title={t("common:pages./app/xp/manual.title")} description={t("manual.description")} />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <Card>
          <h2 className="text-lg font-bold">{t("manual.newEntry")}</h2>
          <form onSubmit={submit} noValidate className="mt-4 space-y-5">
            <StudentPicker selected={student} onSelect={chooseStudent} wide />
            <GainOrLossChoice
              legend={t("manual.direction")}
              name="direction"
              value={direction}
              onChange={setDirection}
              options={(["award", "deduct"] as const).map((value) => ({
                value,
                label: t(`manual.directions.${value}.label`),
                hint: t(`manual.directions.${value}.hint`),
                adds: value === "award",
              }))}
            />
            <div className="grid gap-4 sm:grid-cols-2">
              <div>
                <label htmlFor={ids.amount} className="text-sm font-medium">
                  {t("manual.amount")}
                </label>
                <input
                  id={ids.amount}
                  type="number"
                  inputMode="decimal"
                  min={0.01}
                  max={500}
                  step={0.01}
                  required
                  value={amount}
                  onChange={(event) => setAmount(event.target.value)}
                  aria-describedby={ids.amountHint}
                  className={`${INPUT_CLASS} h-11`}
                />
                <p id={ids.amountHint} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
                  {t("manual.amountHint")}
                </p>
              </div>
              <div>
                <label htmlFor={ids.subject} className="text-sm font-medium">
                  {t("manual.subject")}
                </label>
                <select
                  id={ids.subject}
                  required
                  value={subject}
                  onChange={(event) => setSubject(event.target.value)}
                  className={SELECT_CLASS}
                >
                  <option value="">{t("manual.chooseSubject")}</option>
                  {SUBJECTS.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
              </div>
            </div>
            <div>
              <label htmlFor={ids.reason} className="text-sm font-medium">
                {t("manual.reason")}
              </label>
              <textarea
                id={ids.reason}
                required
                minLength={3}
                maxLength={500}
                rows={3}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                placeholder={t("manual.reasonPlaceholder")}
                className={INPUT_CLASS}
              />
            </div>
            {problem && (
              <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
                {problem}
              </p>
            )}
            <div aria-live="polite">
              {confirmation && (
                <p className="rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100">
                  {confirmation.isReplay
                    ? t("manual.replay", { name: confirmation.studentName })
                    : t("manual.confirmation", {
                        direction: confirmation.amount < 0 ? "deduct" : "award",
                        amount: xpAmount(Math.abs(confirmation.amount), { exact: true }),
                        subject: confirmation.subject,
                        name: confirmation.studentName,
                      })}
                </p>
              )}
            </div>
            <button
              type="submit"
              disabled={award.isPending}
              className={buttonClass("primary", "w-full sm:w-auto")}
            >
              {award.isPending ? t("manual.saving") : t(`manual.submit.${direction}`)}
            </button>
          </form>
        </Card>
        <Card>
          <h2 id={ids.history} className="text-lg font-bold">
            {student ? t("manual.recentOf", { name: student.name }) : t("manual.recent")}
          </h2>
          {student ? (
            <XpHistoryList studentId={student.sourcedId} headingId={ids.history} />
          ) : (
            <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">{t("manual.chooseForRecent")}</p>
          )}
        </Card>
      </div>
      <HeldForReview />
    </div>
  );
}
