import { AlertTriangle, Check, CircleDashed, Clock, SearchX, TrendingUp, X } from "lucide-react";
import { type ReactNode, useId } from "react";
import { useTranslation } from "react-i18next";
import type { ClassStudent, ForecastStatus, Goal, GoalProgress } from "../../../shared/contracts/goals";
import { ProgressRing } from "../../components/charts/progress-ring";
import { buttonClass } from "../../components/ui/form";
import { formatPercent, formatXp } from "../../lib/format";
import {
  amountText,
  deadlineLabel,
  forecastText,
  goalTitle,
  type Reader,
  sourceText,
  type Tone,
  toneOf,
} from "./describe";

const TONE_CLASSES: Record<Tone, string> = {
  good: "bg-emerald-100 text-emerald-900 ring-emerald-600/30 dark:bg-emerald-950 dark:text-emerald-100 dark:ring-emerald-400/40",
  warn: "bg-orange-100 text-orange-900 ring-orange-600/30 dark:bg-orange-950 dark:text-orange-100 dark:ring-orange-400/40",
  neutral:
    "bg-slate-100 text-slate-800 ring-slate-500/30 dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-400/40",
};

const BAR_CLASSES: Record<Tone, string> = {
  good: "bg-emerald-600 dark:bg-emerald-400",
  warn: "bg-orange-500 dark:bg-orange-400",
  neutral: "bg-brand-600 dark:bg-brand-500",
};

const STATUS_ICONS: Record<ForecastStatus, typeof Check> = {
  reached: Check,
  on_track: TrendingUp,
  behind: AlertTriangle,
  no_pace: CircleDashed,
  missed: X,
  awaiting_test: Clock,
};

/** A forecast's status: a coloured pill with an icon and its word, so colour is never the only sign. */
export function StatusBadge({ status }: { status: ForecastStatus }) {
  const { t } = useTranslation("goals");
  const Icon = STATUS_ICONS[status];
  return (
    <span
      className={`inline-flex shrink-0 items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${TONE_CLASSES[toneOf(status)]}`}
    >
      <Icon aria-hidden="true" className="size-3.5" strokeWidth={2.5} />
      {t(`status.${status}`)}
    </span>
  );
}

/** A horizontal bar with its figures read out: `share` is 0–1 of the way. */
export function ProgressBar({
  label,
  valueNow,
  valueMax,
  valueText,
  share,
  tone = "neutral",
  size = "md",
}: {
  label: string;
  valueNow: number;
  valueMax: number;
  valueText: string;
  share: number;
  tone?: Tone;
  size?: "sm" | "md";
}) {
  const width = Math.max(0, Math.min(1, share)) * 100;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={valueMax}
      aria-valuenow={Math.max(0, Math.min(valueNow, valueMax))}
      aria-valuetext={valueText}
      className={`overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700 ${size === "sm" ? "h-2" : "h-3"}`}
    >
      <div
        className={`h-full rounded-full motion-safe:transition-[width] ${BAR_CLASSES[tone]}`}
        style={{ width: `${width}%` }}
      />
    </div>
  );
}

/** The weekly XP goal as a ring: the share reached in the middle, the figures beside it. */
export function WeeklyRing({ weekly }: { weekly: GoalProgress }) {
  const { t } = useTranslation("goals");
  const share = weekly.target > 0 ? Math.min(1, weekly.value / weekly.target) : 0;
  const tone = toneOf(weekly.forecast.status);
  const stroke =
    tone === "good"
      ? "stroke-emerald-600 dark:stroke-emerald-400"
      : tone === "warn"
        ? "stroke-orange-500 dark:stroke-orange-400"
        : "stroke-brand-600 dark:stroke-brand-500";
  const percent = formatPercent(share);
  const values = { value: formatXp(weekly.value), target: formatXp(weekly.target) };
  return (
    <div className="flex flex-wrap items-center gap-5">
      <ProgressRing
        share={share}
        label={t("weekly.label")}
        value={Math.min(Math.floor(weekly.value), weekly.target)}
        max={weekly.target}
        valueText={t("weekly.valueText", { ...values, percent })}
        strokeClass={stroke}
      >
        <span className="text-2xl font-extrabold tabular-nums">{percent}</span>
      </ProgressRing>
      <div className="min-w-0 flex-1 basis-40">
        <p className="text-lg font-bold tabular-nums">{t("weekly.figures", values)}</p>
      </div>
    </div>
  );
}

