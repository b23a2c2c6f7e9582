import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { ensureServerBuild } from "../build-server";
import { openDatabase } from "../db/client";
import { readEnv } from "../env";
import { createLogger } from "../lib/logger";
import { seedDemoSchool } from "../seed/demo-school";

/**
 * Builds one migrated, seeded database before the tests; every test file then starts from a
 * copy of it. PGlite: a dumped data directory. PostgreSQL (DATABASE_URL set): a template database.
 * Databases are created, copied and dropped on the server itself (DATABASE_DIRECT_URL when a
 * pooler stands in front): a pooler's idle connections to the template would stop its copying.
 * The tests that start the server as `npm start` does find its bundle built here, once.
 */
export default async function setup(project: TestProject) {
  await ensureServerBuild(process.cwd(), createLogger("warn"));
  const env = readEnv();
  if (env.DATABASE_URL) {
    const adminUrl = env.DATABASE_DIRECT_URL ?? env.DATABASE_URL;
    const templateName = `dash_template_${randomUUID().slice(0, 8)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${templateName}`);
    const templateUrl = withDatabase(adminUrl, templateName);
    const handle = await openDatabase({ databaseUrl: templateUrl, poolSize: 2 });
    await handle.migrate();
    await seedDemoSchool(handle.db);
    await handle.close();
    project.provide("testDatabase", {
      kind: "postgres",
      adminUrl,
      appUrl: env.DATABASE_URL,
      readUrl: env.DATABASE_READ_URL ?? null,
      templateName,
    });
    return async () => {
      await admin.query(`drop database if exists ${templateName} with (force)`);
      await admin.end();
    };
  }

  const folder = mkdtempSync(path.join(tmpdir(), "dash-test-"));
  // Removed rather than recycled, the seed's WAL segments stay out of the copy every test loads.
  const client = await PGlite.create({ postgresqlconf: ["wal_recycle = off", "min_wal_size = 32MB"] });
  const handle = await openDatabase({ pglite: client });
  await handle.migrate();
  await seedDemoSchool(handle.db);
  await client.query("checkpoint");
  const dump = await client.dumpDataDir("none");
  const dumpPath = path.join(folder, "template.tar");
  writeFileSync(dumpPath, Buffer.from(await dump.arrayBuffer()));
  await client.close();
  project.provide("testDatabase", { kind: "pglite", dumpPath });
  return () => rmSync(folder, { recursive: true, force: true });
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

declare module "vitest" {
  export interface ProvidedContext {
    testDatabase:
      | { kind: "pglite"; dumpPath: string }
      | {
          kind: "postgres";
          /** The server itself: for creating and dropping databases, and for migrations. */
          adminUrl: string;
          /** Where the app connects: the pooler when there is one, else the server. */
          appUrl: string;
          /** A streaming replica of the server, when the run started one. */
          readUrl: string | null;
          templateName: string;
        };
  }
}
