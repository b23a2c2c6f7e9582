import { sql } from "drizzle-orm";
import { type CsvImportError, gradeLevelOf } from "../../../shared/contracts/assessment";
import { isIsoDate } from "../../../shared/search";
import { type Database, queryRows } from "../../db/client";
import { AppError } from "../../lib/errors";
import type { FileSet } from "../../lib/file-set";
import { type Message, message } from "../../lib/i18n";
import { CsvSyntaxError, readCsvRecords } from "../../lib/uploads";
import { isStudent } from "../rostering/queries";

/**
 * Reading the placement and screening CSVs: the file's rows by column name, each cell read and
 * checked with the line and column of whatever is wrong, and students matched by the roster's
 * identifier, sourcedId or email.
 */

/** More rows than a school's whole roster is not a placement file. */
export const MAX_IMPORT_ROWS = 20_000;

export interface CsvRow {
  line: number;
  /** The cell of each known column, trimmed; "" when the row leaves it out. */
  cell: (column: string) => string;
}

/** A column of an import: the header names it goes by (compared without case, spaces or underscores). */
export interface ImportColumn {
  name: string;
  aliases?: string[];
  required: boolean;
}

const headerKey = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, "");

/** The rows of the upload's CSV file (the first .csv of a .zip), by column; a missing required column refuses the file. */
export async function readImportRows(files: FileSet, columns: ImportColumn[]): Promise<CsvRow[]> {
  const file = files.entries.find((entry) => /\.csv$/i.test(entry.name)) ?? files.entries[0];
  if (!file) throw new AppError("bad_request", message("assessment:placements.import.noRows"));
  const input = await file.open();
  const rows: CsvRow[] = [];
  let indexOf: Map<string, number> | null = null;
  try {
    for await (const record of readCsvRecords(input, { file: file.name })) {
      if (!indexOf) {
        indexOf = columnIndexes(record.fields, columns);
        continue;
      }
      if (record.fields.every((field) => field.trim() === "")) continue;
      if (rows.length === MAX_IMPORT_ROWS)
        throw new AppError(
          "bad_request",
          message("assessment:placements.import.tooManyRows", { max: MAX_IMPORT_ROWS }),
        );
      const { fields } = record;
      const positions = indexOf;
      rows.push({
        line: record.line,
        cell: (column) => {
          const index = positions.get(column);
          return index === undefined ? "" : (fields[index] ?? "").trim();
        },
      });
    }
  } catch (error) {
    if (error instanceof CsvSyntaxError)
      throw new AppError(
        "bad_request",
        message("assessment:placements.import.brokenCsv", {
          file: file.name,
          line: error.line,
          reason: error.message,
        }),
      );
    throw error;
  } finally {
    input.destroy();
  }
  if (rows.length === 0) throw new AppError("bad_request", message("assessment:placements.import.noRows"));
  return rows;
}

function columnIndexes(header: string[], columns: ImportColumn[]): Map<string, number> {
  const positions = new Map(header.map((name, index) => [headerKey(name), index]));
  const found = new Map<string, number>();
  const missing: string[] = [];
  for (const column of columns) {
    const index = [column.name, ...(column.aliases ?? [])]
      .map((name) => positions.get(headerKey(name)))
      .find((position) => position !== undefined);
    if (index !== undefined) found.set(column.name, index);
    else if (column.required) missing.push(column.name);
  }
  if (missing.length)
    throw new AppError(
      "bad_request",
      message("assessment:placements.import.missingColumns", { columns: missing.join(", ") }),
    );
  return found;
}

/** Collects a row's problems; each reader answers null for a cell it could not take. */
export class RowReader {
  readonly problems: { column: string | null; message: Message }[] = [];

  constructor(readonly row: CsvRow) {}

  problem(column: string | null, text: Message): null {
    this.problems.push({ column, message: text });
    return null;
  }

  text(column: string, options: { required: boolean; max: number }): string | null {
    const value = this.row.cell(column);
    if (!value)
      return options.required
        ? this.problem(column, message("assessment:placements.import.required", { column }))
        : null;
    if (value.length > options.max)
      return this.problem(
        column,
        message("assessment:placements.import.tooLong", { column, max: options.max }),
      );
    return value;
  }

