import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { readLiveStream } from "./platform/live/test-support";
import { DEMO_APP_KEY, DEMO_FIRST_SCHOOL_ID, DEMO_PASSWORD, demoId } from "./seed/demo-accounts";
import { withDatabase } from "./test/global-setup";
import { type ServerProcess, serverProcessEnv, spawnServer } from "./test/server-process";

/**
 * Two server processes on one PostgreSQL behave as one: what one process changes or ends, the
 * other applies at once. Only on PostgreSQL (the embedded database belongs to one process).
 */
const template = inject("testDatabase");
const AVA = demoId("student-ava");

describe.skipIf(template.kind !== "postgres")("several server processes on one PostgreSQL", () => {
  let databaseUrl: string;
  let directUrl: string;
  let folder: string;
  let dropDatabase: () => Promise<void>;
  const started: ServerProcess[] = [];

  beforeAll(async () => {
    if (template.kind !== "postgres") return;
    const name = `dash_processes_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: template.adminUrl });
    await admin.connect();
    // A copy of the seeded demo school: the processes start on an existing database.
    await admin.query(`create database ${name} template ${template.templateName}`);
    // Through PgBouncer when the run has one, as in production; LISTEN on the server itself.
    databaseUrl = withDatabase(template.appUrl, name);
    directUrl = withDatabase(template.adminUrl, name);
    folder = mkdtempSync(path.join(tmpdir(), "dash-processes-"));
    dropDatabase = async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  });
  afterAll(async () => {
    for (const server of started) if (server.child.exitCode === null) server.child.kill("SIGKILL");
    await dropDatabase?.();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  /** Spawns `workers` server processes on the test's database; `extra` goes on top of their environment. */
  function start(workers: number, extra: Record<string, string> = {}): ServerProcess {
    const server = spawnServer({
      args: ["--api-only"],
      env: serverProcessEnv({
        DATABASE_URL: databaseUrl,
        DATABASE_DIRECT_URL: directUrl,
        DATA_DIR: path.join(folder, "data"),
        DASH_SECRET_KEY: "a-test-key-that-is-long-enough-for-dash-0123456789",
        WORKERS: String(workers),
        ...extra,
      }),
      // Generous: on a busy machine a process takes a minute or more to load and start.
      startTimeoutMs: 240_000,
    });
    started.push(server);
    return server;
  }

  const call = (
    url: string,
    init: { method?: string; cookie?: string; json?: unknown; headers?: Record<string, string> } = {},
  ) =>
    fetch(url, {
      method: init.method ?? (init.json === undefined ? "GET" : "POST"),
      headers: {
        // As the web app does: every state-changing request says JSON, with or without a body.
        ...(init.json === undefined && !init.method ? {} : { "content-type": "application/json" }),
        ...(init.cookie ? { cookie: init.cookie } : {}),
        ...init.headers,
      },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });

  async function signIn(url: string, email: string): Promise<string> {
    const response = await call(`${url}/api/auth/login`, { json: { email, password: DEMO_PASSWORD } });
    expect(response.status).toBe(200);
    return (response.headers.get("set-cookie") ?? "").split(";")[0] as string;
  }

  describe("two processes, A and B", () => {
    let a: string;
    let b: string;
    beforeAll(async () => {
      if (template.kind !== "postgres") return;
      const [first, second] = [start(1), start(1)];
      const [urlsOfA, urlsOfB] = await Promise.all([first.listening(1), second.listening(1)]);
      a = urlsOfA[0] as string;
      b = urlsOfB[0] as string;
    }, 300_000);

    it("refuses in B at once a session signed out in A", async () => {
      const cookie = await signIn(a, "student@dash.demo");
      // B has now resolved (and cached) the session.
      expect((await call(`${b}/api/students/${AVA}/home`, { cookie })).status).toBe(200);
      expect((await call(`${a}/api/auth/logout`, { method: "POST", cookie })).status).toBe(200);
      // B hears of the sign-out from the database's notification, a moment after A's answer.
      await expect
        .poll(async () => (await call(`${b}/api/students/${AVA}/home`, { cookie })).status, {
          timeout: 2_000,
          interval: 20,
        })
        .toBe(401);
      expect((await (await call(`${b}/api/auth/me`, { cookie })).json()).isAuthenticated).toBe(false);
    });

    it("applies in B at once a role given through A", async () => {
      const proctor = await signIn(b, "proctor@dash.demo");
      const rolesIn = async (url: string) =>
        (
          (await (await call(`${url}/api/auth/me`, { cookie: proctor })).json()).user.roles as {
            role: string;
          }[]
        ).map((entry) => entry.role);
      expect(await rolesIn(b)).not.toContain("student");
      const admin = await signIn(a, "admin@dash.demo");
      const added = await call(`${a}/api/admin/users/${demoId("proctor")}/roles`, {
        cookie: admin,
        json: { role: "student", orgSourcedId: DEMO_FIRST_SCHOOL_ID },
      });
      expect(added.status).toBe(201);
      // B hears of the change from the database's notification, a moment after A's answer.
      await expect.poll(() => rolesIn(b), { timeout: 2_000, interval: 20 }).toContain("student");
    });

    it("counts the rate limit of password-reset tries exactly across A and B", async () => {
      const tryReset = (url: string) =>
        call(`${url}/api/auth/password-reset`, {
          json: { token: "not-a-real-token", newPassword: "a long enough new password 42" },
        });
      // Ten tries per address in the window, whichever process answers them.
      for (let index = 0; index < 5; index++) {
        expect((await tryReset(a)).status).not.toBe(429);
        expect((await tryReset(b)).status).not.toBe(429);
      }
      const refusedA = await tryReset(a);
      expect(refusedA.status).toBe(429);
      expect(Number(refusedA.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await tryReset(b)).status).toBe(429);
    });

    it("delivers to a live stream open in B what an app reported through A", async () => {
      const cookie = await signIn(b, "student@dash.demo");
      const response = await call(`${b}/api/live`, { cookie });
      expect(response.status).toBe(200);
      const stream = readLiveStream(response);
      expect((await stream.next()).type).toBe("ready");
      const ingested = await call(`${a}/api/ingest/activity`, {
        headers: { authorization: `Bearer ${DEMO_APP_KEY}` },
        json: {
          events: [
            {
              eventId: `processes-${randomUUID()}`,
              studentId: AVA,
              occurredAt: new Date(Date.now() - 3600_000).toISOString(),
              subject: "Math",
              activityName: "Fractions 1",
              expectedXp: 5,
              totalQuestions: 5,
              correctQuestions: 5,
              activeSeconds: 300,
            },
          ],
        },
      });
      expect((await ingested.json()).accepted).toHaveLength(1);
      expect(await stream.next()).toEqual({ type: "home-changed", data: { studentId: AVA } });
      await stream.close();
    });

    it("stop cleanly", async () => {
      for (const server of started.splice(0)) expect(await server.stop()).toBe(0);
    });
  });

  it("WORKERS=2 stops with the error when no server process can start", async () => {
    // The primary readies the database; its server processes then find the port taken.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    try {
      const server = start(2, { PORT: String((taken.address() as AddressInfo).port) });
      expect(await server.exited()).toBe(1);
      expect(server.output()).toContain("EADDRINUSE");
      expect(server.output()).toContain("no server process could start; stopping");
      expect(server.output()).not.toContain("starting another");
    } finally {
      taken.close();
    }
  }, 300_000);

  it("WORKERS=2 serves from two processes on one port, replaces one that dies and stops them all on SIGTERM", async () => {
    const cluster = start(2);
    const urls = await cluster.listening(2);
    expect(urls[0]).toBe(urls[1]);
    const pids = [...cluster.output().matchAll(/"msg":"listening".*?"pid":(\d+)/g)].map((match) =>
      Number(match[1]),
    );
    expect(new Set(pids).size).toBe(2);
    const url = urls[0] as string;
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(`${url}/api/health`)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));

    process.kill(pids[0] as number, "SIGKILL");
    expect((await cluster.listening(3))[2]).toBe(url);
    expect(cluster.output()).toContain("server process ended; starting another");
    expect((await call(`${url}/api/health`)).status).toBe(200);

    expect(await cluster.stop()).toBe(0);
    expect(cluster.output()).toContain('"msg":"stopped"');
    const livePids = [...cluster.output().matchAll(/"msg":"listening".*?"pid":(\d+)/g)].map((match) =>
      Number(match[1]),
    );
    for (const pid of livePids) expect(() => process.kill(pid, 0)).toThrow();
  }, 300_000);
});
