import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { inject } from "vitest";
import { createApp } from "../app";
import { type DatabaseHandle, openDatabase } from "../db/client";
import { createAppKeys } from "../domains/activity/apps";
import { checkAnswerAgainstDocument, reportAnswersChecked } from "../domains/api-docs/answer-check";
import { authSettingsFromEnv, createAuthService } from "../domains/auth/service";
import { readEnv } from "../env";
import { SESSION_COOKIE } from "../lib/auth";
import type { AppDeps } from "../lib/context";
import { createLogger } from "../lib/logger";
import { createSecretBox } from "../lib/secret-box";
import { createLocalBus } from "../platform/events/bus";
import { createLiveHub } from "../platform/live/hub";
import { fileStorageFromEnv } from "../platform/storage";
import { DEMO_PASSWORD } from "../seed/demo-accounts";
import { createServerJobRunner } from "../server-jobs";
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

type PostgresTemplate = Extract<ReturnType<typeof inject<"testDatabase">>, { kind: "postgres" }>;

let templateDump: Blob | undefined;

async function openTestDatabase(
  readReplica: boolean,
): Promise<{ handle: DatabaseHandle; dispose: () => Promise<void> }> {
  const template = inject("testDatabase");
  if (template.kind === "pglite") {
    if (readReplica) throw new Error("a read replica needs a PostgreSQL run that started one");
    // Read once per test process: making a Blob of the dump costs about a second each time.
    templateDump ??= new Blob([readFileSync(template.dumpPath)]);
    const handle = await openDatabase({ pglite: await PGlite.create({ loadDataDir: templateDump }) });
    return { handle, dispose: () => handle.close() };
  }
  return openPostgresTestDatabase(template, template.templateName, readReplica);
}

async function openPostgresTestDatabase(
  template: PostgresTemplate,
  templateName: string | null,
  readReplica = false,
) {
  const name = `dash_test_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: template.adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}${templateName ? ` template ${templateName}` : ""}`);
  let readUrl: string | undefined;
  if (readReplica) {
    if (!template.readUrl) throw new Error("a read replica needs a PostgreSQL run that started one");
    await waitForReplay(admin, template.readUrl);
    readUrl = withDatabase(template.readUrl, name);
  }
  const handle = await openDatabase({
    databaseUrl: withDatabase(template.appUrl, name),
    directUrl: withDatabase(template.adminUrl, name),
    readUrl,
    poolSize: 4,
  });
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
      : await openPostgresTestDatabase(template, null);
  await opened.handle.migrate();
  return opened;
}

/** Waits until the replica has replayed everything the primary had written when asked. */
export async function waitForReplay(primary: pg.Client, replicaUrl: string, timeoutMs = 30_000) {
  // The insert position, not the write position: with asynchronous commit (as the test clusters
  // run), a commit can be acknowledged before its WAL is written.
  const { rows } = await primary.query<{ lsn: string }>("select pg_current_wal_insert_lsn()::text as lsn");
  const replica = new pg.Client({ connectionString: replicaUrl });
  await replica.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const replayed = await replica.query<{ done: boolean }>(
        "select pg_last_wal_replay_lsn() >= $1::pg_lsn as done",
        [rows[0]?.lsn],
      );
      if (replayed.rows[0]?.done) return;
      if (Date.now() > deadline) throw new Error(`the replica did not catch up within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await replica.end();
  }
}

/**
 * The whole app on its own copy of the seeded demo database, with its log lines captured. With
 * `readReplica`, reads that tolerate lag go to the run's streaming replica (PostgreSQL runs
 * started with `scripts/with-postgres.sh --replica`).
 */
export async function createTestApp(
  options: { env?: Record<string, string>; webRoot?: string; readReplica?: boolean } = {},
) {
  const { handle, dispose } = await openTestDatabase(options.readReplica ?? false);
  const env = readEnv({ LOG_LEVEL: "debug", ...options.env });
  const clock = createTestClock();
  const logLines: string[] = [];
  const logger = createLogger(env.LOG_LEVEL, (_level, line) => logLines.push(line));
  const bus = createLocalBus(logger);
  const auth = createAuthService(handle.db, authSettingsFromEnv(env), bus, clock.now);
  const live = createLiveHub({ bus, auth, logger });
  const secretBox = createSecretBox(randomBytes(32).toString("base64url"));
  // Made only when a test stores a file (the disk driver creates its folder on the first put).
  const filesDir = path.join(tmpdir(), `dash-test-files-${randomUUID()}`);
  const storage = fileStorageFromEnv({ ...env, DATA_DIR: filesDir });
  // Defined but not polling: a test runs due jobs when it chooses (jobs.runDueJobs()).
  const jobs = createServerJobRunner({
    database: handle,
    env,
    auth,
    live,
    storage,
    secretBox,
    logger,
    now: clock.now,
  });
  const deps: AppDeps = {
    db: handle.db,
    readDb: handle.readDb,
    dbKind: handle.kind,
    env,
    logger,
    auth,
    bus,
    live,
    secretBox,
    storage,
    appKeys: createAppKeys(handle.db, bus),
    jobs,
    webRoot: options.webRoot,
  };
  const app = createApp(deps);

  async function request(
    path: string,
    init: {
      method?: string;
      json?: unknown;
      /** A form (multipart) goes with the content type the request gives it. */
      body?: string | FormData;
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
    if (method !== "GET" && method !== "HEAD" && !hasContentType && !(body instanceof FormData))
      headers["content-type"] = "application/json";
    const response = await app.request(path, { method, headers, body });
    // Every answer of a documented operation must match the API's OpenAPI document.
    await checkAnswerAgainstDocument(method, path, response);
    return response;
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
    /** What the app was made of, for a test that makes another with some parts changed. */
    deps,
    db: handle.db,
    readDb: handle.readDb,
    kind: handle.kind,
    env,
    bus,
    live,
    secretBox,
    jobs,
    clock,
    logLines,
    request,
    signIn,
    storage,
    close: async () => {
      reportAnswersChecked();
      rmSync(filesDir, { recursive: true, force: true });
      await dispose();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

export function sessionCookieOf(response: Response): string {
  const header = response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
  if (!header) throw new Error("no session cookie was set");
  return header.split(";")[0] as string;
}
