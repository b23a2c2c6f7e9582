import { type Message, message } from "../../../lib/i18n";
import type { ProblemLog } from "./problems";
import { closestName, EXTENSION_VALUE, METADATA_PREFIX, VOCABULARY, type Vocabulary } from "./spec";

/**
 * Reading one CSV file's header and the typed values of its rows, reporting every problem with
 * its file, line and column. Vocabularies are matched without regard to case, consistently for
 * every enumerated field: a value in another case is read as the standard spelling, with a warning.
 */

export interface Header {
  /** The standard column name at each position; null for a column that is not read. */
  names: (string | null)[];
  /** Position of each standard column. */
  index: Map<string, number>;
  /** Positions of `metadata.*` columns, by metadata key. */
  metadata: Map<string, number>;
  /** Positions of columns without a name, whose values are not read. */
  unnamed: number[];
  /** False when a required column is missing: the rows cannot be read. */
  isUsable: boolean;
}

export function readHeader(
  fields: string[],
  options: { file: string; known: readonly string[]; required: readonly string[] },
  problems: ProblemLog,
): Header {
  const header: Header = { names: [], index: new Map(), metadata: new Map(), unnamed: [], isUsable: true };
  const place = (column: string | null) => ({ file: options.file, line: 1, column });
  fields.forEach((raw, position) => {
    const name = raw.trim();
    header.names.push(null);
    if (name === "") {
      header.unnamed.push(position);
      problems.warning(
        place(null),
        message("rostering:bulk.columnUnnamed", { position: String(position + 1) }),
      );
      return;
    }
    if (name.toLowerCase().startsWith(METADATA_PREFIX)) {
      const key = name.slice(METADATA_PREFIX.length);
      if (!key || header.metadata.has(key))
        problems.error(place(name), message("rostering:bulk.metadataColumnBad", { name }));
      else header.metadata.set(key, position);
      return;
    }
    const standard =
      options.known.find((known) => known === name) ??
      options.known.find((known) => known.toLowerCase() === name.toLowerCase());
    if (!standard) {
      const suggestion = closestName(name, options.known);
      problems.error(
        place(name),
        suggestion
          ? message("rostering:bulk.unknownColumnSuggestion", { name, suggestion, prefix: METADATA_PREFIX })
          : message("rostering:bulk.unknownColumn", { name, prefix: METADATA_PREFIX }),
      );
      return;
    }
    if (standard !== name)
      problems.warning(place(name), message("rostering:bulk.columnReadAs", { name, standard }));
    if (header.index.has(standard)) {
      problems.error(place(name), message("rostering:bulk.columnTwice", { name: standard }));
      return;
    }
    header.index.set(standard, position);
    header.names[position] = standard;
  });
  for (const column of options.required) {
    if (!header.index.has(column)) {
      header.isUsable = false;
      problems.error(place(column), message("rostering:bulk.requiredColumnMissing", { column }));
    }
  }
  return header;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isCalendarDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  if (month < 1 || month > 12 || day < 1) return false;
  const isLeap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && isLeap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0));
}

/** The last date-time found valid: the rows of a file mostly share one, and checking it is not free. */
let lastValidDateTime = "";

/** The standard spelling of a vocabulary value, matched without regard to case. */
export function standardSpelling(vocabulary: Vocabulary, value: string): string | undefined {
  const words: readonly string[] = VOCABULARY[vocabulary];
  return (
    words.find((word) => word === value) ?? words.find((word) => word.toLowerCase() === value.toLowerCase())
  );
}

/** The values of one data row, read column by column; every problem goes to the log with its place. */
export class RowReader {
  constructor(
    readonly file: string,
    readonly line: number,
    private readonly header: Header,
    private readonly fields: string[],
    private readonly problems: ProblemLog,
  ) {
    for (const position of header.unnamed) {
      if ((fields[position] ?? "").trim() !== "") {
        this.error(
          null,
          message("rostering:bulk.valueUnderUnnamed", {
            value: fields[position],
            position: String(position + 1),
          }),
        );
      }
    }
    if (fields.length > header.names.length) {
      this.error(
        null,
        message("rostering:bulk.tooManyFields", {
          fields: String(fields.length),
          columns: String(header.names.length),
        }),
      );
    }
  }

