import { createWriteStream } from "node:fs";
import { open } from "node:fs/promises";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { crc32 } from "node:zlib";
import { parse } from "csv-parse";
import yauzl from "yauzl";
import { AppError } from "./errors";
import { type Message, message } from "./i18n";

/**
 * The limits every upload is read under (roster zips now; MAP exports, QTI packages and images
 * later), and the readers that enforce them: a .zip archive and the records of a CSV file.
 * A file that breaks a limit is refused with an AppError naming the file, the line and the limit:
 * 413 when it is too large, 400 when it is damaged, forged or hostile. Nothing is ever inflated
 * or parsed beyond a limit, so a small hostile file cannot exhaust the server's memory.
 */
export interface UploadLimits {
  /** Files (and folders) in one archive. */
  maxArchiveEntries: number;
  /** Uncompressed bytes of one file of an archive. */
  maxEntryBytes: number;
  /** Uncompressed bytes of the whole archive. */
  maxTotalBytes: number;
  /** Largest uncompressed:compressed ratio, checked for files above ratioCheckAboveBytes. */
  maxCompressionRatio: number;
  /** Small files may compress well (a CSV of repeated values): only larger ones can be bombs. */
  ratioCheckAboveBytes: number;
  /** Folders a file of an archive may sit in (a set zipped as a folder is one). */
  maxFolderDepth: number;
  /** Bytes of one CSV field. */
  maxFieldBytes: number;
  /** Bytes of one CSV record (all its fields). */
  maxRecordBytes: number;
  /** Records of one CSV file, the header included. */
  maxCsvRows: number;
}

const MB = 1024 ** 2;

/**
 * Sized for real rosters: a 100,000-user OneRoster set is about 100 MB of CSV in nine files,
 * and its files compress about 5:1. Zip bombs inflate thousands of times.
 */
export const UPLOAD_LIMITS: UploadLimits = {
  maxArchiveEntries: 64,
  maxEntryBytes: 1024 * MB,
  maxTotalBytes: 2048 * MB,
  maxCompressionRatio: 100,
  ratioCheckAboveBytes: 4 * MB,
  maxFolderDepth: 2,
  maxFieldBytes: 1 * MB,
  maxRecordBytes: 4 * MB,
  maxCsvRows: 5_000_000,
};

export const formatBytes = (bytes: number) =>
  bytes >= 1024 * MB
    ? `${Number((bytes / (1024 * MB)).toFixed(1))} GB`
    : bytes >= MB
      ? `${Number((bytes / MB).toFixed(1))} MB`
      : `${bytes} bytes`;

/**
 * Streams an upload into `file`, stopping with a 413 that says `tooLarge` as soon as it passes
 * `maxBytes`; answers the bytes written.
 */
export async function saveWithinLimit(
  source: Readable,
  file: string,
  maxBytes: number,
  tooLarge: Message,
): Promise<number> {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (bytes > maxBytes) callback(new AppError("payload_too_large", tooLarge));
      else callback(null, chunk);
    },
  });
  await pipeline(source, counter, createWriteStream(file));
  return bytes;
}

/** Why an entry is damaged: the archive's own words (`detail`), or one of ours. */
const damaged = (name: string, why: "short" | "checksum" | "noData" | "detail", detail = "") =>
  new AppError("bad_request", message("common:upload.damaged", { name, why, detail }));

/** One file of an archive: its path inside it, its uncompressed size, and a way to read it (as often as needed). */
export interface ArchiveFile {
  path: string;
  bytes: number;
  open(): Promise<Readable>;
}

export interface Archive {
  /** The files, folders left out, in the archive's order. */
  files: ArchiveFile[];
  close(): void;
}

/** Whether a file starts like a .zip: a local file header, or the end record of an empty archive. */
export async function startsLikeZip(file: string): Promise<boolean> {
  const handle = await open(file, "r");
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return bytesRead === 4 && head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5);
  } finally {
    await handle.close();
  }
}

const openZipFile = promisify(yauzl.open) as (
  file: string,
  options: yauzl.Options,
) => Promise<yauzl.ZipFile | undefined>;

