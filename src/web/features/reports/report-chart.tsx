import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import type { ReportChart } from "../../../shared/contracts/reports";
import { formatReportValue } from "../../../shared/report-values";
import {
  CATEGORY_AXIS,
  CHART_GRID,
  CHART_LEGEND,
  ChartFigure,
  TOOLTIP_FRAME,
  VALUE_AXIS,
} from "../../components/charts/chart-style";
import { shownLocale } from "../../lib/format";

/** One colour per series, in the order the report names them (AA contrast on white and dark). */
const SERIES_COLORS = ["#2563eb", "#0f766e", "#c2410c", "#7c3aed", "#be185d"];

/**
 * A report's chart in the app's chart style: bars or a line per series, every figure in the label
 * screen readers hear.
 */
export function ReportChartView({ chart }: { chart: ReportChart }) {
  const locale = shownLocale();
  const format = (value: number | null) => formatReportValue(value, chart.unit, locale);
  const points = chart.categories.map((category, index) => ({
    label: category,
    ...Object.fromEntries(chart.series.map((series, at) => [`s${at}`, series.values[index] ?? null])),
  }));
  const summary = chart.categories
    .map(
      (category, index) =>
        `${category}: ${chart.series.map((series) => `${chart.series.length > 1 ? `${series.name} ` : ""}${format(series.values[index] ?? null)}`).join(", ")}`,
    )
    .join("; ");
  const many = chart.series.length > 1;
  const tooltip = (
    <Tooltip
      {...TOOLTIP_FRAME}
      formatter={(value, name) => [
        format(value === null || value === undefined ? null : Number(value)),
        name,
      ]}
    />
  );
  const axes = (
    <>
      <CartesianGrid {...CHART_GRID} />
      <XAxis {...CATEGORY_AXIS} dataKey="label" interval="preserveStartEnd" minTickGap={12} />
      <YAxis {...VALUE_AXIS} domain={[0, "auto"]} />
    </>
  );
  return (
    <div>
      <h3 className="mb-2 font-semibold">{chart.title}</h3>
      <ChartFigure label={`${chart.title}. ${summary}.`} className="h-64 sm:h-72">
        {chart.kind === "bar" ? (
          <BarChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            {axes}
            {tooltip}
            {many && <Legend {...CHART_LEGEND} />}
            {chart.series.map((series, index) => (
              <Bar
                key={series.name}
                dataKey={`s${index}`}
                name={series.name}
                fill={SERIES_COLORS[index % SERIES_COLORS.length]}
                radius={[4, 4, 0, 0]}
                maxBarSize={48}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        ) : (
          <LineChart data={points} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
            {axes}
            {tooltip}
            {many && <Legend {...CHART_LEGEND} />}
            {chart.series.map((series, index) => (
              <Line
                key={series.name}
                dataKey={`s${index}`}
                name={series.name}
                stroke={SERIES_COLORS[index % SERIES_COLORS.length]}
                strokeWidth={2}
                dot={points.length <= 31}
                connectNulls
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        )}
      </ChartFigure>
    </div>
  );
}

/** A row's trend as a small line, drawn without a chart library (a table can hold thousands). */
export function Sparkline({ values, label }: { values: number[]; label: string }) {
  const width = 96;
  const height = 24;
  const top = Math.max(...values, 1);
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  const points = values
    .map(
      (value, index) =>
        `${(index * step).toFixed(1)},${(height - 2 - (value / top) * (height - 4)).toFixed(1)}`,
    )
    .join(" ");
  return (
    <svg
      role="img"
      aria-label={label}
      width={width}
      height={height}
      className="text-brand-600 dark:text-brand-500"
    >
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
    </svg>
  );
}
