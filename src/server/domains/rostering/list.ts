import { type SQL, sql } from "drizzle-orm";
import type { Context } from "hono";
import { type Database, queryRows } from "../../db/client";
import type { AppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { requestLanguage } from "../../lib/validation";

/** Building blocks of the roster's paged lists: `{ success, data, total, error }` answers. */

export interface ListPage<Row> {
  data: Row[];
  total: number;
}

/** A timestamp column as an ISO 8601 instant in UTC, the same text on PGlite and PostgreSQL. */
export const isoInstant = (column: SQL) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A date column as `yyyy-MM-dd` (drivers would otherwise turn it into a local midnight). */
export const isoDay = (column: SQL) => sql`to_char(${column}, 'YYYY-MM-DD')`;

/** `asc` or `desc` from a validated enum, never from free text. */
export function direction(orderBy: "asc" | "desc"): SQL {
  return orderBy === "desc" ? sql.raw("desc") : sql.raw("asc");
}

/**
 * One page of a list whose rows carry the count of the whole list (`total`), for conditions too
 * costly to test twice. A page past the end has no row to carry it, so then it is asked for alone.
 */
export async function pageCarryingTotal<Row>(
  db: Database,
  queries: { rows: SQL; count: SQL },
  offset: number,
): Promise<ListPage<Row>> {
  const rows = await queryRows<Row & { total: number | string }>(db, queries.rows);
  let total = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && offset > 0) {
    const [counted] = await queryRows<{ total: number | string }>(db, queries.count);
    total = Number(counted?.total ?? 0);
  }
  return { total, data: rows.map(({ total: _total, ...row }) => row as Row) };
}

/** One page of a list and the count of the whole list, asked for side by side. */
export async function pageOf<Row>(db: Database, queries: { rows: SQL; count: SQL }): Promise<ListPage<Row>> {
  const [data, [counted]] = await Promise.all([
    queryRows<Row>(db, queries.rows),
    queryRows<{ total: number | string }>(db, queries.count),
  ]);
  return { data, total: Number(counted?.total ?? 0) };
}

/**
 * Answers a list request in the `{ success, data, total, error }` shape, refusals included: an
 * error keeps its status and carries the API's `{ code, message, issues }` as well, in the
 * request's language.
 */
export async function answerList<Row>(c: Context<AppEnv>, load: () => Promise<ListPage<Row>>) {
  try {
    const page = await load();
    return c.json({ success: true as const, data: page.data, total: page.total, error: null });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const body = error.toBody(requestLanguage(c));
    return c.json({ success: false, data: [], total: 0, error: body.message, ...body }, error.status);
  }
}
