import { useTranslation } from "react-i18next";
import { Bar, BarChart, CartesianGrid, Legend, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import type { ProgressWeek } from "../../../shared/contracts/families";
import {
  CATEGORY_AXIS,
  CHART_GRID,
  CHART_LEGEND,
  ChartFigure,
  TOOLTIP_FRAME,
  VALUE_AXIS,
} from "../../components/charts/chart-style";
import { formatXp, monthDayLabel } from "../../lib/format";
import { subjectColor } from "../../lib/subjects";

/**
 * XP of each week, stacked by subject in the subjects' own colours, with the weekly goal as a
 * dashed line. Screen readers hear every week's total and its subjects.
 */
export function WeeklyXpChart({ weeks, weeklyGoal }: { weeks: ProgressWeek[]; weeklyGoal: number }) {
  const { t } = useTranslation("families");
  const subjects = weeks[0]?.subjects.map((entry) => entry.subject) ?? [];
  const points = weeks.map((week) => ({
    label: monthDayLabel(week.weekStart),
    ...Object.fromEntries(week.subjects.map((entry, index) => [`s${index}`, entry.xp])),
  }));
  const summary = weeks
    .map((week) =>
      t("progress.charts.weekSummary", {
        week: monthDayLabel(week.weekStart),
        xp: formatXp(week.xp),
        subjects: week.subjects
          .filter((entry) => entry.xp !== 0)
          .map((entry) => `${entry.subject} ${formatXp(entry.xp)}`)
          .join(", "),
      }),
    )
    .join("; ");
  return (
    <ChartFigure
      label={t("progress.charts.xpLabel", { summary, goal: formatXp(weeklyGoal) })}
      className="h-72 sm:h-80"
      caption={
        weeklyGoal > 0 && (
          <>
            <svg aria-hidden="true" width="24" height="4" className="shrink-0">
              <line x1="0" y1="2" x2="24" y2="2" stroke="#dc2626" strokeWidth="2" strokeDasharray="6 4" />
            </svg>
            <span>{t("progress.charts.goalLine", { goal: formatXp(weeklyGoal) })}</span>
          </>
        )
      }
      captionClassName="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-600 dark:text-slate-300"
    >
      <BarChart data={points} margin={{ top: 16, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid {...CHART_GRID} />
        <XAxis {...CATEGORY_AXIS} dataKey="label" minTickGap={12} />
        <YAxis {...VALUE_AXIS} domain={[0, "auto"]} />
        <Tooltip
          {...TOOLTIP_FRAME}
          labelFormatter={(label) => t("progress.charts.weekOf", { week: String(label) })}
          formatter={(value, name) => [t("progress.charts.xp", { xp: formatXp(Number(value)) }), name]}
        />
        <Legend {...CHART_LEGEND} />
        {subjects.map((subject, index) => (
          <Bar
            key={subject}
            dataKey={`s${index}`}
            name={subject}
            stackId="xp"
            fill={subjectColor(subject)}
            maxBarSize={48}
            isAnimationActive={false}
          />
        ))}
        {weeklyGoal > 0 && (
          <ReferenceLine
            y={weeklyGoal}
            stroke="#dc2626"
            strokeDasharray="6 4"
            strokeWidth={2}
            ifOverflow="extendDomain"
          />
        )}
      </BarChart>
    </ChartFigure>
  );
}
