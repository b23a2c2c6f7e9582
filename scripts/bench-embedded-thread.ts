/**
 * The embedded database on the server's thread against the embedded database in a worker thread
 * (EMBEDDED_DATABASE_THREAD=main|worker), on one seeded data directory, under concurrent load.
 * The two are started in turns, round after round, so both meet the same machine: on a machine
 * shared with other work, compare rounds, not single figures.
 *
 *   npx tsx scripts/bench-embedded-thread.ts [--rounds 2] [--seconds 10] [--connections 50]
 *
 * See docs/decisions/013-embedded-database-in-a-worker-thread.md for figures.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  figure,
  killAllChildren,
  killAllChildrenNow,
  type LoadResult,
  measureLoad,
  signIn,
  startServer,
  stopChild,
} from "./bench-lib";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PASSWORD = "dash-demo";
const THREADS = ["main", "worker"] as const;

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "2" },
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
  },
});
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const connections = Number(values.connections);

function log(message: string) {
  process.stderr.write(`[bench-embedded-thread] ${message}\n`);
}

function row(thread: string, round: number, request: string, result: LoadResult): string {
  const cpu = result.cpu
    ? `${figure(result.cpu.server)} / ${figure(result.cpu.loadGenerator)} / ${figure(result.cpu.others)}`
    : "n/a";
  return `| ${round} | ${thread} | ${request} | ${Math.round(result.requestsPerSecond)} | ${figure(result.p50, 1)} | ${figure(result.p95, 1)} | ${figure(result.p99, 1)} | ${result.failures} | ${cpu} |`;
}

async function main() {
  const dataDir = path.join(projectRoot, ".tmp", "bench-embedded-thread");
  mkdirSync(dataDir, { recursive: true });
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    SEED_DEMO: "true",
    NODE_ENV: "development",
  };

  log("first start: migrate and seed the demo school when the folder is new (not measured)");
  const first = await startServer({ projectRoot, env, timeoutMs: 600_000 });
  await stopChild(first.child);

  const lines = [
    `${connections} connections, 2 s warm-up + ${seconds} s per request; CPU in cores (server / autocannon / others).`,
    "",
    "| round | thread | request | req/s | p50 ms | p95 ms | p99 ms | failed | CPU |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  const starts: string[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const thread of round % 2 ? THREADS : [...THREADS].reverse()) {
      const server = await startServer({
        projectRoot,
        env: { ...env, EMBEDDED_DATABASE_THREAD: thread },
        timeoutMs: 120_000,
      });
      starts.push(`round ${round}, ${thread}: healthy ${figure(server.startMs / 1000)} s after spawn`);
      log(starts.at(-1) ?? "");
      try {
        const studentCookie = await signIn(server.baseUrl, "student@dash.demo", PASSWORD);
        const me = (await (
          await fetch(`${server.baseUrl}/api/auth/me`, { headers: { cookie: studentCookie } })
        ).json()) as {
          user: { sourcedId: string };
        };
        const common = {
          connections,
          warmupSeconds: 2,
          durationSeconds: seconds,
          serverPgid: server.child.pgid,
        };
        const requests: [string, string, Record<string, string>?][] = [
          ["GET /api/health", "/api/health"],
          ["GET /api/auth/me", "/api/auth/me", { cookie: studentCookie }],
          [
            "GET /api/students/:id/home",
            `/api/students/${me.user.sourcedId}/home`,
            { cookie: studentCookie },
          ],
        ];
        for (const [label, url, headers] of requests) {
          const result = await measureLoad({ ...common, url: `${server.baseUrl}${url}`, headers });
          lines.push(row(thread, round, label, result));
          log(lines.at(-1) ?? "");
        }
      } finally {
        await stopChild(server.child);
      }
    }
  }
  process.stdout.write(`${[...lines, "", ...starts].join("\n")}\n`);
}

process.on("exit", killAllChildrenNow);
main().then(
  () => killAllChildren(),
  async (error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    await killAllChildren();
    process.exit(1);
  },
);
