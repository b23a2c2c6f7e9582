import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../db/client";
import { seedDemoSchool } from "../seed/demo-school";

/**
 * Builds one migrated, seeded database before the tests; every test file then starts from a
 * copy of it. PGlite: a dumped data directory. PostgreSQL (DATABASE_URL set): a template database.
 */
export default async function setup(project: TestProject) {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const templateName = `dash_template_${randomUUID().slice(0, 8)}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create database ${templateName}`);
    const templateUrl = withDatabase(databaseUrl, templateName);
    const handle = await openDatabase({ databaseUrl: templateUrl, poolSize: 2 });
    await handle.migrate();
    await seedDemoSchool(handle.db);
    await handle.close();
    project.provide("testDatabase", { kind: "postgres", adminUrl: databaseUrl, templateName });
    return async () => {
      await admin.query(`drop database if exists ${templateName} with (force)`);
      await admin.end();
    };
  }

  const folder = mkdtempSync(path.join(tmpdir(), "dash-test-"));
  const client = await PGlite.create();
  const handle = await openDatabase({ pglite: client });
  await handle.migrate();
  await seedDemoSchool(handle.db);
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
      | { kind: "postgres"; adminUrl: string; templateName: string };
  }
}
