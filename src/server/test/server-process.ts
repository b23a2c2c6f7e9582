import { type ChildProcess, spawn } from "node:child_process";

/**
 * The real server process for tests that need it whole (start-up, signals, several processes):
 * started as `npm start` runs it, read through its `listening` log lines, stopped with SIGTERM.
 */

/** Run as `npm start` does: one node process, so a signal reaches the server itself. */
const SERVER_ENTRY = ["src/server/start.ts"];
const LISTENING_LINE = /"msg":"listening","url":"([^"]+)"/g;

/**
 * The environment for a server process or a command of the project: this process's own, less the
 * run's database addresses (each test names the database it means), on a free loopback port,
 * logging at info (the tests read the log), without the demo school; `extra` goes on top.
 */
export function serverProcessEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const {
    DATABASE_URL: _url,
    DATABASE_DIRECT_URL: _directUrl,
    DATABASE_READ_URL: _readUrl,
    ...inherited
  } = process.env;
  return { ...inherited, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", SEED_DEMO: "false", ...extra };
}

export interface ServerProcessOptions {
  /** After `src/server/start.ts`, e.g. `--api-only`. */
  args?: string[];
  /** The whole environment; see serverProcessEnv. */
  env: NodeJS.ProcessEnv;
  /** How long each wait for `listening` lines may take before it fails with the output so far. */
  startTimeoutMs: number;
}

export interface ServerProcess {
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output: () => string;
  /** The URL of each `listening` line, once there are `count` (one per worker when WORKERS > 1). */
  listening: (count: number) => Promise<string[]>;
  /** Its exit code, once it has ended by itself. */
  exited: () => Promise<number | null>;
  /** SIGTERM, then its exit code; SIGKILL (and a null code) when it has not exited within `graceMs`. */
  stop: (graceMs?: number) => Promise<number | null>;
}

/** Spawns the server process without waiting for it; `listening` says when it serves. */
export function spawnServer(options: ServerProcessOptions): ServerProcess {
  const child = spawn(process.execPath, [...SERVER_ENTRY, ...(options.args ?? [])], {
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let exited = false;
  const onChange = new Set<() => void>();
  const changed = () => {
    for (const check of [...onChange]) check();
  };
  const collect = (chunk: Buffer) => {
    output += chunk;
    changed();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exit = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      exited = true;
      resolve(code);
      changed();
    }),
  );

  const listening = (count: number) =>
    new Promise<string[]>((resolve, reject) => {
      const settle = (outcome: () => void) => {
        clearTimeout(timer);
        onChange.delete(check);
        outcome();
      };
      const timer = setTimeout(
        () => settle(() => reject(new Error(`the server did not start:\n${output}`))),
        options.startTimeoutMs,
      );
      const check = () => {
        const urls = [...output.matchAll(LISTENING_LINE)].map((match) => match[1] as string);
        if (urls.length >= count) settle(() => resolve(urls));
        else if (exited)
          settle(() => reject(new Error(`the server exited with ${child.exitCode}:\n${output}`)));
      };
      onChange.add(check);
      check();
    });

  const stop = async (graceMs = 60_000) => {
    if (!exited) child.kill("SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    const killed = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    }).then(() => {
      // A server that ignores SIGTERM must not outlive the test run.
      if (!exited) child.kill("SIGKILL");
    });
    const code = await Promise.race([exit, killed.then(() => exit)]);
    clearTimeout(timer);
    return code;
  };

  return { child, output: () => output, listening, exited: () => exit, stop };
}

/**
 * Spawns the server process and waits for its `listening` line; answers its base URL too. When it
 * does not start in time it is killed, and the error carries its output.
 */
export async function startServer(options: ServerProcessOptions): Promise<ServerProcess & { url: string }> {
  const server = spawnServer(options);
  try {
    const [url] = await server.listening(1);
    return { ...server, url: url as string };
  } catch (error) {
    server.child.kill("SIGKILL");
    throw error;
  }
}
