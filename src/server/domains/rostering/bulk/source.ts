import { createReadStream } from "node:fs";
import { open, readdir, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { promisify } from "node:util";
import yauzl from "yauzl";

/** One CSV file of a set: its name without folders, its size, and a way to read it (as often as needed). */
export interface SourceEntry {
  name: string;
  bytes: number;
  open(): Promise<Readable>;
}

export interface RosterSource {
  entries: SourceEntry[];
  close(): Promise<void>;
}

/** A problem with the set as a whole (not a zip, unreadable): nothing of it can be checked. */
export class SourceError extends Error {
  override name = "SourceError";
}

// A OneRoster set is a few CSV files; anything larger than this inside a zip is not one.
const MAX_ENTRY_BYTES = 4 * 1024 ** 3;

/** Opens a folder of CSV files or a .zip holding them (at its top or in one folder). */
export async function openRosterSource(location: string): Promise<RosterSource> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(location);
  } catch {
    throw new SourceError(`${location} does not exist`);
  }
  if (info.isDirectory()) return openFolder(location);
  if (!(await startsLikeZip(location))) throw new SourceError("The file is not a .zip archive");
  return openZip(location);
}

async function openFolder(folder: string): Promise<RosterSource> {
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

async function startsLikeZip(file: string): Promise<boolean> {
  const handle = await open(file, "r");
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    // A local file header, or the end record of an empty archive.
    return bytesRead === 4 && head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5);
  } finally {
    await handle.close();
  }
}

const openZipFile = promisify(yauzl.open) as (
  file: string,
  options: yauzl.Options,
) => Promise<yauzl.ZipFile | undefined>;

async function openZip(file: string): Promise<RosterSource> {
  let zip: yauzl.ZipFile;
  try {
    const opened = await openZipFile(file, { lazyEntries: true, autoClose: false });
    if (!opened) throw new Error("no archive");
    zip = opened;
  } catch (error) {
    throw new SourceError(`The .zip archive cannot be read (${(error as Error).message})`);
  }
  try {
    const files = (await readEntries(zip)).filter(
      (entry) => !entry.fileName.endsWith("/") && !isHiddenPath(entry.fileName),
    );
    // Sets are often zipped as a folder: read the files of the one folder when there is no file at the top.
    const folders = new Set(files.map((entry) => path.posix.dirname(entry.fileName)));
    const root = folders.has(".") || folders.size !== 1 ? "." : ([...folders][0] as string);
    const entries: SourceEntry[] = [];
    for (const entry of files) {
      if (path.posix.dirname(entry.fileName) !== root) continue;
      if (entry.isEncrypted()) throw new SourceError(`${entry.fileName} is encrypted`);
      if (entry.uncompressedSize > MAX_ENTRY_BYTES) throw new SourceError(`${entry.fileName} is too large`);
      entries.push({
        name: path.posix.basename(entry.fileName),
        bytes: entry.uncompressedSize,
        open: () => openEntry(zip, entry),
      });
    }
    return { entries, close: async () => zip.close() };
  } catch (error) {
    zip.close();
    throw error instanceof SourceError
      ? error
      : new SourceError(`The .zip archive cannot be read (${(error as Error).message})`);
  }
}

function isHiddenPath(name: string): boolean {
  return name.split("/").some((part) => part.startsWith(".") || part === "__MACOSX");
}

function readEntries(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on("entry", (entry: yauzl.Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.once("end", () => resolve(entries));
    zip.once("error", reject);
    zip.readEntry();
  });
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => (error || !stream ? reject(error) : resolve(stream)));
  });
}
