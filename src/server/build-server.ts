import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isBuildStale } from "./build-web.ts";
import { createLogger, type Logger } from "./lib/logger.ts";

// Node runs this file itself, from start.ts or as `npm run build`: it is no part of the bundle it
// builds.

/** Where `npm start` finds the server's bundle, from the project's root. */
export const SERVER_BUNDLE = "build/server/index.js";

/** Inputs of the server's bundle: when one is newer than the bundle, the bundle is out of date. */
const SERVER_SOURCES = ["src/server", "src/shared", "package-lock.json"];

/**
 * Packages the bundle leaves to Node: PGlite, esbuild and jsdom read files of their own next to
 * their code, the S3 client, Vite and jsdom are large and loaded only when used, and pg-native is
 * optional.
 */
const UNBUNDLED_PACKAGES = ["@electric-sql/pglite", "@aws-sdk/*", "esbuild", "jsdom", "pg-native", "vite"];

/**
 * Bundles the server (`src/server/index.ts` and the packages it uses) into `outFile` when the
 * bundle is missing or older than its sources; a failed build throws esbuild's error.
 *
 * Node resolves a module of a package by reading the package's `package.json`, for each module
 * again: for packages of many modules with a large manifest (drizzle-orm's is 180 KB) that took
 * over a second of every start. One file loads in a fraction of that. Each source file's
 * `import.meta.url` keeps naming the source file, so files found next to it (migrations, the
 * embedded database's thread) are read where they are.
 */
export async function ensureServerBuild(
  projectRoot: string,
  logger: Logger,
  outFile = path.join(projectRoot, SERVER_BUNDLE),
): Promise<void> {
  if (!isBuildStale(projectRoot, SERVER_SOURCES, outFile)) return;
  logger.info("building the server");
  const { build } = await import("esbuild");
  const outDir = path.dirname(outFile);
  const sourceDir = path.join(projectRoot, "src") + path.sep;
  const result = await build({
    absWorkingDir: projectRoot,
    entryPoints: ["src/server/index.ts"],
    outfile: outFile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node24",
    external: UNBUNDLED_PACKAGES,
    sourcemap: "linked",
    sourcesContent: false,
    write: false,
    logLevel: "silent",
    // CommonJS packages in an ES module bundle still `require` Node's own modules.
    banner: {
      js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);',
    },
    plugins: [
      {
        name: "source-file-urls",
        setup(builder) {
          builder.onLoad({ filter: /\.ts$/ }, (args) => {
            if (!args.path.startsWith(sourceDir)) return undefined;
            const fromBundle = path.relative(outDir, args.path).split(path.sep).join("/");
            const contents = readFileSync(args.path, "utf8").replaceAll(
              "import.meta.url",
              `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`,
            );
            return { contents, loader: "ts" };
          });
        },
      },
    ],
  });
  // Each file is written beside its place and renamed into it, the bundle last: a server starting
  // meanwhile, or another build at the same time, reads a whole file, the old or the new.
  mkdirSync(outDir, { recursive: true });
  const bundleLast = [...result.outputFiles].sort(
    (a, b) => Number(a.path === outFile) - Number(b.path === outFile),
  );
  for (const file of bundleLast) {
    const partial = `${file.path}.${process.pid}.partial`;
    writeFileSync(partial, file.contents);
    renameSync(partial, file.path);
  }
}

if (import.meta.main) await ensureServerBuild(process.cwd(), createLogger("info"));
