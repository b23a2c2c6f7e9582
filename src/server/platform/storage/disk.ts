import { open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { sharedRuns } from "../../lib/shared-runs";
import { inFolder, type StorageDriver } from "./storage";

/**
 * Files in a folder (DATA_DIR/files by default), one file per key. A file appears by a rename of
 * its complete staged copy, so a reader never sees half of one and a crash leaves none.
 */
export function diskDriver(root: string): StorageDriver {
  const base = path.resolve(root);
  const flushFolder = sharedRuns(async (folder: string) => {
    const handle = await open(folder, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  });
  // Keys are checked before they get here; this is the second lock on the same door.
  const fileOf = (key: string) => {
    const file = path.resolve(base, key);
    if (!file.startsWith(base + path.sep)) throw new Error(`Storage key outside the storage folder: ${key}`);
    return file;
  };
  const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";
  return {
    name: "disk",
    async commit(staged, key) {
      const file = fileOf(key);
      try {
        await inFolder(path.dirname(file), () => rename(staged.path, file));
      } catch (error) {
        await rm(staged.path, { force: true });
        throw error;
      }
      // The rename itself must survive a power cut: the folder that now lists the file is flushed.
      await flushFolder(path.dirname(file));
    },
    async open(key) {
      const file = fileOf(key);
      // Opened first, then measured: a delete in between cannot leave a size without bytes.
      const handle = await open(file, "r").catch((error) => {
        if (missing(error)) return null;
        throw error;
      });
      if (!handle) return null;
      const { size } = await handle.stat();
      return { size, body: handle.createReadStream() };
    },
    async remove(key) {
      await rm(fileOf(key), { force: true });
    },
    async has(key) {
      return stat(fileOf(key)).then(
        (info) => info.isFile(),
        (error) => {
          if (missing(error)) return false;
          throw error;
        },
      );
    },
  };
}
