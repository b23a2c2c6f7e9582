import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { buttonClass } from "../../components/ui/form";
import { dayLabel, formatExactXp, formatXp } from "../../lib/format";
import { i18next } from "../../lib/i18n";
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

/** A student's XP entries, newest first, each with its reason and who gave manual ones. */
export function XpHistoryList({ studentId, headingId }: { studentId: string; headingId?: string }) {
  const { t } = useTranslation("xp");
  const [limit, setLimit] = useState(PAGE);
  const history = useQuery({ ...xpHistoryQuery(studentId, limit), placeholderData: keepPreviousData });

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
              <p className="break-words">{entry.reason}</p>
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
      {entries.length >= limit && (
        <button
          type="button"
          onClick={() => setLimit(limit + PAGE)}
          disabled={history.isFetching}
          className={buttonClass("secondary", "mt-3")}
        >
          {history.isFetching ? t("loading") : t("history.showMore")}
        </button>
      )}
    </>
  );
}
