import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { PulseResponse, PulseReward } from "../../../shared/contracts/families";
import { failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { dateLabel, formatNumber, instantDateLabel } from "../../lib/format";
import { ApiRequestError } from "../../lib/http";
import { Loading } from "../home/parts";
import { bonusesQuery, grantAlphas, rewardKeys, settingsQuery } from "../rewards/api";
import { DoneNote } from "../rewards/store-done-note";
import { pulseKeys } from "./pulse-api";

type Kind = PulseReward["kind"];

/**
 * The week's bonus or debit in one click, through the rewards grant API with the week's own
 * idempotency key: a second click (or a second tab) gives nothing more, and the school's amounts
 * and yearly limit apply. What was given shows in its place.
 */
export function PulseWeeklyReward({ pulse }: { pulse: PulseResponse }) {
  const { t } = useTranslation("families");
  const queryClient = useQueryClient();
  const childId = pulse.child.sourcedId;
  const name = pulse.child.givenName;
  const settings = useQuery(settingsQuery);
  const bonuses = useQuery(bonusesQuery(childId));
  const grant = useMutation({
    mutationFn: (kind: Kind) =>
      grantAlphas({
        studentId: childId,
        kind,
        reason: t(`pulse.reward.reason.${kind}`, { week: dateLabel(pulse.week) }),
        idempotencyKey: pulse.rewardKey,
      }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: pulseKeys.all });
      void queryClient.invalidateQueries({ queryKey: rewardKeys.all });
    },
  });

  if (pulse.reward) return <Given reward={pulse.reward} name={name} />;
  if (settings.isPending) return <Loading label={t("pulse.reward.loading")} rows={1} />;
  if (settings.isError)
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-300">
        {failureMessage(settings.error, t("pulse.reward.loadFailed"))}
      </p>
    );
  const { weeklyBonus, weeklyDebit, bonusesPerSchoolYear } = settings.data.parents;
  // Shown at once; the pulse read again says the same.
  if (grant.isSuccess) {
    const kind = grant.variables;
    const amount = kind === "parent_bonus" ? weeklyBonus : weeklyDebit;
    return <Given reward={{ kind, amount, at: new Date().toISOString() }} name={name} />;
  }
  const remaining = bonuses.data?.remaining;
  const problem = grant.isError
    ? grant.error instanceof ApiRequestError && grant.error.code === "limit_reached"
      ? t("pulse.reward.limitReached", { name, count: bonusesPerSchoolYear })
      : failureMessage(grant.error, t("pulse.reward.failed"))
    : null;
  const give = (kind: Kind) => {
    // A click while the first is on its way is the same click.
    if (!grant.isPending) grant.mutate(kind);
  };
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {t("pulse.reward.rules", {
          name,
          bonus: formatNumber(weeklyBonus, 0),
          debit: formatNumber(weeklyDebit, 0),
        })}{" "}
        {remaining !== undefined && (
          <span className="font-semibold text-slate-800 dark:text-slate-100">
            {t("pulse.reward.left", { count: remaining })}
          </span>
        )}
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <button
          type="button"
          onClick={() => give("parent_bonus")}
          disabled={grant.isPending || remaining === 0}
          className={buttonClass("primary", "w-full sm:w-auto")}
        >
          {t("pulse.reward.bonus", { amount: formatNumber(weeklyBonus, 0) })}
        </button>
        <button
          type="button"
          onClick={() => give("parent_debit")}
          disabled={grant.isPending}
          className={buttonClass("secondary", "w-full sm:w-auto")}
        >
          {t("pulse.reward.debit", { amount: formatNumber(weeklyDebit, 0) })}
        </button>
      </div>
      <div role="status" className="text-sm">
        {grant.isPending && t("pulse.reward.saving")}
      </div>
      {problem && (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
          {problem}
        </p>
      )}
    </div>
  );
}

function Given({ reward, name }: { reward: PulseReward; name: string }) {
  const { t } = useTranslation("families");
  return (
    <div role="status">
      <DoneNote>
        {t(`pulse.reward.given.${reward.kind}`, {
          name,
          amount: formatNumber(reward.amount, 0),
          date: instantDateLabel(reward.at),
        })}
      </DoneNote>
    </div>
  );
}
