import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Database } from "./db/client";
import { type Env, MIN_SECRET_KEY_LENGTH } from "./env";
import type { Logger } from "./lib/logger";
import { findDemoAccounts } from "./seed/demo-school";

/** Where the key is kept when DASH_SECRET_KEY is not set, outside production. */
export const SECRET_KEY_FILE_NAME = "secret.key";

/**
 * The key that encrypts stored secrets. Production takes it only from DASH_SECRET_KEY, so it
 * lives with the other secrets of the deployment rather than next to the data it protects.
 * Elsewhere a random key is written once into DATA_DIR, readable by its owner only, and reused.
 */
export function resolveSecretKey(env: Env, logger: Logger): string {
  if (env.DASH_SECRET_KEY) return env.DASH_SECRET_KEY;
  if (env.NODE_ENV === "production")
    throw new Error(
      `DASH_SECRET_KEY is required in production: set it to a random secret of at least ${MIN_SECRET_KEY_LENGTH} characters ` +
        "(for example the output of `openssl rand -base64 32`) and keep it safe, since stored secrets " +
        "cannot be read without it",
    );
  const keyFile = path.resolve(env.DATA_DIR, SECRET_KEY_FILE_NAME);
  mkdirSync(path.dirname(keyFile), { recursive: true });
  try {
    // `wx`: two processes starting at once cannot both write a key; the second reads the first's.
    writeFileSync(keyFile, `${randomBytes(32).toString("base64url")}\n`, { flag: "wx", mode: 0o600 });
    logger.info("generated the secret key", { file: keyFile });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  if (statSync(keyFile).mode & 0o077)
    logger.warn("the secret key file is readable by other users; restrict it with chmod 600", {
      file: keyFile,
    });
  const key = readFileSync(keyFile, "utf8").trim();
  if (key.length < MIN_SECRET_KEY_LENGTH)
    throw new Error(`the secret key in ${keyFile} is shorter than ${MIN_SECRET_KEY_LENGTH} characters`);
  return key;
}

/**
 * The demo accounts share a published password: a production server keeps them only when told
 * to with SEED_DEMO=true (which in production is never the default).
 */
export async function refuseDemoAccountsInProduction(db: Database, env: Env): Promise<void> {
  if (env.NODE_ENV !== "production" || env.SEED_DEMO) return;
  const accounts = await findDemoAccounts(db);
  if (!accounts.length) return;
  throw new Error(
    `this database still holds the demo school's accounts (${accounts.map((account) => account.email).join(", ")}), ` +
      "which sign in with a published password. In production Dash runs with them only when " +
      "SEED_DEMO=true is set explicitly. For a real school, start on a new database (another DATA_DIR " +
      "or DATABASE_URL) and create its first administrator with `npm run create-admin`; to run the " +
      "demo in production on purpose, set SEED_DEMO=true.",
  );
}
