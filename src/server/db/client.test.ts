import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { withDatabase } from "../test/global-setup";
import { MIGRATION_LOCK_ID, migrationsFolder, openDatabase, queryRows } from "./client";

const template = inject("testDatabase");

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

describe("the embedded database", () => {
  it("reads what tolerates lag from the database itself: it has no replica", async () => {
    const { PGlite } = await import("@electric-sql/pglite");
    const handle = await openDatabase({ pglite: await PGlite.create() });
    expect(handle.readDb).toBe(handle.db);
    expect(handle.connectDirect).toBeNull();
    await handle.close();
  });
});

describe.runIf(template.kind === "postgres")("migrations on PostgreSQL", () => {
  it("run once when two processes start together, through a transaction pooler too, and leave no lock behind", async () => {
    if (template.kind !== "postgres") return;
    const name = `dash_migrate_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: template.adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    // As a deployment that forgot DATABASE_DIRECT_URL: everything goes through DATABASE_URL,
    // which is PgBouncer in transaction mode when the run put one in front.
    const handles = await Promise.all(
      [1, 2].map(() => openDatabase({ databaseUrl: withDatabase(template.appUrl, name), poolSize: 2 })),
    );
    try {
      await Promise.all(handles.map((handle) => handle.migrate()));
      const [first] = handles as [(typeof handles)[0]];
      const applied = await queryRows<{ hash: string }>(
        first.db,
        sql`select hash from drizzle.__drizzle_migrations`,
      );
      expect(applied).toHaveLength(readMigrationFiles({ migrationsFolder }).length);
      // Nothing holds the migration lock on any server connection, pooled or not.
      const locks = await admin.query(
        "select count(*)::int as count from pg_locks where locktype = 'advisory' and objid = $1",
        [MIGRATION_LOCK_ID],
      );
      expect(locks.rows[0].count).toBe(0);
      // A start after them finds nothing to do and does not wait.
      await first.migrate();
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 120_000);
});
