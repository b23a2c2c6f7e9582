import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";

/**
 * Many rows sent as one array parameter per column and read back with `unnest`: a batch of
 * thousands of rows is one short statement with a few parameters, which both drivers handle far
 * faster than a VALUES list of tens of thousands of parameters (and PGlite breaks on long lists).
 */

export interface ColumnSpec {
  /** The property of the table's rows (camelCase). */
  key: string;
  /** The column of the table. */
  name: string;
  sqlType: string;
}

export function columnSpecsOf(table: PgTable, leaveOut: readonly string[] = []): ColumnSpec[] {
  return Object.entries(getTableColumns(table) as Record<string, PgColumn>)
    .filter(([key]) => !leaveOut.includes(key))
    .map(([key, column]) => ({ key, name: column.name, sqlType: column.getSQLType() }));
}

/** Values of a column as they travel: booleans as bool[], everything else as text[]. */
function parameterOf(spec: ColumnSpec, rows: readonly object[]): SQL {
  const cellOf = (row: object) => (row as Record<string, unknown>)[spec.key];
  if (spec.sqlType === "boolean") {
    return sql`${sql.param(rows.map((row) => (cellOf(row) ?? null) as boolean | null))}::bool[]`;
  }
  const values = rows.map((row) => {
    const value = cellOf(row);
    if (value === null || value === undefined) return null;
    // List items were split on commas, so joining them with commas loses nothing.
    if (spec.sqlType.endsWith("[]")) return (value as string[]).join(",");
    if (spec.sqlType === "jsonb") return JSON.stringify(value);
    if (value instanceof Date) return value.toISOString();
    return String(value);
  });
  return sql`${sql.param(values)}::text[]`;
}

function readBack(spec: ColumnSpec, alias: string): string {
  if (spec.sqlType.endsWith("[]"))
    return `case when ${alias} = '' then '{}'::text[] else string_to_array(${alias}, ',') end`;
  if (spec.sqlType === "boolean" || spec.sqlType === "text") return alias;
  return `${alias}::${spec.sqlType}`;
}

/** `select … from unnest(…)`: the rows as a relation whose columns carry the table's column names. */
export function unnestRows(specs: readonly ColumnSpec[], rows: readonly object[]): SQL {
  const parameters = sql.join(
    specs.map((spec) => parameterOf(spec, rows)),
    sql`, `,
  );
  const aliases = specs.map((_spec, index) => `c${index}`);
  const columns = specs.map((spec, index) => `${readBack(spec, `u.${aliases[index]}`)} as "${spec.name}"`);
  return sql`select ${sql.raw(columns.join(", "))} from unnest(${parameters}) as u(${sql.raw(aliases.join(", "))})`;
}

export const columnList = (specs: readonly ColumnSpec[], prefix = "") =>
  sql.raw(specs.map((spec) => `${prefix}"${spec.name}"`).join(", "));
