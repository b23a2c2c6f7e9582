import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import { addDays } from "../../../shared/time-zone";
import {
  CATEGORY_AXIS,
  CHART_GRID,
  ChartFigure,
  TOOLTIP_FRAME,
  VALUE_AXIS,
} from "../../components/charts/chart-style";
import { Card, PageHeader } from "../../components/page-header";
import { dayLabel, monthDayLabel } from "../../lib/format";
import { fullName } from "../auth/auth-state";
import { useAuth } from "../auth/use-auth";
import { studentHomeQuery, xpHeatmapQuery } from "../home/api";
import { type PickedStudent, SELECT_CLASS, StudentPicker } from "./student-picker";
import { XpHistoryList, xpAmount } from "./xp-history";

const RANGES = [2, 4, 8, 12] as const;

/** XP per day for the person in view: oneself, a chosen child, or (staff) a chosen student. */
export function XpStatsPage() {
  const { t } = useTranslation("xp");
  const { activeRole, user } = useAuth();
  const [picked, setPicked] = useState<PickedStudent | null>(null);
  const student: PickedStudent | null =
    activeRole === "student" ? { sourcedId: user.sourcedId, name: fullName(user) } : picked;

  return (
    <div>
      <PageHeader
        title={t("common:pages./app/xp-stats.title")}
        description={activeRole === "student" ? t("stats.descriptionSelf") : t("stats.description")}
      />
      {activeRole !== "student" && (
        <Card className="mb-6">
          <StudentPicker selected={picked} onSelect={setPicked} autoSelect />
        </Card>
      )}
      {student ? (
        <StudentXp student={student} isSelf={activeRole === "student"} />
      ) : (
        <p className="text-slate-600 dark:text-slate-300">{t("stats.chooseStudent")}</p>
      )}
    </div>
  );
}

