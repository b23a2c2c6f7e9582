import { useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { addDays, localDateOf, weekStartOf } from "../../../shared/time-zone";
import { heatmapFallbackError, xpHeatmapQuery } from "../../features/home/api";
import { dayLabel, formatXp, monthLabel, weekdayLabel } from "../../lib/format";

const DEFAULT_WEEKS = 18;
/** The rows, Sunday first; Monday, Wednesday and Friday are named beside theirs. */
const WEEKDAYS = [
  { name: "sunday", named: false },
  { name: "monday", named: true },
  { name: "tuesday", named: false },
  { name: "wednesday", named: true },
  { name: "thursday", named: false },
  { name: "friday", named: true },
  { name: "saturday", named: false },
];

/** Colour steps, from no XP to the whole daily goal or more; each step also says what it means. */
const LEVELS = [
  "bg-slate-200 dark:bg-slate-700",
  "bg-emerald-200 dark:bg-emerald-900",
  "bg-emerald-400 dark:bg-emerald-700",
  "bg-emerald-600 dark:bg-emerald-500",
  "bg-emerald-800 dark:bg-emerald-300",
] as const;

function levelOf(xp: number, goal: number): number {
  if (xp <= 0) return 0;
  if (xp >= goal) return 4;
  if (xp >= goal / 2) return 3;
  if (xp >= goal / 4) return 2;
  return 1;
}

function legendOf(goal: number): string[] {
  const quarter = Math.round(goal / 4);
  const half = Math.round(goal / 2);
  return ["0", `1–${quarter - 1}`, `${quarter}–${half - 1}`, `${half}–${goal - 1}`, `${goal}+`];
}

/**
 * A calendar heatmap of a student's XP per day, GitHub style: weeks as columns starting on Sunday,
 * days in the student's own calendar. The grid is one tab stop; arrow keys move between days.
 */
export function XpHeatmap({
  studentId,
  timezone,
  today: givenToday,
  dailyGoal = 100,
  weeks = DEFAULT_WEEKS,
  label: givenLabel,
}: {
  studentId: string;
  /** The student's IANA timezone: the days are theirs, whoever looks. */
  timezone: string;
  /** The student's today; computed from the timezone when not given. */
  today?: string;
  /** The XP of a full day (all subjects' goals together): the darkest colour. */
  dailyGoal?: number;
  weeks?: number;
  label?: string;
}) {
  const { t } = useTranslation();
  const label = givenLabel ?? t("charts.heatmap.label");
  const today = givenToday ?? localDateOf(new Date(), timezone);
  const startDate = addDays(weekStartOf(today), -7 * (weeks - 1));
  const heatmap = useQuery(xpHeatmapQuery({ userId: studentId, startDate, endDate: today, timezone }));
  const goal = Math.max(4, Math.round(dailyGoal));

  const xpByDate = useMemo(
    () => new Map((heatmap.data ?? []).map((day) => [day.date, day.xpGained])),
    [heatmap.data],
  );
  const [active, setActive] = useState<string | null>(null);
  const activeDate = active && active >= startDate && active <= today ? active : today;
  const gridId = useId();
  const cellId = (date: string) => `${gridId}-${date}`;
  const describe = (date: string) =>
    t("charts.heatmap.cell", { day: dayLabel(date), xp: formatXp(xpByDate.get(date) ?? 0) });

  const columns = Array.from({ length: weeks }, (_, week) => addDays(startDate, week * 7));
  // A month's name over the first week whose Sunday is in it; the first column only when the month
  // has two weeks or more left, so two names never collide.
  const monthStarts = columns.map((sunday, index) => {
    if (index === 0) return Number(sunday.slice(8)) <= 17 ? monthLabel(sunday) : "";
    return monthLabel(sunday) !== monthLabel(addDays(sunday, -7)) ? monthLabel(sunday) : "";
  });

  function move(event: KeyboardEvent<HTMLDivElement>) {
    const steps: Record<string, number> = { ArrowLeft: -7, ArrowRight: 7, ArrowUp: -1, ArrowDown: 1 };
    let next: string | null = null;
    if (event.key in steps) next = addDays(activeDate, steps[event.key] as number);
    else if (event.key === "Home") next = startDate;
    else if (event.key === "End") next = today;
    else if (event.key === "PageUp") next = addDays(activeDate, -28);
    else if (event.key === "PageDown") next = addDays(activeDate, 28);
    if (!next) return;
    event.preventDefault();
    if (next < startDate) next = startDate;
    if (next > today) next = today;
    setActive(next);
    document.getElementById(cellId(next))?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  const legend = legendOf(goal);
  const totalXp = [...xpByDate.values()].reduce((sum, xp) => sum + xp, 0);
  const activeDays = [...xpByDate.values()].filter((xp) => xp > 0).length;
  const best = (heatmap.data ?? []).reduce<{ date: string; xpGained: number } | null>(
    (top, day) => (day.xpGained > 0 && (!top || day.xpGained > top.xpGained) ? day : top),
    null,
  );

  return (
    <div>
      {heatmap.isError ? (
        <p
          role="alert"
          className="rounded-lg bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {heatmap.error.message || heatmapFallbackError()}{" "}
          <button type="button" onClick={() => heatmap.refetch()} className="font-semibold underline">
            {t("charts.heatmap.retry")}
          </button>
        </p>
      ) : (
        <div className="flex flex-col gap-x-10 gap-y-4 lg:flex-row lg:items-start">
          <div className="min-w-0">
            <div className="overflow-x-auto p-1">
              {/* One tab stop: the grid holds focus and names its active day (aria-activedescendant). */}
              <table
                // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the ARIA grid pattern on a table
                role="grid"
                tabIndex={0}
                aria-label={t("charts.heatmap.grid", {
                  label,
                  start: dayLabel(startDate),
                  end: dayLabel(today),
                })}
                aria-activedescendant={heatmap.data ? cellId(activeDate) : undefined}
                aria-busy={heatmap.isPending}
                onKeyDown={move}
                className="group border-separate border-spacing-[3px] rounded-md text-xs text-slate-600 dark:text-slate-300"
              >
                <thead aria-hidden="true">
                  <tr>
                    <td className="p-0" />
                    {columns.map((sunday, index) => (
                      <td key={sunday} className="relative h-4 p-0">
                        <span className="absolute bottom-0 left-0 whitespace-nowrap">
                          {monthStarts[index]}
                        </span>
                      </td>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {WEEKDAYS.map((weekday, dayIndex) => (
                    <tr key={weekday.name}>
                      <td aria-hidden="true" className="w-7 p-0 pr-1 leading-none">
                        {weekday.named ? weekdayLabel(addDays(startDate, dayIndex)) : ""}
                      </td>
                      {columns.map((sunday) => {
                        const date = addDays(sunday, dayIndex);
                        if (date > today) return <td key={date} aria-hidden="true" className="p-0" />;
                        const xp = xpByDate.get(date) ?? 0;
                        const isActive = date === activeDate;
                        const text = describe(date);
                        return (
                          <td
                            key={date}
                            id={cellId(date)}
                            aria-label={text}
                            title={text}
                            data-date={date}
                            data-xp={xp}
                            onMouseEnter={() => setActive(date)}
                            className={`h-3 w-3 rounded-[3px] p-0 sm:h-3.5 sm:w-3.5 lg:h-[18px] lg:w-[18px] ${
                              heatmap.isPending
                                ? "motion-safe:animate-pulse bg-slate-200 dark:bg-slate-700"
                                : LEVELS[levelOf(xp, goal)]
                            } ${date === today ? "outline-1 outline-slate-500 dark:outline-slate-300" : ""} ${
                              isActive
                                ? "group-focus-visible:outline-2 group-focus-visible:outline-offset-1 group-focus-visible:outline-brand-600 dark:group-focus-visible:outline-brand-500"
                                : ""
                            }`}
                          />
                        );
                      })}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div className="mt-3 flex flex-wrap items-center justify-between gap-x-6 gap-y-2 text-xs text-slate-600 dark:text-slate-300">
              <p aria-live="polite" className="min-h-4 font-medium text-slate-800 dark:text-slate-100">
                {heatmap.isPending
                  ? t("charts.heatmap.loading")
                  : activeDate === today
                    ? t("charts.heatmap.today", {
                        day: dayLabel(activeDate),
                        xp: formatXp(xpByDate.get(activeDate) ?? 0),
                      })
                    : describe(activeDate)}
              </p>
              <div className="flex items-center gap-2">
                <span>{t("charts.heatmap.less")}</span>
                <ul aria-label={t("charts.heatmap.key")} className="flex items-center gap-1">
                  {LEVELS.map((level, index) => (
                    <li
                      key={level}
                      title={t("charts.heatmap.xp", { xp: legend[index] })}
                      className="flex items-center"
                    >
                      <span aria-hidden="true" className={`h-3 w-3 rounded-[3px] ${level}`} />
                      <span className="sr-only">{t("charts.heatmap.xp", { xp: legend[index] })}</span>
                    </li>
                  ))}
                </ul>
                <span>{t("charts.heatmap.more")}</span>
              </div>
            </div>
          </div>
          {heatmap.data &&
            (activeDays === 0 ? (
              <p className="text-sm text-slate-600 dark:text-slate-300">{t("charts.heatmap.empty")}</p>
            ) : (
              <dl className="grid flex-1 grid-cols-3 gap-3 lg:max-w-xs lg:grid-cols-1">
                {[
                  { term: t("charts.heatmap.total", { weeks }), value: formatXp(totalXp) },
                  { term: t("charts.heatmap.activeDays"), value: String(activeDays) },
                  {
                    term: t("charts.heatmap.best"),
                    value: best ? t("charts.heatmap.xp", { xp: formatXp(best.xpGained) }) : "–",
                    note: best ? dayLabel(best.date) : undefined,
                  },
                ].map((stat) => (
                  <div key={stat.term} className="rounded-xl bg-slate-50 p-3 dark:bg-slate-800">
                    <dt className="text-xs font-medium text-slate-600 dark:text-slate-300">{stat.term}</dt>
                    <dd className="text-base font-bold tabular-nums sm:text-lg">
                      {stat.value}
                      {stat.note && (
                        <span className="block text-xs font-normal text-slate-600 dark:text-slate-300">
                          {stat.note}
                        </span>
                      )}
                    </dd>
                  </div>
                ))}
              </dl>
            ))}
        </div>
      )}
    </div>
  );
}
