import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";

/** Its fixed credentials: s3rver checks signatures against them. */
const S3RVER_KEY = "S3RVER";

/**
 * A real S3-compatible server on a free loopback port, with one empty bucket, for tests of what
 * talks to S3. Answers the STORAGE_S3_* settings that reach it.
 */
export async function startS3Server(bucket = "dash-files") {
  const directory = await mkdtemp(path.join(tmpdir(), "dash-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    env: {
      STORAGE_S3_BUCKET: bucket,
      STORAGE_S3_ENDPOINT: `http://127.0.0.1:${port}`,
      STORAGE_S3_REGION: "us-east-1",
      STORAGE_S3_ACCESS_KEY_ID: S3RVER_KEY,
      STORAGE_S3_SECRET_ACCESS_KEY: S3RVER_KEY,
      STORAGE_S3_FORCE_PATH_STYLE: "true",
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
