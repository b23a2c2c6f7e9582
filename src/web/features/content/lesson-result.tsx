import { Link } from "@tanstack/react-router";
import type { TFunction } from "i18next";
import { Award, Check, CircleDashed, Clock, Minus, X } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import type {
  AttemptItemResult,
  AttemptResult,
  LessonAttemptSummary,
} from "../../../shared/contracts/content";
import { buttonClass } from "../../components/ui/form";
import { formatNumber, formatXp, instantLabel } from "../../lib/format";
import { resultSentences, xpHint } from "./lesson-sentences";

/**
 * A finished attempt: the score in a sentence a child reads, mastery, the XP and why, and each
 * question right or not; then the student's tries.
 */

export function ResultPanel({
  result,
  canTryAgain,
  onTryAgain,
  isStarting,
  moveFocus,
}: {
  result: AttemptResult;
  canTryAgain: boolean;
  onTryAgain: () => void;
  isStarting: boolean;
  /** Right after the finish, focus moves to the result so it is read out. */
  moveFocus: boolean;
}) {
  const { t } = useTranslation("content");
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const { attempt } = result;
  const xp = attempt.xp;
  const hint = xpHint(result, t);

  useEffect(() => {
    if (moveFocus) heading.current?.focus();
  }, [moveFocus]);

  return (
    <section
      aria-labelledby={headingId}
      data-testid="lesson-result"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id={headingId} ref={heading} tabIndex={-1} className="text-xl font-bold focus:outline-none">
        {t("lessons.attempt.result.title", { number: attempt.number })}
      </h2>
      <div className="mt-4 grid gap-4 md:grid-cols-[1fr_auto] md:items-start">
        <div className="space-y-2">
          <p data-testid="lesson-result-sentence" className="text-lg leading-relaxed">
            {resultSentences(result, t).join(" ")}
          </p>
          {hint && <p className="text-slate-700 dark:text-slate-200">{hint}</p>}
        </div>
        <XpBadge result={result} />
      </div>

      {xp?.explanation && (
        <details className="mt-4 rounded-lg border border-slate-200 p-3 dark:border-slate-700">
          <summary className="cursor-pointer font-medium">{t("lessons.attempt.xp.how")}</summary>
          <p className="mt-2 font-mono text-sm break-words text-slate-800 dark:text-slate-100">
            {xp.explanation}
          </p>
        </details>
      )}

      <ItemReview items={result.items} />

      <div className="mt-6 flex flex-wrap gap-3">
        {canTryAgain && (
          <button type="button" className={buttonClass("primary")} onClick={onTryAgain} disabled={isStarting}>
            {isStarting ? t("lessons.take.start.starting") : t("lessons.attempt.tryAgain")}
          </button>
        )}
        <Link to="/app/xp-stats" className={buttonClass("secondary")}>
          {t("lessons.attempt.seeXp")}
        </Link>
      </div>
    </section>
  );
}

function XpBadge({ result }: { result: AttemptResult }) {
  const { t } = useTranslation("content");
  const xp = result.attempt.xp;
  const isHeld = xp?.status === "held";
  return (
    <div
      className={`flex items-center gap-3 rounded-xl px-4 py-3 ${
        isHeld
          ? "bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-100"
          : "bg-brand-50 text-brand-900 dark:bg-brand-900 dark:text-brand-100"
      }`}
    >
      {isHeld ? (
        <Clock aria-hidden="true" className="size-8 shrink-0" />
      ) : (
        <Award aria-hidden="true" className="size-8 shrink-0" />
      )}
      <div>
        <p className="text-sm font-medium">
          {isHeld ? t("lessons.attempt.xp.heldLabel") : t("lessons.attempt.xp.label")}
        </p>
        <p data-testid="lesson-result-xp" className="text-2xl font-extrabold tabular-nums">
          {t("lessons.attempt.xp.amount", {
            xp: formatXp(xp?.status === "credited" || isHeld ? (xp?.xp ?? 0) : 0),
          })}
        </p>
      </div>
    </div>
  );
}

