import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

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

export function isWebBuildStale(projectRoot: string, outDir: string): boolean {
  const builtIndex = path.join(outDir, "index.html");
  if (!existsSync(builtIndex)) return true;
  const builtAt = statSync(builtIndex).mtimeMs;
  return WEB_SOURCES.some((source) => newestModification(path.join(projectRoot, source)) > builtAt);
}

/** Builds the single-page app with Vite when the build is missing or older than its sources. */
export async function ensureWebBuild(projectRoot: string, outDir: string, log: (message: string) => void) {
  if (!isWebBuildStale(projectRoot, outDir)) return;
  log("building the web app");
  const { build } = await import("vite");
  await build({ root: projectRoot, logLevel: "warn", build: { outDir } });
}
