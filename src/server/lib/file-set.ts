import { createReadStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { AppError } from "./errors";
import { message } from "./i18n";
import { openZipUpload, startsLikeZip } from "./uploads";

/** One file of a set: its name without folders, its size, and a way to read it (as often as needed). */
export interface FileSetEntry {
  name: string;
  bytes: number;
  open(): Promise<Readable>;
}

/** The files of an upload or a folder, read the same way whichever it was. */
export interface FileSet {
  entries: FileSetEntry[];
  close(): Promise<void>;
}

/**
 * Opens a folder of files, a .zip holding them (at its top or in one folder), or, when
 * `singleFile` allows it, one file that is not a zip as a set of one. A .zip is read under the
 * upload limits; one that is damaged or hostile is refused (AppError).
 */
export async function openFileSet(
  location: string,
  options: { singleFile?: { name: string } } = {},
): Promise<FileSet> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(location);
  } catch {
    throw new AppError("not_found", message("common:upload.notFound", { location }));
  }
  if (info.isDirectory()) return openFolder(location);
  if (options.singleFile && !(await startsLikeZip(location))) {
    const entry = {
      name: options.singleFile.name,
      bytes: info.size,
      open: async () => createReadStream(location),
    };
    return { entries: [entry], close: async () => {} };
  }
  return openZip(location);
}

async function openFolder(folder: string): Promise<FileSet> {
  const names = (await readdir(folder, { withFileTypes: true }))
    .filter((entry) => entry.isFile() && !entry.name.startsWith("."))
    .map((entry) => entry.name)
    .sort();
  const entries = await Promise.all(
    names.map(async (name) => {
      const file = path.join(folder, name);
      return { name, bytes: (await stat(file)).size, open: async () => createReadStream(file) };
    }),
  );
  return { entries, close: async () => {} };
}

async function openZip(file: string): Promise<FileSet> {
  const archive = await openZipUpload(file);
  const files = archive.files.filter((entry) => !isHiddenPath(entry.path));
  // Sets are often zipped as a folder: read the files of the one folder when there is no file at the top.
  const folders = new Set(files.map((entry) => path.posix.dirname(entry.path)));
  const root = folders.has(".") || folders.size !== 1 ? "." : ([...folders][0] as string);
  const entries = files
    .filter((entry) => path.posix.dirname(entry.path) === root)
    .map((entry) => ({ name: path.posix.basename(entry.path), bytes: entry.bytes, open: entry.open }));
  return { entries, close: async () => archive.close() };
}

function isHiddenPath(name: string): boolean {
  return name.split("/").some((part) => part.startsWith(".") || part === "__MACOSX");
}
