/**
 * `npm run dev`: the API in watch mode on API_PORT (default 3001) and Vite with hot reload on
 * PORT (default 3000), which proxies /api to the API. Ctrl+C stops both.
 */
import { type ChildProcess, spawn } from "node:child_process";

const port = process.env.PORT ?? "3000";
const apiPort = process.env.API_PORT ?? "3001";
const children: ChildProcess[] = [
  spawn("node_modules/.bin/tsx", ["watch", "--clear-screen=false", "src/server/index.ts", "--api-only"], {
    stdio: "inherit",
    env: { ...process.env, PORT: apiPort },
  }),
  spawn("node_modules/.bin/vite", ["--port", port, "--strictPort"], {
    stdio: "inherit",
    env: { ...process.env, API_PORT: apiPort },
  }),
];

const stop = () => {
  for (const child of children) child.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const child of children) {
  child.on("exit", (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
}
