import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { MovementResult, RewardSettings } from "../../../shared/contracts/rewards";
import { failureMessage } from "../../components/ui/dialog";
import { buttonClass, GainOrLossChoice } from "../../components/ui/form";
import { formatNumber } from "../../lib/format";
import { ApiRequestError } from "../../lib/http";
import { newIdempotencyKey } from "../../lib/idempotency";
import { Loading, QueryError } from "../home/parts";
import { bonusesQuery, grantAlphas, rewardKeys, settingsQuery } from "./api";
import type { Child } from "./family-requests";
import { DoneNote } from "./store-done-note";

type Kind = "parent_bonus" | "parent_debit";
const KINDS: readonly Kind[] = ["parent_bonus", "parent_debit"];

const INPUT_CLASS =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base shadow-sm focus:border-brand-600 dark:border-slate-700 dark:bg-slate-950";

/** The school's fixed amounts: a bonus adds, a debit takes away. */
const amountOf = (kind: Kind, settings: RewardSettings) =>
  kind === "parent_bonus" ? settings.parents.weeklyBonus : settings.parents.weeklyDebit;

/** A family's weekly bonus or debit, with the note the child will read. */
export function BonusForm({ child }: { child: Child }) {
  const { t } = useTranslation("rewards");
  const settings = useQuery(settingsQuery);
  if (settings.isPending) return <Loading label={t("family.bonus.loading")} rows={2} />;
  if (settings.isError)
    return (
      <QueryError
        error={settings.error}
        fallback={t("family.bonus.loadFailed")}
        onRetry={() => settings.refetch()}
      />
    );
  return <BonusFields child={child} settings={settings.data} />;
}

function BonusFields({ child, settings }: { child: Child; settings: RewardSettings }) {
  const { t } = useTranslation("rewards");
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<Kind>("parent_bonus");
  const [note, setNote] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<{ kind: Kind; result: MovementResult } | null>(null);
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const ids = { note: useId(), hint: useId() };
  const bonuses = useQuery(bonusesQuery(child.sourcedId));

  const grant = useMutation({
    mutationFn: grantAlphas,
    onSuccess: (result, request) => {
      setDone({ kind: request.kind as Kind, result });
      setNote("");
      setIdempotencyKey(newIdempotencyKey());
      queryClient.invalidateQueries({ queryKey: rewardKeys.all });
    },
    onError: (error) =>
      setProblem(
        error instanceof ApiRequestError && error.code === "limit_reached"
          ? t("family.bonus.limitReached", {
              name: child.givenName,
              count: settings.parents.bonusesPerSchoolYear,
            })
          : failureMessage(error, t("family.bonus.failed")),
      ),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (grant.isPending) return;
    setProblem(null);
    setDone(null);
    if (note.trim().length < 3) return setProblem(t("family.bonus.noteRequired"));
    // No amount: the school's rule sets it.
    grant.mutate({ studentId: child.sourcedId, kind, reason: note.trim(), idempotencyKey });
  }

  const amount = (value: Kind) => formatNumber(amountOf(value, settings), 0);
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {t("family.bonus.rules", {
          bonus: amount("parent_bonus"),
          debit: amount("parent_debit"),
          count: settings.parents.bonusesPerSchoolYear,
        })}{" "}
        {bonuses.data && (
          <span className="font-semibold text-slate-800 dark:text-slate-100">
            {t("family.bonus.left", { remaining: bonuses.data.remaining, name: child.givenName })}
          </span>
        )}
      </p>
      <GainOrLossChoice
        legend={t("family.bonus.which")}
        name={`grant-kind-${child.sourcedId}`}
        value={kind}
        onChange={setKind}
        options={KINDS.map((value) => ({
          value,
          label: t(`family.bonus.kinds.${value}`, { amount: amount(value) }),
          adds: value === "parent_bonus",
        }))}
      />
      <div>
        <label htmlFor={ids.note} className="text-sm font-medium">
          {t("family.bonus.note")}
        </label>
        <textarea
          id={ids.note}
          required
          minLength={3}
          maxLength={500}
          rows={2}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          aria-describedby={ids.hint}
          className={INPUT_CLASS}
        />
        <p id={ids.hint} className="mt-1 text-xs text-slate-600 dark:text-slate-300">
          {t("family.bonus.noteHint", { name: child.givenName })}
        </p>
      </div>
      {problem && (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
          {problem}
        </p>
      )}
      <div role="status">
        {done && (
          <DoneNote>
            {t(`family.bonus.done.${done.kind}`, {
              name: child.givenName,
              amount: amount(done.kind),
              available: formatNumber(done.result.account.available, 0),
            })}
          </DoneNote>
        )}
      </div>
      <button type="submit" disabled={grant.isPending} className={buttonClass("primary", "w-full sm:w-auto")}>
        {grant.isPending
          ? t("family.bonus.saving")
          : t(`family.bonus.submit.${kind}`, { amount: amount(kind), name: child.givenName })}
      </button>
    </form>
  );
}
