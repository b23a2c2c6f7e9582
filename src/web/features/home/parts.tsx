import { BookOpen, Check, Flame, type LucideIcon } from "lucide-react";
import { type ReactNode, useId } from "react";
import { useTranslation } from "react-i18next";
import type { StudentSummary } from "../../../shared/contracts/activity";
import { dayLabel, formatXp, weekdayLabel } from "../../lib/format";
import { ApiRequestError } from "../../lib/http";
import { fullName } from "../auth/auth-state";
import { useAuth } from "../auth/use-auth";

/** The top of every home: a greeting, who is signed in (or viewed as), their roles and organisations. */
export function HomeHero({ children }: { children?: ReactNode }) {
  const { t } = useTranslation("home");
  const { user } = useAuth();
  const organisations = new Map(user.roles.map((entry) => [entry.org.sourcedId, entry.org]));
  const roleNames = [...new Set(user.roles.map((entry) => t(`common:roles.${entry.role}`)))];
  const chip = "rounded-full bg-white/15 px-2.5 py-0.5 text-xs font-semibold text-white";
  return (
    <div
      data-tour="home-welcome"
      className="rounded-2xl bg-gradient-to-r from-brand-700 to-brand-900 p-6 text-white shadow sm:p-8"
    >
      <p className="text-sm font-medium text-brand-100">{t(`hero.greeting.${partOfDay()}`)}</p>
      <h1 id="welcome" className="mt-1 text-2xl font-extrabold tracking-tight sm:text-3xl">
        {fullName(user)}
      </h1>
      {user.email && <p className="mt-1 text-sm break-all text-brand-100">{user.email}</p>}
      <div className="mt-4 flex flex-wrap gap-x-4 gap-y-2">
        {roleNames.length > 0 ? (
          <ul className="flex flex-wrap gap-1.5" aria-label={t("hero.roles")}>
            {roleNames.map((name) => (
              <li key={name} className={chip}>
                {name}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-brand-100">{t("hero.noRole")}</p>
        )}
        {organisations.size > 0 && (
          <ul className="flex flex-wrap gap-1.5" aria-label={t("hero.organisations")}>
            {[...organisations.values()].map((org) => (
              <li key={org.sourcedId} className={`${chip} bg-white/10 font-medium`}>
                {org.name}
              </li>
            ))}
          </ul>
        )}
      </div>
      {children}
    </div>
  );
}

function partOfDay(now = new Date()): "morning" | "afternoon" | "evening" {
  const hour = now.getHours();
  if (hour < 12) return "morning";
  if (hour < 18) return "afternoon";
  return "evening";
}

/** A card section with a heading (h2) and an optional line under it. */
export function Section({
  title,
  description,
  actions,
  children,
  className = "",
  tour,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  /** The name a guided tour's step points at. */
  tour?: string;
}) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      data-tour={tour}
      className={`min-w-0 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900 ${className}`}
    >
      <div className="mb-4 flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div>
          <h2 id={id} className="text-lg font-bold">
            {title}
          </h2>
          {description && <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-300">{description}</p>}
        </div>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** A failed query, in words, with a way to try again. */
export function QueryError({
  error,
  fallback,
  onRetry,
}: {
  error: Error;
  fallback: string;
  onRetry?: () => void;
}) {
  const { t } = useTranslation("home");
  const message = error instanceof ApiRequestError && error.message.trim() ? error.message : fallback;
  return (
    <p
      role="alert"
      className="rounded-lg bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
    >
      {message}
      {onRetry && (
        <>
          {" "}
          <button type="button" onClick={onRetry} className="font-semibold underline">
            {t("tryAgain")}
          </button>
        </>
      )}
    </p>
  );
}

/** Grey blocks where content is on its way. */
export function Loading({ label, rows = 3 }: { label: string; rows?: number }) {
  return (
    <div role="status" aria-live="polite" data-loading className="space-y-3">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, index) => `row-${index}`).map((key) => (
        <div
          key={key}
          aria-hidden="true"
          className="h-8 motion-safe:animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800"
        />
      ))}
    </div>
  );
}

/** A friendly line where a list is empty. */
export function EmptyState({
  icon: Icon,
  title,
  children,
}: {
  icon: LucideIcon;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 p-6 text-center dark:border-slate-700">
      <Icon aria-hidden="true" className="mx-auto size-8 text-slate-500 dark:text-slate-400" />
      <p className="mt-2 font-semibold">{title}</p>
      {children && <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{children}</p>}
    </div>
  );
}

/** Today's XP per subject against its daily goal: a bar, "18 / 30 XP", and a check once met. */
export function SubjectGoals({
  subjects,
  compact = false,
}: {
  subjects: StudentSummary["subjects"];
  compact?: boolean;
}) {
  const { t } = useTranslation("home");
  if (subjects.length === 0) {
    return <p className="text-sm text-slate-600 dark:text-slate-300">{t("goals.none")}</p>;
  }
  return (
    <ul className={compact ? "space-y-2.5" : "space-y-4"} aria-label={t("goals.label")}>
      {subjects.map((entry) => {
        const share = entry.goal > 0 ? Math.min(1, entry.xp / entry.goal) : 1;
        const figures = t("goals.figures", { xp: formatXp(entry.xp), goal: formatXp(entry.goal) });
        return (
          <li key={entry.subject}>
            <div className="flex items-center justify-between gap-3 text-sm">
              <span className="flex items-center gap-1.5 font-semibold">
                {entry.isComplete ? (
                  <span
                    aria-hidden="true"
                    className="flex h-5 w-5 items-center justify-center rounded-full bg-emerald-600 text-xs text-white dark:bg-emerald-500 dark:text-emerald-950"
                  >
                    <Check className="size-3.5" strokeWidth={3} />
                  </span>
                ) : (
                  <span
                    aria-hidden="true"
                    className="h-5 w-5 rounded-full border-2 border-slate-300 dark:border-slate-600"
                  />
                )}
                <span>{entry.subject}</span>
                {entry.isComplete && <span className="sr-only">{t("goals.metSuffix")}</span>}
              </span>
              <span
                className={`tabular-nums ${entry.isComplete ? "font-semibold text-emerald-700 dark:text-emerald-300" : "text-slate-700 dark:text-slate-200"}`}
              >
                {figures}
              </span>
            </div>
            <div
              role="progressbar"
              aria-label={t("goals.subjectGoal", { subject: entry.subject })}
              aria-valuemin={0}
              aria-valuemax={entry.goal}
              aria-valuenow={Math.min(entry.xp, entry.goal)}
              aria-valuetext={entry.isComplete ? t("goals.figuresMet", { figures }) : figures}
              className={`mt-1.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700 ${compact ? "h-2" : "h-3"}`}
            >
              <div
                className={`h-full rounded-full motion-safe:transition-[width] ${entry.isComplete ? "bg-emerald-600 dark:bg-emerald-400" : "bg-brand-600 dark:bg-brand-500"}`}
                style={{ width: `${share * 100}%` }}
              />
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** A flame and "4 school days": consecutive school days with every goal met. */
export function Streak({ days, size = "md" }: { days: number; size?: "md" | "lg" }) {
  const { t } = useTranslation("home");
  const text = days === 0 ? t("streak.none") : t("streak.days", { count: days });
  return (
    <p
      title={t("streak.title")}
      className={`inline-flex items-center gap-1.5 rounded-full bg-amber-100 font-semibold text-amber-900 dark:bg-amber-950 dark:text-amber-100 ${size === "lg" ? "px-4 py-1.5 text-lg" : "px-2.5 py-0.5 text-sm"}`}
    >
      <Flame aria-hidden="true" className={size === "lg" ? "size-5" : "size-4"} />
      <span>
        <span className="sr-only">{t("streak.label")} </span>
        {text}
      </span>
    </p>
  );
}

/** The week Sunday to Saturday: a small bar per day, a mark where every goal was met. */
export function WeekBars({
  week,
  today,
  dailyGoal,
}: {
  week: StudentSummary["week"];
  today: string;
  dailyGoal: number;
}) {
  const { t } = useTranslation("home");
  const top = Math.max(dailyGoal, ...week.map((day) => day.xp), 1);
  return (
    <div>
      <div className="relative">
        {dailyGoal > 0 && (
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-x-0 border-t border-dashed border-slate-400 dark:border-slate-500"
            style={{ bottom: `${32 + (dailyGoal / top) * 104}px` }}
          />
        )}
        <ol aria-label={t("week.label")} className="flex h-34 items-end gap-1.5 sm:gap-2">
          {week.map((day) => {
            const isToday = day.date === today;
            const isFuture = day.date > today;
            const height = (day.xp / top) * 100;
            return (
              <li
                key={day.date}
                aria-label={t("week.day", {
                  day: dayLabel(day.date),
                  xp: formatXp(day.xp),
                  met: String(day.allGoalsMet && day.xp > 0),
                  today: String(isToday),
                })}
                className="flex h-full flex-1 flex-col items-center justify-end"
              >
                <span aria-hidden="true" className="flex h-[104px] w-full items-end justify-center">
                  <span
                    className={`w-full max-w-9 rounded-t-md ${
                      isFuture
                        ? "bg-transparent"
                        : day.allGoalsMet && day.xp > 0
                          ? "bg-emerald-600 dark:bg-emerald-400"
                          : isToday
                            ? "bg-brand-600 dark:bg-brand-500"
                            : "bg-slate-400 dark:bg-slate-500"
                    }`}
                    style={{ height: `${Math.max(day.xp > 0 ? 4 : 2, height)}%` }}
                  />
                </span>
                <span
                  aria-hidden="true"
                  className="flex h-4 items-center text-xs text-emerald-700 dark:text-emerald-300"
                >
                  {day.allGoalsMet && day.xp > 0 && <Check className="size-3.5" strokeWidth={3} />}
                </span>
                <span
                  aria-hidden="true"
                  className={`h-4 text-xs ${isToday ? "font-bold text-slate-900 dark:text-white" : "text-slate-600 dark:text-slate-300"}`}
                >
                  {weekdayLabel(day.date).slice(0, 2)}
                </span>
              </li>
            );
          })}
        </ol>
      </div>
      {week.every((day) => day.xp === 0) && (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{t("week.empty")}</p>
      )}
      <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-300">
        <span className="flex items-center gap-1">
          <span aria-hidden="true" className="h-2.5 w-2.5 rounded-sm bg-emerald-600 dark:bg-emerald-400" />
          {t("week.allMet")}
        </span>
        <span className="flex items-center gap-1">
          <span
            aria-hidden="true"
            className="w-4 border-t border-dashed border-slate-400 dark:border-slate-500"
          />
          {t("week.dailyGoal", { xp: formatXp(dailyGoal) })}
        </span>
      </p>
    </div>
  );
}

/** The sum of a student's daily goals: a full day's XP. */
export function dailyGoalOf(summary: Pick<StudentSummary, "subjects">): number {
  return summary.subjects.reduce((total, entry) => total + entry.goal, 0);
}

/** Subjects whose goal is met today, out of all. */
export function goalsMet(summary: Pick<StudentSummary, "subjects">): { met: number; total: number } {
  return {
    met: summary.subjects.filter((entry) => entry.isComplete).length,
    total: summary.subjects.length,
  };
}

/**
 * A learning app as a card: its icon, name and subjects, then what the page adds (when it last
 * reported, the way to open it).
 */
export function AppCard({
  app,
  children,
}: {
  app: { name: string; icon: string | null; subjects: string[] };
  children: ReactNode;
}) {
  return (
    <li className="flex flex-col rounded-xl border border-slate-200 p-4 dark:border-slate-700">
      <div className="flex items-center gap-3">
        <AppIcon icon={app.icon} />
        <div className="min-w-0">
          <h3 className="font-semibold">{app.name}</h3>
          {app.subjects.length > 0 && (
            <p className="text-xs text-slate-600 dark:text-slate-300">{app.subjects.join(", ")}</p>
          )}
        </div>
      </div>
      {children}
    </li>
  );
}

/** An app's icon: a picture by its address, an emoji, or a book when it has none. */
function AppIcon({ icon }: { icon: string | null }) {
  const box =
    "flex size-11 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-2xl dark:bg-slate-800";
  if (icon && /^(https?:\/\/|\/)/.test(icon))
    return (
      <span className={box}>
        <img src={icon} alt="" className="size-7 object-contain" />
      </span>
    );
  return (
    <span aria-hidden="true" className={box}>
      {icon || <BookOpen className="size-5" />}
    </span>
  );
}
