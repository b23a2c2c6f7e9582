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

  it("fails fast with a readable message", () => {
    expect(() => readEnv({ PORT: "eighty", DATABASE_URL: "mysql://x" })).toThrow(
      /Invalid environment configuration:\n {2}PORT: .+\n {2}DATABASE_URL: DATABASE_URL must start with postgres/,
    );
  });
});
