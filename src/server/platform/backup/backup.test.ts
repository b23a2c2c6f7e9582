import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import yazl from "yazl";
import { type DatabaseHandle, openDatabase, queryRows } from "../../db/client";
import { createLogger } from "../../lib/logger";
import { openEmptyTestDatabase } from "../../test/harness";
import { BACKUP_MANIFEST_NAME, restoreBackup, writeBackup } from "./backup-file";
import { nightlyBackupName, runNightlyBackup } from "./nightly";
import { orderByForeignKeys } from "./postgres-export";

/**
 * Backups of the embedded database and their restore, in this process: what is written, what a
 * restore refuses, and the nightly run with its rotation. The backup of a live server under
 * load is in backup-process.test.ts.
 */
const template = inject("testDatabase");
const logger = createLogger("silent");
let folder: string;
let dataDir: string;
let handle: DatabaseHandle;

async function count(db: DatabaseHandle["db"], table: string): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from ${sql.raw(table)}`,
  );
  return row?.count ?? 0;
}

async function zipOf(files: Record<string, string>, target: string): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, text] of Object.entries(files)) zip.addBuffer(Buffer.from(text), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  writeFileSync(target, Buffer.concat(chunks));
}

describe.skipIf(template.kind !== "pglite")("backups of the embedded database", () => {
  beforeAll(async () => {
    if (template.kind !== "pglite") return;
    folder = mkdtempSync(path.join(tmpdir(), "dash-backup-"));
    dataDir = path.join(folder, "data");
    const seeded = await PGlite.create({ dataDir, loadDataDir: new Blob([readFileSync(template.dumpPath)]) });
    await seeded.close();
    writeFileSync(path.join(dataDir, "secret.key"), "k".repeat(44), { mode: 0o600 });
    handle = await openDatabase({ dataDir });
  });
  afterAll(async () => {
    await handle?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it("writes a backup that restores into an empty folder with every row and the secret key", async () => {
    await handle.db.execute(
      sql`insert into app_meta (key, value) values ('backup-probe', '"before"'::jsonb)`,
    );
    const file = path.join(folder, "first.zip");
    const written = await writeBackup(handle, dataDir, file);
    expect(written.file).toBe(file);
    expect(written.bytes).toBeGreaterThan(100_000);
    expect(written.pausedMs).toBeGreaterThanOrEqual(0);
    // Nothing is left beside it, and the staging copy is gone.
    expect(readdirSync(folder).sort()).toEqual(["data", "first.zip"]);
    expect(readdirSync(path.join(dataDir, "backups"))).toEqual([]);
    // A write after the backup is not in it.
    await handle.db.execute(sql`update app_meta set value = '"after"'::jsonb where key = 'backup-probe'`);

    const restoredDir = path.join(folder, "restored");
    const restored = await restoreBackup(file, restoredDir);
    expect(restored.manifest.hasSecretKey).toBe(true);
    expect(restored.migrations).toBeGreaterThanOrEqual(12);
    expect(readFileSync(path.join(restoredDir, "secret.key"), "utf8")).toBe("k".repeat(44));
    for (const name of ["dash.lock", "control.sock", "backups", "postmaster.pid"])
      expect(existsSync(path.join(restoredDir, name)), name).toBe(false);

    const copy = await openDatabase({ dataDir: restoredDir });
    try {
      for (const table of ["users", "user_roles", "activity_events", "daily_student_metrics", "xp_ledger"])
        expect(await count(copy.db, table), table).toBe(await count(handle.db, table));
      const [probe] = await queryRows<{ value: string }>(
        copy.db,
        sql`select value #>> '{}' as value from app_meta where key = 'backup-probe'`,
      );
      expect(probe?.value).toBe("before");
      await copy.migrate();
    } finally {
      await copy.close();
    }
    rmSync(restoredDir, { recursive: true, force: true });
  });

  it("writes one backup of a data directory at a time", async () => {
    const first = writeBackup(handle, dataDir, path.join(folder, "a.zip"));
    await expect(writeBackup(handle, dataDir, path.join(folder, "b.zip"))).rejects.toThrow(
      "a backup is already being written; try again when it is done",
    );
    await first;
    expect(existsSync(path.join(folder, "b.zip"))).toBe(false);
  });

  it("restores only into an empty folder, only a Dash backup, and leaves nothing behind when it refuses", async () => {
    const file = path.join(folder, "a.zip");
    await expect(restoreBackup(file, dataDir)).rejects.toThrow(
      `${dataDir} is not empty: restore into a new or empty folder (set DATA_DIR to it), never over a database`,
    );
    const target = path.join(folder, "never");
    await expect(restoreBackup(path.join(folder, "missing.zip"), target)).rejects.toThrow(
      `there is no file ${path.join(folder, "missing.zip")}`,
    );
    const text = path.join(folder, "notes.txt");
    writeFileSync(text, "not a backup");
    await expect(restoreBackup(text, target)).rejects.toThrow(
      `${text} is not a Dash backup (The file is not a .zip archive)`,
    );
    const otherZip = path.join(folder, "other.zip");
    await zipOf({ "users.csv": "sourcedId\n" }, otherZip);
    await expect(restoreBackup(otherZip, target)).rejects.toThrow(
      `${otherZip} is not a Dash backup (it has no ${BACKUP_MANIFEST_NAME} first)`,
    );
    const forged = path.join(folder, "forged.zip");
    await zipOf(
      {
        [BACKUP_MANIFEST_NAME]: JSON.stringify({
          format: "dash-backup",
          version: 1,
          createdAt: "2026-01-01T00:00:00Z",
          folders: [],
          hasSecretKey: false,
        }),
        "database/PG_VERSION": "17\n",
      },
      forged,
    );
    await expect(restoreBackup(forged, target)).rejects.toThrow(
      `${forged} is not a Dash backup (its database does not open`,
    );
    expect(existsSync(target)).toBe(false);
    // An empty folder that was there stays, empty.
    mkdirSync(target);
    await expect(restoreBackup(forged, target)).rejects.toThrow("is not a Dash backup");
    expect(readdirSync(target)).toEqual([]);
  });

  it("writes the nightly backup once a day from its hour and keeps the newest ones", async () => {
    const backups = path.join(dataDir, "backups");
    const settings = { dataDir, hour: 2, keep: 2 };
    const early = new Date("2026-11-20T01:59:00Z");
    expect(await runNightlyBackup(handle, early, settings, logger)).toBeNull();
    expect(
      await runNightlyBackup(handle, new Date("2026-11-20T02:00:00Z"), { ...settings, keep: 0 }, logger),
    ).toBeNull();

    mkdirSync(backups, { recursive: true });
    for (const day of ["2026-11-17", "2026-11-18", "2026-11-19"])
      writeFileSync(path.join(backups, `dash-${day}.zip`), "");
    const leftover = path.join(backups, "requested-abandoned.zip");
    writeFileSync(leftover, "");
    const recent = path.join(backups, "requested-in-progress.zip");
    writeFileSync(recent, "");
    const twoDaysAgo = new Date("2026-11-18T02:00:00Z");
    utimesSync(leftover, twoDaysAgo, twoDaysAgo);

    const now = new Date("2026-11-20T03:15:00Z");
    const written = await runNightlyBackup(handle, now, settings, logger);
    expect(written?.file).toBe(path.join(backups, nightlyBackupName(now)));
    expect(nightlyBackupName(now)).toBe("dash-2026-11-20.zip");
    expect(readdirSync(backups).sort()).toEqual([
      "dash-2026-11-19.zip",
      "dash-2026-11-20.zip",
      "requested-in-progress.zip",
    ]);
    // The same day again: already written.
    expect(await runNightlyBackup(handle, new Date("2026-11-20T04:15:00Z"), settings, logger)).toBeNull();

    const restoredDir = path.join(folder, "nightly-restored");
    expect(
      (await restoreBackup(path.join(backups, "dash-2026-11-20.zip"), restoredDir)).migrations,
    ).toBeGreaterThan(0);
    rmSync(backups, { recursive: true, force: true });
  });
});

