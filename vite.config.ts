import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, gzip, constants as zlib } from "node:zlib";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

const apiPort = process.env.API_PORT ?? "3001";

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;
const MIN_COMPRESS_BYTES = 1024;

/**
 * Writes a `.br` and a `.gz` beside each text file of the build, once, at the strongest level:
 * the server sends them as they are (with Content-Encoding) instead of compressing every answer.
 */
function precompress(): Plugin {
  const brotli = promisify(brotliCompress);
  const gzipAsync = promisify(gzip);
  return {
    name: "dash-precompress",
    apply: "build",
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? "dist";
      const files = Object.keys(bundle).filter((fileName) => COMPRESSIBLE.test(fileName));
      await Promise.all(
        files.map(async (fileName) => {
          const file = path.join(outDir, fileName);
          const content = await readFile(file);
          if (content.length < MIN_COMPRESS_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY } }),
            gzipAsync(content, { level: zlib.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

/** Whether evaluating `node` calls a function: a literal or a table of literals does not. */
function callsAFunction(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(callsAFunction);
  if (!node || typeof node !== "object") return false;
  const { type } = node as Node;
  if (type === "CallExpression" || type === "NewExpression") return true;
  if (type === "ArrowFunctionExpression" || type === "FunctionExpression") return false;
  return Object.values(node).some(callsAFunction);
}

/**
 * Builds a shared schema in the browser only if the browser uses it. A module's top-level
 * `const x = z.object(…)` runs when the module loads, and the bundler cannot know that zod's calls
 * have no side effects, so a page that took one constant from a contract built all of its schemas
 * (about 80 ms of the student home's first paint). In `src/shared` a top-level value is data (a
 * schema, a table), never a call made for its effect: each declaration whose value calls a function
 * becomes an IIFE marked pure, which the bundler drops when nothing reads it.
 */
function unusedSchemasDropped(): Plugin {
  return {
    name: "dash-unused-schemas-dropped",
    apply: "build",
    enforce: "post",
    transform(code, id) {
      if (!/[\\/]src[\\/]shared[\\/].*\.ts$/.test(id)) return null;
      const program = this.parse(code) as unknown as { body: Node[] };
      const schemas: Node[] = [];
      for (const statement of program.body) {
        const declaration =
          statement.type === "ExportNamedDeclaration" ? (statement.declaration as Node | null) : statement;
        if (declaration?.type !== "VariableDeclaration") continue;
        for (const declarator of declaration.declarations as Node[]) {
          const init = declarator.init as Node | null;
          if (callsAFunction(init)) schemas.push(init as Node);
        }
      }
      if (schemas.length === 0) return null;
      let result = code;
      for (const schema of schemas.reverse())
        result = `${result.slice(0, schema.start)}/* @__PURE__ */ (() => (${result.slice(schema.start, schema.end)}))()${result.slice(schema.end)}`;
      return { code: result, map: null };
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress(), unusedSchemasDropped()],
  server: {
    // In development the API runs beside Vite; the browser still sees one origin.
    // The Host stays the page's own, so the API's same-origin check sees the page's Origin as its own.
    proxy: { "/api": { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false } },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // The framework chunk (React, the router, queries, i18n, zod) is one file on purpose.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // Fewer, larger files for what every page needs: a browser fetches six at a time over
        // HTTP/1.1, so thirty small chunks cost several round trips before the first paint.
        codeSplitting: {
          groups: [
            {
              name: "framework",
              // Not the guided tour's library, whose names begin as React's do: it loads with a tour.
              test: /node_modules[\\/](?!react-joyride[\\/]|react-innertext[\\/])(react|react-dom|scheduler|@tanstack|i18next|react-i18next|i18next-icu|intl-messageformat|@formatjs|zod|lucide-react|use-sync-external-store|tiny-invariant|tiny-warning|cookie-es|seroval)/,
            },
            { name: "common", test: /src[\\/]web[\\/]/, minShareCount: 4, minSize: 1 },
          ],
        },
      },
    },
  },
});
