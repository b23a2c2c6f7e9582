import { currentLanguage, i18next } from "./i18n";

/**
 * Display formats, in the language the page is shown in (US conventions: en-US, es-US). One style
 * per purpose: `dayLabel` for a day in a run of days, `dateLabel` for a date on its own.
 * `yyyy-MM-dd` dates are calendar days, shown as they are whatever the browser's timezone.
 */

const LOCALES = { en: "en-US", es: "es-US" } as const;
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>();

/** One formatter per language and style, made once: making one costs far more than using it. */
function formatter<Kind extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>(
  style: string,
  make: (locale: string) => Kind,
): Kind {
  const language = currentLanguage();
  const key = `${language} ${style}`;
  let made = formatters.get(key) as Kind | undefined;
  if (!made) {
    made = make(LOCALES[language]);
    formatters.set(key, made);
  }
  return made;
}

/** The locale of the shown language, for an `Intl` format that no function here gives. */
export function shownLocale(): string {
  return LOCALES[currentLanguage()];
}

const dates = (style: string, options: Intl.DateTimeFormatOptions) =>
  formatter(style, (locale) => new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" }));

const noonOf = (isoDate: string) => new Date(`${isoDate}T12:00:00Z`);

/** A day among days: "Mon, Nov 3" ("lun, 3 nov"). */
export function dayLabel(isoDate: string): string {
  return dates("day", { weekday: "short", month: "short", day: "numeric" }).format(noonOf(isoDate));
}

/** A day on a chart's axis: "Nov 3" ("3 nov"). */
export function monthDayLabel(isoDate: string): string {
  return dates("monthDay", { month: "short", day: "numeric" }).format(noonOf(isoDate));
}

/** A date on its own: "Nov 3, 2025" ("3 nov 2025"). */
export function dateLabel(isoDate: string): string {
  return dates("date", { year: "numeric", month: "short", day: "numeric" }).format(noonOf(isoDate));
}

/** "Mon" ("lun") */
export function weekdayLabel(isoDate: string): string {
  return dates("weekday", { weekday: "short" }).format(noonOf(isoDate));
}

/** "Nov" ("nov") */
export function monthLabel(isoDate: string): string {
  return dates("month", { month: "short" }).format(noonOf(isoDate));
}

/** A moment with its date and time, in the reader's timezone: "Nov 3, 2025, 2:05 PM". */
export function instantLabel(instant: string | Date): string {
  return formatter(
    "instant",
    (locale) => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }),
  ).format(new Date(instant));
}

/** The date of a moment, in the reader's timezone: "Nov 3, 2025". */
export function instantDateLabel(instant: string | Date): string {
  return formatter(
    "instantDate",
    (locale) => new Intl.DateTimeFormat(locale, { dateStyle: "medium" }),
  ).format(new Date(instant));
}

/** The time of a moment, in the reader's timezone: "2:05 PM". */
export function timeLabel(instant: string | Date): string {
  return formatter("time", (locale) => new Intl.DateTimeFormat(locale, { timeStyle: "short" })).format(
    new Date(instant),
  );
}

/** A number with the shown language's separators: 1,234.5. */
export function formatNumber(value: number, maximumFractionDigits = 2): string {
  return formatter(
    `number${maximumFractionDigits}`,
    (locale) => new Intl.NumberFormat(locale, { maximumFractionDigits }),
  ).format(value);
}

/**
 * XP as children, parents and teachers read it: whole, rounded down, so that a goal never looks
 * met before it is (29.6 of 30 reads 29).
 */
/** 0.83 → "83%". */
export function formatPercent(share: number): string {
  return new Intl.NumberFormat(shownLocale(), { style: "percent", maximumFractionDigits: 0 }).format(share);
}

export function formatXp(xp: number): string {
  return formatter(
    "xp",
    (locale) => new Intl.NumberFormat(locale, { maximumFractionDigits: 0, roundingMode: "floor" }),
  ).format(xp);
}

/** A chart axis's number, short enough never to be cut: 950, 18K, 1.2M (18 mil in Spanish). */
export function axisNumber(value: number): string {
  return formatter(
    "axis",
    (locale) => new Intl.NumberFormat(locale, { notation: "compact", maximumFractionDigits: 1 }),
  ).format(value);
}

/** XP with at most one decimal (42, 12.5), for the staff pages that explain how XP was computed. */
export function formatExactXp(xp: number): string {
  return formatNumber(xp, 1);
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
  if (Math.abs(seconds) < 45) return i18next.t("common:justNow");
  const relative = formatter(
    "relative",
    (locale) => new Intl.RelativeTimeFormat(locale, { numeric: "auto" }),
  );
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === "minute")
      return relative.format(Math.round(seconds / size), unit);
  }
  return i18next.t("common:justNow");
}

/** Roster grades as people say them: "03" is 3, "KG" kindergarten (K): "K, 1, 2". */
export function gradeNames(grades: string[]): string {
  return grades.map((grade) => (grade === "KG" ? "K" : grade.replace(/^0+(?=\d)/, ""))).join(", ");
}

/** Roster grades for people: "Grade 3", "Grades K, 1". */
export function gradeLabel(grades: string[]): string {
  return i18next.t("common:grade", { count: grades.length, grades: gradeNames(grades) });
}
