/** Helpers for the bulk import and export tests: fixture sets, zips built in memory, table snapshots. */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import yazl from "yazl";
import { type Database, queryRows } from "../../../db/client";

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
export const fixture = (name: string) => path.join(FIXTURES, name);

const temporaryFolders: string[] = [];

/** A copy of a fixture set with some files replaced (a string) or left out (null). */
export async function fixtureVariant(name: string, changes: Record<string, string | null>): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), "dash-roster-fixture-"));
  temporaryFolders.push(folder);
  await cp(fixture(name), folder, { recursive: true });
  for (const [file, content] of Object.entries(changes)) {
    if (content === null) await rm(path.join(folder, file));
    else await writeFile(path.join(folder, file), content);
  }
  return folder;
}

/** The manifest of a fixture set with some file modes changed, e.g. { users: "delta" }. */
export async function manifestWith(name: string, modes: Record<string, string>): Promise<string> {
  const manifest = await readFile(path.join(fixture(name), "manifest.csv"), "utf8");
  return manifest
    .split("\n")
    .map((line) => {
      const [property] = line.split(",");
      const file = property?.startsWith("file.") ? property.slice("file.".length) : null;
      return file && file in modes ? `file.${file},${modes[file]}` : line;
    })
    .join("\n");
}

/** A set written to a new folder, file by file. */
export async function writeSet(files: Record<string, string | Buffer>): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), "dash-roster-set-"));
  temporaryFolders.push(folder);
  for (const [name, content] of Object.entries(files)) await writeFile(path.join(folder, name), content);
  return folder;
}

export async function removeTemporaryFolders(): Promise<void> {
  await Promise.all(temporaryFolders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
}

/** A .zip of the given files, built in memory. */
export function zipOf(files: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on("data", (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on("end", () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on("error", reject);
  });
}

/** The files of a folder (a fixture set), to zip or to change. */
export async function filesOf(folder: string): Promise<Record<string, string>> {
  const names = await readdir(folder);
  return Object.fromEntries(
    await Promise.all(
      names.map(async (name) => [name, await readFile(path.join(folder, name), "utf8")] as const),
    ),
  );
}

/** Every roster table's rows in a stable order: "nothing changed" compares two snapshots. */
export async function rosterSnapshot(db: Database): Promise<Record<string, unknown[]>> {
  const tables = {
    orgs: "sourced_id",
    academic_sessions: "sourced_id",
    courses: "sourced_id",
    classes: "sourced_id",
    users: "sourced_id",
    user_roles: "user_sourced_id, role, org_sourced_id",
    user_agents: "user_sourced_id, agent_sourced_id",
    demographics: "sourced_id",
    enrollments: "sourced_id",
  };
  const snapshot: Record<string, unknown[]> = {};
  for (const [table, order] of Object.entries(tables)) {
    snapshot[table] = await queryRows(db, sql.raw(`select * from ${table} order by ${order}`));
  }
  return snapshot;
}
