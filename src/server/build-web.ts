import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { Logger } from "./lib/logger";

/** Inputs of the browser build: when one is newer than the build, the build is out of date. */
const WEB_SOURCES = ["src/web", "src/shared", "index.html", "vite.config.ts", "public", "package-lock.json"];

function newestModification(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const child of readdirSync(entry))
    newest = Math.max(newest, newestModification(path.join(entry, child)));
  return newest;
}

/** Whether `builtFile` is missing or older than any of `sources` (files or folders). */
export function isBuildStale(projectRoot: string, sources: string[], builtFile: string): boolean {
  if (!existsSync(builtFile)) return true;
  const builtAt = statSync(builtFile).mtimeMs;
  return sources.some((source) => newestModification(path.join(projectRoot, source)) > builtAt);
}

export function isWebBuildStale(projectRoot: string, outDir: string): boolean {
  return isBuildStale(projectRoot, WEB_SOURCES, path.join(outDir, "index.html"));
}

/**
 * Builds the single-page app with Vite when the build is missing or older than its sources.
 * Answers whether there is a build to serve: a failed build keeps the previous one, and without
 * any the API still starts.
 */
export async function ensureWebBuild(projectRoot: string, outDir: string, logger: Logger): Promise<boolean> {
  if (!isWebBuildStale(projectRoot, outDir)) return true;
  logger.info("building the web app");
  // Vite sets NODE_ENV to production for its build when it is unset; this process and the server
  // processes it forks keep their own (a development server would otherwise ask for production's key).
  const nodeEnv = process.env.NODE_ENV;
  try {
    const { build } = await import("vite");
    await build({ root: projectRoot, logLevel: "warn", build: { outDir } });
  } catch (error) {
    logger.error("the web app could not be built", {
      error: error instanceof Error ? error.message : String(error),
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  return existsSync(path.join(outDir, "index.html"));
}
