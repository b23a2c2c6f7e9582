/**
 * The embedded database's own thread: opens PGlite on the data directory named in `workerData` and
 * answers the requests of `pglite-proxy.ts`. PGlite answers one query at a time and computes it
 * synchronously; here that work no longer holds up the server's HTTP and JSON work on the main
 * thread. Node runs this file itself (type stripping), without the loader of the main thread, so
 * it imports nothing of the project's but types, `copy-files.ts` and `pglite-statements.ts`, which
 * import nothing of it.
 */
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { copyFilesExcept } from "./copy-files.ts";
import { keepPreparedStatements } from "./pglite-statements.ts";

export interface WorkerOptions {
  dataDir: string;
}

/** PGlite's operations the main thread may call by name, with arguments and results cloned. */
export interface WorkerOperations {
  /**
   * Copies the data directory's entries, except `skip`, into `target` while no query and no
   * transaction runs, after a checkpoint: a consistent copy, as for a backup.
   */
  copyDataDirTo(target: string, skip: string[]): Promise<null>;
}

export type WorkerRequest = { id: number } & (
  | {
      op: "query";
      sql: string;
      params: unknown[];
      rowMode: "array" | "object";
      /** Type ids whose values stay the text PostgreSQL sent (drizzle's only use of parsers). */
      textTypes: number[];
      transaction: number | null;
    }
  | { op: "exec"; sql: string; transaction: number | null }
  | { op: "begin" }
  | { op: "end"; transaction: number; commit: boolean }
  | { op: "call"; method: keyof WorkerOperations; args: unknown[] }
  | { op: "close" }
);

/** An error as it crosses threads: structured cloning would keep only its name and message. */
export interface ClonedError {
  name: string;
  message: string;
  stack?: string;
  /** PostgreSQL's fields (`code`, `detail`, `constraint`, …), which callers test. */
  fields: Record<string, unknown>;
}

export type WorkerReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: ClonedError }
  | { ready: true }
  | { ready: false; error: ClonedError };

function cloneError(error: unknown): ClonedError {
  if (!(error instanceof Error)) return { name: "Error", message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error))
    if (value === null || ["string", "number", "boolean"].includes(typeof value)) fields[key] = value;
  return { name: error.name, message: error.message, stack: error.stack, fields };
}

interface OpenTransaction {
  tx: Transaction;
  finish: (commit: boolean) => void;
  /** PGlite's `transaction()` call, settled once the transaction committed or rolled back. */
  done: Promise<unknown>;
}

const ROLLED_BACK = new Error("rolled back");

async function serve(port: NonNullable<typeof parentPort>, options: WorkerOptions) {
  let database: PGlite;
  try {
    database = await PGlite.create({ dataDir: options.dataDir });
    keepPreparedStatements(database);
  } catch (error) {
    port.postMessage({ ready: false, error: cloneError(error) } satisfies WorkerReply);
    return;
  }
  const transactions = new Map<number, OpenTransaction>();
  let nextTransaction = 1;

  const operations: WorkerOperations = {
    async copyDataDirTo(target, skip) {
      await database.exec("checkpoint");
      // A query inside a transaction holds only the query lock: taking both waits for the end of
      // any transaction as well as of any query.
      await database._runExclusiveTransaction(() =>
        database._runExclusiveQuery(() => copyFilesExcept(options.dataDir, target, new Set(skip))),
      );
      return null;
    },
  };

  function target(transaction: number | null): PGlite | Transaction {
    if (transaction === null) return database;
    const open = transactions.get(transaction);
    if (!open) throw new Error(`transaction ${transaction} is not open`);
    return open.tx;
  }

  /** Opens a transaction and answers once it holds the database; an `end` request ends it. */
  function begin(): Promise<number> {
    const id = nextTransaction++;
    return new Promise<number>((answer, refuse) => {
      const done = database.transaction(
        (tx) =>
          new Promise<void>((commit, rollback) => {
            const finish = (isCommit: boolean) => (isCommit ? commit() : rollback(ROLLED_BACK));
            transactions.set(id, { tx, finish, done });
            answer(id);
          }),
      );
      // Refuses only a transaction that could not begin: once answered, `end` reports the outcome.
      done.catch(refuse);
    });
  }

  async function end(transaction: number, commit: boolean): Promise<null> {
    const open = transactions.get(transaction);
    if (!open) throw new Error(`transaction ${transaction} is not open`);
    transactions.delete(transaction);
    // PGlite commits when the callback's promise resolves and rolls back when it rejects.
    open.finish(commit);
    try {
      await open.done;
    } catch (error) {
      if (error !== ROLLED_BACK) throw error;
    }
    return null;
  }

  async function handle(request: WorkerRequest): Promise<unknown> {
    switch (request.op) {
      case "query": {
        const parsers = Object.fromEntries(request.textTypes.map((type) => [type, (value: string) => value]));
        return target(request.transaction).query(request.sql, request.params, {
          rowMode: request.rowMode,
          parsers,
        });
      }
      case "exec":
        return target(request.transaction).exec(request.sql);
      case "begin":
        return begin();
      case "end":
        return end(request.transaction, request.commit);
      case "call": {
        const operation = operations[request.method] as (...args: unknown[]) => Promise<unknown>;
        if (typeof operation !== "function") throw new Error(`no operation ${String(request.method)}`);
        return operation(...request.args);
      }
      case "close":
        await database.close();
        return null;
    }
  }

  port.on("message", async (request: WorkerRequest) => {
    try {
      const value = await handle(request);
      port.postMessage({ id: request.id, ok: true, value } satisfies WorkerReply);
    } catch (error) {
      port.postMessage({ id: request.id, ok: false, error: cloneError(error) } satisfies WorkerReply);
    }
  });
  port.postMessage({ ready: true } satisfies WorkerReply);
}

if (parentPort) await serve(parentPort, workerData as WorkerOptions);
