import { type SQL, sql } from "drizzle-orm";
import type {
  QtiDocument,
  QtiKind,
  QtiListQuery,
  QtiListResponse,
  QtiListRow,
  QtiTest,
} from "../../../../shared/contracts/content";
import { type Database, isoInstant, queryJsonRows, queryRows } from "../../../db/client";
import { AppError } from "../../../lib/errors";
import { message } from "../../../lib/i18n";
import { containsPattern } from "../../rostering/filter";
import type { QtiDocumentRecord } from "./qti-document";

/**
 * The bank's table, qti_documents: documents saved (an identifier that exists is replaced, keeping
 * whether it is public), read, listed and searched, and marked public or private. Who may do what
 * is the routes' business; reading decides what an anonymous caller may see inside the query.
 */

const NOT_FOUND = {
  item: "content:qti.itemNotFound",
  stimulus: "content:qti.stimulusNotFound",
  test: "content:qti.testNotFound",
} as const satisfies Record<QtiKind, string>;

const notFoundError = (kind: QtiKind) => new AppError("not_found", message(NOT_FOUND[kind]));

/** Rows per insert: 9 values each stays far below PostgreSQL's 65,535 parameters. */
const SAVE_BATCH = 500;

/**
 * Saves documents in the caller's transaction: new ones are created, existing ones replaced with
 * who and when (is_public and the creation stay), and each change goes into the bank's history
 * with the XML a replacement overwrote. Answers, by `kind:identifier`, whether each was new.
 */
export async function saveQtiDocuments(
  tx: Database,
  records: QtiDocumentRecord[],
  actorId: string,
  now: Date,
  /** The file the documents came from, for the history. */
  source: string | null = null,
): Promise<Map<string, boolean>> {
  const created = new Map<string, boolean>();
  for (let start = 0; start < records.length; start += SAVE_BATCH) {
    const batch = records.slice(start, start + SAVE_BATCH);
    const rows = sql.join(
      batch.map(
        (record) =>
          sql`(${record.kind}, ${record.identifier}, ${record.title}, ${record.rawXml},
            ${sql.param(record.interactions)}::text[], ${JSON.stringify(record.responseDeclarations)}::jsonb,
            ${sql.param(record.references)}::text[], ${record.sourceVersion}, ${actorId}, ${now}, ${actorId}, ${now})`,
      ),
      sql`, `,
    );
    // Every part of one statement reads the table as it was before it: `previous` is the XML replaced.
    const saved = await queryRows<{ kind: QtiKind; identifier: string; created: boolean }>(
      tx,
      sql`with previous as (
            select kind, identifier, raw_xml from qti_documents
            where (kind, identifier) in (select unnest(${sql.param(batch.map((record) => record.kind))}::text[]),
              unnest(${sql.param(batch.map((record) => record.identifier))}::text[]))
          ), saved as (
            insert into qti_documents (kind, identifier, title, raw_xml, interactions, response_declarations,
              "references", source_version, created_by, created_at, updated_by, updated_at)
            values ${rows}
            on conflict (kind, identifier) do update set
              title = excluded.title, raw_xml = excluded.raw_xml, interactions = excluded.interactions,
              response_declarations = excluded.response_declarations, "references" = excluded."references",
              source_version = excluded.source_version, updated_by = excluded.updated_by,
              updated_at = excluded.updated_at
            returning kind, identifier, (xmax = 0) as created
          ), history as (
            insert into qti_document_changes (kind, identifier, action, actor_sourced_id, at, source, previous_raw_xml)
            select s.kind, s.identifier, case when s.created then 'created' else 'replaced' end, ${actorId}, ${now},
              ${source}, p.raw_xml
            from saved s left join previous p on p.kind = s.kind and p.identifier = s.identifier
          )
          select kind, identifier, created from saved`,
    );
    for (const row of saved) created.set(`${row.kind}:${row.identifier}`, row.created);
  }
  return created;
}

/**
 * Whether anonymous callers may read a document: an item when public; a stimulus when public itself
 * or when a public item refers to it. Tests are for signed-in callers only.
 */