/**
 * Opens a .zip after checking its central directory against the limits: the number of entries,
 * each entry's path, size and compression ratio, the total size. The central directory can lie,
 * so every read is checked again as it inflates (size, then checksum at the end).
 */
export async function openZipUpload(file: string, limits: UploadLimits = UPLOAD_LIMITS): Promise<Archive> {
  if (!(await startsLikeZip(file))) throw new AppError("bad_request", message("common:upload.notZip"));
  let zip: yauzl.ZipFile;
  try {
    // Sizes are checked by entryStream, with messages of its own.
    const opened = await openZipFile(file, {
      lazyEntries: true,
      autoClose: false,
      validateEntrySizes: false,
    });
    if (!opened) throw new Error("no archive");
    zip = opened;
  } catch (error) {
    throw new AppError(
      "bad_request",
      message("common:upload.unreadable", { detail: (error as Error).message }),
    );
  }
  try {
    if (zip.entryCount > limits.maxArchiveEntries) {
      throw new AppError(
        "payload_too_large",
        message("common:upload.tooManyEntries", { count: zip.entryCount, max: limits.maxArchiveEntries }),
      );
    }
    const entries = await readEntries(zip);
    let totalBytes = 0;
    const files: ArchiveFile[] = [];
    for (const entry of entries) {
      checkEntryPath(entry.fileName, limits);
      if (entry.fileName.endsWith("/")) continue;
      checkEntrySize(entry, limits);
      totalBytes += entry.uncompressedSize;
      if (totalBytes > limits.maxTotalBytes) {
        throw new AppError(
          "payload_too_large",
          message("common:upload.totalTooLarge", { limit: formatBytes(limits.maxTotalBytes) }),
        );
      }
      files.push({
        path: entry.fileName,
        bytes: entry.uncompressedSize,
        open: () => entryStream(zip, entry),
      });
    }
    return { files, close: () => zip.close() };
  } catch (error) {
    zip.close();
    throw error;
  }
}

function readEntries(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on("entry", (entry: yauzl.Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.once("end", () => resolve(entries));
    zip.once("error", (error: Error) => {
      // yauzl refuses absolute and ../ paths itself, before the entry reaches us.
      const unsafe = /^(absolute path|invalid relative path): (.*)$/.exec(error.message);
      reject(
        unsafe
          ? unsafePath(unsafe[2] ?? "")
          : new AppError("bad_request", message("common:upload.unreadable", { detail: error.message })),
      );
    });
    zip.readEntry();
  });
}

const unsafePath = (name: string) =>
  new AppError("bad_request", message("common:upload.unsafePath", { name }));

function checkEntryPath(name: string, limits: UploadLimits): void {
  const parts = name.replace(/\/$/, "").split("/");
  if (
    name.startsWith("/") ||
    name.includes("\\") ||
    name.includes("\0") ||
    /^[a-zA-Z]:/.test(name) ||
    parts.some((part) => part === ".." || part === "." || part === "")
  ) {
    throw unsafePath(name);
  }
  const folders = name.endsWith("/") ? parts.length : parts.length - 1;
  if (folders > limits.maxFolderDepth) {
    throw new AppError(
      "bad_request",
      message("common:upload.tooDeep", { name, folders, max: limits.maxFolderDepth }),
    );
  }
}

function checkEntrySize(entry: yauzl.Entry, limits: UploadLimits): void {
  const name = entry.fileName;
  if (entry.isEncrypted()) throw new AppError("bad_request", message("common:upload.encrypted", { name }));
  if (entry.uncompressedSize > limits.maxEntryBytes) {
    throw new AppError(
      "payload_too_large",
      message("common:upload.entryTooLarge", {
        name,
        size: formatBytes(entry.uncompressedSize),
        limit: formatBytes(limits.maxEntryBytes),
      }),
    );
  }
  const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
  if (entry.uncompressedSize > limits.ratioCheckAboveBytes && ratio > limits.maxCompressionRatio) {
    throw new AppError(
      "bad_request",
      message("common:upload.zipBomb", {
        name,
        ratio: Math.round(ratio),
        size: formatBytes(entry.uncompressedSize),
        max: limits.maxCompressionRatio,
      }),
    );
  }
}

