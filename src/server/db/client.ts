import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { type SQL, sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { Env } from "../env";
import type { Logger } from "../lib/logger";
import { type LockOptions, lockDataDir } from "./data-dir-lock";
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
  | { dataDir: string; lock?: LockOptions }
  | { pglite: PGlite };

/**
 * The database the configuration names, for the server and the command-line tools alike: a
 * lock left behind is taken over with a warning, and losing the lock while running is an error
 * after which `onLockLost` must stop all writing.
 */
export function configuredDatabase(
  env: Pick<Env, "DATABASE_URL" | "DATA_DIR">,
  logger: Logger,
  onLockLost: () => void,
): DatabaseOptions {
  if (env.DATABASE_URL) return { databaseUrl: env.DATABASE_URL };
  return {
    dataDir: env.DATA_DIR,
    lock: {
      onTakeover: (message) => logger.warn(message),
      onLost: (message) => {
        logger.error(message);
        onLockLost();
      },
    },
  };
}

/**
 * Opens the database. Each driver is loaded only when used: loading one takes a good part of the
 * start-up on a busy machine.
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if ("databaseUrl" in options) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  if ("dataDir" in options) {
    const dataDir = path.resolve(options.dataDir);
    mkdirSync(dataDir, { recursive: true });
    const lock = lockDataDir(dataDir, options.lock);
    try {
      const { PGlite } = await import("@electric-sql/pglite");
      return await wrapPglite(await PGlite.create({ dataDir }), lock.release);
    } catch (error) {
      lock.release();
      throw error;
    }
  }
  return wrapPglite(options.pglite);
}

/** The creation time of the newest migration, as drizzle records it once applied. */
function newestMigrationTime(): number {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
    entries: { when: number }[];
  };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

/**
 * Whether every migration is applied already: one small query, where the migrator reads and
 * hashes every migration file and runs several statements. False when unsure.
 */
async function isMigrated(db: Database): Promise<boolean> {
  try {
    const [row] = await queryRows<{ newest: string | number | null }>(
      db,
      sql`select max(created_at) as newest from drizzle.__drizzle_migrations`,
    );
    return Number(row?.newest) === newestMigrationTime();
  } catch {
    return false;
  }
}

async function wrapPglite(client: PGlite, unlock = () => {}): Promise<DatabaseHandle> {
  const [{ drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    kind: "pglite",
    async migrate() {
      if (!(await isMigrated(db))) await migratePglite(drizzlePglite(client), { migrationsFolder });
    },
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
  const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
    import("pg"),
    import("drizzle-orm/node-postgres"),
    import("drizzle-orm/node-postgres/migrator"),
  ]);
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
      if (await isMigrated(db)) return;
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
