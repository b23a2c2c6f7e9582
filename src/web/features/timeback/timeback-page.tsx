import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import { type LearningMetricsRow, learningMetricsResponseSchema } from "../../../shared/contracts/activity";
import { addDays, weekStartOf } from "../../../shared/time-zone";
import {
  CATEGORY_AXIS,
  CHART_GRID,
  CHART_LEGEND,
  ChartFigure,
  TOOLTIP_FRAME,
  VALUE_AXIS,
} from "../../components/charts/chart-style";
import { Card, PageHeader } from "../../components/page-header";
import { dayLabel } from "../../lib/format";
import { apiFetch } from "../../lib/http";
import { fullName } from "../auth/auth-state";
import { useAuth } from "../auth/use-auth";
import { studentHomeQuery } from "../home/api";
import { type PickedStudent, StudentPicker } from "../xp/student-picker";

type View = "daily" | "weekly";

export interface TimebackPeriod {
  period: string;
  activeMinutes: number;
  wastedMinutes: number;
  /** XP is credited learning in minutes: what was credited beyond the minutes spent is time won back. */
  savedMinutes: number;
  xp: number;
}

/** Time on task against the time saved, for every period listed (periods without learning count zero). */
export function timebackPeriods(
  rows: readonly LearningMetricsRow[],
  periods: readonly string[],
): TimebackPeriod[] {
  const byPeriod = new Map<string, { active: number; waste: number; xp: number }>(
    periods.map((period) => [period, { active: 0, waste: 0, xp: 0 }]),
  );
  for (const row of rows) {
    const entry = byPeriod.get(row.period) ?? { active: 0, waste: 0, xp: 0 };
    entry.active += row.activeSeconds;
    entry.waste += row.wasteSeconds;
    entry.xp += row.xp;
    byPeriod.set(row.period, entry);
  }
  return [...byPeriod.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([period, entry]) => {
      const activeMinutes = Math.round(entry.active / 60);
      return {
        period,
        activeMinutes,
        wastedMinutes: Math.round(entry.waste / 60),
        savedMinutes: Math.max(0, Math.round(entry.xp - activeMinutes)),
        xp: Math.round(entry.xp),
      };
    });
}