  /**
   * The student a cell names (sourcedId, identifier or email, as `match` finds them), or null with
   * the problem said: nobody, or more than one student, has that value.
   */
  student(column: string, match: StudentMatch, options: { required: boolean }): string | null {
    const key = this.text(column, { ...options, max: 320 });
    if (!key) return null;
    const studentId = match(key);
    if (studentId === null)
      return this.problem(column, message("assessment:placements.import.unknownStudent", { value: key }));
    if (studentId === "ambiguous")
      return this.problem(column, message("assessment:placements.import.ambiguousStudent", { value: key }));
    return studentId;
  }

  /** K, KG, 0 to 12 (03 is 3). */
  grade(column: string): number | null {
    const value = this.row.cell(column);
    if (!value) return this.problem(column, message("assessment:placements.import.required", { column }));
    const grade = gradeLevelOf(value);
    return grade ?? this.problem(column, message("assessment:placements.import.notGrade", { value }));
  }

  /** A whole number from min to max, or null when empty. */
  wholeNumber(column: string, min: number, max: number): number | null {
    const value = this.row.cell(column);
    if (!value) return null;
    const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (Number.isInteger(number) && number >= min && number <= max) return number;
    return this.problem(column, message("assessment:placements.import.notBetween", { value, min, max }));
  }

  /** yyyy-mm-dd or M/D/YYYY, not after `today`. */
  date(column: string, today: string): string | null {
    const value = this.row.cell(column);
    if (!value) return this.problem(column, message("assessment:placements.import.required", { column }));
    const date = parseDate(value);
    if (!date) return this.problem(column, message("assessment:placements.import.notDate", { value }));
    if (date > today)
      return this.problem(column, message("assessment:placements.import.futureDate", { value }));
    return date;
  }

  oneOf<Value extends string>(column: string, values: readonly Value[], fallback: Value): Value | null {
    const value = this.row.cell(column).toLowerCase();
    if (!value) return fallback;
    const found = values.find((option) => option.toLowerCase() === value);
    return (
      found ??
      this.problem(
        column,
        message("assessment:placements.import.notOneOf", { value, values: values.join(", ") }),
      )
    );
  }
}

function parseDate(value: string): string | null {
  if (isIsoDate(value)) return value;
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  if (!match) return null;
  const iso = `${match[3]}-${match[1]?.padStart(2, "0")}-${match[2]?.padStart(2, "0")}`;
  return isIsoDate(iso) ? iso : null;
}

/** The rows' problems as the report lists them, in the reader's language. */
export function importErrors(
  readers: RowReader[],
  say: (text: Message) => string,
): { errors: CsvImportError[]; rejected: number } {
  const errors: CsvImportError[] = [];
  let rejected = 0;
  for (const reader of readers) {
    if (reader.problems.length) rejected++;
    for (const problem of reader.problems)
      errors.push({ line: reader.row.line, column: problem.column, message: say(problem.message) });
  }
  return { errors, rejected };
}

/**
 * Finds a student by what a school's file names them with: the roster's sourcedId, its identifier
 * (the school's own student number) or the email, without case. An identifier two students share
 * names neither.
 */
/** Finds the student a CSV cell names; "ambiguous" when several have the value. */
export type StudentMatch = (key: string) => string | "ambiguous" | null;

export async function studentMatcher(db: Database): Promise<StudentMatch> {
  const students = await queryRows<{ id: string; identifier: string | null; email: string | null }>(
    db,
    sql`select u.sourced_id as id, u.identifier, u.email from users u where ${isStudent(sql`u.sourced_id`)}`,
  );
  const byId = new Set(students.map((student) => student.id));
  const byOther = new Map<string, string | "ambiguous">();
  for (const student of students) {
    for (const key of [student.identifier, student.email]) {
      if (!key) continue;
      const lower = key.toLowerCase();
      const known = byOther.get(lower);
      byOther.set(lower, known && known !== student.id ? "ambiguous" : student.id);
    }
  }
  return (key) => (byId.has(key) ? key : (byOther.get(key.toLowerCase()) ?? null));
}
