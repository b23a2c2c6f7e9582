/**
 * `npm start`: the server from its bundle, built first when it is missing or older than its
 * sources (see build-server.ts). Node runs this file itself, without a loader, so its imports carry
 * their `.ts` extension.
 */
import cluster from "node:cluster";
import { setSourceMapsSupport } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ensureServerBuild, SERVER_BUNDLE } from "./build-server.ts";
import { createLogger, isLogLevel } from "./lib/logger.ts";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

// A forked server process runs the bundle its primary checked, even if a source changed since.
if (!cluster.isWorker) {
  const level = process.env.LOG_LEVEL;
  try {
    await ensureServerBuild(projectRoot, createLogger(isLogLevel(level) ? level : "info"));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    process.stderr.write(`Dash could not start: the server could not be built: ${reason}\n`);
    process.exit(1);
  }
}
// Stack traces in the log name the source files and lines.
setSourceMapsSupport(true);
await import(pathToFileURL(path.join(projectRoot, SERVER_BUNDLE)).href);
