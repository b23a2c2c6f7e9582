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
import type { ProgressWeek } from "../../../shared/contracts/families";
import { axisNumber, formatXp, monthDayLabel } from "../../lib/format";
import { subjectColor } from "../../lib/subjects";

const TOOLTIP_STYLE = {
  borderRadius: 8,
  border: "1px solid rgb(148 163 184 / 0.4)",
  background: "var(--tooltip-bg, white)",
  color: "inherit",
};

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
    <figure>
      <div
        role="img"
        aria-label={t("progress.charts.xpLabel", { summary, goal: formatXp(weeklyGoal) })}
        className="h-72 text-slate-600 sm:h-80 dark:text-slate-300"
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={points} margin={{ top: 16, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid vertical={false} stroke="currentColor" strokeOpacity={0.15} />
            <XAxis
              dataKey="label"
              tick={{ fill: "currentColor", fontSize: 12 }}
              tickLine={false}
              axisLine={{ stroke: "currentColor", strokeOpacity: 0.4 }}
              minTickGap={12}
            />
            <YAxis
              tick={{ fill: "currentColor", fontSize: 12 }}
              tickLine={false}
              axisLine={false}
              allowDecimals={false}
              width="auto"
              tickFormatter={axisNumber}
              domain={[0, "auto"]}
            />
            <Tooltip
              cursor={{ fill: "currentColor", fillOpacity: 0.08 }}
              contentStyle={TOOLTIP_STYLE}
              wrapperClassName="[--tooltip-bg:white] dark:[--tooltip-bg:#0f172a]"
              labelFormatter={(label) => t("progress.charts.weekOf", { week: String(label) })}
              formatter={(value, name) => [t("progress.charts.xp", { xp: formatXp(Number(value)) }), name]}
            />
            <Legend wrapperStyle={{ fontSize: 12, paddingTop: 8 }} />
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
        </ResponsiveContainer>
      </div>
      <figcaption className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-600 dark:text-slate-300">
        {weeklyGoal > 0 && (
          <>
            <svg aria-hidden="true" width="24" height="4" className="shrink-0">
              <line x1="0" y1="2" x2="24" y2="2" stroke="#dc2626" strokeWidth="2" strokeDasharray="6 4" />
            </svg>
            <span>{t("progress.charts.goalLine", { goal: formatXp(weeklyGoal) })}</span>
          </>
        )}
      </figcaption>
    </figure>
  );
}