function publicCondition(kind: QtiKind): SQL {
  if (kind === "item") return sql`d.is_public`;
  if (kind === "stimulus")
    return sql`(d.is_public or exists (select 1 from qti_documents i
      where i.kind = 'item' and i.is_public and d.identifier = any(i."references")))`;
  return sql`false`;
}

/**
 * One item or stimulus (the spec's `fetchQti`). Anonymous callers get public ones only: for them
 * a private document does not exist (404), so its existence is not revealed.
 */
export async function fetchQtiDocument(
  db: Database,
  kind: "item" | "stimulus",
  identifier: string,
  access: { signedIn: boolean },
): Promise<QtiDocument> {
  const [row] = await queryRows<QtiDocument>(
    db,
    sql`select d.identifier, d.title, d.raw_xml as "rawXml", d.interactions, d."references",
          ${publicCondition(kind)} as "isPublic"
        from qti_documents d
        where d.kind = ${kind} and d.identifier = ${identifier}
          and (${access.signedIn} or ${publicCondition(kind)})`,
  );
  if (!row) throw notFoundError(kind);
  return row;
}

/** A test with the items it holds, in order, as the bank knows them. */
export async function readQtiTest(db: Database, identifier: string): Promise<QtiTest> {
  const [test] = await queryRows<{ identifier: string; title: string; rawXml: string }>(
    db,
    sql`select identifier, title, raw_xml as "rawXml" from qti_documents
        where kind = 'test' and identifier = ${identifier}`,
  );
  if (!test) throw notFoundError("test");
  const items = await queryJsonRows<QtiTest["items"][number]>(
    db,
    sql`select ref.identifier, i.title, coalesce(i.interactions, '{}'::text[]) as interactions
        from qti_documents t
        cross join lateral unnest(t."references") with ordinality as ref(identifier, position)
        left join qti_documents i on i.kind = 'item' and i.identifier = ref.identifier
        where t.kind = 'test' and t.identifier = ${identifier}
        order by ref.position`,
  );
  return { ...test, items };
}

/** A page of documents of one kind, searched on title and identifier, newest change first. */
export async function listQtiDocuments(
  db: Database,
  kind: QtiKind,
  query: QtiListQuery,
): Promise<QtiListResponse> {
  const conditions: SQL[] = [sql`d.kind = ${kind}`];
  if (query.search) {
    const pattern = containsPattern(query.search);
    conditions.push(sql`(d.title ilike ${pattern} or d.identifier ilike ${pattern})`);
  }
  if (query.interaction) conditions.push(sql`${query.interaction} = any(d.interactions)`);
  const where = sql.join(conditions, sql` and `);
  const [counted] = await queryRows<{ total: number }>(
    db,
    sql`select count(*)::int as total from qti_documents d where ${where}`,
  );
  const data = await queryJsonRows<QtiListRow>(
    db,
    sql`select d.identifier, d.title, d.interactions, ${publicCondition(kind)} as "isPublic",
          ${isoInstant(sql`d.updated_at`)} as "updatedAt", d.source_version as "sourceVersion"
        from qti_documents d where ${where}
        order by d.updated_at desc, d.identifier
        limit ${query.limit} offset ${query.offset}`,
  );
  return { data, total: counted?.total ?? 0, offset: query.offset, limit: query.limit };
}

/** Marks an item or stimulus public (anonymous embeds may show it) or private, with who and when, in the history. */
export async function setQtiPublic(
  db: Database,
  kind: "item" | "stimulus",
  identifier: string,
  isPublic: boolean,
  actorId: string,
  now: Date,
): Promise<{ identifier: string; isPublic: boolean }> {
  const [row] = await queryRows<{ identifier: string }>(
    db,
    sql`with changed as (
          update qti_documents set is_public = ${isPublic}, updated_by = ${actorId}, updated_at = ${now}
          where kind = ${kind} and identifier = ${identifier} returning kind, identifier
        ), history as (
          insert into qti_document_changes (kind, identifier, action, actor_sourced_id, at)
          select kind, identifier, ${isPublic ? "published" : "unpublished"}, ${actorId}, ${now} from changed
        )
        select identifier from changed`,
  );
  if (!row) throw notFoundError(kind);
  return { identifier: row.identifier, isPublic };
}
