import { createHash } from "node:crypto";
import type pg from "pg";

/** Statements named on one connection at most; beyond, new texts run unnamed there. */
const MAX_NAMED_STATEMENTS = 1_000;

/** PostgreSQL's answer when a kept plan's result columns changed under it (a table was altered). */
const CACHED_PLAN_CHANGED = "0A000";

type QueryConfig = { text?: unknown; name?: unknown; values?: unknown };

const namesByText = new Map<string, string>();

/** A statement's name follows from its text alone, so every connection names it alike. */
function statementName(text: string): string {
  let name = namesByText.get(text);
  if (name === undefined) {
    name = `dash_${createHash("sha1").update(text).digest("base64url")}`;
    // The texts are the app's own, a few hundred; the bound only guards against a runaway.
    if (namesByText.size >= 10 * MAX_NAMED_STATEMENTS) namesByText.clear();
    namesByText.set(text, name);
  }
  return name;
}

const hasValues = (values: unknown) => Array.isArray(values) && values.length > 0;

/**
 * Makes each query with parameters on this connection a named prepared statement, named after its
 * SQL text: node-postgres then parses it once per connection and afterwards only binds and
 * executes it, and after a few runs PostgreSQL reuses its plan. Planning was a quarter of the
 * database's time in a morning rush. Queries without parameters keep the simple protocol (they
 * may hold several statements). A statement whose table changed shape under it runs unnamed on
 * that connection from then on.
 *
 * Not through a pooler in transaction mode older than PgBouncer 1.21: the next transaction may
 * run on another server connection, which does not know the name.
 */
export function nameStatements(connection: pg.PoolClient, maxStatements = MAX_NAMED_STATEMENTS): void {
  const named = new Set<string>();
  const refused = new Set<string>();
  const query = connection.query.bind(connection) as (...args: unknown[]) => unknown;

  connection.query = ((...args: unknown[]) => {
    const [first, second] = args;
    const config: QueryConfig | null =
      typeof first === "string"
        ? hasValues(second)
          ? { text: first }
          : null
        : typeof first === "object" && first !== null && !("submit" in first)
          ? (first as QueryConfig)
          : null;
    const text = config?.text;
    const values = hasValues(second) ? second : config?.values;
    if (!config || typeof text !== "string" || config.name !== undefined || !hasValues(values)) {
      return query(...args);
    }
    const name = statementName(text);
    if (refused.has(name) || (!named.has(name) && named.size >= maxStatements)) return query(...args);
    named.add(name);
    args[0] = { ...config, name };
    const forget = (error: unknown) => {
      if ((error as { code?: string } | null)?.code === CACHED_PLAN_CHANGED) refused.add(name);
    };
    const callback = args.at(-1);
    if (typeof callback === "function") {
      args[args.length - 1] = (error: unknown, ...results: unknown[]) => {
        forget(error);
        return callback(error, ...results);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise) result.catch(forget);
    return result;
  }) as typeof connection.query;
}
