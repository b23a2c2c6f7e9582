import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { inject } from "vitest";
import { createApp } from "../app";
import { type DatabaseHandle, openDatabase } from "../db/client";
import { authSettingsFromEnv, createAuthService } from "../domains/auth/service";
import { readEnv } from "../env";
import { SESSION_COOKIE } from "../lib/auth";
import { createLogger } from "../lib/logger";
import { createSecretBox } from "../lib/secret-box";
import { createLocalBus } from "../platform/events/bus";
import { createLiveHub } from "../platform/live/hub";
import { DEMO_PASSWORD } from "../seed/demo-accounts";
import { withDatabase } from "./global-setup";

/** A clock the tests move by hand, so expiry and throttle windows need no waiting. */
export function createTestClock(start = new Date()) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms: number) => {
      current += ms;
    },
  };
}

async function openTestDatabase(): Promise<{ handle: DatabaseHandle; dispose: () => Promise<void> }> {
  const template = inject("testDatabase");
  if (template.kind === "pglite") {
    const loadDataDir = new Blob([readFileSync(template.dumpPath)]);
    const handle = await openDatabase({ pglite: await PGlite.create({ loadDataDir }) });
    return { handle, dispose: () => handle.close() };
  }
  return openPostgresTestDatabase(template.adminUrl, template.templateName);
}

async function openPostgresTestDatabase(adminUrl: string, templateName: string | null) {
  const name = `dash_test_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}${templateName ? ` template ${templateName}` : ""}`);
  const handle = await openDatabase({ databaseUrl: withDatabase(adminUrl, name), poolSize: 4 });
  return {
    handle,
    dispose: async () => {
      await handle.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** A migrated database without the demo school, for tests that need an empty roster. */
export async function openEmptyTestDatabase(): Promise<{
  handle: DatabaseHandle;
  dispose: () => Promise<void>;
}> {
  const template = inject("testDatabase");
  const opened =
    template.kind === "pglite"
      ? await openDatabase({ pglite: await PGlite.create() }).then((handle) => ({
          handle,
          dispose: () => handle.close(),
        }))
      : await openPostgresTestDatabase(template.adminUrl, null);
  await opened.handle.migrate();
  return opened;
}

/** The whole app on its own copy of the seeded demo database, with its log lines captured. */
export async function createTestApp(options: { env?: Record<string, string>; webRoot?: string } = {}) {
  const { handle, dispose } = await openTestDatabase();
  const env = readEnv({ LOG_LEVEL: "debug", ...options.env });
  const clock = createTestClock();
  const logLines: string[] = [];
  const logger = createLogger(env.LOG_LEVEL, (_level, line) => logLines.push(line));
  const bus = createLocalBus(logger);
  const auth = createAuthService(handle.db, authSettingsFromEnv(env), bus, clock.now);
  const live = createLiveHub({ bus, auth, logger });
  const secretBox = createSecretBox(randomBytes(32).toString("base64url"));
  const app = createApp({
    db: handle.db,
    dbKind: handle.kind,
    env,
    logger,
    auth,
    bus,
    live,
    secretBox,
    webRoot: options.webRoot,
  });

  function request(
    path: string,
    init: {
      method?: string;
      json?: unknown;
      body?: string;
      cookie?: string;
      headers?: Record<string, string>;
    } = {},
  ) {
    const headers: Record<string, string> = { ...init.headers };
    if (init.cookie) headers.cookie = init.cookie;
    let body = init.body;
    if (init.json !== undefined) body = JSON.stringify(init.json);
    const method = init.method ?? (body === undefined ? "GET" : "POST");
    // As the web app does: every state-changing request says JSON, with or without a body.
    const hasContentType = Object.keys(headers).some((name) => name.toLowerCase() === "content-type");
    if (method !== "GET" && method !== "HEAD" && !hasContentType)
      headers["content-type"] = "application/json";
    return app.request(path, { method, headers, body });
  }

  /** Signs in and returns the `Cookie` header value that carries the session. */
  async function signIn(email: string, password = DEMO_PASSWORD, headers?: Record<string, string>) {
    const response = await request("/api/auth/login", { json: { email, password }, headers });
    if (response.status !== 200)
      throw new Error(`sign-in as ${email} failed: ${response.status} ${await response.text()}`);
    return sessionCookieOf(response);
  }

  return {
    app,
    db: handle.db,
    kind: handle.kind,
    env,
    bus,
    live,
    secretBox,
    clock,
    logLines,
    request,
    signIn,
    close: dispose,
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

export function sessionCookieOf(response: Response): string {
  const header = response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
  if (!header) throw new Error("no session cookie was set");
  return header.split(";")[0] as string;
}
