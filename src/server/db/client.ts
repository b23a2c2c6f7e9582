import { mkdirSync, readFileSync } from "node:fs";
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
import { databaseQueryDuration } from "../platform/metrics/metrics";
import { type LockOptions, lockDataDir } from "./data-dir-lock";
import { copyDatabaseFiles, NOT_DATABASE_FILES } from "./data-dir-snapshot";
import { nameStatements } from "./pg-statements";
import { PgliteWorkerProxy } from "./pglite-proxy";
import { keepPreparedStatements } from "./pglite-statements";
import * as schema from "./schema";

/** One type for both drivers: the app's code never knows which database it runs on. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DatabaseKind = "pglite" | "postgres";

export interface DatabaseHandle {
  db: Database;
  /**
   * For reads that tolerate a second of lag (learning metrics, the heatmap): a streaming replica
   * when DATABASE_READ_URL names one, else `db` itself. Never for sessions, roles or scope, nor
   * for reading back what the same request wrote.
   */
  readDb: Database;
  kind: DatabaseKind;
  /**
   * A connection of its own to the PostgreSQL server itself (DATABASE_DIRECT_URL, else
   * DATABASE_URL), for what a pooler in transaction mode cannot carry, such as LISTEN; the
   * caller ends it. Null on PGlite.
   */
  connectDirect: (() => Promise<pg.Client>) | null;
  /** Applies pending migrations; safe to call from several processes on PostgreSQL. */
  migrate(): Promise<void>;
  /**
   * Reclaims space left by updates and refreshes the planner's statistics. PostgreSQL's
   * autovacuum does this by itself; PGlite runs no background workers, so the server calls this
   * now and then. Answers whether there was anything to do.
   */
  maintain(): Promise<boolean>;
  /**
   * The embedded database in a data directory only: copies its files into `target` (a folder
   * that does not exist yet) while no query and no transaction runs, so the copy is consistent.
   * Queries wait meanwhile and go on afterwards. PostgreSQL is backed up with its own tools.
   */
  copyDataDirTo(target: string): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

// An arbitrary constant that names the migration lock among PostgreSQL advisory locks.
export const MIGRATION_LOCK_ID = 4_242_001;

export type DatabaseOptions =
  | {
      databaseUrl: string;
      directUrl?: string;
      readUrl?: string;
      poolSize?: number;
      /** Named prepared statements (see pg-statements.ts); off unless set. */
      preparedStatements?: boolean;
    }
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
  env: Pick<
    Env,
    | "DATABASE_URL"
    | "DATABASE_DIRECT_URL"
    | "DATABASE_READ_URL"
    | "DATABASE_PREPARED_STATEMENTS"
    | "DATA_DIR"
    | "EMBEDDED_DATABASE_THREAD"
  >,
  logger: Logger,
  onFatal: () => void,
): DatabaseOptions {
  if (env.DATABASE_URL) {
    return {
      databaseUrl: env.DATABASE_URL,
      directUrl: env.DATABASE_DIRECT_URL,
      readUrl: env.DATABASE_READ_URL,
      preparedStatements: env.DATABASE_PREPARED_STATEMENTS ?? !env.DATABASE_DIRECT_URL,
    };
  }
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

/**
 * Opens the database. Each driver is loaded only when used: loading one takes a good part of the
 * start-up on a busy machine.
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if ("databaseUrl" in options) return openPostgres(options);
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
      return wrapPglite(client, lock.release, dataDir);
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

/** PGlite on this thread, or in its own thread behind the part of PGlite's interface drizzle uses. */
function wrapPglite(client: PGlite | PgliteWorkerProxy, unlock = () => {}, dataDir?: string): DatabaseHandle {
  // Drizzle calls only `query`, `exec` and `transaction`, which the proxy answers as PGlite does.
  const pglite = client as PGlite;
  // In its own thread, PGlite prepares its statements there.
  if (client instanceof PGlite) keepPreparedStatements(client);
  timePgliteQueries(pglite);
  const db = drizzlePglite(pglite, { schema }) as unknown as Database;
  return {
    db,
    readDb: db,
    kind: "pglite",
    connectDirect: null,
    async migrate() {
      if (!(await isMigrated(db))) await migratePglite(drizzlePglite(pglite), { migrationsFolder });
    },
    maintain: async () => {
      await client.exec("vacuum (analyze)");
      return true;
    },
    async copyDataDirTo(target) {
      if (!dataDir) throw new Error("this database is held in memory: it has no data directory to copy");
      if (client instanceof PgliteWorkerProxy) {
        await client.call("copyDataDirTo", target, [...NOT_DATABASE_FILES]);
        return;
      }
      // Writes the changed pages to the files first, so the copy needs little recovery when opened.
      await client.exec("checkpoint");
      // A query inside a transaction holds only the query lock: taking both waits for the end of
      // any transaction as well as of any query.
      await client._runExclusiveTransaction(() =>
        client._runExclusiveQuery(() => copyDatabaseFiles(dataDir, target)),
      );
    },
    close: async () => {
      try {
        await client.close();
      } finally {
        unlock();
      }
    },
  };
}

async function openPostgres(options: {
  databaseUrl: string;
  directUrl?: string;
  readUrl?: string;
  poolSize?: number;
  preparedStatements?: boolean;
}): Promise<DatabaseHandle> {
  const poolOptions = {
    max: options.poolSize ?? 10,
    preparedStatements: options.preparedStatements ?? false,
  };
  const pool = await openPool(options.databaseUrl, poolOptions);
  let readPool: pg.Pool | null = null;
  try {
    if (options.readUrl) readPool = await openPool(options.readUrl, poolOptions);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  const connectDirect = async () => {
    const client = new pg.Client({ connectionString: options.directUrl ?? options.databaseUrl });
    await client.connect();
    return client;
  };
  return {
    db,
    readDb: readPool ? (drizzlePg(readPool, { schema }) as unknown as Database) : db,
    kind: "postgres",
    connectDirect,
    maintain: async () => false,
    copyDataDirTo: async () => {
      throw new Error("a PostgreSQL database is backed up with pg_dump");
    },
    async migrate() {
      if (await isMigrated(db)) return;
      // The lock belongs to a transaction kept open on a connection of its own while a second
      // one migrates: it ends with that transaction whatever lies between Dash and the server,
      // where a session lock taken through a pooler in transaction mode could stay behind on a
      // pooled connection and block the next start.
      const holder = await connectDirect();
      try {
        await holder.query("begin");
        await holder.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK_ID]);
        const migrator = await connectDirect();
        try {
          await migratePg(drizzlePg(migrator), { migrationsFolder });
        } finally {
          await migrator.end();
        }
        await holder.query("commit");
      } finally {
        // Ending the connection rolls back the transaction, and frees the lock, if it is still open.
        await holder.end();
      }
    },
    close: async () => {
      await Promise.all([pool.end(), readPool?.end()]);
    },
  };
}

