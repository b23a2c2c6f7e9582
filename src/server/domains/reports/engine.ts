import {
  REPORT_PAGE_SIZE,
  REPORT_PREVIEW_ROWS,
  type ReportColumn,
  type ReportFilter,
  type ReportId,
  type ReportResult,
  type ReportSearch,
  type ReportTable,
  type ReportUnit,
  type ReportValue,
  reportSearchSchema,
} from "../../../shared/contracts/reports";
import type { Language } from "../../../shared/languages";
import type { Database } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message, translate } from "../../lib/i18n";

/** What a report's query runs with: who asks, what they asked for, and the words of their language. */
export interface ReportContext {
  db: Database;
  /** Figures may come from a replica a second behind; who may see what is asked of `db`. */
  readDb: Database;
  actor: Actor;
  search: ReportSearch;
  now: Date;
  language: Language;
  /** The BCP 47 locale numbers and dates are written in. */
  locale: string;
  /** A word of the reports catalogue (`reports:<key>`) in the reader's language. */
  t: (key: string, values?: Record<string, unknown>) => string;
}

/** What a definition builds; the engine adds the id, the title and when it was made. */
export type ReportBody = Omit<ReportResult, "id" | "title" | "generatedAt" | "filterKeys">;

export interface ReportDefinition {
  id: ReportId;
  /**
   * `administrator`: the school's reports, for administrators only. `learner`: one student's own
   * report, for the student, their family, their Guides and administrators (the definition checks
   * the student inside its query).
   */
  access: "administrator" | "learner";
  filters: readonly ReportFilter[];
  build(context: ReportContext): Promise<ReportBody>;
}

/** The BCP 47 locale each language writes numbers and dates in (the PDF uses it too). */
export const LOCALES: Record<Language, string> = { en: "en-US", es: "es" };

export const reportsForbidden = () => new AppError("forbidden", message("reports:forbidden"));

export interface RunOptions {
  /**
   * A schedule's mail to a Guide among its recipients: the administrator report is run for them
   * too, over their own students only (each definition's population is the caller's reach).
   */
  scheduledDelivery?: boolean;
}

/** A report in full: every row of every table, the main one searched and sorted as asked. */
export async function runReport(
  deps: { db: Database; readDb: Database },
  definition: ReportDefinition,
  actor: Actor,
  rawSearch: unknown,
  language: Language,
  now: Date,
  options: RunOptions = {},
): Promise<ReportResult> {
  const admitted =
    actor.activeRole === "administrator" || (options.scheduledDelivery && actor.activeRole === "teacher");
  if (definition.access === "administrator" && !admitted) throw reportsForbidden();
  const search = reportSearchSchema.parse(rawSearch ?? {});
  const t = (key: string, values?: Record<string, unknown>) =>
    translate(message(`reports:${key}`, values), language);
  const body = await definition.build({
    ...deps,
    actor,
    search,
    now,
    language,
    locale: LOCALES[language],
    t,
  });
  const result: ReportResult = {
    id: definition.id,
    title: t(`titles.${definition.id}`),
    generatedAt: now.toISOString(),
    filterKeys: [...definition.filters],
    ...body,
  };
  return { ...result, tables: result.tables.map((table) => (table.main ? searched(table, search) : table)) };
}

/** The report as its page shows it: a page of the main table, the first rows of the others. */
export function pageOfReport(result: ReportResult, search: ReportSearch): ReportResult {
  return {
    ...result,
    tables: result.tables.map((table) => {
      const size = table.main ? REPORT_PAGE_SIZE : REPORT_PREVIEW_ROWS;
      const start = table.main
        ? Math.min(search.page, Math.max(0, Math.ceil(table.total / size) - 1)) * size
        : 0;
      return {
        ...table,
        rows: table.rows.slice(start, start + size),
        studentIds: table.studentIds?.slice(start, start + size),
      };
    }),
  };
}

/** The rows whose text holds the search, sorted by the column asked for (ties keep the report's order). */
function searched(table: ReportTable, search: ReportSearch): ReportTable {
  const query = search.q.trim().toLocaleLowerCase();
  let order = table.rows.map((_, index) => index);
  if (query) {
    const textColumns = table.columns.flatMap((column, index) => (column.unit === "text" ? [index] : []));
    order = order.filter((index) =>
      textColumns.some((column) =>
        String(table.rows[index]?.[column] ?? "")
          .toLocaleLowerCase()
          .includes(query),
      ),
    );
  }
  const column =
    search.sort && table.sortable.includes(search.sort)
      ? table.columns.findIndex((c) => c.key === search.sort)
      : -1;
  if (column >= 0) {
    const direction = search.order === "asc" ? 1 : -1;
    order.sort((a, b) =>
      compareValues(table.rows[a]?.[column] ?? null, table.rows[b]?.[column] ?? null, direction),
    );
  }
  return {
    ...table,
    rows: order.map((index) => table.rows[index] as ReportValue[]),
    studentIds: table.studentIds && order.map((index) => table.studentIds?.[index] ?? null),
    total: order.length,
  };
}

/** Numbers by size, words alphabetically, trends by their sum; a missing value sorts last either way. */
function compareValues(a: ReportValue, b: ReportValue, direction: number): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const size = (value: ReportValue) =>
    Array.isArray(value) ? value.reduce((sum, item) => sum + item, 0) : value;
  const [left, right] = [size(a), size(b)];
  if (typeof left === "number" && typeof right === "number") return (left - right) * direction;
  return String(left).localeCompare(String(right)) * direction;
}

/** Units written beside a heading; counts, dates and words need none. */
const LABELLED_UNITS: ReadonlySet<ReportUnit> = new Set([
  "xp",
  "minutes",
  "hours",
  "percent",
  "xpPerHour",
  "rit",
  "trend",
]);

/** Columns by key and unit: each heading (`columns.<key>`) and unit (`units.<unit>`) from the catalogue. */
export function columnsOf(
  context: ReportContext,
  columns: readonly (readonly [key: string, unit: ReportUnit])[],
): ReportColumn[] {
  return columns.map(([key, unit]) => ({
    key,
    label: context.t(`columns.${key}`),
    unit,
    unitLabel: LABELLED_UNITS.has(unit) ? context.t(`units.${unit}`) : "",
  }));
}
