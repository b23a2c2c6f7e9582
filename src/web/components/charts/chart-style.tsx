import type { ReactElement, ReactNode } from "react";
import { ResponsiveContainer } from "recharts";
import { axisNumber } from "../../lib/format";

/*
 * The app's chart style, spread into recharts parts so every chart looks alike. Lines, ticks and
 * labels take `currentColor`, which ChartFigure sets for light and dark mode.
 */

const TICK = { fill: "currentColor", fontSize: 12 } as const;

/** Horizontal lines only: the value axis is what they help read. */
export const CHART_GRID = { vertical: false, stroke: "currentColor", strokeOpacity: 0.15 } as const;

/** The axis of categories (days, weeks, terms); each chart adds its `dataKey`. */
export const CATEGORY_AXIS = {
  tick: TICK,
  tickLine: false,
  axisLine: { stroke: "currentColor", strokeOpacity: 0.4 },
} as const;

/** The axis of values, without a line of its own; each chart adds its `domain` if it needs one. */
export const VALUE_AXIS = {
  tick: TICK,
  tickLine: false,
  axisLine: false,
  allowDecimals: false,
  width: "auto",
  tickFormatter: axisNumber,
} as const;

/** The key of a chart with several series, in small type under it. */
export const CHART_LEGEND = { wrapperStyle: { fontSize: 12, paddingTop: 8 } } as const;

/** A tooltip readable in both modes: the wrapper sets the background the content style reads. */
export const TOOLTIP_FRAME = {
  cursor: { fill: "currentColor", fillOpacity: 0.08 },
  contentStyle: {
    borderRadius: 8,
    border: "1px solid rgb(148 163 184 / 0.4)",
    background: "var(--tooltip-bg, white)",
    color: "inherit",
  },
  // Recharts colours each line in its series' colour, which on the dark frame can be too faint to
  // read: the series' name says which it is, so the text keeps the frame's own colour.
  itemStyle: { color: "inherit" },
  labelStyle: { color: "inherit" },
  wrapperClassName: "text-slate-900 [--tooltip-bg:white] dark:text-slate-100 dark:[--tooltip-bg:#0f172a]",
} as const;

/**
 * A chart as one image to screen readers, since they cannot read the SVG: `label` has to say what
 * the chart shows, figures included.
 */
export function ChartFigure({
  label,
  className = "h-64",
  caption,
  captionClassName = "mt-2 text-xs text-slate-600 dark:text-slate-300",
  figureClassName,
  children,
}: {
  label: string;
  /** The chart's height; the container fills it. */
  className?: string;
  caption?: ReactNode;
  captionClassName?: string;
  figureClassName?: string;
  /** The recharts chart, e.g. a BarChart. */
  children: ReactElement;
}) {
  return (
    <figure className={figureClassName}>
      <div role="img" aria-label={label} className={`${className} text-slate-600 dark:text-slate-300`}>
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
      {caption ? <figcaption className={captionClassName}>{caption}</figcaption> : null}
    </figure>
  );
}