function StudentXp({ student, isSelf }: { student: PickedStudent; isSelf: boolean }) {
  const { t } = useTranslation("xp");
  const [weeks, setWeeks] = useState<(typeof RANGES)[number]>(4);
  const ids = { chart: useId(), range: useId(), history: useId() };
  // The student's own today and timezone: days are always theirs, never the viewer's.
  const home = useQuery(studentHomeQuery(student.sourcedId));
  const summary = home.data?.summary;
  const endDate = summary?.today ?? "";
  const startDate = summary ? addDays(summary.today, -(weeks * 7 - 1)) : "";
  const heatmap = useQuery({
    ...xpHeatmapQuery({
      userId: student.sourcedId,
      startDate,
      endDate,
      timezone: summary?.timezone ?? "UTC",
    }),
    enabled: Boolean(summary),
  });
  const days = heatmap.data ?? [];
  const total = Math.round(days.reduce((sum, day) => sum + day.xpGained, 0) * 100) / 100;
  const activeDays = days.filter((day) => day.xpGained !== 0).length;
  const best = days.reduce<{ date: string; xpGained: number } | null>(
    (top, day) => (!top || day.xpGained > top.xpGained ? day : top),
    null,
  );

  return (
    <div className="space-y-6">
      <Card>
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h2 id={ids.chart} className="text-lg font-bold">
              {isSelf ? t("stats.headingSelf") : t("stats.heading", { name: student.name })}
            </h2>
            {summary && (
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
                {t("stats.range", {
                  who: isSelf ? "self" : "other",
                  start: dayLabel(startDate),
                  end: dayLabel(endDate),
                  timezone: summary.timezone,
                })}
              </p>
            )}
          </div>
          <div>
            <label htmlFor={ids.range} className="text-sm font-medium">
              {t("stats.period")}
            </label>
            <select
              id={ids.range}
              value={weeks}
              onChange={(event) => setWeeks(Number(event.target.value) as (typeof RANGES)[number])}
              className={SELECT_CLASS}
            >
              {RANGES.map((count) => (
                <option key={count} value={count}>
                  {t("stats.lastWeeks", { count })}
                </option>
              ))}
            </select>
          </div>
        </div>
        {(home.isError || heatmap.isError) && (
          <p role="alert" className="mt-4 text-sm text-red-700 dark:text-red-300">
            {t("stats.loadFailed", { message: (home.error ?? heatmap.error)?.message ?? "" })}
          </p>
        )}
        {!home.isError && !heatmap.isError && !heatmap.data && (
          <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">{t("loading")}</p>
        )}
        {heatmap.data && (
          <>
            <dl className="mt-4 grid grid-cols-3 gap-3 text-center">
              {[
                [t("stats.total"), xpAmount(total)],
                [t("stats.daysWithXp"), t("stats.daysOf", { active: activeDays, days: days.length })],
                [t("stats.bestDay"), best && best.xpGained > 0 ? xpAmount(best.xpGained) : "—"],
              ].map(([term, value]) => (
                <div key={term} className="rounded-xl bg-slate-100 px-2 py-3 dark:bg-slate-800">
                  <dt className="text-xs text-slate-600 dark:text-slate-300">{term}</dt>
                  <dd className="mt-0.5 font-bold tabular-nums sm:text-lg">{value}</dd>
                </div>
              ))}
            </dl>
            {activeDays === 0 ? (
              <p className="mt-4 text-slate-700 dark:text-slate-200">{t("stats.noXp")}</p>
            ) : (
              <ChartFigure
                label={t("stats.chartLabel", {
                  total: xpAmount(total),
                  days: days.length,
                  active: activeDays,
                })}
                className="h-64 sm:h-72"
                figureClassName="mt-4"
              >
                <BarChart data={days} margin={{ top: 8, right: 4, bottom: 0, left: 0 }}>
                  <CartesianGrid {...CHART_GRID} />
                  <XAxis {...CATEGORY_AXIS} dataKey="date" tickFormatter={monthDayLabel} minTickGap={16} />
                  <YAxis {...VALUE_AXIS} />
                  <Tooltip
                    // Its own content, so only the cursor of the shared frame applies.
                    cursor={TOOLTIP_FRAME.cursor}
                    content={({ active, payload }) => {
                      const point = payload?.[0]?.payload as { date: string; xpGained: number } | undefined;
                      if (!active || !point) return null;
                      return (
                        <div className="rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm text-slate-900 shadow dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100">
                          <p className="font-medium">{dayLabel(point.date)}</p>
                          <p className="tabular-nums">{xpAmount(point.xpGained)}</p>
                        </div>
                      );
                    }}
                  />
                  <Bar
                    dataKey="xpGained"
                    name="XP"
                    fill="#2563eb"
                    radius={[3, 3, 0, 0]}
                    isAnimationActive={false}
                  />
                </BarChart>
              </ChartFigure>
            )}
            {activeDays > 0 && (
              <details className="mt-3 text-sm">
                <summary className="cursor-pointer font-medium text-brand-700 dark:text-brand-100">
                  {t("stats.showTable")}
                </summary>
                <div className="mt-2 max-h-72 overflow-y-auto">
                  <table className="w-full text-left">
                    <thead className="text-xs text-slate-600 uppercase dark:text-slate-400">
                      <tr>
                        <th scope="col" className="py-1 pr-3">
                          {t("stats.day")}
                        </th>
                        <th scope="col" className="py-1 text-right">
                          {t("stats.xp")}
                        </th>
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-slate-100 tabular-nums dark:divide-slate-800">
                      {[...days].reverse().map((day) => (
                        <tr key={day.date}>
                          <td className="py-1 pr-3">{dayLabel(day.date)}</td>
                          <td className="py-1 text-right">{xpAmount(day.xpGained)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </details>
            )}
          </>
        )}
      </Card>
      <Card>
        <h2 id={ids.history} className="text-lg font-bold">
          {t("stats.historyHeading")}
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("stats.historyIntro")}</p>
        <XpHistoryList studentId={student.sourcedId} headingId={ids.history} />
      </Card>
    </div>
  );
}
