import { cp, mkdir, readdir } from "node:fs/promises";
import path from "node:path";

/**
 * Copies the entries of `source` into `target` (a folder made here), except the names in `skip`.
 * Imports nothing of the project's: the embedded database's own thread runs it too.
 */
export async function copyFilesExcept(
  source: string,
  target: string,
  skip: ReadonlySet<string>,
): Promise<void> {
  await mkdir(target, { mode: 0o700 });
  // Entry by entry: the target may sit inside the source's own backups folder.
  for (const name of await readdir(source)) {
    if (skip.has(name)) continue;
    await cp(path.join(source, name), path.join(target, name), {
      recursive: true,
      errorOnExist: true,
      force: false,
    });
  }
}
