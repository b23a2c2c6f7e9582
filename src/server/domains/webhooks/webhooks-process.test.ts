import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { withDatabase } from "../../test/global-setup";
import { type ServerProcess, serverProcessEnv, startServer } from "../../test/server-process";
import { isSignedBy, startReceiver } from "./test-receiver";

/**
 * The delivery queue survives its process: a server killed while it delivers (SIGKILL, nothing
 * recorded) is started again, and every queued delivery reaches the receiver, none lost. Runs on
 * the database the suite runs on.
 */
const tsx = path.resolve("node_modules/.bin/tsx");
const template = inject("testDatabase");
const SECRET = "process-test-secret-0123456789";
const DELIVERIES = 120;
let databaseEnv: Record<string, string>;
let cleanUp: () => Promise<void>;
const started: ServerProcess[] = [];

beforeAll(async () => {
  const folder = mkdtempSync(path.join(tmpdir(), "dash-webhooks-process-"));
  if (template.kind === "postgres") {
    const name = `dash_webhooks_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: template.adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    databaseEnv = {
      DATABASE_URL: withDatabase(template.appUrl, name),
      DATABASE_DIRECT_URL: withDatabase(template.adminUrl, name),
      DATA_DIR: path.join(folder, "data"),
    };
    cleanUp = async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
      rmSync(folder, { recursive: true, force: true });
    };
  } else {
    databaseEnv = { DATA_DIR: path.join(folder, "data") };
    cleanUp = async () => rmSync(folder, { recursive: true, force: true });
  }
});
afterAll(async () => {
  for (const server of started) if (server.child.exitCode === null) server.child.kill("SIGKILL");
  await cleanUp?.();
});

const childEnv = () =>
  serverProcessEnv({ ...databaseEnv, DASH_SECRET_KEY: "a-test-key-that-is-long-enough-for-dash-0123456789" });

async function start() {
  const server = await startServer({ env: childEnv(), args: ["--api-only"], startTimeoutMs: 240_000 });
  started.push(server);
  return server;
}

async function call(url: string, init: { cookie?: string; json?: unknown; method?: string } = {}) {
  const response = await fetch(url, {
    method: init.method ?? (init.json === undefined ? "GET" : "POST"),
    headers: {
      "content-type": "application/json",
      ...(init.cookie ? { cookie: init.cookie } : {}),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

describe("webhook deliveries across a killed server process", () => {
  it("loses none: the deliveries of a process killed mid-queue are sent after a restart", async () => {
    const receiver = await startReceiver({ delayMs: 150 });
    try {
      const created = spawnSync(tsx, ["scripts/create-admin.ts", "--email", "hooks@school.example"], {
        env: childEnv(),
        encoding: "utf8",
        input: "",
      });
      expect(created.status, created.stderr).toBe(0);
      const password = created.stdout.match(/Password: (\S+)/)?.[1] as string;

      const first = await start();
      const login = await call(`${first.url}/api/auth/login`, {
        json: { email: "hooks@school.example", password },
      });
      expect(login.status).toBe(200);
      const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] as string;
      const subscription = await call(`${first.url}/api/admin/webhooks`, {
        cookie,
        json: { url: receiver.url("/process"), events: ["roster.imported"], secret: SECRET },
      });
      expect(subscription.status).toBe(201);
      const queued = new Set<string>();
      for (let index = 0; index < DELIVERIES; index++) {
        const sent = await call(`${first.url}/api/admin/webhooks/${subscription.body.data.id}/test`, {
          cookie,
          method: "POST",
        });
        expect(sent.status).toBe(201);
        queued.add(sent.body.deliveryId);
      }

      // Killed while it delivers: some deliveries sent, some in flight, the rest queued.
      await expect.poll(() => receiver.count(), { timeout: 120_000, interval: 50 }).toBeGreaterThan(20);
      first.child.kill("SIGKILL");
      await first.exited();
      const sentBeforeKill = new Set(receiver.received.map((got) => String(got.headers["x-dash-delivery"])));
      expect(sentBeforeKill.size).toBeLessThan(DELIVERIES);

      const second = await start();
      const succeeded = async () =>
        (
          await call(`${second.url}/api/admin/webhooks/deliveries?state=succeeded`, {
            cookie,
          })
        ).body?.total;
      await expect.poll(succeeded, { timeout: 180_000, interval: 1_000 }).toBe(DELIVERIES);
      const delivered = new Set(receiver.received.map((got) => String(got.headers["x-dash-delivery"])));
      expect([...queued].filter((id) => !delivered.has(id))).toEqual([]);
      expect(receiver.received.every((got) => isSignedBy(got, SECRET))).toBe(true);
      expect(await second.stop()).toBe(0);
      // The secret never reaches the servers' logs.
      expect(`${first.output()}${second.output()}`).not.toContain(SECRET);
    } finally {
      await receiver.close();
    }
  }, 480_000);
});
