import { type SQL, sql } from "drizzle-orm";
import { type Database, queryRows } from "../../db/client";

/**
 * Reports over a district answer thousands of lines: handed over as one string (fields apart by
 * the unit separator, lines by the record separator, neither of which an id, a name or a number
 * holds), they cost far less than a row each, from PGlite above all.
 */

/** A line's fields as SQL. A null field would be left out and shift the rest: give each a value. */
export const packedLine = (fields: SQL[]) => sql`concat_ws(chr(31), ${sql.join(fields, sql`, `)})`;

/** The lines a query answers (its `line` column), each as its fields; `order` sorts them (by the query's columns, as `g`). */
export async function packedLines(db: Database, lines: SQL, order: SQL = sql``): Promise<string[][]> {
  const [row] = await queryRows<{ packed: string | null }>(
    db,
    sql`select string_agg(g.line, chr(30) ${order}) as packed from (${lines}) g`,
  );
  return row?.packed ? row.packed.split("\u001e").map((line) => line.split("\u001f")) : [];
}
