import { Readable } from "node:stream";
import { type SQL, sql } from "drizzle-orm";
import yazl from "yazl";
import { csvText, csvLine as writeCsvLine } from "../../../../shared/csv";
import { type Database, queryRows } from "../../../db/client";
import { COLUMNS, fileNameOf, METADATA_PREFIX, SKIPPED_FILES, STORED_FILES, type StoredFile } from "./spec";

/**
 * The roster as a OneRoster 1.2 bulk CSV set in a .zip, streamed: each file is read from the
 * database a page at a time while the archive is written. It holds the active records; links
 * to removed records (roles, agents, enrollments and demographics of removed people or classes)
 * are left out, so the set imports cleanly anywhere.
 */

const PAGE_SIZE = 2_000;
// Microseconds, as PostgreSQL keeps them: a re-import then finds the record unchanged.
const TIMESTAMP = `to_char(t.date_last_modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const list = (column: string) => `array_to_string(${column}, ',')`;
const day = (column: string) => `to_char(${column}, 'YYYY-MM-DD')`;
/** Keys of users' metadata that have their own users.csv columns. */
const USER_METADATA_COLUMNS = ["userIds", "userMasterIdentifier"];

interface FileQuery {
  /** The table read (alias t), and the condition on it besides the page. */
  from: string;
  where: string;
  /** The key the pages follow, unique and indexed. */
  order: string[];
  /** SQL expression (on t) of each column that is not a plain column of the same name. */
  expressions: Record<string, string>;
  /** Whether the table's metadata is written as metadata.* columns. */
  hasMetadata: boolean;
}

const ACTIVE_USER = (column: string) =>
  `exists (select 1 from users u where u.sourced_id = ${column} and u.status = 'active')`;

const QUERIES: Record<StoredFile, FileQuery> = {
  orgs: {
    from: "orgs",
    where: "t.status = 'active'",
    order: ["sourced_id"],
    expressions: {},
    hasMetadata: true,
  },
  academicSessions: {
    from: "academic_sessions",
    where: "t.status = 'active'",
    order: ["sourced_id"],
    expressions: { startDate: day("t.start_date"), endDate: day("t.end_date") },
    hasMetadata: true,
  },
  courses: {
    from: "courses",
    where: "t.status = 'active'",
    order: ["sourced_id"],
    expressions: {
      grades: list("t.grades"),
      subjects: list("t.subjects"),
      subjectCodes: list("t.subject_codes"),
    },
    hasMetadata: true,
  },
  classes: {
    from: "classes",
    where: "t.status = 'active'",
    order: ["sourced_id"],
    expressions: {
      grades: list("t.grades"),
      subjects: list("t.subjects"),
      subjectCodes: list("t.subject_codes"),
      periods: list("t.periods"),
      termSourcedIds: list("t.term_sourced_ids"),
    },
    hasMetadata: true,
  },
  users: {
    from: "users",
    where: "t.status = 'active'",
    order: ["sourced_id"],
    expressions: {
      enabledUser: "case when t.enabled_user then 'true' else 'false' end",
      userIds: "t.metadata -> 'userIds'",
      userMasterIdentifier: "t.metadata ->> 'userMasterIdentifier'",
      preferredGivenName: "t.preferred_first_name",
      preferredFamilyName: "t.preferred_last_name",
      grades: list("t.grades"),
      password: "null",
      agentSourcedIds: `(select string_agg(a.agent_sourced_id, ',' order by a.agent_sourced_id) from user_agents a
        where a.user_sourced_id = t.sourced_id and ${ACTIVE_USER("a.agent_sourced_id")})`,
    },
    hasMetadata: true,
  },
  roles: {
    from: "user_roles",
    where: ACTIVE_USER("t.user_sourced_id"),
    order: ["user_sourced_id", "role", "org_sourced_id"],
    expressions: {
      // Roles made in Dash have no sourcedId: they get a stable one from their key.
      sourcedId:
        "coalesce(t.sourced_id, 'dash-role-' || md5(t.user_sourced_id || '|' || t.role || '|' || t.org_sourced_id))",
      status: "'active'",
      dateLastModified: "null",
      beginDate: day("t.begin_date"),
      endDate: day("t.end_date"),
      userProfileSourcedId: "null",
    },
    hasMetadata: false,
  },
  demographics: {
    from: "demographics",
    where: `t.status = 'active' and ${ACTIVE_USER("t.sourced_id")}`,
    order: ["sourced_id"],
    expressions: { birthDate: day("t.birth_date") },
    hasMetadata: true,
  },
  enrollments: {
    from: "enrollments",
    where: `t.status = 'active' and ${ACTIVE_USER("t.user_sourced_id")}
      and exists (select 1 from classes k where k.sourced_id = t.class_sourced_id and k.status = 'active')`,
    order: ["sourced_id"],
    expressions: { beginDate: day("t.begin_date"), endDate: day("t.end_date") },
    hasMetadata: true,
  },
};

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

function expressionOf(query: FileQuery, column: string): string {
  if (column === "dateLastModified") return query.expressions[column] ?? TIMESTAMP;
  return query.expressions[column] ?? `t."${snakeCase(column)}"`;
}

/** An interchange file read back by other systems: written exactly, without spreadsheet neutralising. */
const EXACT = { mode: "exact" } as const;
const csvLine = (values: unknown[]) => writeCsvLine(values, EXACT);

/** `{type:identifier}` pairs, as users.csv writes other ids. */
function formatUserIds(value: unknown): string | null {
  if (!Array.isArray(value)) return null;
  return value
    .map(
      (item: { type?: unknown; identifier?: unknown }) =>
        `{${String(item.type ?? "")}:${String(item.identifier ?? "")}}`,
    )
    .join(",");
}

async function metadataKeys(db: Database, query: FileQuery, exclude: readonly string[]): Promise<string[]> {
  if (!query.hasMetadata) return [];
  const rows = await queryRows<{ key: string }>(
    db,
    sql`select distinct k.key from ${sql.raw(query.from)} t, jsonb_object_keys(t.metadata) as k(key)
        where jsonb_typeof(t.metadata) = 'object' and ${sql.raw(query.where)} order by k.key`,
  );
  return rows.map((row) => row.key).filter((key) => !exclude.includes(key));
}

/** The lines of one file: the header, then the records a page at a time. */
async function* fileLines(db: Database, file: StoredFile): AsyncGenerator<string> {
  const query = QUERIES[file];
  const extraKeys = await metadataKeys(db, query, file === "users" ? USER_METADATA_COLUMNS : []);
  const columns = COLUMNS[file];
  yield csvLine([...columns, ...extraKeys.map((key) => `${METADATA_PREFIX}${key}`)]);

  const selected = sql.join(
    [
      ...columns.map((column) => sql.raw(`${expressionOf(query, column)} as "${column}"`)),
      ...extraKeys.map((key, index) => sql`t.metadata ->> ${key} as ${sql.raw(`"extra${index}"`)}`),
      ...query.order.map((column, index) => sql.raw(`t.${column} as "order${index}"`)),
    ],
    sql`, `,
  );
  const orderColumns = sql.raw(query.order.map((column) => `t.${column}`).join(", "));
  let after: string[] | null = null;
  while (true) {
    const page: SQL = after
      ? sql`(${orderColumns}) > (${sql.join(
          after.map((value) => sql`${value}`),
          sql`, `,
        )})`
      : sql`true`;
    const rows = await queryRows<Record<string, unknown>>(
      db,
      sql`select ${selected} from ${sql.raw(query.from)} t where ${sql.raw(query.where)} and ${page}
          order by ${orderColumns} limit ${PAGE_SIZE}`,
    );
    let chunk = "";
    for (const row of rows) {
      const values = columns.map((column) =>
        column === "userIds" ? formatUserIds(row[column]) : row[column],
      );
      chunk += csvLine([...values, ...extraKeys.map((_key, index) => row[`extra${index}`])]);
    }
    if (chunk) yield chunk;
    if (rows.length < PAGE_SIZE) return;
    const last = rows.at(-1) as Record<string, unknown>;
    after = query.order.map((_column, index) => String(last[`order${index}`]));
  }
}

function manifestLines(): string {
  const lines = [
    ["propertyName", "value"],
    ["manifest.version", "1.0"],
    ["oneroster.version", "1.2"],
    ...STORED_FILES.map((file) => [`file.${file}`, "bulk"]),
    ...SKIPPED_FILES.map((file) => [`file.${file}`, "absent"]),
    ["source.systemName", "Dash"],
    ["source.systemCode", "dash"],
  ];
  return csvText(lines, EXACT);
}

/** A readable stream of the .zip; the database is read as the stream is consumed. */
export function exportRosterZip(db: Database): Readable {
  const zip = new yazl.ZipFile();
  const output = zip.outputStream as Readable;
  const modified = new Date();
  zip.addBuffer(Buffer.from(manifestLines()), "manifest.csv", { mtime: modified });
  for (const file of STORED_FILES) {
    zip.addReadStreamLazy(fileNameOf(file), { mtime: modified }, (callback) => {
      const stream = Readable.from(fileLines(db, file));
      // A failed query ends the download with an error rather than a truncated archive.
      stream.once("error", (error) => output.destroy(error));
      callback(null, stream);
    });
  }
  zip.end();
  return output;
}
