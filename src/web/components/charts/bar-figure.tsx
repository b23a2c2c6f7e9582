import type { ReactNode } from "react";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { axisNumber } from "../../lib/format";

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
    <figure>
      <div
        role="img"
        aria-label={`${description}. ${summary}.`}
        className="h-64 text-slate-600 dark:text-slate-300"
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={bars} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid vertical={false} stroke="currentColor" strokeOpacity={0.2} />
            <XAxis
              dataKey="label"
              tick={{ fill: "currentColor", fontSize: 12 }}
              tickLine={false}
              axisLine={{ stroke: "currentColor", strokeOpacity: 0.4 }}
              // A few bars name each one; a long run of days skips labels rather than overlap them.
              interval={bars.length > 12 ? "preserveStartEnd" : 0}
              minTickGap={12}
            />
            <YAxis
              tick={{ fill: "currentColor", fontSize: 12 }}
              tickLine={false}
              axisLine={false}
              allowDecimals={false}
              domain={minimumTop ? [0, (dataMax: number) => Math.max(dataMax, minimumTop)] : undefined}
              width="auto"
              tickFormatter={axisNumber}
            />
            <Tooltip
              cursor={{ fill: "currentColor", fillOpacity: 0.08 }}
              formatter={(value) => [formatValue(Number(value)), valueLabel]}
              labelFormatter={(_, payload) => payload?.[0]?.payload?.name ?? ""}
              contentStyle={{ borderRadius: 8, fontSize: 13, color: "#0f172a" }}
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
        </ResponsiveContainer>
      </div>
      <figcaption className="mt-2 text-xs text-slate-600 dark:text-slate-300">{caption}</figcaption>
    </figure>
  );
}
