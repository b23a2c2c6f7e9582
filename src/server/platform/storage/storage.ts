import { createHash, randomUUID } from "node:crypto";
import { mkdir, open, rm } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { formatBytes } from "../../lib/uploads";
import {
  checkSignature,
  declaredKind,
  type FileKind,
  isTextKind,
  KINDS,
  kindOfExtension,
  SNIFF_BYTES,
  textChecker,
} from "./content";

/** What a put answers: what a domain keeps in its own table to find and serve the file again. */
export interface StoredFileInfo {
  key: string;
  size: number;
  /** Hex SHA-256 of the bytes, to notice a file uploaded twice or changed in storage. */
  sha256: string;
  contentType: string;
}

export interface StoredFile {
  key: string;
  size: number;
  contentType: string;
  kind: FileKind;
  /** The bytes; the caller must read it to the end or destroy it. */
  body: Readable;
}

export type FileInput = Uint8Array | Readable | ReadableStream<Uint8Array>;

export interface PutOptions {
  /** The folder of the domain and use, e.g. `evidence` or `avatars/students`: the key starts with it. */
  folder: string;
  /** The content type the upload declared (its `Content-Type`); parameters are ignored. */
  contentType: string | undefined;
  /** The kinds this use takes; anything else is a 415. */
  accept: readonly FileKind[];
  /** Larger files are a 413. */
  maxBytes: number;
}

/**
 * File storage for images, evidence and attachments: one interface whichever driver holds the
 * bytes (a folder under DATA_DIR, or an S3-compatible bucket). A put checks the whole file (its
 * size, its first bytes against its declared type, text as UTF-8) before it lands anywhere, so a
 * refused file leaves nothing behind, and a stored file is always complete.
 */
export interface FileStorage {
  readonly driver: "disk" | "s3";
  put(input: FileInput, options: PutOptions): Promise<StoredFileInfo>;
  /** The file, or null when no file has this key. */
  get(key: string): Promise<StoredFile | null>;
  /** Removes the file; removing a file that is not there is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

/** A file that passed every check, waiting in the staging folder for the driver to take it. */
export interface StagedFile {
  path: string;
  size: number;
  contentType: string;
}

/** What each driver does with bytes that were already checked. */
export interface StorageDriver {
  readonly name: FileStorage["driver"];
  /** Moves the staged file to its key; the staged file is gone afterwards whether or not this succeeds. */
  commit(staged: StagedFile, key: string): Promise<void>;
  open(key: string): Promise<{ size: number; body: Readable } | null>;
  remove(key: string): Promise<void>;
  has(key: string): Promise<boolean>;
}

const SEGMENT = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const FILE_NAME = /^[a-z0-9][a-z0-9_-]{0,62}\.([a-z]{3,4})$/;
const MAX_FOLDER_DEPTH = 4;

function checkFolder(folder: string): void {
  const segments = folder.split("/");
  if (segments.length > MAX_FOLDER_DEPTH || !segments.every((segment) => SEGMENT.test(segment)))
    throw new Error(
      `Invalid storage folder "${folder}": lower-case letters, digits, - and _ in up to 4 levels`,
    );
}

/**
 * The kind of a key a put could have made, or null for any other. Keys come from Dash's own
 * tables, but one that is tampered with must never reach outside the storage: only lower-case
 * names without dots in the folders pass, so `..`, absolute paths and backslashes cannot.
 */
export function kindOfKey(key: string): FileKind | null {
  const segments = key.split("/");
  const fileName = segments.pop() ?? "";
  if (segments.length === 0 || segments.length > MAX_FOLDER_DEPTH) return null;
  if (!segments.every((segment) => SEGMENT.test(segment))) return null;
  const extension = FILE_NAME.exec(fileName)?.[1];
  return extension ? kindOfExtension(extension) : null;
}

/**
 * Runs a file operation in a folder, making the folder only when the operation finds it missing:
 * a put does not pay for a folder check it almost never needs.
 */
export async function inFolder<Result>(folder: string, operation: () => Promise<Result>): Promise<Result> {
  try {
    return await operation();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    await mkdir(folder, { recursive: true });
    return operation();
  }
}

/** The upload's chunks: bytes already in memory are one chunk, without a stream around them. */
function chunksOf(input: FileInput): Iterable<Uint8Array> | Readable {
  if (input instanceof Uint8Array) return [input];
  if (input instanceof Readable) return input;
  return Readable.fromWeb(input as import("node:stream/web").ReadableStream<Uint8Array>);
}

/**
 * Reads the upload into a file of the staging folder while checking it: a limit past which
 * reading stops at once, the signature once its first bytes are in, UTF-8 for text, and the
 * SHA-256 on the way. The file is flushed to disk so that a rename after a crash finds it whole.
 */
async function stage(
  stagingDir: string,
  input: FileInput,
  kind: FileKind,
  maxBytes: number,
): Promise<{ path: string; size: number; sha256: string }> {
  const stagedPath = path.join(stagingDir, `${randomUUID()}.part`);
  const handle = await inFolder(stagingDir, () => open(stagedPath, "wx", 0o600));
  const source = chunksOf(input);
  const hash = createHash("sha256");
  const checkText = isTextKind(kind) ? textChecker(kind) : null;
  let head = new Uint8Array(0);
  let size = 0;
  try {
    for await (const chunk of source as AsyncIterable<Uint8Array | string> | Iterable<Uint8Array>) {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > maxBytes)
        throw new AppError(
          "payload_too_large",
          message("common:storage.tooLarge", { limit: formatBytes(maxBytes) }),
        );
      if (head.length < SNIFF_BYTES) {
        head = Buffer.concat([head, bytes.subarray(0, SNIFF_BYTES - head.length)]);
        if (head.length === SNIFF_BYTES) checkSignature(kind, head);
      }
      checkText?.(bytes);
      hash.update(bytes);
      await handle.write(bytes);
    }
    if (size === 0) throw new AppError("bad_request", message("common:storage.empty"));
    if (head.length < SNIFF_BYTES) checkSignature(kind, head);
    checkText?.();
    await handle.sync();
    await handle.close();
    return { path: stagedPath, size, sha256: hash.digest("hex") };
  } catch (error) {
    if (source instanceof Readable) source.destroy();
    await handle.close().catch(() => {});
    await rm(stagedPath, { force: true });
    throw error;
  }
}

/** The storage over one driver; `stagingDir` must be on the disk driver's file system, for its renames. */
export function createStorage(driver: StorageDriver, stagingDir: string): FileStorage {
  const requireKind = (key: string) => {
    const kind = kindOfKey(key);
    if (!kind) throw new AppError("bad_request", message("common:storage.notAKey"));
    return kind;
  };
  return {
    driver: driver.name,
    async put(input, options) {
      checkFolder(options.folder);
      const kind = declaredKind(options.contentType, options.accept);
      const staged = await stage(stagingDir, input, kind, options.maxBytes);
      const key = `${options.folder}/${randomUUID()}.${KINDS[kind].extension}`;
      const contentType = KINDS[kind].contentType;
      await driver.commit({ path: staged.path, size: staged.size, contentType }, key);
      return { key, size: staged.size, sha256: staged.sha256, contentType };
    },
    async get(key) {
      const kind = requireKind(key);
      const found = await driver.open(key);
      return found && { key, kind, contentType: KINDS[kind].contentType, ...found };
    },
    async delete(key) {
      requireKind(key);
      await driver.remove(key);
    },
    async exists(key) {
      requireKind(key);
      return driver.has(key);
    },
  };
}
