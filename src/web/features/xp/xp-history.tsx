import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { XpHistoryEntry } from "../../../shared/contracts/activity";
import { Pager } from "../../components/ui/pager";
import { dayLabel, formatExactXp, formatPercent, formatXp } from "../../lib/format";
import { i18next } from "../../lib/i18n";
import { useAuth } from "../auth/use-auth";
import { xpHistoryQuery } from "./api";

const PAGE = 20;

/**
 * `+5 XP`, `−2 XP`: whole for students and families; `exact` (`−2.5 XP`) on the staff pages that
 * explain how XP was computed.
 */
export function xpAmount(amount: number, { signed = false, exact = false } = {}): string {
  const value = (exact ? formatExactXp : formatXp)(Math.abs(amount));
  const sign = amount < 0 ? "−" : signed && amount > 0 ? "+" : "";
  return i18next.t("xp:amount", { amount: `${sign}${value}` });
}

export function amountClass(amount: number): string {
  if (amount < 0) return "text-red-700 dark:text-red-300";
  if (amount > 0) return "text-emerald-700 dark:text-emerald-300";
  return "text-slate-600 dark:text-slate-300";
}

/**
 * What an entry from learning means, in a sentence a child reads ("Great job: 16 XP for Contractions
 * on your first try, with 87% right."), where staff read the rule's arithmetic.
 */
export function xpSentence(entry: XpHistoryEntry, t: TFunction<"xp">): string {
  const activity = entry.activity;
  if (entry.source !== "activity" || !activity) return entry.reason;
  const values = {
    xp: xpAmount(entry.amount),
    activity: activity.name ?? t("history.sentence.thisActivity"),
    attempt: activity.attempt,
    accuracy: formatPercent(
      activity.totalQuestions ? activity.correctQuestions / activity.totalQuestions : 0,
    ),
  };
  const isRetry = activity.attempt > 1;
  const isPerfect = activity.correctQuestions === activity.totalQuestions;
  const sentence =
    activity.totalQuestions === 0
      ? t("history.sentence.noQuestions", values)
      : entry.amount <= 0 && activity.correctQuestions < activity.totalQuestions
        ? t("history.sentence.notYet", values)
        : t(`history.sentence.${isPerfect ? "perfect" : "passed"}${isRetry ? "Retry" : "First"}`, values);
  const tips = [
    activity.wasteSeconds > 0 && entry.amount > 0 ? t("history.sentence.focusTip") : null,
    activity.antiPatternSeconds > 0 ? t("history.sentence.rushed") : null,
  ];
  return [sentence, ...tips].filter(Boolean).join(" ");
}

/** A student's XP entries, newest first, each with its reason and who gave manual ones. */
export function XpHistoryList({ studentId, headingId }: { studentId: string; headingId?: string }) {
  const { t } = useTranslation("xp");
  const { activeRole } = useAuth();
  // Students (and those viewing as one) read sentences; staff read how each figure was computed.
  const inSentences = activeRole === "student";
  const [offset, setOffset] = useState(0);
  const history = useQuery({ ...xpHistoryQuery(studentId, PAGE, offset), placeholderData: keepPreviousData });

  if (history.isError)
    return (
      <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
        {t("history.loadFailed", { message: history.error.message })}
      </p>
    );
  if (history.isPending)
    return <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">{t("loading")}</p>;
  const entries = history.data.data;
  if (entries.length === 0)
    return <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">{t("history.empty")}</p>;
  return (
    <>
      <ul aria-labelledby={headingId} className="mt-3 divide-y divide-slate-100 dark:divide-slate-800">
        {entries.map((entry) => (
          <li key={entry.id} className="flex items-start gap-3 py-3">
            <span
              className={`w-20 shrink-0 text-right font-semibold tabular-nums ${amountClass(entry.amount)}`}
            >
              {xpAmount(entry.amount, { signed: true })}
            </span>
            <div className="min-w-0 flex-1">
              <p className="break-words">{inSentences ? xpSentence(entry, t) : entry.reason}</p>
              <p className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">
                {[
                  entry.subject,
                  dayLabel(entry.localDate),
                  entry.source === "manual"
                    ? entry.actorName
                      ? t("history.byActor", { name: entry.actorName })
                      : t("history.byStaff")
                    : t("history.fromActivity"),
                ].join(" · ")}
              </p>
            </div>
          </li>
        ))}
      </ul>
      <Pager
        offset={offset}
        limit={PAGE}
        total={history.data.total}
        onChange={setOffset}
        label={t("history.pagerLabel")}
      />
    </>
  );
}
