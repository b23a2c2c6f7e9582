import { createReadStream } from "node:fs";
import { rm } from "node:fs/promises";
import type { Readable } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";
import type { StorageDriver } from "./storage";

export interface S3Settings {
  bucket: string;
  /** For S3-compatible services (MinIO, Ceph, Garage, a cloud's own); unset for AWS. */
  endpoint?: string;
  region: string;
  /** Unset: the SDK's own chain (an instance or pod role, the shared credentials file). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** `endpoint/bucket/key` instead of `bucket.endpoint/key`, as most self-hosted services need. */
  forcePathStyle: boolean;
}

const isNotFound = (error: unknown) =>
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

/** Files as objects of one bucket, under the same keys. */
export function s3Driver(settings: S3Settings): StorageDriver {
  // The SDK takes about a second to load: only a server that stores a file pays for it.
  let connecting: Promise<{ client: S3Client; sdk: typeof import("@aws-sdk/client-s3") }> | undefined;
  const connect = () => {
    connecting ??= import("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: settings.region,
        endpoint: settings.endpoint,
        forcePathStyle: settings.forcePathStyle,
        credentials: settings.credentials,
        // Checksums only where S3 requires them: many S3-compatible services refuse the newer
        // checksum headers, and each put is already checked and hashed before it is sent.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
      }),
    }));
    return connecting;
  };
  const { bucket } = settings;
  return {
    name: "s3",
    async commit(staged, key) {
      try {
        const { client, sdk } = await connect();
        await client.send(
          new sdk.PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: createReadStream(staged.path),
            ContentLength: staged.size,
            ContentType: staged.contentType,
          }),
        );
      } finally {
        await rm(staged.path, { force: true });
      }
    },
    async open(key) {
      const { client, sdk } = await connect();
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }));
        return { size: object.ContentLength ?? 0, body: object.Body as Readable };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async remove(key) {
      const { client, sdk } = await connect();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    async has(key) {
      const { client, sdk } = await connect();
      try {
        await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },
  };
}
