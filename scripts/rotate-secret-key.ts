/**
 * Re-encrypts every secret Dash stores (students' app passwords, webhook signing secrets) under a
 * new DASH_SECRET_KEY, in one transaction:
 *   npm run rotate-secret-key -- [--from-key-file <old key file>] [--new-key-file <new key file>]
 * The old key: --from-key-file, else DASH_SECRET_KEY, else the key file in DATA_DIR (the embedded
 * default). The new key: DASH_NEW_SECRET_KEY, else --new-key-file; with the embedded default and
 * neither given, a new random key. Stop the servers first (the embedded database allows one
 * process anyway): a server still holding the old key cannot read what was re-encrypted.
 * With the key file in DATA_DIR, the file is replaced by the new key (the old one is kept beside
 * it as secret.key.previous); otherwise the operator switches DASH_SECRET_KEY afterwards.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { configuredDatabase, openDatabase } from "../src/server/db/client";
import { MIN_SECRET_KEY_LENGTH, readEnv } from "../src/server/env";
import { createLogger } from "../src/server/lib/logger";
import { createSecretBox } from "../src/server/lib/secret-box";
import { rotateStoredSecrets } from "../src/server/lib/secret-key-rotation";
import { SECRET_KEY_FILE_NAME } from "../src/server/startup-checks";

function readKeyFile(file: string, what: string): string {
  if (!existsSync(file)) throw new Error(`${what}: there is no file ${file}`);
  return checkedKey(readFileSync(file, "utf8").trim(), `${what} in ${file}`);
}

function checkedKey(key: string, what: string): string {
  if (key.length < MIN_SECRET_KEY_LENGTH)
    throw new Error(`${what} is shorter than ${MIN_SECRET_KEY_LENGTH} characters`);
  return key;
}

async function main() {
  const { values } = parseArgs({
    options: {
      "from-key-file": { type: "string" },
      "new-key-file": { type: "string" },
    },
  });
  const env = readEnv();
  const dataDirKeyFile = path.resolve(env.DATA_DIR, SECRET_KEY_FILE_NAME);
  // The key file in DATA_DIR is the one the server reads when DASH_SECRET_KEY is not set.
  const replacesDataDirKey = !values["from-key-file"] && !env.DASH_SECRET_KEY;
  const oldKey = values["from-key-file"]
    ? readKeyFile(path.resolve(values["from-key-file"]), "the old key")
    : env.DASH_SECRET_KEY
      ? checkedKey(env.DASH_SECRET_KEY, "DASH_SECRET_KEY")
      : readKeyFile(dataDirKeyFile, "the old key");
  const givenNewKey = process.env.DASH_NEW_SECRET_KEY
    ? checkedKey(process.env.DASH_NEW_SECRET_KEY.trim(), "DASH_NEW_SECRET_KEY")
    : values["new-key-file"]
      ? readKeyFile(path.resolve(values["new-key-file"]), "the new key")
      : null;
  if (!givenNewKey && !replacesDataDirKey)
    throw new Error("name the new key: set DASH_NEW_SECRET_KEY or pass --new-key-file <file>");
  const newKey = givenNewKey ?? randomBytes(32).toString("base64url");
  if (newKey === oldKey) throw new Error("the new key is the old one");

  // Written before the database changes, so the new key is on disk whatever happens next.
  const pendingKeyFile = `${dataDirKeyFile}.next`;
  if (replacesDataDirKey) writeFileSync(pendingKeyFile, `${newKey}\n`, { mode: 0o600 });

  const logger = createLogger(env.LOG_LEVEL);
  const database = await openDatabase(configuredDatabase(env, logger, () => process.exit(1)));
  let counts: Awaited<ReturnType<typeof rotateStoredSecrets>>;
  try {
    await database.migrate();
    counts = await rotateStoredSecrets(database.db, createSecretBox(oldKey), createSecretBox(newKey));
  } catch (error) {
    if (replacesDataDirKey) rmSync(pendingKeyFile, { force: true });
    throw error;
  } finally {
    await database.close();
  }
  for (const count of counts)
    process.stdout.write(`Re-encrypted ${count.rows} value(s) of ${count.table}.${count.column}.\n`);
  if (replacesDataDirKey) {
    renameSync(dataDirKeyFile, `${dataDirKeyFile}.previous`);
    renameSync(pendingKeyFile, dataDirKeyFile);
    process.stdout.write(
      `The new key is in ${dataDirKeyFile}; the old one was kept in ${dataDirKeyFile}.previous.\n` +
        "Start Dash again. Once it reads its secrets, delete the old key (and older backups of it with care: " +
        "a backup of the database taken before now needs the old key).\n",
    );
  } else {
    process.stdout.write(
      "Now set DASH_SECRET_KEY to the new key everywhere Dash runs and restart every server: " +
        "until then they cannot read the re-encrypted secrets. Keep the old key with the backups taken before now.\n",
    );
  }
}

main().catch((error) => {
  process.stderr.write(`rotate-secret-key: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
