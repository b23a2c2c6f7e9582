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
const QUEUE_HIGH_WATER = 2_000;

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
  const parser = parse({
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    record_delimiter: ["\r\n", "\n", "\r"],
  });
  // Records are taken from 'data' events, not the stream's async iterator: that one drops the
  // records still buffered when a syntax error ends the file, and with them the error's line.
  const queue: string[][] = [];
  let next = 0;
  let failure: Error | null = null;
  let isEnded = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  parser.on("data", (fields: string[]) => {
    queue.push(fields);
    if (queue.length - next >= QUEUE_HIGH_WATER) parser.pause();
    notify();
  });
  parser.once("error", (error) => {
    failure = error;
    notify();
  });
  parser.once("end", () => {
    isEnded = true;
    notify();
  });
  input.once("error", (error) => parser.destroy(error));
  input.pipe(parser);

  // csv-parse's own line counter counts a quoted CRLF twice, so lines are counted here.
  let line = 1;
  let records = 0;
  try {
    while (true) {
      if (next < queue.length) {
        const fields = queue[next++] as string[];
        if (next === queue.length) {
          queue.length = 0;
          next = 0;
        }
        if (parser.isPaused() && queue.length - next < QUEUE_HIGH_WATER / 2) parser.resume();
        const start = line;
        line += 1 + lineBreaksIn(fields);
        if (onBytes && ++records % 2000 === 0) onBytes(parser.info.bytes);
        if (fields.every((field) => field === "")) continue;
        yield { line: start, fields };
        continue;
      }
      if (failure) throw failure;
      if (isEnded) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code?.startsWith("CSV_")) throw new CsvSyntaxError(line, readableCsvError(code, error as Error));
    throw error;
  } finally {
    input.unpipe(parser);
    input.destroy();
    parser.destroy();
  }
  onBytes?.(parser.info.bytes);
}

function readableCsvError(code: string, error: Error): string {
  if (code === "CSV_QUOTE_NOT_CLOSED")
    return "A quoted field is never closed: the rest of the file cannot be read";
  return `The file is not valid CSV from here on (${error.message})`;
}
