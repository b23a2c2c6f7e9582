import path from "node:path";
import type { Env } from "../../env";
import { diskDriver } from "./disk";
import { s3Driver } from "./s3";
import { createStorage, type FileStorage } from "./storage";

export type { FileKind } from "./content";
export { fileResponse } from "./http";
export type { FileInput, FileStorage, PutOptions, StoredFile, StoredFileInfo } from "./storage";

type StorageEnv = Pick<
  Env,
  | "DATA_DIR"
  | "STORAGE_S3_BUCKET"
  | "STORAGE_S3_ENDPOINT"
  | "STORAGE_S3_REGION"
  | "STORAGE_S3_ACCESS_KEY_ID"
  | "STORAGE_S3_SECRET_ACCESS_KEY"
  | "STORAGE_S3_FORCE_PATH_STYLE"
>;

/**
 * The storage the configuration names: a bucket when STORAGE_S3_BUCKET is set, else the folder
 * DATA_DIR/files. Uploads are staged under DATA_DIR/files/.incoming either way (no key starts
 * with a dot, so the staging folder is never a key's).
 */
export function fileStorageFromEnv(env: StorageEnv): FileStorage {
  const root = path.resolve(env.DATA_DIR, "files");
  const stagingDir = path.join(root, ".incoming");
  if (!env.STORAGE_S3_BUCKET) return createStorage(diskDriver(root), stagingDir);
  const credentials =
    env.STORAGE_S3_ACCESS_KEY_ID && env.STORAGE_S3_SECRET_ACCESS_KEY
      ? { accessKeyId: env.STORAGE_S3_ACCESS_KEY_ID, secretAccessKey: env.STORAGE_S3_SECRET_ACCESS_KEY }
      : undefined;
  return createStorage(
    s3Driver({
      bucket: env.STORAGE_S3_BUCKET,
      endpoint: env.STORAGE_S3_ENDPOINT,
      region: env.STORAGE_S3_REGION,
      credentials,
      forcePathStyle: env.STORAGE_S3_FORCE_PATH_STYLE,
    }),
    stagingDir,
  );
}
