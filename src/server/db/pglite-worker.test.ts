import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { PGlite } from "@electric-sql/pglite";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase, queryJsonRows, queryRows } from "./client";
import { LOCK_FILE_NAME } from "./data-dir-lock";
import { PgliteWorkerProxy } from "./pglite-proxy";
import { users } from "./schema";

const folders: string[] = [];
function freshDataDir(): string {
  const folder = mkdtempSync(path.join(tmpdir(), "dash-worker-"));
  folders.push(folder);
  return folder;
}
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function countersOf(handle: DatabaseHandle) {
  return queryRows<{ name: string; value: number }>(
    handle.db,
    sql`select name, value from counters order by name`,
  );
}

describe("the embedded database in its own thread", () => {
  let handle: DatabaseHandle;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = freshDataDir();
    handle = await openDatabase({ dataDir });
    await handle.migrate();
    await handle.db.execute(sql`create table counters (name text primary key, value int not null)`);
  }, 120_000);
  afterAll(() => handle?.close());

  it("answers drizzle's queries as PGlite does, timestamps as text and JSON rows included", async () => {
    await handle.db.execute(sql`insert into counters values ('a', 1)`);
    expect(await countersOf(handle)).toEqual([{ name: "a", value: 1 }]);
    const [row] = await queryRows<{ at: string; big: string }>(
      handle.db,
      sql`select '2026-01-02 03:04:05'::timestamp as at, 9007199254740993::bigint::text as big`,
    );
    expect(row).toEqual({ at: "2026-01-02 03:04:05", big: "9007199254740993" });
    expect(await queryJsonRows(handle.db, sql`select n from generate_series(1, 3) n`)).toEqual([
      { n: 1 },
      { n: 2 },
      { n: 3 },
    ]);
    // A typed select goes through drizzle's array rows and its own mapping.
    expect(
      await handle.db.select({ id: users.sourcedId }).from(users).where(eq(users.sourcedId, "none")),
    ).toEqual([]);
  });

  it("rolls a transaction back when its callback throws", async () => {
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.execute(sql`insert into counters values ('rolled-back', 1)`);
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    const names = (await countersOf(handle)).map((row) => row.name);
    expect(names).not.toContain("rolled-back");
  });

  it("gives each transaction the database to itself until it ends, while other queries wait", async () => {
    await handle.db.execute(sql`insert into counters values ('shared', 0)`);
    const steps: string[] = [];
    const increment = (label: string) =>
      handle.db.transaction(async (tx) => {
        steps.push(`${label} begins`);
        const [current] = await queryRows<{ value: number }>(
          tx,
          sql`select value from counters where name = 'shared'`,
        );
        // The main thread yields here: a second transaction would read the same value if it could begin.
        await sleep(50);
        await tx.execute(sql`update counters set value = ${(current?.value ?? 0) + 1} where name = 'shared'`);
        steps.push(`${label} ends`);
      });
    const outside = sleep(10).then(async () => {
      const rows = await queryRows<{ value: number }>(
        handle.db,
        sql`select value from counters where name = 'shared'`,
      );
      steps.push("plain query answered");
      return rows;
    });
    await Promise.all([increment("first"), increment("second"), outside]);
    // The plain query, sent while the first transaction ran, waited its turn behind both.
    expect(steps).toEqual([
      "first begins",
      "first ends",
      "second begins",
      "second ends",
      "plain query answered",
    ]);
    expect((await outside)[0]?.value).toBe(2);
    expect((await countersOf(handle)).find((row) => row.name === "shared")?.value).toBe(2);
  });

  it("answers a failing statement with PostgreSQL's error and fields, and keeps serving", async () => {
    await handle.db.execute(sql`insert into counters values ('unique', 1)`);
    const failure = await handle.db
      .execute(sql`insert into counters values ('unique', 2)`)
      .catch((error) => error);
    expect(failure).toBeInstanceOf(Error);
    const cause = (failure as { cause?: { code?: string; constraint?: string; message?: string } }).cause;
    expect(cause?.code).toBe("23505");
    expect(cause?.constraint).toBe("counters_pkey");
    expect(cause?.message).toMatch(/duplicate key value/);
    await expect(handle.db.execute(sql`select * from no_such_table`)).rejects.toThrow();
    expect((await countersOf(handle)).find((row) => row.name === "unique")?.value).toBe(1);
  });

  it("copies the data directory while writes wait, and the copy opens elsewhere", async () => {
    const target = path.join(tmpdir(), `dash-copy-${randomUUID()}`);
    await Promise.all([
      handle.copyDataDirTo(target),
      handle.db.execute(sql`insert into counters values ('during-copy', 1)`),
    ]);
    expect(existsSync(path.join(target, "postmaster.pid"))).toBe(false);
    const copy = await PGlite.create({ dataDir: target });
    const { rows } = await copy.query<{ value: number }>("select value from counters where name = 'a'");
    expect(rows).toEqual([{ value: 1 }]);
    await copy.close();
    rmSync(target, { recursive: true, force: true });
  }, 60_000);

  it("vacuums and analyses in the worker", async () => {
    expect(await handle.maintain()).toBe(true);
  }, 60_000);
});

describe("the embedded database's thread, opened and closed", () => {
  it("releases the data directory's lock on close, so it opens again with its data", async () => {
    const dataDir = freshDataDir();
    const first = await openDatabase({ dataDir });
    await first.db.execute(sql`create table kept (n int)`);
    await first.db.execute(sql`insert into kept values (7)`);
    expect(existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(true);
    await expect(openDatabase({ dataDir })).rejects.toThrow(/another Dash process/);
    await first.close();
    expect(existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(false);
    await expect(first.db.execute(sql`select 1`)).rejects.toThrow();

    const again = await openDatabase({ dataDir });
    expect(await queryRows(again.db, sql`select n from kept`)).toEqual([{ n: 7 }]);
    await again.close();
  }, 120_000);

  it("fails every query, pending and later, when the worker crashes", async () => {
    const failures: string[] = [];
    const proxy = await PgliteWorkerProxy.start(freshDataDir(), {
      onFailure: (error) => failures.push(error.message),
    });
    const pending = proxy.query("select pg_sleep(0.5)");
    await proxy.thread.terminate();
    await expect(pending).rejects.toThrow(/stopped unexpectedly/);
    await expect(proxy.query("select 1")).rejects.toThrow(/stopped unexpectedly/);
    expect(failures).toEqual([expect.stringMatching(/stopped unexpectedly/)]);
    await proxy.close();
  }, 60_000);

  it("fails a statement that does not answer in time, and ends the hung worker", async () => {
    const failures: string[] = [];
    const proxy = await PgliteWorkerProxy.start(freshDataDir(), {
      statementTimeoutMs: 500,
      onFailure: (error) => failures.push(error.message),
    });
    const started = performance.now();
    await expect(proxy.query("select pg_sleep(30)")).rejects.toThrow(/did not answer within/);
    expect(performance.now() - started).toBeLessThan(5_000);
    await expect(proxy.query("select 1")).rejects.toThrow(/did not answer within/);
    expect(failures).toHaveLength(1);
    await proxy.close();
  }, 60_000);

  it("reports why PGlite could not open the data directory", async () => {
    const notAFolder = path.join(freshDataDir(), "file");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(notAFolder, "not a database");
    await expect(PgliteWorkerProxy.start(notAFolder)).rejects.toThrow();
  }, 60_000);
});
