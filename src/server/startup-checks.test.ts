import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "./app";
import { authSettingsFromEnv, createAuthService } from "./domains/auth/service";
import { readEnv } from "./env";
import { createLogger } from "./lib/logger";
import { createLocalBus } from "./platform/events/bus";
import { createLiveHub } from "./platform/live/hub";
import { DEMO_ACCOUNTS } from "./seed/demo-accounts";
import { refuseDemoAccountsInProduction, resolveSecretKey, SECRET_KEY_FILE_NAME } from "./startup-checks";
import { createTestApp, openEmptyTestDatabase, type TestApp } from "./test/harness";

const folder = mkdtempSync(path.join(tmpdir(), "dash-startup-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function capturingLogger() {
  const lines: string[] = [];
  return { logger: createLogger("info", (_level, line) => lines.push(line)), lines };
}

describe("the secret key", () => {
  it("is required from DASH_SECRET_KEY in production", () => {
    const { logger } = capturingLogger();
    expect(() => resolveSecretKey(readEnv({ NODE_ENV: "production", DATA_DIR: folder }), logger)).toThrow(
      "DASH_SECRET_KEY is required in production: set it to a random secret of at least 32 characters " +
        "(for example the output of `openssl rand -base64 32`) and keep it safe, since stored secrets " +
        "cannot be read without it",
    );
    const key = "p".repeat(40);
    expect(resolveSecretKey(readEnv({ NODE_ENV: "production", DASH_SECRET_KEY: key }), logger)).toBe(key);
  });

  it("must be at least 32 characters", () => {
    expect(() => readEnv({ DASH_SECRET_KEY: "short" })).toThrow(
      /DASH_SECRET_KEY: DASH_SECRET_KEY must be at least 32 characters/,
    );
  });

  it("is generated once into DATA_DIR outside production, readable by its owner only, and reused", () => {
    const dataDir = path.join(folder, "generated", "data");
    const { logger, lines } = capturingLogger();
    const key = resolveSecretKey(readEnv({ DATA_DIR: dataDir }), logger);
    const keyFile = path.join(dataDir, SECRET_KEY_FILE_NAME);
    expect(key).toMatch(/^[\w-]{43}$/);
    expect(readFileSync(keyFile, "utf8")).toBe(`${key}\n`);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(lines.join("\n")).toContain('"msg":"generated the secret key"');

    const again = capturingLogger();
    expect(resolveSecretKey(readEnv({ DATA_DIR: dataDir }), again.logger)).toBe(key);
    expect(again.lines).toEqual([]);
  });

  it("with DATABASE_URL and no key outside production, is generated into DATA_DIR too", () => {
    const dataDir = path.join(folder, "with-postgres");
    const { logger } = capturingLogger();
    const env = readEnv({ DATABASE_URL: "postgres://localhost/dash", DATA_DIR: dataDir });
    const key = resolveSecretKey(env, logger);
    expect(readFileSync(path.join(dataDir, SECRET_KEY_FILE_NAME), "utf8").trim()).toBe(key);
  });
});

describe("production mode and the demo school", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  }, 240_000);
  afterAll(() => t.close());

  it("does not seed the demo school unless SEED_DEMO=true is explicit", () => {
    expect(readEnv({ NODE_ENV: "production" }).SEED_DEMO).toBe(false);
    expect(readEnv({ NODE_ENV: "production", SEED_DEMO: "true" }).SEED_DEMO).toBe(true);
    expect(readEnv({}).SEED_DEMO).toBe(true);
  });

  it("refuses a database that still holds the demo accounts unless SEED_DEMO=true is explicit", async () => {
    await expect(refuseDemoAccountsInProduction(t.db, readEnv({ NODE_ENV: "production" }))).rejects.toThrow(
      `this database still holds the demo school's accounts (${DEMO_ACCOUNTS.map((account) => account.email).join(", ")}), ` +
        "which sign in with a published password. In production Dash runs with them only when " +
        "SEED_DEMO=true is set explicitly. For a real school, start on a new database (another DATA_DIR " +
        "or DATABASE_URL) and create its first administrator with `npm run create-admin`; to run the " +
        "demo in production on purpose, set SEED_DEMO=true.",
    );
    await expect(
      refuseDemoAccountsInProduction(t.db, readEnv({ NODE_ENV: "production", SEED_DEMO: "true" })),
    ).resolves.toBeUndefined();
    await expect(refuseDemoAccountsInProduction(t.db, readEnv({}))).resolves.toBeUndefined();
    await expect(
      refuseDemoAccountsInProduction(t.db, readEnv({ NODE_ENV: "development", SEED_DEMO: "false" })),
    ).resolves.toBeUndefined();
  });

  it("starts a production database without the demo school", async () => {
    const empty = await openEmptyTestDatabase();
    try {
      await expect(
        refuseDemoAccountsInProduction(empty.handle.db, readEnv({ NODE_ENV: "production" })),
      ).resolves.toBeUndefined();
    } finally {
      await empty.dispose();
    }
  }, 60_000);

  it("lists the demo accounts on the sign-in page in demo mode only, never in production", async () => {
    const demo = await (await t.request("/api/auth/demo-accounts")).json();
    expect(demo.accounts.map((account: { email: string }) => account.email)).toEqual(
      DEMO_ACCOUNTS.map((account) => account.email),
    );
    expect(demo.password).toBe("dash-demo");

    // The same database with the demo school, served in production mode.
    const env = readEnv({ NODE_ENV: "production", SEED_DEMO: "true" });
    const logger = createLogger("silent");
    const bus = createLocalBus(logger);
    const auth = createAuthService(t.db, authSettingsFromEnv(env), bus);
    const production = createApp({
      ...t.deps,
      env,
      logger,
      auth,
      bus,
      live: createLiveHub({ bus, auth, logger }),
    });
    const response = await production.request("/api/auth/demo-accounts");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ accounts: [], password: null });
  });
});
