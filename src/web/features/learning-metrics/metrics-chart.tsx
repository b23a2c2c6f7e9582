import { useTranslation } from "react-i18next";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { LearningMetrics } from "../../../shared/contracts/activity";
import {
  CATEGORY_AXIS,
  CHART_GRID,
  CHART_LEGEND,
  TOOLTIP_FRAME,
  VALUE_AXIS,
} from "../../components/charts/chart-style";
import { shownLocale } from "../../lib/format";
import { type MetricsGroup, periodsOf } from "./metrics-table";

function shortLabel(view: LearningMetrics["view"], period: string): string {
  const date = new Date(`${period}T12:00:00Z`);
  const options: Intl.DateTimeFormatOptions =
    view === "monthly" ? { month: "short", year: "numeric" } : { month: "short", day: "numeric" };
  return new Intl.DateTimeFormat(shownLocale(), { ...options, timeZone: "UTC" }).format(date);
}

/** XP per period, stacked by group, summed over the students shown; a dashed line for the goal. */
export function MetricsChart({
  data,
  groups,
  goal,
}: {
  data: LearningMetrics;
  groups: MetricsGroup[];
  goal: { value: number; label: string } | null;
}) {
  const { t } = useTranslation("learning-metrics");
  const numbers = new Intl.NumberFormat(shownLocale());
  const index = new Map(groups.map((group, position) => [group.key, `g${position}`]));
  const byPeriod = new Map<string, Record<string, number | string>>(
    periodsOf(data.view, data.startDate, data.endDate).map((period) => [
      period,
      { period, label: shortLabel(data.view, period) },
    ]),
  );
  for (const row of data.rows) {
    const point = byPeriod.get(row.period);
    const key = index.get(row.group);
    if (!point || !key) continue;
    point[key] = Math.round(((Number(point[key]) || 0) + row.xp) * 100) / 100;
  }
  const points = [...byPeriod.values()];

  return (
    <div className="w-full text-slate-600 dark:text-slate-300">
      <div className="h-72 sm:h-80">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={points} margin={{ top: 16, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid {...CHART_GRID} />
            <XAxis {...CATEGORY_AXIS} dataKey="label" minTickGap={12} />
            <YAxis {...VALUE_AXIS} domain={[0, "auto"]} />
            <Tooltip
              {...TOOLTIP_FRAME}
              formatter={(value, name) => [t("chart.xp", { xp: numbers.format(Number(value)) }), name]}
            />
            <Legend {...CHART_LEGEND} />
            {groups.map((group) => (
              <Bar
                key={group.key}
                dataKey={index.get(group.key) as string}
                name={group.name}
                stackId="xp"
                fill={group.color}
                maxBarSize={48}
                isAnimationActive={false}
              />
            ))}
            {goal && (
              <ReferenceLine
                y={goal.value}
                stroke="#dc2626"
                strokeDasharray="6 4"
                strokeWidth={2}
                ifOverflow="extendDomain"
              />
            )}
          </BarChart>
        </ResponsiveContainer>
      </div>
      {goal && (
        <p className="mt-1 flex items-center justify-center gap-2 text-xs">
          <svg aria-hidden="true" width="24" height="4" className="shrink-0">
            <line x1="0" y1="2" x2="24" y2="2" stroke="#dc2626" strokeWidth="2" strokeDasharray="6 4" />
          </svg>
          <span>{t("chart.goal", { label: goal.label, xp: numbers.format(goal.value) })}</span>
        </p>
      )}
    </div>
  );
}
