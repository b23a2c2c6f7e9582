import { readFile } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import { type Database, migrationsFolder, queryJsonRows, queryRows } from "../../db/client";

/**
 * The whole database as one SQL script that psql loads into an empty PostgreSQL database, in one
 * transaction: the schema from the migrations (the same SQL a server applies, so the tables are
 * exactly those Dash creates on PostgreSQL), the record of applied migrations, then every table's
 * rows as `COPY … FROM stdin` in the order their foreign keys need, and the sequences' positions.
 * The source must be migrated to this version of Dash first.
 */
const ROWS_PER_READ = 2_000;

/** Tables the database's triggers fill as the tables they follow load: their rows are not copied. */
const KEPT_BY_TRIGGERS = new Set(["student_xp_periods", "student_daily_totals", "student_period_totals"]);

interface Journal {
  entries: { idx: number; tag: string }[];
}

const quoteName = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** A value in COPY's text format: the type's text output, with its control characters escaped. */
function copyValue(value: string | null): string {
  if (value === null) return "\\N";
  return value.replace(/[\\\n\r\t]/g, (char) =>
    char === "\\" ? "\\\\" : char === "\n" ? "\\n" : char === "\r" ? "\\r" : "\\t",
  );
}

/** Orders tables so that each comes after those its foreign keys point to. */
export function orderByForeignKeys(
  tables: string[],
  references: { child: string; parent: string }[],
): string[] {
  const ordered: string[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (table: string, path: string[]) => {
    if (state.get(table) === "done") return;
    if (state.get(table) === "visiting")
      throw new Error(`the foreign keys of ${[...path, table].join(" → ")} form a cycle`);
    state.set(table, "visiting");
    for (const { child, parent } of references)
      if (child === table && parent !== table && tables.includes(parent)) visit(parent, [...path, table]);
    state.set(table, "done");
    ordered.push(table);
  };
  for (const table of tables) visit(table, []);
  return ordered;
}

export async function* postgresSql(db: Database): AsyncGenerator<string> {
  // Text output that reads back the same on any server: ISO dates with their offsets.
  await db.execute(sql`set datestyle = 'ISO, YMD'`);
  await db.execute(sql`set intervalstyle = 'postgres'`);

  const journal = JSON.parse(
    await readFile(path.join(migrationsFolder, "meta", "_journal.json"), "utf8"),
  ) as Journal;
  const applied = await queryJsonRows<{ id: number; hash: string; createdAt: string | null }>(
    db,
    sql`select id, hash, created_at::text as "createdAt" from drizzle.__drizzle_migrations order by id`,
  );
  if (applied.length !== journal.entries.length)
    throw new Error(
      `the database has ${applied.length} migrations applied and this version of Dash ${journal.entries.length}: start the server on it once (or run the export again), then export`,
    );

  yield "-- Dash: a school's database for PostgreSQL, written by `npm run export:postgres`.\n";
  yield '-- Load it into a new, empty database: psql -v ON_ERROR_STOP=1 -f THIS_FILE "$DATABASE_URL"\n';
  yield "\\set ON_ERROR_STOP on\n";
  yield "set client_encoding = 'UTF8';\nset standard_conforming_strings = on;\nset datestyle = 'ISO, YMD';\nset intervalstyle = 'postgres';\nset client_min_messages = warning;\n";
  yield "begin;\n";
  yield `do $$ begin
  if exists (select 1 from information_schema.tables where table_schema in ('public', 'drizzle')) then
    raise exception 'this database already holds tables: load Dash into a new, empty database';
  end if;
end $$;\n`;
  yield 'create schema if not exists "drizzle";\n';
  yield 'create table "drizzle"."__drizzle_migrations" (id serial primary key, hash text not null, created_at bigint);\n';
  for (const entry of [...journal.entries].sort((a, b) => a.idx - b.idx)) {
    yield `\n-- migration ${entry.tag}\n`;
    yield `${(await readFile(path.join(migrationsFolder, `${entry.tag}.sql`), "utf8")).trimEnd()}\n`;
  }

  yield '\ncopy "drizzle"."__drizzle_migrations" (id, hash, created_at) from stdin;\n';
  for (const row of applied) yield `${row.id}\t${copyValue(row.hash)}\t${copyValue(row.createdAt)}\n`;
  yield "\\.\n";

  const tables = await queryRows<{ name: string }>(
    db,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`,
  );
  const references = await queryRows<{ child: string; parent: string }>(
    db,
    sql`select child.relname as child, parent.relname as parent from pg_constraint k
          join pg_class child on child.oid = k.conrelid join pg_class parent on parent.oid = k.confrelid
          join pg_namespace n on n.oid = child.relnamespace
        where k.contype = 'f' and n.nspname = 'public'`,
  );
  for (const table of orderByForeignKeys(
    tables.map((row) => row.name).filter((name) => !KEPT_BY_TRIGGERS.has(name)),
    references,
  )) {
    const columns = await queryRows<{ name: string }>(
      db,
      sql`select attname as name from pg_attribute
          where attrelid = ${`public.${quoteName(table)}`}::regclass and attnum > 0 and not attisdropped and attgenerated = ''
          order by attnum`,
    );
    const columnList = columns.map((column) => quoteName(column.name)).join(", ");
    const asText = sql.raw(columns.map((column) => `${quoteName(column.name)}::text`).join(", "));
    const from = sql.raw(`public.${quoteName(table)}`);
    yield `\ncopy public.${quoteName(table)} (${columnList}) from stdin;\n`;
    // A page at a time in the order of the rows' places in the table, which no one changes meanwhile.
    let after = "(0,0)";
    for (;;) {
      const page = await queryJsonRows<{ place: string; values: (string | null)[] }>(
        db,
        sql`select ctid::text as place, array[${asText}]::text[] as values from ${from}
            where ctid > ${after}::tid order by ctid limit ${ROWS_PER_READ}`,
      );
      if (page.length > 0) yield `${page.map((row) => row.values.map(copyValue).join("\t")).join("\n")}\n`;
      const last = page.at(-1);
      if (!last || page.length < ROWS_PER_READ) break;
      after = last.place;
    }
    yield "\\.\n";
  }

  const sequences = await queryRows<{ schema: string; name: string; lastValue: string | null }>(
    db,
    sql`select schemaname as schema, sequencename as name, last_value::text as "lastValue"
        from pg_sequences where schemaname in ('public', 'drizzle') order by 1, 2`,
  );
  yield "\n";
  for (const sequence of sequences)
    if (sequence.lastValue !== null)
      yield `select setval('${`${quoteName(sequence.schema)}.${quoteName(sequence.name)}`.replaceAll("'", "''")}', ${BigInt(sequence.lastValue)}, true);\n`;
  yield "commit;\nanalyze;\n";
}
