import type { ReportChart, ReportUnit } from "../../../shared/contracts/reports";
import { formatReportValue } from "../../../shared/report-values";

/**
 * A report's chart as SVG for the printed page: a value axis with a few round ticks, the category
 * labels thinned so they never overlap, one colour per series and a legend when there are several.
 * Sizes are in points (the PDF's unit).
 */

/** Distinct on white and in grey print; the first is the page's own blue. */
export const SERIES_COLOURS = ["#2563eb", "#ea580c", "#16a34a", "#9333ea", "#db2777", "#0891b2", "#ca8a04"];

const FONT = "Roboto";
const LABEL_SIZE = 7.5;
const LEGEND_SIZE = 8;
const AXIS_COLOUR = "#64748b";
const GRID_COLOUR = "#e2e8f0";
const TEXT_COLOUR = "#334155";
/** Roboto's average advance at 1 pt, generous so an estimated label is never narrower than the real one. */
const CHARACTER_WIDTH = 0.56;

export interface ChartSvgOptions {
  width: number;
  height: number;
  locale: string;
  /** What the values are counted in ("XP", "min"), written above the axis; empty when the ticks say it. */
  unitLabel: string;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function textWidth(text: string, size: number): number {
  return text.length * size * CHARACTER_WIDTH;
}

function text(
  x: number,
  y: number,
  content: string,
  size: number,
  anchor: "start" | "middle" | "end",
  fill = TEXT_COLOUR,
) {
  return `<text x="${round(x)}" y="${round(y)}" font-family="${FONT}" font-size="${size}" fill="${fill}" text-anchor="${anchor}">${escapeXml(content)}</text>`;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * Round ticks from the lowest to the highest value, zero included: steps of 1, 2, 2.5 or 5 times a
 * power of ten, about `count` of them, never finer than the unit is written (a count in whole
 * numbers: no tick of 0.5 written "1").
 */
export function niceTicks(low: number, high: number, count = 4, minimumStep = 1): number[] {
  const bottom = Math.min(0, low);
  const top = Math.max(0, high);
  const span = top - bottom || Math.max(1, minimumStep * count);
  const rough = span / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(
    minimumStep,
    ([1, 2, 2.5, 5, 10].find((factor) => factor * power >= rough) ?? 10) * power,
  );
  const ticks: number[] = [];
  for (
    let tick = Math.floor(bottom / step) * step;
    ticks.length === 0 || (ticks.at(-1) ?? 0) < bottom + span;
    tick += step
  )
    ticks.push(Math.round(tick / step) * step);
  return ticks.length > 1 ? ticks : [0, step];
}

/** The finest tick each unit is written with (formatReportValue's decimals). */
function finestStep(unit: ReportUnit): number {
  if (unit === "xp" || unit === "percent") return 0.01;
  if (unit === "hours" || unit === "xpPerHour") return 0.1;
  return 1;
}

/**
 * Every how many categories a label is written so that none overlaps its neighbour: 1 when all
 * fit, else a step that leaves room for the widest.
 */
export function labelStep(labels: readonly string[], slotWidth: number, size = LABEL_SIZE): number {
  const widest = Math.max(0, ...labels.map((label) => textWidth(label, size)));
  return Math.max(1, Math.ceil((widest + size) / Math.max(slotWidth, 0.01)));
}

export function chartSvg(chart: ReportChart, options: ChartSvgOptions): string {
  const { width, height, locale } = options;
  const values = chart.series.flatMap((series) => series.values.filter((value) => value !== null));
  const ticks = niceTicks(Math.min(0, ...values), Math.max(0, ...values), 4, finestStep(chart.unit));
  const tickLabels = ticks.map((tick) => formatReportValue(tick, chart.unit, locale));
  const legend = chart.series.length > 1;

  const top = (legend ? 22 : 6) + (options.unitLabel ? 12 : 0);
  const left =
    Math.max(
      ...tickLabels.map((label) => textWidth(label, LABEL_SIZE)),
      textWidth(options.unitLabel, LABEL_SIZE) / 2,
    ) + 10;
  const bottom = height - 18;
  const right = width - 6;
  const plotWidth = Math.max(1, right - left);
  const low = ticks[0] ?? 0;
  const high = ticks.at(-1) ?? 1;
  const y = (value: number) => bottom - ((value - low) / (high - low || 1)) * (bottom - top);
  const slot = plotWidth / Math.max(1, chart.categories.length);
  const centre = (index: number) => left + slot * (index + 0.5);

  const parts: string[] = [];
  if (legend) {
    let x = left;
    chart.series.forEach((series, index) => {
      const colour = SERIES_COLOURS[index % SERIES_COLOURS.length];
      parts.push(`<rect x="${round(x)}" y="4" width="9" height="9" rx="1.5" fill="${colour}"/>`);
      parts.push(text(x + 13, 12, series.name, LEGEND_SIZE, "start"));
      x += 13 + textWidth(series.name, LEGEND_SIZE) + 14;
    });
  }
  if (options.unitLabel)
    parts.push(text(left - 6, top - 6, options.unitLabel, LABEL_SIZE, "end", AXIS_COLOUR));
  ticks.forEach((tick, index) => {
    const at = y(tick);
    parts.push(
      `<line x1="${round(left)}" y1="${round(at)}" x2="${round(right)}" y2="${round(at)}" stroke="${tick === 0 ? AXIS_COLOUR : GRID_COLOUR}" stroke-width="${tick === 0 ? 0.8 : 0.5}"/>`,
    );
    parts.push(
      text(left - 5, at + LABEL_SIZE * 0.35, tickLabels[index] ?? "", LABEL_SIZE, "end", AXIS_COLOUR),
    );
  });

  const step = labelStep(chart.categories, slot);
  chart.categories.forEach((category, index) => {
    if (index % step === 0)
      parts.push(text(centre(index), bottom + 11, category, LABEL_SIZE, "middle", AXIS_COLOUR));
  });

  const zero = y(0);
  if (chart.kind === "bar") {
    const seriesCount = Math.max(1, chart.series.length);
    const groupWidth = slot * 0.72;
    const barWidth = groupWidth / seriesCount;
    chart.series.forEach((series, seriesIndex) => {
      const colour = SERIES_COLOURS[seriesIndex % SERIES_COLOURS.length];
      series.values.forEach((value, index) => {
        if (value === null) return;
        const x = centre(index) - groupWidth / 2 + barWidth * seriesIndex;
        const at = y(value);
        parts.push(
          `<rect x="${round(x)}" y="${round(Math.min(at, zero))}" width="${round(Math.max(0.4, barWidth - 0.6))}" height="${round(Math.abs(zero - at))}" fill="${colour}"/>`,
        );
      });
    });
  } else {
    chart.series.forEach((series, seriesIndex) => {
      const colour = SERIES_COLOURS[seriesIndex % SERIES_COLOURS.length];
      // A missing value breaks the line rather than drawing it down to zero.
      const runs: string[][] = [[]];
      series.values.forEach((value, index) => {
        if (value === null) runs.push([]);
        else runs.at(-1)?.push(`${round(centre(index))},${round(y(value))}`);
      });
      for (const run of runs) {
        if (run.length > 1)
          parts.push(
            `<polyline points="${run.join(" ")}" fill="none" stroke="${colour}" stroke-width="1.6" stroke-linejoin="round" stroke-linecap="round"/>`,
          );
        if (run.length === 1 || series.values.length <= 31)
          for (const point of run) {
            const [cx, cy] = point.split(",");
            parts.push(`<circle cx="${cx}" cy="${cy}" r="1.8" fill="${colour}"/>`);
          }
      }
    });
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join("")}</svg>`;
}

/**
 * A row's trend as the points of a tiny line for a table cell, lowest at the bottom. Drawn by the
 * PDF as vector lines rather than as SVG: a table of a thousand rows would parse a thousand SVGs.
 */
export function sparklinePoints(
  values: readonly number[],
  width: number,
  height: number,
): { x: number; y: number }[] {
  const low = Math.min(0, ...values);
  const high = Math.max(...values, low + 1);
  const step = values.length > 1 ? (width - 4) / (values.length - 1) : 0;
  return values.map((value, index) => ({
    x: round(2 + step * index),
    y: round(height - 2 - ((value - low) / (high - low)) * (height - 4)),
  }));
}
