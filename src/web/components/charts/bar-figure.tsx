import type { ReactNode } from "react";
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import { CATEGORY_AXIS, CHART_GRID, ChartFigure, TOOLTIP_FRAME, VALUE_AXIS } from "./chart-style";

export interface FigureBar {
  /** Under the bar; `name` says it in full in the tooltip and to screen readers. */
  label: string;
  name: string;
  value: number;
}

/**
 * One bar per entry, in the app's chart style. Screen readers hear every figure in the label, and
 * the caption says what the chart shows.
 */
export function BarFigure({
  bars,
  description,
  valueLabel,
  formatValue = String,
  minimumTop,
  caption,
}: {
  bars: FigureBar[];
  /** What the chart is, as in "Bar chart of students per grade". */
  description: string;
  /** What the value is called in the tooltip. */
  valueLabel: string;
  formatValue?: (value: number) => string;
  /** The value axis reaches at least this high, so small figures do not look large. */
  minimumTop?: number;
  caption: ReactNode;
}) {
  const summary = bars.map((bar) => `${bar.name}: ${formatValue(bar.value)}`).join("; ");
  return (
    <ChartFigure label={`${description}. ${summary}.`} caption={caption}>
      <BarChart data={bars} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid {...CHART_GRID} />
        <XAxis
          {...CATEGORY_AXIS}
          dataKey="label"
          // Every bar is named where there is room; in a narrow chart labels are skipped rather than overlap.
          interval="preserveStartEnd"
          minTickGap={12}
        />
        <YAxis
          {...VALUE_AXIS}
          domain={minimumTop ? [0, (dataMax: number) => Math.max(dataMax, minimumTop)] : undefined}
        />
        <Tooltip
          {...TOOLTIP_FRAME}
          formatter={(value) => [formatValue(Number(value)), valueLabel]}
          labelFormatter={(_, payload) => payload?.[0]?.payload?.name ?? ""}
        />
        <Bar
          dataKey="value"
          name={valueLabel}
          fill="#2563eb"
          radius={[6, 6, 0, 0]}
          maxBarSize={64}
          isAnimationActive={false}
        />
      </BarChart>
    </ChartFigure>
  );
}