/** An entry's content, refused as it inflates past the size its headers gave or with a wrong checksum. */
function entryStream(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  const name = entry.fileName;
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, inflating) => {
      if (error || !inflating) {
        reject(error ? damaged(name, "detail", error.message) : damaged(name, "noData"));
        return;
      }
      let bytes = 0;
      let checksum = 0;
      const guard = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          bytes += chunk.length;
          if (bytes > entry.uncompressedSize) {
            callback(
              new AppError(
                "bad_request",
                message("common:upload.longerThanSaid", { name, size: formatBytes(entry.uncompressedSize) }),
              ),
            );
            return;
          }
          checksum = crc32(chunk, checksum);
          callback(null, chunk);
        },
        flush(callback) {
          if (bytes !== entry.uncompressedSize) callback(damaged(name, "short"));
          else if (checksum !== entry.crc32) callback(damaged(name, "checksum"));
          else callback();
        },
      });
      inflating.once("error", (cause: Error) =>
        guard.destroy(cause instanceof AppError ? cause : damaged(name, "detail", cause.message)),
      );
      // Stop inflating once the reader stops (a refusal, or a reader that had enough).
      guard.once("close", () => inflating.destroy());
      resolve(inflating.pipe(guard));
    });
  });
}

export interface CsvRecord {
  /** The line the record starts on (1 = the header). */
  line: number;
  fields: string[];
}

/** The CSV could not be read past this point (an unclosed quote, for example): a problem of its content. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = "CsvSyntaxError";
  }
}

export interface CsvReadOptions {
  /** The file's name, for the messages. */
  file: string;
  limits?: UploadLimits;
  /** Hears how far into the file the parser is, for progress. */
  onBytes?: (bytes: number) => void;
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
 * A record, a field or a row count past the limits is refused (AppError) where it is found;
 * broken CSV syntax is a CsvSyntaxError, which the caller reports as a problem of the file.
 */
export async function* readCsvRecords(input: Readable, options: CsvReadOptions): AsyncGenerator<CsvRecord> {
  const limits = options.limits ?? UPLOAD_LIMITS;
  const { file, onBytes } = options;
  const parser = parse({
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    record_delimiter: ["\r\n", "\n", "\r"],
    // Stops a field from growing without end: csv-parse buffers a record until it is complete.
    max_record_size: limits.maxRecordBytes,
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
        if (++records > limits.maxCsvRows) {
          throw new AppError(
            "payload_too_large",
            message("common:upload.csvTooManyLines", { file, max: limits.maxCsvRows }),
          );
        }
        if (onBytes && records % 2000 === 0) onBytes(parser.info.bytes);
        checkFieldSizes(fields, file, start, limits);
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
    if (code === "CSV_MAX_RECORD_SIZE") {
      throw new AppError(
        "bad_request",
        message("common:upload.csvLineTooLong", { file, line, limit: formatBytes(limits.maxRecordBytes) }),
      );
    }
    if (code?.startsWith("CSV_")) throw new CsvSyntaxError(line, readableCsvError(code, error as Error));
    throw error;
  } finally {
    input.unpipe(parser);
    input.destroy();
    parser.destroy();
  }
  onBytes?.(parser.info.bytes);
}

function checkFieldSizes(fields: string[], file: string, line: number, limits: UploadLimits): void {
  for (const [index, field] of fields.entries()) {
    // A string's length is at most its UTF-8 size: only long ones need measuring.
    if (field.length * 3 <= limits.maxFieldBytes) continue;
    if (Buffer.byteLength(field) > limits.maxFieldBytes) {
      throw new AppError(
        "bad_request",
        message("common:upload.csvFieldTooLong", {
          file,
          line,
          field: index + 1,
          limit: formatBytes(limits.maxFieldBytes),
        }),
      );
    }
  }
}

function readableCsvError(code: string, error: Error): string {
  if (code === "CSV_QUOTE_NOT_CLOSED")
    return "A quoted field is never closed: the rest of the file cannot be read";
  return `The file is not valid CSV from here on (${error.message})`;
}
