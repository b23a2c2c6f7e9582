import { Worker } from "node:worker_threads";
import type { Results } from "@electric-sql/pglite";
import type { ClonedError, WorkerOperations, WorkerReply, WorkerRequest } from "./pglite-worker";

const workerFile = new URL("./pglite-worker.ts", import.meta.url);

/**
 * A statement that has not answered in this long is taken for a hung database. PGlite computes a
 * statement without yielding, so a long one and a hung one look alike from outside: this is far
 * beyond the longest the server runs (a large roster import, a vacuum of a large district).
 */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5 * 60_000;

type Parser = (value: string, typeId: number) => unknown;

/** What drizzle passes with a query: the row shape, and types to leave as text. */
export interface ProxyQueryOptions {
  rowMode?: "array" | "object";
  parsers?: Record<number, Parser>;
}

export interface ProxyTransaction {
  query<Row>(sql: string, params?: unknown[], options?: ProxyQueryOptions): Promise<Results<Row>>;
  exec(sql: string): Promise<Results[]>;
}

/** The error of a request the worker answered with an error, with PostgreSQL's fields kept. */
function restoreError(cloned: ClonedError): Error {
  const error = Object.assign(new Error(cloned.message), cloned.fields);
  error.name = cloned.name;
  if (cloned.stack) error.stack = cloned.stack;
  return error;
}

/**
 * Drizzle's only parsers keep a type's text as it is; anything else cannot cross to the worker,
 * which would then parse what the caller asked to keep, so it is refused rather than ignored.
 */
function textTypesOf(parsers: Record<number, Parser> = {}): number[] {
  return Object.entries(parsers).map(([type, parse]) => {
    const probe = "1970-01-01 00:00:00";
    if (parse(probe, Number(type)) !== probe)
      throw new Error(`the embedded database's thread takes only parsers that keep the text (type ${type})`);
    return Number(type);
  });
}

/**
 * PGlite in a worker thread, with the part of PGlite's interface drizzle uses (`query`, `exec`,
 * `transaction`) and PGlite's other operations by name (`call`). Requests are answered in order
 * by PGlite itself, which holds the whole database for a transaction until it ends. A worker that
 * exits, or does not answer a statement within the timeout, fails every request, now and later.
 */
export class PgliteWorkerProxy implements ProxyTransaction {
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }
  >();
  private nextId = 1;
  private failure: Error | null = null;
  private isClosed = false;
  // Set before the worker is asked to close, so its exit then is no failure.
  private isClosing = false;

  private constructor(
    private readonly worker: Worker,
    private readonly statementTimeoutMs: number,
    private readonly onFailure: (error: Error) => void,
  ) {
    worker.on("message", (reply: WorkerReply) => {
      if (!("id" in reply)) return;
      const request = this.pending.get(reply.id);
      if (!request) return;
      this.pending.delete(reply.id);
      clearTimeout(request.timer);
      if (reply.ok) request.resolve(reply.value);
      else request.reject(restoreError(reply.error));
    });
    worker.on("error", (error) => this.fail(new Error(`the embedded database failed: ${error.message}`)));
    worker.on("exit", (code) => {
      if (!this.isClosing)
        this.fail(new Error(`the embedded database stopped unexpectedly (exit code ${code})`));
    });
  }

  /** Starts the worker and answers once PGlite has opened `dataDir`, or with why it could not. */
  static async start(
    dataDir: string,
    options: { statementTimeoutMs?: number; onFailure?: (error: Error) => void } = {},
  ): Promise<PgliteWorkerProxy> {
    // Node strips the worker's types itself: the main thread's loader (tsx) is not needed there.
    const worker = new Worker(workerFile, { workerData: { dataDir }, execArgv: [] });
    let settle: {
      onMessage: (reply: WorkerReply) => void;
      onError: (error: Error) => void;
      onExit: (code: number) => void;
    };
    const ready = await new Promise<WorkerReply>((resolve, reject) => {
      settle = {
        onMessage: resolve,
        onError: reject,
        onExit: (code) => reject(new Error(`the embedded database's thread exited (code ${code})`)),
      };
      worker.once("message", settle.onMessage).once("error", settle.onError).once("exit", settle.onExit);
    }).finally(() => {
      // Only these: the worker's own listeners must stay.
      worker.off("message", settle.onMessage).off("error", settle.onError).off("exit", settle.onExit);
    });
    if ("ready" in ready && ready.ready)
      return new PgliteWorkerProxy(
        worker,
        options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
        options.onFailure ?? (() => {}),
      );
    await worker.terminate();
    throw "error" in ready ? restoreError(ready.error) : new Error("the embedded database did not start");
  }

  private fail(error: Error) {
    if (this.failure) return;
    this.failure = error;
    for (const request of this.pending.values()) {
      clearTimeout(request.timer);
      request.reject(error);
    }
    this.pending.clear();
    this.onFailure(error);
  }

  private request<T>(request: DistributiveOmit<WorkerRequest, "id">): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.isClosed) return Promise.reject(new Error("the embedded database is closed"));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(
          new Error(
            `the embedded database did not answer within ${Math.round(this.statementTimeoutMs / 1000)} s`,
          ),
        );
        void this.worker.terminate();
      }, this.statementTimeoutMs);
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      this.worker.postMessage({ id, ...request } as WorkerRequest);
    });
  }

  query<Row>(sql: string, params: unknown[] = [], options: ProxyQueryOptions = {}): Promise<Results<Row>> {
    return this.queryIn(null, sql, params, options);
  }

  exec(sql: string): Promise<Results[]> {
    return this.request({ op: "exec", sql, transaction: null });
  }

  private queryIn<Row>(
    transaction: number | null,
    sql: string,
    params: unknown[],
    options: ProxyQueryOptions,
  ): Promise<Results<Row>> {
    return this.request({
      op: "query",
      sql,
      params,
      rowMode: options.rowMode ?? "object",
      textTypes: textTypesOf(options.parsers),
      transaction,
    });
  }

  /** Runs `callback` with the database to itself; commits when it returns, rolls back when it throws. */
  async transaction<T>(callback: (tx: ProxyTransaction) => Promise<T>): Promise<T> {
    const transaction = await this.request<number>({ op: "begin" });
    const tx: ProxyTransaction = {
      query: (sql, params = [], options = {}) => this.queryIn(transaction, sql, params, options),
      exec: (sql) => this.request({ op: "exec", sql, transaction }),
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      await this.request({ op: "end", transaction, commit: false }).catch(() => {});
      throw error;
    }
    await this.request({ op: "end", transaction, commit: true });
    return result;
  }

  /** A PGlite operation run in the worker, such as `copyDataDirTo`. */
  call<M extends keyof WorkerOperations>(
    method: M,
    ...args: Parameters<WorkerOperations[M]>
  ): ReturnType<WorkerOperations[M]> {
    return this.request({ op: "call", method, args }) as ReturnType<WorkerOperations[M]>;
  }

  /** Closes the database and ends the worker; a worker that already failed is just ended. */
  async close(): Promise<void> {
    if (this.isClosing) return;
    this.isClosing = true;
    try {
      if (!this.failure) await this.request({ op: "close" });
    } finally {
      this.isClosed = true;
      await this.worker.terminate();
    }
  }

  /** The worker itself, for the tests of a crash. */
  get thread(): Worker {
    return this.worker;
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
