import { type SQL, sql } from "drizzle-orm";
import { type Database, queryJsonRows, queryRows } from "../../../db/client";
import { containsPattern, FilterError, filterToSql } from "../filter";
import { OneRosterError } from "./errors";
import type { CollectionQuery } from "./query";
import type { MakeRef, Resource } from "./resources";

/** Reads OneRoster records: one page of a collection with its total, or one record by id. */

/** The records a collection endpoint lists: a resource narrowed by a condition, maybe under a parent. */
export interface CollectionView {
  resource: Resource;
  where: SQL;
  /** For `/classes/{id}/students` and the like: whether that class exists (else 404). */
  parent?: { exists: SQL; description: string };
}

/** PostgreSQL's "data exception" class: a filter value the column's type cannot hold. */
function isDataException(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("22")) return true;
  }
  return false;
}

const tableOf = (resource: Resource) =>
  sql`${sql.identifier(resource.table)} ${sql.identifier(resource.alias)}`;

function filterCondition(resource: Resource, filter: string | undefined): SQL {
  try {
    return filterToSql(filter, resource.filters);
  } catch (error) {
    if (error instanceof FilterError) throw new OneRosterError(400, "invalid_filter_field", error.message);
    throw error;
  }
}

function orderOf(resource: Resource, query: CollectionQuery): SQL {
  const direction = query.orderBy === "desc" ? sql`desc` : sql`asc`;
  if (!query.sort) return sql`${resource.id} ${direction}`;
  const column = Object.hasOwn(resource.sorts, query.sort) ? resource.sorts[query.sort] : undefined;
  if (!column) {
    throw new OneRosterError(
      400,
      "invaliddata",
      `${query.sort} cannot be sorted on. Sortable fields: ${Object.keys(resource.sorts).join(", ")}`,
    );
  }
  // Equal values keep one stable order, so pages neither repeat nor skip records.
  return sql`${column} ${direction} nulls last, ${resource.id} ${direction}`;
}

function searchCondition(resource: Resource, search: string): SQL {
  if (!search) return sql`true`;
  const pattern = containsPattern(search);
  return sql`(${sql.join(
    resource.searchable.map((column) => sql`${column} ilike ${pattern}`),
    sql` or `,
  )})`;
}

export interface Count {
  total: number;
  parentExists: boolean;
}

/** Computes a count, or gives one counted a moment ago: see ONEROSTER_COUNT_CACHE_MS. */
export type CountMemo = (compute: () => Promise<Count>) => Promise<Count>;

export async function listRecords(
  db: Database,
  view: CollectionView,
  query: CollectionQuery,
  ref: MakeRef,
  rememberCount: CountMemo = (compute) => compute(),
) {
  const { resource } = view;
  const where = sql`${view.where} and ${filterCondition(resource, query.filter)} and ${searchCondition(resource, query.search)}`;
  const order = orderOf(resource, query);
  try {
    // The count and the page are separate reads, which PostgreSQL runs at the same time.
    const [counted, rows] = await Promise.all([
      rememberCount(async () => {
        const [row] = await queryRows<Count>(
          db,
          sql`select (select count(*)::int from ${tableOf(resource)} where ${where}) as total,
                ${view.parent?.exists ?? sql`true`} as "parentExists"`,
        );
        return { total: row?.total ?? 0, parentExists: row?.parentExists ?? false };
      }),
      queryJsonRows<Record<string, unknown>>(
        db,
        sql`select ${resource.columns}
            from (select * from ${tableOf(resource)} where ${where} order by ${order}
                  limit ${query.limit} offset ${query.offset}) ${sql.identifier(resource.alias)}
            order by ${order}`,
      ),
    ]);
    if (view.parent && !counted.parentExists) {
      throw new OneRosterError(404, "unknownobject", view.parent.description);
    }
    if (rows.length > 0) await resource.attach?.(db, rows);
    return {
      total: counted.total,
      records: rows.map((row) => resource.toRecord(row as never, ref)),
    };
  } catch (error) {
    if (query.filter && isDataException(error)) {
      throw new OneRosterError(400, "invalid_filter_field", "A value in the filter does not fit its field");
    }
    throw error;
  }
}

export async function getRecord(db: Database, resource: Resource, where: SQL, id: string, ref: MakeRef) {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select ${resource.columns} from ${tableOf(resource)} where ${resource.id} = ${id} and ${where}`,
  );
  const [row] = rows;
  if (!row) return null;
  await resource.attach?.(db, rows);
  return resource.toRecord(row as never, ref);
}
