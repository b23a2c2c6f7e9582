import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { withDatabase } from "./test/global-setup";
import { serverProcessEnv, spawnServer, startServer as startServerProcess } from "./test/server-process";

/**
 * The real server process: start-up without demo data, the create-admin command, a clean
 * shutdown on SIGTERM and data that survives a restart. Runs on the database the suite runs on.
 */
const tsx = path.resolve("node_modules/.bin/tsx");
const template = inject("testDatabase");
let databaseEnv: Record<string, string>;
let cleanUp: () => Promise<void>;

beforeAll(async () => {
  if (template.kind === "postgres") {
    const name = `dash_process_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: template.adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    databaseEnv = {
      DATABASE_URL: withDatabase(template.appUrl, name),
      DATABASE_DIRECT_URL: withDatabase(template.adminUrl, name),
    };
    cleanUp = async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  } else {
    const folder = mkdtempSync(path.join(tmpdir(), "dash-process-"));
    databaseEnv = { DATA_DIR: path.join(folder, "data") };
    cleanUp = async () => rmSync(folder, { recursive: true, force: true });
  }
});
afterAll(() => cleanUp());

const childEnv = () => serverProcessEnv(databaseEnv);
const startServer = () => startServerProcess({ env: childEnv(), startTimeoutMs: 60_000 });

describe("the server process", () => {
  it("starts without demo data, takes a first administrator, shuts down cleanly and keeps data over a restart", async () => {
    const first = await startServer();
    expect(await (await fetch(`${first.url}/api/health`)).json()).toEqual({
      ok: true,
      db: template.kind === "postgres" ? "postgres" : "pglite",
    });
    expect(await (await fetch(`${first.url}/api/auth/demo-accounts`)).json()).toEqual({
      accounts: [],
      password: null,
    });
    const demoLogin = await fetch(`${first.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@dash.demo", password: "dash-demo" }),
    });
    expect(demoLogin.status).toBe(401);
    expect(await first.stop()).toBe(0);
    expect(first.output()).toContain('"msg":"stopped"');

    const created = spawnSync(
      tsx,
      ["scripts/create-admin.ts", "--email", "Head@School.example", "--given-name", "Ada"],
      {
        env: childEnv(),
        encoding: "utf8",
        input: "",
      },
    );
    expect(created.status, created.stderr).toBe(0);
    expect(created.stdout).toContain("Created administrator head@school.example of My School District.");
    const password = created.stdout.match(/Password: (\S+)/)?.[1];
    expect(password).toMatch(/^\S{12,}$/);

    const again = spawnSync(tsx, ["scripts/create-admin.ts", "--email", "head@school.example"], {
      env: childEnv(),
      encoding: "utf8",
      input: "",
    });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("already exists");

    const second = await startServer();
    const login = await fetch(`${second.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "head@school.example", password }),
    });
    expect(login.status).toBe(200);
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] as string;
    expect(await second.stop()).toBe(0);

    const third = await startServer();
    const me = await (await fetch(`${third.url}/api/auth/me`, { headers: { cookie } })).json();
    expect(me.isAuthenticated).toBe(true);
    expect(me.user).toMatchObject({ email: "head@school.example", givenName: "Ada" });
    expect(me.user.roles).toEqual([
      {
        role: "administrator",
        roleType: "primary",
        org: { sourcedId: expect.any(String), type: "district", name: "My School District" },
      },
    ]);
    expect(await third.stop()).toBe(0);
  }, 120_000);

  it("ends with the error when its port is taken, instead of staying up without serving", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    try {
      const server = spawnServer({
        env: { ...childEnv(), PORT: String((taken.address() as AddressInfo).port) },
        args: ["--api-only"],
        startTimeoutMs: 60_000,
      });
      expect(await server.exited()).toBe(1);
      expect(server.output()).toMatch(/Dash could not start: .*EADDRINUSE/);
    } finally {
      taken.close();
    }
  }, 120_000);
});
