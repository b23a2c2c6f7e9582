/**
 * The one CSV writer of Dash, shared by the server and the browser (RFC 4180: CRLF line ends,
 * a field quoted when it holds a comma, a quote, a line break or spaces at its edges).
 *
 * A file people open in a spreadsheet is written in the "spreadsheet" mode (the default): a
 * text cell beginning with =, +, -, @, a tab or a carriage return is a formula to Excel,
 * LibreOffice and Google Sheets, so a student named `=HYPERLINK(…)` could run one on a teacher's
 * machine. Such cells get a leading apostrophe, which spreadsheets read as "this is text".
 * Numbers are written as they are, also when they come as text (a database's decimals): a negative
 * number is not a formula.
 *
 * The "exact" mode writes every value as it is. Only a file that another system reads back
 * byte for byte may use it: the OneRoster interchange export.
 */

export type CsvMode = "spreadsheet" | "exact";

export interface CsvOptions {
  mode?: CsvMode;
}

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** One value as a CSV field; null and undefined are empty, objects are written as JSON. */
export function csvField(value: unknown, options: CsvOptions = {}): string {
  if (value === null || value === undefined) return "";
  let text =
    typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
  const isFormula = FORMULA_START.test(text) && !PLAIN_NUMBER.test(text);
  if (typeof value === "string" && options.mode !== "exact" && isFormula) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, its line end included. */
export function csvLine(values: readonly unknown[], options: CsvOptions = {}): string {
  return `${values.map((value) => csvField(value, options)).join(",")}\r\n`;
}

/** A whole file: one record per row, each ended by CRLF. */
export function csvText(rows: readonly (readonly unknown[])[], options: CsvOptions = {}): string {
  return rows.map((row) => csvLine(row, options)).join("");
}
