import type { TFunction } from "i18next";
import { AlertTriangle, Check, CircleDashed, Star } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { LearningStatus } from "../../../shared/contracts/content";
import { addDays } from "../../../shared/time-zone";
import { dateLabel, formatNumber } from "../../lib/format";

/**
 * The parts that show progress the same way on every page: a stacked bar of mastered, completed,
 * started and not started; a badge for a student's status; when something is due.
 */

export interface StepCounts {
  notStarted: number;
  inProgress: number;
  /** The mastered ones included. */
  completed: number;
  mastered: number;
}

const SEGMENTS = [
  { key: "mastered", className: "bg-emerald-700 dark:bg-emerald-400" },
  { key: "completed", className: "bg-emerald-300 dark:bg-emerald-700" },
  { key: "inProgress", className: "bg-amber-400 dark:bg-amber-500" },
  { key: "notStarted", className: "bg-slate-200 dark:bg-slate-700" },
] as const;

/** Each step's share of the whole: completed here leaves out the mastered ones, so the parts add up. */
function stepsOf(counts: StepCounts) {
  return {
    mastered: counts.mastered,
    completed: Math.max(0, counts.completed - counts.mastered),
    inProgress: counts.inProgress,
    notStarted: counts.notStarted,
  };
}

/**
 * One bar split into mastered, completed, started and not started, for students or lessons
 * (`unit`). Screen readers hear the figures; the legend names the colours.
 */
export function ProgressStack({
  counts,
  unit,
  label,
  size = "md",
}: {
  counts: StepCounts;
  unit: "students" | "lessons";
  /** What the bar is about ("Math · Patel group"). */
  label: string;
  size?: "sm" | "md";
}) {
  const { t } = useTranslation("content");
  const steps = stepsOf(counts);
  const total = steps.mastered + steps.completed + steps.inProgress + steps.notStarted;
  const summary = t(`lessons.progress.stack.${unit}`, {
    label,
    total,
    mastered: counts.mastered,
    completed: counts.completed,
    inProgress: counts.inProgress,
    notStarted: counts.notStarted,
  });
  return (
    <div
      role="img"
      aria-label={summary}
      title={summary}
      className={`flex w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700 ${size === "sm" ? "h-2.5" : "h-4"}`}
    >
      {total > 0 &&
        SEGMENTS.map(({ key, className }) =>
          steps[key] > 0 ? (
            <span key={key} className={className} style={{ width: `${(100 * steps[key]) / total}%` }} />
          ) : null,
        )}
    </div>
  );
}

/** What the colours of the bars mean. */
export function ProgressLegend() {
  const { t } = useTranslation("content");
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-300">
      {SEGMENTS.map(({ key, className }) => (
        <li key={key} className="flex items-center gap-1.5">
          <span aria-hidden="true" className={`size-3 rounded-sm ${className}`} />
          {t(`lessons.progress.legend.${key}`)}
        </li>
      ))}
    </ul>
  );
}

const STATUS_LOOKS: Record<LearningStatus, { icon: typeof Check; className: string }> = {
  not_started: {
    icon: CircleDashed,
    className: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200",
  },
  in_progress: {
    icon: CircleDashed,
    className: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100",
  },
  completed: {
    icon: Check,
    className: "bg-emerald-50 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-100",
  },
  mastered: {
    icon: Star,
    className: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-50",
  },
};

const BADGE =
  "inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap";

/** A student's status in a lesson or an assignment, in a child's words. */
export function StatusBadge({ status }: { status: LearningStatus }) {
  const { t } = useTranslation("content");
  const { icon: Icon, className } = STATUS_LOOKS[status];
  return (
    <span className={`${BADGE} ${className}`}>
      <Icon aria-hidden="true" className="size-3.5" />
      {t(`lessons.progress.status.${status}`)}
    </span>
  );
}

/** Past its due date and not done. */
export function OverdueBadge() {
  const { t } = useTranslation("content");
  return (
    <span className={`${BADGE} bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200`}>
      <AlertTriangle aria-hidden="true" className="size-3.5" />
      {t("lessons.assignments.overdue")}
    </span>
  );
}

/** "Due today", "Due tomorrow", "Due Nov 3, 2025", "Was due Nov 3, 2025" or "No due date". */
export function dueText(
  t: TFunction<"content">,
  dueDate: string | null,
  today: string | null,
  isOverdue: boolean,
): string {
  if (!dueDate) return t("lessons.assignments.due.none");
  if (isOverdue) return t("lessons.assignments.due.was", { date: dateLabel(dueDate) });
  if (today && dueDate === today) return t("lessons.assignments.due.today");
  if (today && dueDate === addDays(today, 1)) return t("lessons.assignments.due.tomorrow");
  return t("lessons.assignments.due.on", { date: dateLabel(dueDate) });
}

/** "3 of 8 lessons done" under a course or an assignment. */
export function LessonsDone({ done, total }: { done: number; total: number }) {
  const { t } = useTranslation("content");
  return (
    <span className="tabular-nums">
      {t("lessons.progress.lessonsDone", { done: formatNumber(done, 0), total })}
    </span>
  );
}
