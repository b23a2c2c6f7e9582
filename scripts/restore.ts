/**
 * Restores a backup written by `npm run backup` into an empty (or new) DATA_DIR:
 *   npm run restore -- FILE
 * The server then starts on it; migrations newer than the backup apply at that start.
 */
import path from "node:path";
import { readEnv } from "../src/server/env";
import { restoreBackup } from "../src/server/platform/backup/backup-file";

async function main(): Promise<number> {
  const [file, ...rest] = process.argv.slice(2);
  if (!file || rest.length > 0) {
    process.stderr.write("Usage: npm run restore -- FILE\n");
    return 2;
  }
  const env = readEnv();
  if (env.DATABASE_URL) {
    process.stderr.write(
      "restore: DATABASE_URL is set: a Dash backup restores into the embedded database (unset DATABASE_URL and set DATA_DIR); a PostgreSQL dump restores with pg_restore\n",
    );
    return 2;
  }
  const dataDir = path.resolve(env.DATA_DIR);
  const restored = await restoreBackup(path.resolve(file), dataDir);
  process.stdout.write(
    `Restored the backup of ${restored.manifest.createdAt} into ${dataDir} (${restored.migrations} migrations applied${restored.manifest.hasSecretKey ? ", with its secret key" : ""}); start the server on it with DATA_DIR=${dataDir} npm start\n`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`restore: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
