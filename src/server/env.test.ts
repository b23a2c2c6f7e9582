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
