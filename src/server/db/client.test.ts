import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, pingDatabase, queryRows } from "./client";

describe("the embedded database folder", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "dash-lock-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("belongs to one opener at a time, and is free again once closed", async () => {
    const first = await openDatabase({ dataDir });
    await expect(openDatabase({ dataDir })).rejects.toThrow(/another Dash process \(pid \d+\) is using/);
    await pingDatabase(first.db);
    await first.close();
    expect(existsSync(path.join(dataDir, "dash.lock"))).toBe(false);

    // A lock left by a process that no longer runs is taken over.
    writeFileSync(path.join(dataDir, "dash.lock"), "2147483646");
    const second = await openDatabase({ dataDir });
    await pingDatabase(second.db);
    await second.close();
  }, 60_000);
});

describe("maintenance of the embedded database", () => {
  it("refreshes the planner's statistics, which PGlite never does by itself", async () => {
    const { PGlite } = await import("@electric-sql/pglite");
    const handle = await openDatabase({ pglite: await PGlite.create() });
    const reltuples = async () =>
      Number(
        (
          await queryRows<{ n: number }>(
            handle.db,
            sql`select reltuples as n from pg_class where relname = 'numbers'`,
          )
        )[0]?.n,
      );
    await handle.db.execute(sql`create table numbers as select n from generate_series(1, 500) n`);
    await handle.db.execute(sql`delete from numbers where n > 400`);
    expect(await reltuples()).toBe(-1);
    expect(await handle.maintain()).toBe(true);
    expect(await reltuples()).toBe(400);
    await handle.close();
  }, 60_000);
});