describe("the order of tables in an export", () => {
  it("puts each table after those its foreign keys point to, and names a cycle", () => {
    expect(
      orderByForeignKeys(
        ["enrollments", "classes", "users", "orgs"],
        [
          { child: "enrollments", parent: "classes" },
          { child: "enrollments", parent: "users" },
          { child: "classes", parent: "orgs" },
          { child: "orgs", parent: "orgs" },
        ],
      ),
    ).toEqual(["orgs", "classes", "users", "enrollments"]);
    expect(() =>
      orderByForeignKeys(
        ["a", "b"],
        [
          { child: "a", parent: "b" },
          { child: "b", parent: "a" },
        ],
      ),
    ).toThrow("the foreign keys of a → b → a form a cycle");
  });
});

describe("a backup of a database without a data directory", () => {
  it("is refused: PostgreSQL with the pg_dump command to use, an in-memory database as such", async () => {
    const { handle: other, dispose } = await openEmptyTestDatabase();
    const scratch = mkdtempSync(path.join(tmpdir(), "dash-backup-"));
    try {
      await expect(writeBackup(other, scratch, path.join(scratch, "x.zip"))).rejects.toThrow(
        template.kind === "postgres"
          ? 'pg_dump --format=custom --file=dash.dump "$DATABASE_URL"'
          : "this database is held in memory: it has no data directory to copy",
      );
      expect(readdirSync(scratch)).toEqual(template.kind === "postgres" ? [] : ["backups"]);
    } finally {
      await dispose();
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
