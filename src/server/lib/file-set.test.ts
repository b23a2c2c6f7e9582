import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { text } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yazl from "yazl";
import type { AppError } from "./errors";
import { type FileSet, openFileSet } from "./file-set";
import { UPLOAD_LIMITS } from "./uploads";

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "dash-file-set-"));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

async function zipFile(files: Record<string, string>, rename?: [string, string]): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  let bytes = Buffer.concat(chunks);
  // yazl refuses to write an unsafe name: it is put into the finished archive instead.
  if (rename) bytes = Buffer.from(bytes.toString("latin1").replaceAll(rename[0], rename[1]), "latin1");
  const file = path.join(folder, `${Math.random()}.zip`);
  await writeFile(file, bytes);
  return file;
}

const contents = async (set: FileSet) =>
  Object.fromEntries(
    await Promise.all(set.entries.map(async (entry) => [entry.name, await text(await entry.open())])),
  );

describe("file sets that keep their folders", () => {
  const tree = {
    "pkg/imsmanifest.xml": "<manifest/>",
    "pkg/items/a.xml": "<a/>",
    "pkg/items/media/deep/picture.png": "png",
    "pkg/.hidden/secret.txt": "hidden",
    "__MACOSX/pkg/._a.xml": "resource fork",
  };

  it("name a zip's files by their path, leaving hidden ones out", async () => {
    const set = await openFileSet(await zipFile(tree), {
      keepFolders: true,
      limits: { ...UPLOAD_LIMITS, maxFolderDepth: 5 },
    });
    expect(await contents(set)).toEqual({
      "pkg/imsmanifest.xml": "<manifest/>",
      "pkg/items/a.xml": "<a/>",
      "pkg/items/media/deep/picture.png": "png",
    });
    await set.close();
  });

  it("hold a zip to the limits given, and read a set zipped as a folder as before without them", async () => {
    await expect(openFileSet(await zipFile(tree), { keepFolders: true })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("folders deep"),
    });
    const flat = await openFileSet(await zipFile({ "set/users.csv": "u", "set/orgs.csv": "o" }));
    expect(flat.entries.map((entry) => entry.name).sort()).toEqual(["orgs.csv", "users.csv"]);
    await flat.close();
  });

  it("refuse a zip whose entry leaves the archive", async () => {
    const file = await zipFile({ "imsmanifest.xml": "<m/>", "zz/zz/evil.sh": "rm -rf /" }, [
      "zz/zz/evil.sh",
      "../../evil.sh",
    ]);
    const error = (await openFileSet(file, { keepFolders: true }).catch((caught) => caught)) as AppError;
    expect(error.status).toBe(400);
    expect(error.message).toContain("../../evil.sh");
  });

  it("name a folder's files by their path too", async () => {
    const root = path.join(folder, "tree");
    await mkdir(path.join(root, "items", "media"), { recursive: true });
    await mkdir(path.join(root, ".git"), { recursive: true });
    await writeFile(path.join(root, "imsmanifest.xml"), "<manifest/>");
    await writeFile(path.join(root, "items", "media", "a.png"), "png");
    await writeFile(path.join(root, ".git", "config"), "hidden");
    const set = await openFileSet(root, { keepFolders: true });
    expect(await contents(set)).toEqual({ "imsmanifest.xml": "<manifest/>", "items/media/a.png": "png" });
  });
});
