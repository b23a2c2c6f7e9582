import type { Readable } from "node:stream";
import { parse } from "csv-parse";

export interface CsvRecord {
  /** The line the record starts on (1 = the header). */
  line: number;
  fields: string[];
}

/** The CSV could not be read past this point (an unclosed quote, for example). */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = "CsvSyntaxError";
  }
}

const LINE_BREAK = /\r\n|\r|\n/g;

function lineBreaksIn(fields: string[]): number {
  let count = 0;
  for (const field of fields) {
    if (field.includes("\n") || field.includes("\r")) count += field.match(LINE_BREAK)?.length ?? 0;
  }
  return count;
}

/**
 * Streams the records of a CSV file, one at a time: UTF-8 with or without a byte-order mark,
 * CRLF, LF or CR line ends (even mixed), quoted fields holding commas, quotes and line breaks.
 * Blank lines are skipped but counted, so every record knows the line it starts on.
 * `onBytes` hears how far into the file the parser is, for progress.
 */
export async function* readCsvRecords(
  input: Readable,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<CsvRecord> {
  const parser = input.pipe(
    parse({
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      record_delimiter: ["\r\n", "\n", "\r"],
    }),
  );
  input.once("error", (error) => parser.destroy(error));
  // csv-parse's own line counter counts a quoted CRLF twice, so lines are counted here.
  let line = 1;
  let records = 0;
  try {
    for await (const fields of parser as AsyncIterable<string[]>) {
      const start = line;
      line += 1 + lineBreaksIn(fields);
      if (onBytes && ++records % 2000 === 0) onBytes(parser.info.bytes);
      if (fields.every((field) => field === "")) continue;
      yield { line: start, fields };
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code?.startsWith("CSV_")) throw new CsvSyntaxError(line, readableCsvError(code, error as Error));
    throw error;
  } finally {
    input.destroy();
  }
  onBytes?.(parser.info.bytes);
}

function readableCsvError(code: string, error: Error): string {
  if (code === "CSV_QUOTE_NOT_CLOSED")
    return "A quoted field is never closed: the rest of the file cannot be read";
  return `The file is not valid CSV from here on (${error.message})`;
}