/** A goal with a date as a card: its title, who set it, its progress and its forecast, and its actions. */
export function GoalCard({
  goal,
  today,
  studentName,
  reader,
  onEdit,
  onRemove,
}: {
  goal: GoalProgress;
  today: string;
  studentName: string | null;
  reader: Reader;
  onEdit?: () => void;
  onRemove?: () => void;
}) {
  const { t } = useTranslation("goals");
  const headingId = useId();
  const title = goalTitle(goal, today, t);
  const source = sourceText(goal, studentName, reader, t);
  const tone = toneOf(goal.forecast.status);
  const figures =
    goal.kind === "rit"
      ? t("targets.ritFigures", { value: goal.value, target: goal.target })
      : t("targets.figures", {
          value: amountText(goal.kind, goal.value, t),
          target: amountText(goal.kind, goal.target, t),
        });
  const percent = formatPercent(goal.percent / 100);
  const daysLeft = goal.forecast.schoolDaysLeft;
  return (
    <article
      aria-labelledby={headingId}
      className="flex h-full min-w-0 flex-col rounded-xl border border-slate-200 p-4 dark:border-slate-700"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 flex-1 basis-48">
          <h3 id={headingId} className="font-bold break-words">
            {title}
          </h3>
          {source && <p className="text-xs text-slate-600 dark:text-slate-300">{source}</p>}
        </div>
        <StatusBadge status={goal.forecast.status} />
      </div>
      <div className="mt-3 flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
        <span className="font-semibold tabular-nums">{figures}</span>
        <span className="tabular-nums text-slate-700 dark:text-slate-200">{percent}</span>
      </div>
      <div className="mt-1.5">
        <ProgressBar
          label={t("targets.progress", { title })}
          valueNow={goal.percent}
          valueMax={100}
          valueText={t("targets.valueText", {
            value: amountText(goal.kind, goal.value, t),
            target: amountText(goal.kind, goal.target, t),
            percent,
          })}
          share={goal.percent / 100}
          tone={tone}
        />
      </div>
      <p className="mt-3 text-sm">{forecastText(goal, reader, t)}</p>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">
        {t("targets.due", { date: deadlineLabel(goal.deadline, today) })}
        {daysLeft !== null && daysLeft > 0 && <> · {t("targets.daysLeft", { count: daysLeft })}</>}
      </p>
      {(onEdit || onRemove) && <GoalActions title={title} onEdit={onEdit} onRemove={onRemove} />}
    </article>
  );
}

/** A class's goal (no one student's progress): its title, who set it, and its actions. */
export function ClassGoalRow({
  goal,
  today,
  onEdit,
  onRemove,
}: {
  goal: Goal;
  today: string;
  onEdit?: () => void;
  onRemove?: () => void;
}) {
  const { t } = useTranslation("goals");
  const title = goalTitle(goal, today, t);
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-200 p-4 dark:border-slate-700">
      <div className="min-w-0 flex-1 basis-52">
        <p className="font-bold break-words">{title}</p>
        <p className="text-xs text-slate-600 dark:text-slate-300">
          {[t(`kinds.${goal.kind}`), goal.setByName && t("source.setBy", { name: goal.setByName })]
            .filter(Boolean)
            .join(" · ")}
        </p>
      </div>
      {(onEdit || onRemove) && <GoalActions title={title} onEdit={onEdit} onRemove={onRemove} compact />}
    </li>
  );
}

function GoalActions({
  title,
  onEdit,
  onRemove,
  compact = false,
}: {
  title: string;
  onEdit?: () => void;
  onRemove?: () => void;
  compact?: boolean;
}) {
  const { t } = useTranslation("goals");
  return (
    <div className={`flex flex-wrap gap-2 ${compact ? "" : "mt-4"}`}>
      {onEdit && (
        <button
          type="button"
          onClick={onEdit}
          aria-label={t("targets.editLabel", { title })}
          className={buttonClass("secondary", "px-3 py-1.5")}
        >
          {t("targets.edit")}
        </button>
      )}
      {onRemove && (
        <button
          type="button"
          onClick={onRemove}
          aria-label={t("targets.removeLabel", { title })}
          className="rounded-lg border border-red-300 px-3 py-1.5 text-sm font-semibold text-red-700 hover:bg-red-50 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950"
        >
          {t("targets.remove")}
        </button>
      )}
    </div>
  );
}

/** A request the server refused (not found, not allowed), said kindly with the server's own words. */
export function RefusalState({
  title,
  error,
  children,
}: {
  title: string;
  error: Error;
  children?: ReactNode;
}) {
  return (
    <div
      role="alert"
      className="rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center dark:border-slate-700 dark:bg-slate-900"
    >
      <SearchX aria-hidden="true" className="mx-auto size-10 text-slate-500 dark:text-slate-400" />
      <p className="mt-3 text-lg font-bold">{title}</p>
      {error.message.trim() && <p className="mt-1 text-slate-700 dark:text-slate-200">{error.message}</p>}
      {children && <div className="mt-2 text-sm text-slate-600 dark:text-slate-300">{children}</div>}
    </div>
  );
}

/** A student's goals with a date by forecast: on track, behind, reached, each a badge with its word. */
export function GoalCounts({ student }: { student: ClassStudent }) {
  const { t } = useTranslation("goals");
  const counts = [
    { key: "goalsOnTrack", count: student.goalsOnTrack, tone: "good" },
    { key: "goalsBehind", count: student.goalsBehind, tone: "warn" },
    { key: "goalsReached", count: student.goalsReached, tone: "good" },
  ] as const;
  const shown = counts.filter((entry) => entry.count > 0);
  if (shown.length === 0)
    return (
      <>
        <span aria-hidden="true" className="text-slate-500 dark:text-slate-400">
          {t("class.none")}
        </span>
        <span className="sr-only">{t("class.noTargetGoals")}</span>
      </>
    );
  return (
    <ul className="flex flex-wrap gap-1">
      {shown.map((entry) => (
        <li
          key={entry.key}
          className={`rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${TONE_CLASSES[entry.tone]}`}
        >
          {t(`class.${entry.key}`, { count: entry.count })}
        </li>
      ))}
    </ul>
  );
}