function ItemReview({ items }: { items: AttemptItemResult[] }) {
  const { t } = useTranslation("content");
  const headingId = useId();
  if (items.length === 0) return null;
  return (
    <div className="mt-6">
      <h3 id={headingId} className="font-bold">
        {t("lessons.attempt.review.title")}
      </h3>
      <ol aria-labelledby={headingId} className="mt-2 divide-y divide-slate-100 dark:divide-slate-800">
        {items.map((item, index) => {
          const { icon: Icon, tone, label } = reviewOf(item, t);
          return (
            <li key={`${item.resourceId}:${item.itemIdentifier}`} className="flex items-start gap-3 py-2.5">
              <span className={`mt-0.5 rounded-full p-1 ${tone}`}>
                <Icon aria-hidden="true" className="size-4" />
              </span>
              <div className="min-w-0">
                <p className="font-medium break-words">
                  {t("lessons.take.steps.question", { number: index + 1 })}
                  <span className="font-normal text-slate-600 dark:text-slate-300"> · {item.title}</span>
                </p>
                <p className="text-sm text-slate-700 dark:text-slate-200">{label}</p>
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

function reviewOf(item: AttemptItemResult, t: TFunction<"content">) {
  const good = "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200";
  const bad = "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200";
  const neutral = "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200";
  if (!item.scored)
    return {
      icon: CircleDashed,
      tone: neutral,
      label: t(item.answered ? "lessons.attempt.review.unscored" : "lessons.attempt.review.unanswered"),
    };
  if (!item.answered) return { icon: Minus, tone: bad, label: t("lessons.attempt.review.unanswered") };
  if (item.correct) return { icon: Check, tone: good, label: t("lessons.attempt.review.right") };
  if (item.score > 0)
    return {
      icon: X,
      tone: bad,
      label: t("lessons.attempt.review.partly", {
        score: formatNumber(item.score),
        max: formatNumber(item.maxScore),
      }),
    };
  return { icon: X, tone: bad, label: t("lessons.attempt.review.wrong") };
}

/** The student's tries, newest first, each with a way to see its results. */
export function AttemptHistory({
  attempts,
  shownAttemptId,
  onShow,
}: {
  attempts: LessonAttemptSummary[];
  shownAttemptId: string | null;
  onShow: (attemptId: string) => void;
}) {
  const { t } = useTranslation("content");
  const headingId = useId();
  const finished = attempts.filter((attempt) => attempt.finishedAt);
  if (finished.length === 0) return null;
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id={headingId} className="text-lg font-bold">
        {t("lessons.attempt.history.title")}
      </h2>
      <ol className="mt-3 divide-y divide-slate-100 dark:divide-slate-800" data-testid="lesson-history">
        {finished.map((attempt) => (
          <li key={attempt.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3">
            <div className="min-w-0">
              <p className="font-semibold">
                {t("lessons.attempt.history.try", { number: attempt.number })}
                {attempt.mastered && (
                  <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200">
                    {t("lessons.take.mastered")}
                  </span>
                )}
              </p>
              <p className="text-sm text-slate-600 dark:text-slate-300">
                {[
                  instantLabel(attempt.finishedAt as string),
                  attempt.totalItems > 0
                    ? t("lessons.attempt.history.right", {
                        correct: attempt.correctItems,
                        total: attempt.totalItems,
                        score: formatNumber(attempt.scorePercent ?? 0, 0),
                      })
                    : null,
                  historyXp(attempt, t),
                ]
                  .filter(Boolean)
                  .join(" · ")}
              </p>
            </div>
            {attempt.id === shownAttemptId ? (
              <span className="text-sm text-slate-600 dark:text-slate-300">
                {t("lessons.attempt.history.shown")}
              </span>
            ) : (
              <button
                type="button"
                className={buttonClass("secondary", "px-3 py-1.5")}
                onClick={() => onShow(attempt.id)}
              >
                {t("lessons.attempt.history.show", { number: attempt.number })}
              </button>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

function historyXp(attempt: LessonAttemptSummary, t: TFunction<"content">): string {
  switch (attempt.xp?.status) {
    case "credited":
      return t("lessons.attempt.xp.amount", { xp: formatXp(attempt.xp.xp) });
    case "held":
      return t("lessons.attempt.history.held");
    default:
      return t("lessons.attempt.history.noXp");
  }
}
