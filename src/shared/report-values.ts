import type { ReportColumn, ReportUnit, ReportValue } from "./contracts/reports";

/** A column's heading with its unit, as "On task (min)"; a unit the heading already says is not repeated. */
export function columnHeading(column: ReportColumn): string {
  return column.unitLabel && !column.label.includes(column.unitLabel)
    ? `${column.label} (${column.unitLabel})`
    : column.label;
}

/**
 * A report's figure as a person reads it, the same on the page and in the PDF: XP with up to two
 * decimals, minutes and hours whole or with one decimal, a share as a percent, a date in words.
 * The CSV writes the numbers as they are (its headings carry the units).
 */
export function formatReportValue(value: ReportValue, unit: ReportUnit, locale: string): string {
  if (value === null) return "–";
  if (Array.isArray(value)) return value.map((item) => number(item, 0, locale)).join(" ");
  if (typeof value === "string") return unit === "date" ? dateInWords(value, locale) : value;
  switch (unit) {
    case "percent":
      return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 0 }).format(value);
    case "xp":
      return number(value, 2, locale);
    case "hours":
    case "xpPerHour":
      return number(value, 1, locale);
    default:
      return number(value, 0, locale);
  }
}

function number(value: number, maximumFractionDigits: number, locale: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits }).format(value);
}

/** `2026-11-22` as "22 Nov 2026" (in the reader's language), read as a calendar day, not an instant. */
export function dateInWords(isoDate: string, locale: string): string {
  const date = new Date(`${isoDate}T12:00:00Z`);
  if (Number.isNaN(date.getTime())) return isoDate;
  return new Intl.DateTimeFormat(locale, {
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  }).format(date);
}

/** A change against the previous period as "+12%" or "−4%"; null when there was nothing to compare. */
export function formatChange(change: number | null | undefined, locale: string): string | null {
  if (change === null || change === undefined) return null;
  return new Intl.NumberFormat(locale, {
    style: "percent",
    maximumFractionDigits: 0,
    signDisplay: "exceptZero",
  }).format(change);
}
