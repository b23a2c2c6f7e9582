/**
 * The shell's weight and paint, in Debian's Chromium against the real server with the demo school:
 *
 *   npm run bench:shell                 # 11 cold loads of each page
 *   npm run bench:shell -- --runs 10
 *
 * For the sign-in page and a student's home: the JavaScript the browser loads to show the page,
 * gzipped (each file's `.gz` from the build, as the server sends it to a browser that asks for
 * gzip), and the largest contentful paint of a cold load (a new browser context: no cache). The
 * targets are 250 KB of JavaScript per page and 1.5 s to the largest paint of the student home.
 */
import { readFileSync, rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { type Browser, chromium } from "@playwright/test";
import { figure, startServer, stopChild } from "./bench-lib";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values: args } = parseArgs({ options: { runs: { type: "string", default: "11" } } });
const runs = Number(args.runs);
const log = (message: string) => process.stderr.write(`[bench-shell] ${message}\n`);

const TARGET_JS_KB = 250;
const TARGET_LCP_MS = 1_500;

const PAGES = [
  { name: "sign-in page", path: "/login", as: null, ready: "#email, input[type=email]" },
  { name: "student home", path: "/app", as: "student@dash.demo", ready: "main h1" },
] as const;

/** The gzipped size of one of the build's files, from its `.gz` (small files are not precompressed). */
function gzippedBytes(urlPath: string): number {
  const file = path.join(projectRoot, "dist", urlPath);
  try {
    return readFileSync(`${file}.gz`).length;
  } catch {
    return gzipSync(readFileSync(file), { level: 9 }).length;
  }
}

async function loadOnce(browser: Browser, baseUrl: string, page: (typeof PAGES)[number]) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  try {
    if (page.as) {
      const response = await context.request.post(`${baseUrl}/api/auth/login`, {
        data: { email: page.as, password: "dash-demo" },
      });
      if (!response.ok()) throw new Error(`sign-in of ${page.as} refused: ${response.status()}`);
    }
    const tab = await context.newPage();
    await tab.goto(`${baseUrl}${page.path}`, { waitUntil: "networkidle" });
    await tab.locator(page.ready).first().waitFor();
    return await tab.evaluate(async () => {
      const lcp = await new Promise<number>((resolve) => {
        let last = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) last = entry.startTime;
        }).observe({ type: "largest-contentful-paint", buffered: true });
        setTimeout(() => resolve(last), 200);
      });
      const scripts = performance
        .getEntriesByType("resource")
        .map((entry) => new URL(entry.name).pathname)
        .filter((pathname) => pathname.endsWith(".js"));
      return { lcp, scripts };
    });
  } finally {
    await context.close();
  }
}

async function main() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "dash-bench-shell-"));
  const server = await startServer({
    projectRoot,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
    timeoutMs: 180_000,
  });
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  let failed = false;
  try {
    for (const page of PAGES) {
      // One warm-up load: the server's first answers include its own start-up work.
      await loadOnce(browser, server.baseUrl, page);
      const loads = [];
      for (let run = 0; run < runs; run += 1) loads.push(await loadOnce(browser, server.baseUrl, page));
      const scripts = new Set(loads.flatMap((load) => load.scripts));
      const jsKb = [...scripts].reduce((sum, script) => sum + gzippedBytes(script), 0) / 1024;
      const paints = loads.map((load) => load.lcp).sort((a, b) => a - b);
      const median = paints[Math.floor(paints.length / 2)] ?? 0;
      const worst = paints.at(-1) ?? 0;
      const jsMet = jsKb < TARGET_JS_KB;
      const lcpMet = page.name !== "student home" || median < TARGET_LCP_MS;
      failed ||= !jsMet || !lcpMet;
      console.log(
        `${page.name}: ${scripts.size} scripts, ${figure(jsKb, 1)} KB gzipped (target < ${TARGET_JS_KB}: ${jsMet ? "met" : "MISSED"}); ` +
          `largest contentful paint median ${figure(median, 0)} ms, worst ${figure(worst, 0)} ms over ${runs} cold loads` +
          (page.name === "student home" ? ` (target < ${TARGET_LCP_MS}: ${lcpMet ? "met" : "MISSED"})` : ""),
      );
    }
  } finally {
    await browser.close();
    await stopChild(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (failed) log("a target was missed");
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
