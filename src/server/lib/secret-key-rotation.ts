import { sql } from "drizzle-orm";
import { type Database, queryRows } from "../db/client";
import { credentialContext } from "../domains/credentials/credentials";
import { secretContextOf } from "../domains/webhooks/delivery";
import type { SecretBox } from "./secret-box";

/**
 * Every secret-box envelope the database stores, with the context it was sealed under. Rotating
 * DASH_SECRET_KEY re-encrypts all of them; a column of envelopes missing here stops the rotation
 * (see `unlistedEnvelopeColumns`), so a new one cannot be left under the old key unnoticed.
 */
export interface StoredEnvelopeColumn {
  table: string;
  column: string;
  /** The secret box's context of a row, from its id. */
  context: (id: string) => string;
}

export const STORED_ENVELOPE_COLUMNS: readonly StoredEnvelopeColumn[] = [
  { table: "app_credentials", column: "password_envelope", context: credentialContext },
  { table: "webhook_subscriptions", column: "secret_envelope", context: secretContextOf },
];

/** Columns named like envelopes (`…_envelope`) that the list above does not name. */
export async function unlistedEnvelopeColumns(db: Database): Promise<string[]> {
  const columns = await queryRows<{ name: string }>(
    db,
    sql`select table_name || '.' || column_name as name from information_schema.columns
      where table_schema = current_schema() and column_name like '%envelope' order by 1`,
  );
  const listed = new Set(STORED_ENVELOPE_COLUMNS.map((entry) => `${entry.table}.${entry.column}`));
  return columns.map((column) => column.name).filter((name) => !listed.has(name));
}

export interface RotationCount {
  table: string;
  column: string;
  rows: number;
}

/**
 * Decrypts every stored envelope with the old key and seals it again with the new one, in one
 * transaction: an envelope the old key cannot open (altered, or sealed under yet another key)
 * stops it, and nothing is changed.
 */
export async function rotateStoredSecrets(
  db: Database,
  from: SecretBox,
  to: SecretBox,
): Promise<RotationCount[]> {
  const unlisted = await unlistedEnvelopeColumns(db);
  if (unlisted.length)
    throw new Error(
      `these columns hold envelopes the rotation does not know how to open: ${unlisted.join(", ")}; ` +
        "add them to STORED_ENVELOPE_COLUMNS in src/server/lib/secret-key-rotation.ts",
    );
  return db.transaction(async (tx) => {
    const counts: RotationCount[] = [];
    for (const entry of STORED_ENVELOPE_COLUMNS) {
      const table = sql.identifier(entry.table);
      const column = sql.identifier(entry.column);
      const rows = await queryRows<{ id: string; envelope: string }>(
        tx,
        sql`select id::text as id, ${column} as envelope from ${table} order by id for update`,
      );
      for (const row of rows) {
        let plaintext: string;
        try {
          plaintext = from.decryptSecret(row.envelope, entry.context(row.id));
        } catch {
          throw new Error(
            `${entry.table}.${entry.column} of row ${row.id} cannot be opened with the old key: nothing was changed`,
          );
        }
        await tx.execute(
          sql`update ${table} set ${column} = ${to.encryptSecret(plaintext, entry.context(row.id))}
            where id = ${row.id}::uuid`,
        );
      }
      counts.push({ table: entry.table, column: entry.column, rows: rows.length });
    }
    return counts;
  });
}
