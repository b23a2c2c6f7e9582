/** Display formats for dates and XP; `yyyy-MM-dd` dates are calendar days, shown as they are. */

// en-US names ("Sep", not en-GB's "Sept"), in the day-month order of "Mon 3 Nov".
const weekdayFormat = new Intl.DateTimeFormat("en-US", { weekday: "short", timeZone: "UTC" });
const monthFormat = new Intl.DateTimeFormat("en-US", { month: "short", timeZone: "UTC" });
const xpFormat = new Intl.NumberFormat("en", { maximumFractionDigits: 1 });
const relativeFormat = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

const noonOf = (isoDate: string) => new Date(`${isoDate}T12:00:00Z`);

/** "Mon 3 Nov" */
export function dayLabel(isoDate: string): string {
  const date = noonOf(isoDate);
  return `${weekdayFormat.format(date)} ${date.getUTCDate()} ${monthFormat.format(date)}`;
}

/** "3 Nov 2025" */
export function dateLabel(isoDate: string): string {
  const date = noonOf(isoDate);
  return `${date.getUTCDate()} ${monthFormat.format(date)} ${date.getUTCFullYear()}`;
}

/** "Mon" */
export function weekdayLabel(isoDate: string): string {
  return weekdayFormat.format(noonOf(isoDate));
}

/** "Nov" */
export function monthLabel(isoDate: string): string {
  return monthFormat.format(noonOf(isoDate));
}

/** XP with at most one decimal: 42, 12.5. */
export function formatXp(xp: number): string {
  return xpFormat.format(xp);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400],
  ["month", 30 * 86_400],
  ["week", 7 * 86_400],
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
];

/** "2 hours ago", "yesterday", "just now". */
export function relativeTime(instant: string | Date, now: Date = new Date()): string {
  const seconds = Math.round((new Date(instant).getTime() - now.getTime()) / 1000);
  if (Math.abs(seconds) < 45) return "just now";
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === "minute") {
      return relativeFormat.format(Math.round(seconds / size), unit);
    }
  }
  return "just now";
}

/** Roster grades as people say them: "03" is 3, "KG" kindergarten (K): "K, 1, 2". */
export function gradeNames(grades: string[]): string {
  return grades.map((grade) => (grade === "KG" ? "K" : grade.replace(/^0+(?=\d)/, ""))).join(", ");
}

/** Roster grades for people: "Grade 3". */
export function gradeLabel(grades: string[]): string {
  return `Grade ${gradeNames(grades)}`;
}
