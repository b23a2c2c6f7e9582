import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { readEnv } from "./env";

describe("readEnv", () => {
  it("has safe defaults for the embedded mode", () => {
    const env = readEnv({});
    expect(env).toMatchObject({
      NODE_ENV: "development",
      PORT: 3000,
      HOST: "0.0.0.0",
      DATA_DIR: "./data",
      SEED_DEMO: true,
      TRUST_PROXY: false,
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.DASH_SECRET_KEY).toBeUndefined();
  });

  it("treats empty variables as unset and parses flags", () => {
    const env = readEnv({ DATABASE_URL: "", SEED_DEMO: "false", PORT: "8080" });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SEED_DEMO).toBe(false);
    expect(env.PORT).toBe(8080);
  });

  it("runs one process per core on PostgreSQL and refuses more than one on the embedded database", () => {
    expect(readEnv({}).WORKERS).toBe(1);
    expect(readEnv({ DATABASE_URL: "postgres://db/dash" }).WORKERS).toBe(availableParallelism());
    expect(readEnv({ DATABASE_URL: "postgres://db/dash", WORKERS: "3" }).WORKERS).toBe(3);
    expect(readEnv({ WORKERS: "1" }).WORKERS).toBe(1);
    expect(() => readEnv({ WORKERS: "2" })).toThrow(
      /WORKERS: more than one server process needs PostgreSQL \(DATABASE_URL\)/,
    );
    expect(() => readEnv({ DATABASE_URL: "postgres://db/dash", WORKERS: "0" })).toThrow(/WORKERS/);
  });

  it("has the ingestion limits, each configurable within sense", () => {
    expect(readEnv({})).toMatchObject({
      INGEST_MAX_XP_PER_EVENT: 500,
      INGEST_MAX_ACTIVE_SECONDS_PER_EVENT: 14_400,
      INGEST_MAX_ACTIVE_SECONDS_PER_DAY: 86_400,
      INGEST_MAX_AUTO_XP_PER_DAY: 2000,
      INGEST_MAX_PAST_DAYS: 30,
      INGEST_MAX_FUTURE_MINUTES: 5,
    });
    expect(readEnv({ INGEST_MAX_AUTO_XP_PER_DAY: "800" }).INGEST_MAX_AUTO_XP_PER_DAY).toBe(800);
    expect(() => readEnv({ INGEST_MAX_ACTIVE_SECONDS_PER_DAY: "90000" })).toThrow(
      /INGEST_MAX_ACTIVE_SECONDS_PER_DAY: a day has at most 86400 seconds/,
    );
  });

  it("takes a direct and a read-replica URL beside DATABASE_URL, never alone", () => {
    const env = readEnv({
      DATABASE_URL: "postgres://pgbouncer:6432/dash",
      DATABASE_DIRECT_URL: "postgres://primary:5432/dash",
      DATABASE_READ_URL: "postgresql://replica:5432/dash",
    });
    expect(env).toMatchObject({
      DATABASE_DIRECT_URL: "postgres://primary:5432/dash",
      DATABASE_READ_URL: "postgresql://replica:5432/dash",
    });
    expect(readEnv({ DATABASE_URL: "postgres://primary/dash" }).DATABASE_READ_URL).toBeUndefined();
    expect(() => readEnv({ DATABASE_READ_URL: "postgres://replica/dash" })).toThrow(
      /DATABASE_URL: DATABASE_DIRECT_URL and DATABASE_READ_URL need DATABASE_URL/,
    );
    expect(() =>
      readEnv({ DATABASE_URL: "postgres://primary/dash", DATABASE_DIRECT_URL: "primary:5432" }),
    ).toThrow(/DATABASE_DIRECT_URL: DATABASE_DIRECT_URL must start with postgres/);
  });

  it("stores files on disk and keeps /metrics off unless configured; checks their settings", () => {
    const env = readEnv({});
    expect(env.STORAGE_S3_BUCKET).toBeUndefined();
    expect(env.METRICS_TOKEN).toBeUndefined();
    expect(env).toMatchObject({ STORAGE_S3_REGION: "us-east-1", STORAGE_S3_FORCE_PATH_STYLE: false });
    expect(readEnv({ STORAGE_S3_BUCKET: "school-files", STORAGE_S3_FORCE_PATH_STYLE: "true" })).toMatchObject(
      { STORAGE_S3_BUCKET: "school-files", STORAGE_S3_FORCE_PATH_STYLE: true },
    );
    expect(() => readEnv({ STORAGE_S3_ACCESS_KEY_ID: "key" })).toThrow(
      /STORAGE_S3_SECRET_ACCESS_KEY: set both STORAGE_S3_ACCESS_KEY_ID and STORAGE_S3_SECRET_ACCESS_KEY, or neither/,
    );
    expect(() => readEnv({ STORAGE_S3_BUCKET: "Bad_Bucket" })).toThrow(
      /STORAGE_S3_BUCKET: STORAGE_S3_BUCKET must be a bucket name/,
    );
    expect(() => readEnv({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN must be at least 16 characters/);
  });

  it("has the nightly backup's settings: 14 kept from 02:00 UTC, 0 for none, an hour of the day", () => {
    expect(readEnv({})).toMatchObject({ BACKUP_KEEP: 14, BACKUP_HOUR: 2 });
    expect(readEnv({ BACKUP_KEEP: "0", BACKUP_HOUR: "23" })).toMatchObject({
      BACKUP_KEEP: 0,
      BACKUP_HOUR: 23,
    });
    expect(() => readEnv({ BACKUP_HOUR: "24" })).toThrow(
      /BACKUP_HOUR: BACKUP_HOUR is an hour of the day, 0 to 23/,
    );
    expect(() => readEnv({ BACKUP_KEEP: "-1" })).toThrow(/BACKUP_KEEP:/);
  });

  it("runs the embedded database in its own thread unless told to keep it on the server's", () => {
    expect(readEnv({}).EMBEDDED_DATABASE_THREAD).toBe("worker");
    expect(readEnv({ EMBEDDED_DATABASE_THREAD: "main" }).EMBEDDED_DATABASE_THREAD).toBe("main");
    expect(() => readEnv({ EMBEDDED_DATABASE_THREAD: "both" })).toThrow(/EMBEDDED_DATABASE_THREAD/);
  });

  it("fails fast with a readable message", () => {
    expect(() => readEnv({ PORT: "eighty", DATABASE_URL: "mysql://x" })).toThrow(
      /Invalid environment configuration:\n {2}PORT: .+\n {2}DATABASE_URL: DATABASE_URL must start with postgres/,
    );
  });
});
