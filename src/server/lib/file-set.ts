import { createReadStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { AppError } from "./errors";
import { message } from "./i18n";
import { openZipUpload, startsLikeZip, type UploadLimits } from "./uploads";

/**
 * One file of a set: its name without folders (with `keepFolders`, its path inside the set, folders
 * joined by `/`), its size, and a way to read it (as often as needed).
 */
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

export interface FileSetOptions {
  /** Take one file that is not a zip as a set of one, under this name. */
  singleFile?: { name: string };
  /**
   * Keep the files of every folder, each named by its path inside the set (a content package's
   * items, media and manifest): the set is the whole tree, not the files of its top folder.
   */
  keepFolders?: boolean;
  /** The limits a .zip is read under (UPLOAD_LIMITS unless said). */
  limits?: UploadLimits;
}

/**
 * Opens a folder of files, a .zip holding them (at its top or in one folder), or, when
 * `singleFile` allows it, one file that is not a zip as a set of one. A .zip is read under the
 * upload limits; one that is damaged or hostile (a path leaving the archive, a bomb) is refused
 * (AppError).
 */
export async function openFileSet(location: string, options: FileSetOptions = {}): Promise<FileSet> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(location);
  } catch {
    throw new AppError("not_found", message("common:upload.notFound", { location }));
  }
  if (info.isDirectory()) return options.keepFolders ? openFolderTree(location) : openFolder(location);
  if (options.singleFile && !(await startsLikeZip(location))) {
    const entry = {
      name: options.singleFile.name,
      bytes: info.size,
      open: async () => createReadStream(location),
    };
    return { entries: [entry], close: async () => {} };
  }
  return openZip(location, options);
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

/** Every file under a folder, named by its path inside it (hidden files and folders left out). */
async function openFolderTree(folder: string): Promise<FileSet> {
  const found = await readdir(folder, { withFileTypes: true, recursive: true });
  const entries = await Promise.all(
    found
      .filter((entry) => entry.isFile())
      .map((entry) =>
        path.relative(folder, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"),
      )
      .filter((name) => !isHiddenPath(name))
      .sort()
      .map(async (name) => {
        const file = path.join(folder, name);
        return { name, bytes: (await stat(file)).size, open: async () => createReadStream(file) };
      }),
  );
  return { entries, close: async () => {} };
}

async function openZip(file: string, options: FileSetOptions): Promise<FileSet> {
  const archive = await openZipUpload(file, options.limits);
  const files = archive.files.filter((entry) => !isHiddenPath(entry.path));
  if (options.keepFolders) {
    const entries = files.map((entry) => ({ name: entry.path, bytes: entry.bytes, open: entry.open }));
    return { entries, close: async () => archive.close() };
  }
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
