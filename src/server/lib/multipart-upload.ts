import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import busboy from "busboy";
import { AppError } from "./errors";
import { type FileSet, type FileSetOptions, openFileSet } from "./file-set";
import { message } from "./i18n";
import { formatBytes, saveWithinLimit } from "./uploads";

export interface SavedUpload {
  /** The other fields of the form, as text. */
  fields: Record<string, string>;
  /** The file's name as the browser sent it. */
  fileName: string;
  bytes: number;
}

/**
 * Streams a multipart form's one file (the field `fileField`) to `target` without holding it in
 * memory, refusing more than `maxBytes`, a second file or no file at all, and keeps its other
 * fields. Whatever goes wrong is a 4xx that names it.
 */
export async function saveMultipartUpload(
  request: { body: ReadableStream<Uint8Array> | null; headers: Headers },
  target: string,
  options: { fileField: string; maxBytes: number },
): Promise<SavedUpload> {
  if (!request.body)
    throw new AppError("bad_request", message("common:upload.noFile", { field: options.fileField }));
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: Object.fromEntries(request.headers),
      limits: { files: 1, fields: 20, fieldSize: 10_000 },
    });
  } catch {
    throw new AppError("bad_request", message("common:upload.notMultipart"));
  }
  const fields: Record<string, string> = {};
  let saving: Promise<Omit<SavedUpload, "fields">> | null = null;
  const finished = new Promise<void>((resolve, reject) => {
    parser.on("field", (name, value) => {
      fields[name] = value;
    });
    parser.on("file", (name, file, info) => {
      if (name !== options.fileField || saving) {
        file.resume();
        return;
      }
      const tooLarge = message("common:upload.tooLarge", { limit: formatBytes(options.maxBytes) });
      saving = saveWithinLimit(file, target, options.maxBytes, tooLarge).then((bytes) => ({
        fileName: info.filename ?? options.fileField,
        bytes,
      }));
      saving.catch(reject);
    });
    parser.on("error", () => reject(new AppError("bad_request", message("common:upload.notMultipart"))));
    parser.on("close", resolve);
  });
  await Promise.all([
    pipeline(Readable.fromWeb(request.body as WebReadableStream<Uint8Array>), parser),
    finished,
  ]).catch((error) => {
    throw error instanceof AppError
      ? error
      : new AppError("bad_request", message("common:upload.notMultipart"));
  });
  if (!saving)
    throw new AppError("bad_request", message("common:upload.noFile", { field: options.fileField }));
  // Set by the parser's callback, which TypeScript's narrowing does not see.
  const saved: Omit<SavedUpload, "fields"> = await saving;
  if (saved.bytes === 0)
    throw new AppError("bad_request", message("common:upload.noFile", { field: options.fileField }));
  return { ...saved, fields };
}

/**
 * A form's file for an import: saved to a folder of its own, opened as a file set (a zip's
 * entries, or the one file under its own name), handed over with the form's other fields, and
 * removed afterwards whatever happens.
 */
export async function withUploadedFile<Result>(
  request: { body: ReadableStream<Uint8Array> | null; headers: Headers },
  options: { fileField: string; maxBytes: number; fileSet?: Omit<FileSetOptions, "singleFile"> },
  use: (files: FileSet, upload: SavedUpload) => Promise<Result>,
): Promise<Result> {
  const folder = await mkdtemp(path.join(tmpdir(), "dash-upload-"));
  try {
    const file = path.join(folder, "upload");
    const upload = await saveMultipartUpload(request, file, options);
    const files = await openFileSet(file, { ...options.fileSet, singleFile: { name: upload.fileName } });
    try {
      return await use(files, upload);
    } finally {
      await files.close();
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
