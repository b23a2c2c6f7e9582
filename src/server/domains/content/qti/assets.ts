import { sql } from "drizzle-orm";
import { type Database, queryRows } from "../../../db/client";
import { AppError } from "../../../lib/errors";
import { message } from "../../../lib/i18n";
import type { FileStorage, StoredFile } from "../../../platform/storage";

/**
 * A package's media file by its SHA-256, for GET /api/qti/assets/:sha256/:fileName. The name in
 * the address is for people and players; the content is found by its hash alone.
 */
export async function readQtiAsset(
  db: Database,
  storage: FileStorage,
  sha256: string,
): Promise<{ file: StoredFile; fileName: string }> {
  const [asset] = await queryRows<{ storageKey: string; fileName: string }>(
    db,
    sql`select storage_key as "storageKey", file_name as "fileName" from qti_assets where sha256 = ${sha256}`,
  );
  const file = asset ? await storage.get(asset.storageKey) : null;
  if (!asset || !file) throw new AppError("not_found", message("content:qti.assetNotFound"));
  return { file, fileName: asset.fileName };
}