async function openPool(
  connectionString: string,
  options: { max: number; preparedStatements: boolean },
): Promise<pg.Pool> {
  // A connection once opened stays open: opening it again, and preparing its statements again,
  // is what the first seconds of a rush after a quiet hour cannot afford.
  const pool = new pg.Pool({ connectionString, max: options.max, idleTimeoutMillis: 0 });
  // An idle connection the server ended (a restart, a dropped database) must not crash the
  // process: the pool has already discarded it and opens a new one for the next query.
  pool.on("error", () => {});
  pool.on("connect", (connection) => {
    timePgQueries(connection);
    if (options.preparedStatements) nameStatements(connection);
  });
  // Fail at start-up, with the server's own message, when the database cannot be reached.
  try {
    const probe = await pool.connect();
    probe.release();
  } catch (error) {
    await pool.end();
    throw error;
  }
  return pool;
}

/** Times a query for /metrics, whether it succeeds or fails, without touching its result. */
function timed<T>(running: Promise<T>): Promise<T> {
  const end = databaseQueryDuration.startTimer();
  running.then(
    () => end(),
    () => end(),
  );
  return running;
}

/**
 * Drizzle sends every query through `query`, of the database or of the transaction it runs in:
 * wrapping those two on the instance times them all.
 */
function timePgliteQueries(client: PGlite): void {
  const query = client.query.bind(client);
  client.query = ((...args: Parameters<PGlite["query"]>) => timed(query(...args))) as PGlite["query"];
  const transaction = client.transaction.bind(client);
  client.transaction = ((callback) =>
    transaction((tx) => {
      const txQuery = tx.query.bind(tx);
      tx.query = ((...args: Parameters<typeof tx.query>) => timed(txQuery(...args))) as typeof tx.query;
      return callback(tx);
    })) as PGlite["transaction"];
}

/**
 * Every query of node-postgres, through the pool or a checked-out connection, ends in its
 * connection's `query`: wrapped once per new connection. The pool calls it with a callback,
 * transactions without one.
 */
function timePgQueries(connection: pg.PoolClient): void {
  const query = connection.query.bind(connection) as (...args: unknown[]) => unknown;
  connection.query = ((...args: unknown[]) => {
    const end = databaseQueryDuration.startTimer();
    const callback = args.at(-1);
    if (typeof callback === "function") {
      args[args.length - 1] = (...results: unknown[]) => {
        end();
        return callback(...results);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise)
      result.then(
        () => end(),
        () => end(),
      );
    return result;
  }) as typeof connection.query;
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

/** An instant as ISO 8601 text in UTC with milliseconds, for rows that leave the query as JSON or text. */
export function isoInstant(column: SQL): SQL {
  return sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** Runs raw SQL and returns its rows; both drivers answer with `{ rows }`. */
export async function queryRows<Row>(db: Database, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as { rows: Row[] };
  return result.rows;
}

export async function pingDatabase(db: Database): Promise<void> {
  await db.execute(sql`select 1`);
}

/** A unique index refused a row: a concurrent request wrote the same key first. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `column = id` for a uuid column, with the id as a uuid so the column's index answers; text that
 * is no uuid matches nothing (rather than failing the statement or scanning the table).
 */
export function uuidEquals(column: SQL, id: string): SQL {
  return UUID.test(id) ? sql`${column} = ${id}::uuid` : sql`false`;
}

export function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === "23505") return true;
  }
  return false;
}
