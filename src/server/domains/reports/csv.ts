import type { ReportResult, ReportTable, ReportValue } from "../../../shared/contracts/reports";
import { csvLine } from "../../../shared/csv";
import { columnHeading } from "../../../shared/report-values";

/** Spreadsheet programs read a UTF-8 file as UTF-8 (accents, ñ) only when it starts with this mark. */
const BYTE_ORDER_MARK = "\uFEFF";

/** A value as a spreadsheet should read it: a share as a percent number, a trend as numbers with spaces. */
function cell(value: ReportValue, unit: ReportTable["columns"][number]["unit"]): unknown {
  if (value === null) return null;
  if (Array.isArray(value)) return value.join(" ");
  if (unit === "percent" && typeof value === "number") return Math.round(value * 1000) / 10;
  return value;
}

/** One table of a report as CSV lines: the headings the page shows, with units, then every row. */
export function* reportCsv(table: ReportTable): Generator<string> {
  yield BYTE_ORDER_MARK + csvLine(table.columns.map(columnHeading));
  for (const row of table.rows)
    yield csvLine(row.map((value, index) => cell(value, table.columns[index]?.unit ?? "text")));
}

/** The file name of a report's download: the report, the table when not the main one, the period's first day. */
export function reportFileName(result: ReportResult, extension: "csv" | "pdf", table?: ReportTable): string {
  const day = result.filters.date ?? result.filters.startDate ?? result.generatedAt.slice(0, 10);
  const part = table && !table.main ? `-${table.key}` : "";
  return `${result.id}${part}-${day}.${extension}`;
}