  error(column: string | null, problem: Message): void {
    this.problems.error({ file: this.file, line: this.line, column }, problem);
  }

  warning(column: string | null, problem: Message): void {
    this.problems.warning({ file: this.file, line: this.line, column }, problem);
  }

  has(column: string): boolean {
    return this.header.index.has(column);
  }

  /** The trimmed value, "" when empty or when the file has no such column. */
  raw(column: string): string {
    const position = this.header.index.get(column);
    return position === undefined ? "" : (this.fields[position] ?? "").trim();
  }

  text(column: string, options: { required?: boolean } = {}): string | null {
    const value = this.raw(column);
    if (value !== "") return value;
    if (options.required) this.error(column, message("rostering:bulk.required", { column }));
    return null;
  }

  enumeration(
    column: string,
    vocabulary: Vocabulary,
    options: { required?: boolean; allowExtension?: boolean; openEnded?: boolean } = {},
  ): string | null {
    const value = this.text(column, options);
    if (value === null) return null;
    const standard = standardSpelling(vocabulary, value);
    if (standard === value) return value;
    if (standard) {
      this.warning(column, message("rostering:bulk.standardSpelling", { value, standard }));
      return standard;
    }
    if (options.allowExtension && EXTENSION_VALUE.test(value)) return value;
    const allowed = {
      allowed: VOCABULARY[vocabulary].join(", "),
      extension: options.allowExtension ? "yes" : "no",
    };
    if (options.openEnded) {
      this.warning(column, message("rostering:bulk.notOneRosterValue", { value, ...allowed }));
      return value;
    }
    this.error(column, message("rostering:bulk.notOneOf", { value, ...allowed }));
    return null;
  }

  /** A calendar date, YYYY-MM-DD. */
  date(column: string, options: { required?: boolean } = {}): string | null {
    const value = this.text(column, options);
    if (value === null) return null;
    if (isCalendarDate(value)) return value;
    this.error(column, message("rostering:bulk.notDate", { value }));
    return null;
  }

  /**
   * An ISO 8601 date and time, returned as written (the database reads it, keeping microseconds);
   * a plain date is read as midnight UTC, with a warning.
   */
  dateTime(column: string, options: { required?: boolean } = {}): string | null {
    const value = this.text(column, options);
    if (value === null) return null;
    if (value === lastValidDateTime) return value;
    if (ISO_DATE_TIME.test(value) && isCalendarDate(value.slice(0, 10)) && !Number.isNaN(Date.parse(value))) {
      lastValidDateTime = value;
      return value;
    }
    if (isCalendarDate(value)) {
      this.warning(column, message("rostering:bulk.dateAsMidnight"));
      return `${value}T00:00:00Z`;
    }
    this.error(column, message("rostering:bulk.notDateTime", { value }));
    return null;
  }

  boolean(column: string, options: { required?: boolean } = {}): boolean | null {
    const value = this.text(column, options);
    if (value === null) return null;
    const lower = value.toLowerCase();
    if (lower === "true") return true;
    if (lower === "false") return false;
    this.error(column, message("rostering:bulk.notBoolean", { value }));
    return null;
  }

  /** A comma-separated list (quoted in the CSV when it has several items). */
  list(column: string, options: { required?: boolean } = {}): string[] {
    const items = this.raw(column)
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item !== "");
    if (items.length === 0 && options.required)
      this.error(column, message("rostering:bulk.required", { column }));
    return items;
  }

  /** Grade levels: CEDS codes in their standard case; other values are kept, with a warning. */
  grades(column: string): string[] {
    return this.list(column).map((grade) => {
      const standard = standardSpelling("grade", grade);
      if (standard === grade || EXTENSION_VALUE.test(grade)) return grade;
      if (standard) {
        this.warning(column, message("rostering:bulk.gradeReadAs", { grade, standard }));
        return standard;
      }
      this.warning(column, message("rostering:bulk.notCedsGrade", { grade }));
      return grade;
    });
  }

  /** The non-empty `metadata.*` values of the row. */
  metadata(): Record<string, string> {
    const values: Record<string, string> = {};
    for (const [key, position] of this.header.metadata) {
      const value = (this.fields[position] ?? "").trim();
      if (value !== "") values[key] = value;
    }
    return values;
  }
}
