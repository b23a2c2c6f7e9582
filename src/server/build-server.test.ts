import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ensureServerBuild } from "./build-server";
import { ensureWebBuild } from "./build-web";
import { createLogger } from "./lib/logger";

const projectRoot = process.cwd();
const folder = mkdtempSync(path.join(tmpdir(), "dash-bundle-"));
const outFile = path.join(folder, "server", "index.js");

function buildLogged() {
  const lines: string[] = [];
  const logger = createLogger("info", (_level, line) => lines.push(JSON.parse(line).msg));
  return ensureServerBuild(projectRoot, logger, outFile).then(() => lines);
}

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("the server's bundle", () => {
  it("is built when missing, with its source map, and not again while no source is newer", async () => {
    expect(await buildLogged()).toEqual(["building the server"]);
    expect(existsSync(`${outFile}.map`)).toBe(true);
    const builtAt = statSync(outFile).mtimeMs;
    expect(await buildLogged()).toEqual([]);
    expect(statSync(outFile).mtimeMs).toBe(builtAt);
  });

  it("is built again once a source is newer than it", async () => {
    utimesSync(outFile, new Date(2000, 0, 1), new Date(2000, 0, 1));
    expect(await buildLogged()).toEqual(["building the server"]);
    expect(statSync(outFile).mtimeMs).toBeGreaterThan(new Date(2000, 0, 1).getTime());
  });

  it("keeps each source file's URL, so files beside a source are found where they are", () => {
    const bundle = readFileSync(outFile, "utf8");
    const clientSource = path.relative(
      path.dirname(outFile),
      path.join(projectRoot, "src/server/db/client.ts"),
    );
    expect(bundle).toContain(`new URL(${JSON.stringify(clientSource)}, import.meta.url).href`);
    // Left to Node: PGlite reads its own files, the S3 client loads only when used.
    expect(bundle).toMatch(/from "@electric-sql\/pglite"/);
    expect(bundle).not.toContain("node_modules/@aws-sdk/client-s3/");
    expect(bundle).toContain("// node_modules/drizzle-orm/");
  });
});

describe("the web app's build", () => {
  it("leaves the process's NODE_ENV as it was, so the server processes it forks are not production's", async () => {
    const before = process.env.NODE_ENV;
    delete process.env.NODE_ENV;
    try {
      expect(await ensureWebBuild(projectRoot, path.join(folder, "web"), createLogger("error"))).toBe(true);
      expect(process.env.NODE_ENV).toBeUndefined();
    } finally {
      process.env.NODE_ENV = before;
    }
  });

  it("builds only the shared schemas the browser reads", () => {
    const assets = path.join(folder, "web", "assets");
    const code = readdirSync(assets)
      .filter((file) => file.endsWith(".js"))
      .map((file) => readFileSync(path.join(assets, file), "utf8"))
      .join("\n");
    const namesMessage = (key: string) => new RegExp(`\\([\`"']${key}[\`"']\\)`).test(code);
    // The school's rules form checks with the shared schema; the server alone reads a relationship.
    expect(namesMessage("alphasNotNegative")).toBe(true);
    expect(namesMessage("agentSourcedIdRequired")).toBe(false);
  });
});
