import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { type SQL, sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import * as schema from "./schema";

/** One type for both drivers: the app's code never knows which database it runs on. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DatabaseKind = "pglite" | "postgres";

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  /** Applies pending migrations; safe to call from several processes on PostgreSQL. */
  migrate(): Promise<void>;
  /**
   * Reclaims space left by updates and refreshes the planner's statistics. PostgreSQL's
   * autovacuum does this by itself; PGlite runs no background workers, so the server calls this
   * now and then. Answers whether there was anything to do.
   */
  maintain(): Promise<boolean>;
  close(): Promise<void>;
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

// An arbitrary constant that names the migration lock among PostgreSQL advisory locks.
const MIGRATION_LOCK_ID = 4_242_001;

export type DatabaseOptions =
  | { databaseUrl: string; poolSize?: number }
  | { dataDir: string }
  | { pglite: PGlite };

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if ("databaseUrl" in options) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  if ("dataDir" in options) {
    const dataDir = path.resolve(options.dataDir);
    mkdirSync(dataDir, { recursive: true });
    const unlock = lockDataDir(dataDir);
    try {
      return wrapPglite(await PGlite.create({ dataDir }), unlock);
    } catch (error) {
      unlock();
      throw error;
    }
  }
  return wrapPglite(options.pglite);
}

/**
 * The embedded database belongs to one process: a second one on the same folder would corrupt
 * it. A lock file names the owner; one left by a process that no longer runs is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const lockFile = path.join(dataDir, "dash.lock");
  for (;;) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: "wx" });
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const owner = Number(readFileSync(lockFile, "utf8"));
    if (owner && isRunning(owner))
      throw new Error(`another Dash process (pid ${owner}) is using the database in ${dataDir}`);
    rmSync(lockFile, { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function wrapPglite(client: PGlite, unlock = () => {}): DatabaseHandle {
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    kind: "pglite",
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder }),
    maintain: async () => {
      await client.exec("vacuum (analyze)");
      return true;
    },
    close: async () => {
      await client.close();
      unlock();
    },
  };
}

async function openPostgres(connectionString: string, poolSize: number): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  // An idle connection the server ended (a restart, a dropped database) must not crash the
  // process: the pool has already discarded it and opens a new one for the next query.
  pool.on("error", () => {});
  // Fail at start-up, with the server's own message, when the database cannot be reached.
  const probe = await pool.connect();
  probe.release();
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  return {
    db,
    kind: "postgres",
    maintain: async () => false,
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
        await migratePg(drizzlePg(client), { migrationsFolder });
      } finally {
        await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/**
 * Runs raw SQL and returns its rows, handed over as one JSON array: for pages of hundreds of rows
 * far cheaper than a row at a time, from PGlite above all. Rows keep the query's order; their
 * values are what JSON holds (dates and instants should leave the query as text).
 */
export async function queryJsonRows<Row>(db: Database, query: SQL): Promise<Row[]> {
  const [result] = await queryRows<{ rows: Row[] }>(
    db,
    sql`select coalesce(json_agg(q), '[]'::json) as rows from (${query}) q`,
  );
  return result?.rows ?? [];
}

/** Runs raw SQL and returns its rows; both drivers answer with `{ rows }`. */
export async function queryRows<Row>(db: Database, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as { rows: Row[] };
  return result.rows;
}

export async function pingDatabase(db: Database): Promise<void> {
  await db.execute(sql`select 1`);
}