/** /app/timeback: minutes spent learning, minutes wasted and minutes won back, by day or week. */
export function TimebackPage() {
  const { t } = useTranslation("timeback");
  const { activeRole, user } = useAuth();
  const [picked, setPicked] = useState<PickedStudent | null>(null);
  const [view, setView] = useState<View>("daily");
  const student = activeRole === "student" ? { sourcedId: user.sourcedId, name: fullName(user) } : picked;
  const home = useQuery({ ...studentHomeQuery(student?.sourcedId ?? ""), enabled: Boolean(student) });
  const today = home.data?.summary.today;
  const startDate = today
    ? view === "daily"
      ? addDays(today, -27)
      : addDays(weekStartOf(today), -7 * 11)
    : "";
  const metrics = useQuery({
    queryKey: ["timeback", student?.sourcedId, view, startDate, today],
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/learning-metrics?${new URLSearchParams({ view, startDate, endDate: today ?? "", studentId: student?.sourcedId ?? "" })}`,
        learningMetricsResponseSchema,
        { signal },
      ),
    enabled: Boolean(student && today),
  });
  const step = view === "daily" ? 1 : 7;
  const expected =
    startDate && today
      ? Array.from({ length: view === "daily" ? 28 : 12 }, (_, index) => addDays(startDate, index * step))
      : [];
  const periods = metrics.data ? timebackPeriods(metrics.data.data.rows, expected) : [];
  const totals = periods.reduce(
    (sum, period) => ({
      active: sum.active + period.activeMinutes,
      saved: sum.saved + period.savedMinutes,
      wasted: sum.wasted + period.wastedMinutes,
    }),
    { active: 0, saved: 0, wasted: 0 },
  );
  const chartData = periods.map((period) => ({ ...period, label: dayLabel(period.period) }));

  return (
    <div>
      <PageHeader title={t("common:pages./app/timeback.title")} description={t("description")} />
      <Card className="mb-6">
        <div className="flex flex-wrap items-end gap-4">
          {activeRole !== "student" && (
            <div className="min-w-64">
              <StudentPicker selected={picked} onSelect={setPicked} autoSelect />
            </div>
          )}
          <fieldset className="flex gap-2">
            <legend className="sr-only">{t("period")}</legend>
            {(["daily", "weekly"] as const).map((option) => (
              <label
                key={option}
                className={`cursor-pointer rounded-lg border px-3 py-1.5 text-sm font-semibold has-[:focus-visible]:outline-2 ${view === option ? "border-brand-600 bg-brand-50 text-brand-700 dark:bg-slate-800 dark:text-brand-100" : "border-slate-300 dark:border-slate-700"}`}
              >
                <input
                  type="radio"
                  name="timeback-view"
                  value={option}
                  checked={view === option}
                  onChange={() => setView(option)}
                  className="sr-only"
                />
                {t(`views.${option}`)}
              </label>
            ))}
          </fieldset>
        </div>
      </Card>
      {(home.isError || metrics.isError) && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {(home.error ?? metrics.error)?.message}
        </p>
      )}
      {student && metrics.data && (
        <div className="space-y-6">
          <div className="grid gap-4 sm:grid-cols-3">
            {[
              [t("totals.active"), totals.active, "text-brand-700 dark:text-brand-100"],
              [t("totals.saved"), totals.saved, "text-emerald-700 dark:text-emerald-300"],
              [t("totals.wasted"), totals.wasted, "text-amber-700 dark:text-amber-300"],
            ].map(([label, minutes, color]) => (
              <Card key={label as string}>
                <p className="text-sm text-slate-600 dark:text-slate-300">{label}</p>
                <p className={`mt-1 text-3xl font-extrabold ${color}`}>
                  {t("hoursMinutes", {
                    hours: Math.floor((minutes as number) / 60),
                    minutes: (minutes as number) % 60,
                  })}
                </p>
              </Card>
            ))}
          </div>
          <Card>
            <h2 className="text-lg font-bold">{student.name}</h2>
            {totals.active + totals.wasted === 0 ? (
              <p className="mt-2 text-slate-600 dark:text-slate-300">{t("noLearning")}</p>
            ) : (
              <>
                <ChartFigure label={t("chartLabel", { view })} className="h-72" figureClassName="mt-4">
                  <BarChart data={chartData}>
                    <CartesianGrid {...CHART_GRID} />
                    <XAxis {...CATEGORY_AXIS} dataKey="label" />
                    <YAxis
                      {...VALUE_AXIS}
                      label={{
                        value: t("axisMinutes"),
                        angle: -90,
                        position: "insideLeft",
                        fontSize: 11,
                        fill: "currentColor",
                      }}
                    />
                    <Tooltip {...TOOLTIP_FRAME} />
                    <Legend {...CHART_LEGEND} />
                    <Bar
                      dataKey="activeMinutes"
                      name={t("series.active")}
                      stackId="time"
                      fill="#2563eb"
                      isAnimationActive={false}
                    />
                    <Bar
                      dataKey="savedMinutes"
                      name={t("series.saved")}
                      stackId="time"
                      fill="#059669"
                      isAnimationActive={false}
                    />
                    <Bar
                      dataKey="wastedMinutes"
                      name={t("series.wasted")}
                      fill="#d97706"
                      isAnimationActive={false}
                    />
                  </BarChart>
                </ChartFigure>
                <table className="mt-6 w-full text-left text-sm">
                  <caption className="sr-only">{t("tableCaption")}</caption>
                  <thead className="text-xs text-slate-500 uppercase dark:text-slate-400">
                    <tr>
                      <th scope="col" className="py-2">
                        {t("periodColumn", { view })}
                      </th>
                      <th scope="col" className="py-2 text-right">
                        {t("series.active")}
                      </th>
                      <th scope="col" className="py-2 text-right">
                        {t("series.saved")}
                      </th>
                      <th scope="col" className="py-2 text-right">
                        {t("series.wasted")}
                      </th>
                      <th scope="col" className="py-2 text-right">
                        {t("xp")}
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                    {periods.map((period) => (
                      <tr key={period.period}>
                        <td className="py-1.5">{dayLabel(period.period)}</td>
                        <td className="py-1.5 text-right">
                          {t("minutes", { minutes: period.activeMinutes })}
                        </td>
                        <td className="py-1.5 text-right">
                          {t("minutes", { minutes: period.savedMinutes })}
                        </td>
                        <td className="py-1.5 text-right">
                          {t("minutes", { minutes: period.wastedMinutes })}
                        </td>
                        <td className="py-1.5 text-right">{period.xp}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </>
            )}
          </Card>
        </div>
      )}
    </div>
  );
}
