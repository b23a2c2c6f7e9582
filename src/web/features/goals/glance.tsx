import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Suspense } from "react";
import { useTranslation } from "react-i18next";
import type { StudentGoals } from "../../../shared/contracts/goals";
import { formatXp } from "../../lib/format";
import { Loading, Section } from "../home/parts";
import { studentGoalsQuery } from "./api";
import { forecastText, goalTitle, nearestTarget, toneOf } from "./describe";
import { ProgressBar, StatusBadge } from "./parts";

/**
 * Goals at a glance on a home: this week's XP goal as a bar and the nearest goal with a date with
 * its forecast. A student's home shows it as a section; a family's child card as a box. It keeps
 * out of the way: a grey block while it loads, nothing at all when it cannot load.
 */
export function GoalsGlance({ studentId, variant }: { studentId: string; variant: "student" | "card" }) {
  // The goals' words load on their own, without holding up the rest of the home.
  return (
    <Suspense fallback={<Placeholder variant={variant} />}>
      <Glance studentId={studentId} variant={variant} />
    </Suspense>
  );
}

function Placeholder({ variant }: { variant: "student" | "card" }) {
  return (
    <div
      aria-hidden="true"
      className={`motion-safe:animate-pulse rounded-2xl bg-slate-100 dark:bg-slate-800 ${variant === "card" ? "mt-3 h-20" : "h-40"}`}
    />
  );
}

function Glance({ studentId, variant }: { studentId: string; variant: "student" | "card" }) {
  const { t } = useTranslation("goals");
  const goals = useQuery(studentGoalsQuery(studentId));
  if (goals.isError) return null;
  const body = goals.data ? (
    <GlanceBody data={goals.data} variant={variant} />
  ) : (
    <Loading label={t("glance.loading")} rows={variant === "card" ? 1 : 2} />
  );
  if (variant === "card")
    return <div className="mt-3 rounded-xl bg-slate-50 p-3 dark:bg-slate-800">{body}</div>;
  return (
    <Section
      title={t("glance.title")}
      description={t("glance.description")}
      actions={
        <Link
          to="/app/goals"
          className="inline-flex items-center gap-1 rounded-lg border border-brand-600 px-3 py-1.5 text-sm font-semibold text-brand-700 hover:bg-brand-50 dark:border-brand-500 dark:text-brand-100 dark:hover:bg-slate-800"
        >
          {t("glance.all")} <span aria-hidden="true">→</span>
        </Link>
      }
    >
      {body}
    </Section>
  );
}

function GlanceBody({ data, variant }: { data: StudentGoals; variant: "student" | "card" }) {
  const { t } = useTranslation("goals");
  const { weekly } = data;
  const figures = t("glance.figures", { value: formatXp(weekly.value), target: formatXp(weekly.target) });
  const next = nearestTarget(data.targets);
  const reader = variant === "student" ? "self" : "other";
  const isCard = variant === "card";
  return (
    <div className={isCard ? "space-y-3" : "grid gap-5 sm:grid-cols-2"}>
      <div className="min-w-0">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 text-sm">
          <span
            className={isCard ? "text-xs font-medium text-slate-600 dark:text-slate-300" : "font-semibold"}
          >
            {t("glance.weekly")}
          </span>
          <span className="font-semibold tabular-nums">{figures}</span>
        </div>
        <div className="mt-1.5">
          <ProgressBar
            label={t("glance.weekly")}
            valueNow={Math.floor(weekly.value)}
            valueMax={weekly.target}
            valueText={figures}
            share={weekly.target > 0 ? weekly.value / weekly.target : 0}
            tone={toneOf(weekly.forecast.status)}
            size={isCard ? "sm" : "md"}
          />
        </div>
      </div>
      <div className="min-w-0">
        <p
          className={
            isCard ? "text-xs font-medium text-slate-600 dark:text-slate-300" : "text-sm font-semibold"
          }
        >
          {t("glance.next")}
        </p>
        {next ? (
          <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1">
            <span className={`min-w-0 break-words ${isCard ? "text-sm" : "text-sm font-medium"}`}>
              {goalTitle(next, data.today, t)}
            </span>
            <StatusBadge status={next.forecast.status} />
            {!isCard && (
              <span className="w-full text-sm text-slate-600 dark:text-slate-300">
                {forecastText(next, reader, t)}
              </span>
            )}
          </div>
        ) : (
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("glance.noTarget")}</p>
        )}
      </div>
    </div>
  );
}
