import { mkdirSync } from "node:fs";
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
import type { Env } from "../env";
import type { Logger } from "../lib/logger";
import { type LockOptions, lockDataDir } from "./data-dir-lock";
import { PgliteWorkerProxy } from "./pglite-proxy";
import type { DumpCompression } from "./pglite-worker";
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
  /**
   * The embedded database's data directory as a tarball, taken while it keeps answering (a
   * transaction in progress finishes first). PostgreSQL is backed up with `pg_dump` instead.
   */
  dumpDataDir(compression?: DumpCompression): Promise<Blob>;
  close(): Promise<void>;
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

// An arbitrary constant that names the migration lock among PostgreSQL advisory locks.
const MIGRATION_LOCK_ID = 4_242_001;

export type DatabaseOptions =
  | { databaseUrl: string; poolSize?: number }
  | {
      dataDir: string;
      lock?: LockOptions;
      /** `worker` (the default) runs PGlite in a thread of its own; `main` on the caller's. */
      thread?: "worker" | "main";
      /** Told when the database's thread crashed or hung; every query then fails. */
      onFailure?: (message: string) => void;
    }
  | { pglite: PGlite };

/**
 * The database the configuration names, for the server and the command-line tools alike: a
 * lock left behind is taken over with a warning; losing the lock while running, or the embedded
 * database's thread, is an error after which `onFatal` must stop the process.
 */
export function configuredDatabase(
  env: Pick<Env, "DATABASE_URL" | "DATA_DIR" | "EMBEDDED_DATABASE_THREAD">,
  logger: Logger,
  onFatal: () => void,
): DatabaseOptions {
  if (env.DATABASE_URL) return { databaseUrl: env.DATABASE_URL };
  const fatal = (message: string) => {
    logger.error(message);
    onFatal();
  };
  return {
    dataDir: env.DATA_DIR,
    thread: env.EMBEDDED_DATABASE_THREAD,
    lock: { onTakeover: (message) => logger.warn(message), onLost: fatal },
    onFailure: fatal,
  };
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if ("databaseUrl" in options) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  if ("dataDir" in options) {
    const dataDir = path.resolve(options.dataDir);
    mkdirSync(dataDir, { recursive: true });
    const lock = lockDataDir(dataDir, options.lock);
    try {
      const client =
        options.thread === "main"
          ? await PGlite.create({ dataDir })
          : await PgliteWorkerProxy.start(dataDir, {
              onFailure: (error) => options.onFailure?.(error.message),
            });
      return wrapPglite(client, lock.release);
    } catch (error) {
      lock.release();
      throw error;
    }
  }
  return wrapPglite(options.pglite);
}

/** PGlite on this thread, or in its own thread behind the part of PGlite's interface drizzle uses. */
function wrapPglite(client: PGlite | PgliteWorkerProxy, unlock = () => {}): DatabaseHandle {
  // Drizzle calls only `query`, `exec` and `transaction`, which the proxy answers as PGlite does.
  const pglite = client as PGlite;
  const db = drizzlePglite(pglite, { schema }) as unknown as Database;
  return {
    db,
    kind: "pglite",
    migrate: () => migratePglite(drizzlePglite(pglite), { migrationsFolder }),
    maintain: async () => {
      await client.exec("vacuum (analyze)");
      return true;
    },
    dumpDataDir: (compression) => client.dumpDataDir(compression),
    close: async () => {
      try {
        await client.close();
      } finally {
        unlock();
      }
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
    dumpDataDir: () =>
      Promise.reject(new Error("a database on a PostgreSQL server is backed up with pg_dump, not by Dash")),
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
