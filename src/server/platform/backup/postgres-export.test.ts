import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { type Database, openDatabase, queryRows } from "../../db/client";
import { seedDemoSchool } from "../../seed/demo-school";
import { withDatabase } from "../../test/global-setup";
import { serverProcessEnv, startServer } from "../../test/server-process";

/**
 * Moving a school from the embedded database to PostgreSQL: `npm run export:postgres`, psql
 * loads the script into an empty database, and the server starts on it with the same school.
 * Needs a PostgreSQL server (run under scripts/with-postgres.sh) and its psql.
 */
const template = inject("testDatabase");
const tsx = path.resolve("node_modules/.bin/tsx");
const psql = ["/usr/lib/postgresql/15/bin/psql", "/usr/bin/psql"].find((candidate) => existsSync(candidate));
const folder = mkdtempSync(path.join(tmpdir(), "dash-export-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const TRICKY_TEXT = 'tab\there, a newline\nand a backslash \\ with "quotes" and \\N';

/** What must arrive: the people, their roles, the events and the daily totals, summed. */
async function fingerprint(db: Database) {
  const [row] = await queryRows<Record<string, string>>(
    db,
    sql`select
      (select count(*) from users)::text as users,
      (select count(*) from user_roles)::text as roles,
      (select string_agg(email, ',' order by sourced_id) from users) as emails,
      (select count(*) from activity_events)::text as events,
      (select sum(extract(epoch from occurred_at))::text from activity_events) as "eventTimes",
      (select count(*) from daily_student_metrics)::text as "dailyTotals",
      (select sum(xp)::text from daily_student_metrics) as "dailyXp",
      (select sum(active_seconds)::text from daily_student_metrics) as "dailySeconds",
      (select count(*) from xp_ledger)::text as ledger,
      (select count(*) || ' ' || sum(xp) from student_xp_periods)::text as "xpPeriods",
      (select value #>> '{}' from app_meta where key = 'export-probe') as probe`,
  );
  return row;
}

describe.skipIf(template.kind !== "postgres" || !psql)("moving a school to PostgreSQL", () => {
  it("exports the embedded database as SQL that psql loads into an empty database the server starts on", async () => {
    if (template.kind !== "postgres" || !psql) return;
    const dataDir = path.join(folder, "data");
    const source = await openDatabase({ dataDir });
    await source.migrate();
    await seedDemoSchool(source.db);
    await source.db.execute(
      sql`insert into app_meta (key, value) values ('export-probe', ${JSON.stringify(TRICKY_TEXT)}::jsonb)`,
    );
    const expected = await fingerprint(source.db);
    await source.close();
    expect(Number(expected?.events)).toBeGreaterThan(1_000);
    expect(expected?.probe).toBe(TRICKY_TEXT);

    const file = path.join(folder, "school.sql");
    const exported = spawnSync(tsx, ["scripts/export-postgres.ts", file], {
      env: serverProcessEnv({ DATA_DIR: dataDir }),
      encoding: "utf8",
    });
    expect(exported.stderr).toBe("");
    expect(exported.status).toBe(0);
    expect(exported.stdout).toContain(`Wrote ${file}; load it into a new, empty PostgreSQL database with`);

    const name = `dash_moved_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: template.adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const databaseUrl = withDatabase(template.adminUrl, name);
    try {
      const loaded = spawnSync(psql, ["-q", "-v", "ON_ERROR_STOP=1", "-f", file, databaseUrl], {
        encoding: "utf8",
      });
      expect(loaded.stderr).toBe("");
      expect(loaded.status).toBe(0);
      // Loaded again, it refuses a database that is no longer empty and changes nothing.
      const twice = spawnSync(psql, ["-q", "-v", "ON_ERROR_STOP=1", "-f", file, databaseUrl], {
        encoding: "utf8",
      });
      expect(twice.status).toBe(3);
      expect(twice.stderr).toContain(
        "this database already holds tables: load Dash into a new, empty database",
      );

      const moved = await openDatabase({ databaseUrl, poolSize: 2 });
      try {
        expect(await fingerprint(moved.db)).toEqual(expected);
      } finally {
        await moved.close();
      }

      const server = await startServer({
        args: ["--api-only"],
        env: serverProcessEnv({ DATABASE_URL: databaseUrl }),
        startTimeoutMs: 120_000,
      });
      expect(await (await fetch(`${server.url}/api/health`)).json()).toEqual({ ok: true, db: "postgres" });
      const login = await fetch(`${server.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "student@dash.demo", password: "dash-demo" }),
      });
      expect(login.status).toBe(200);
      expect(await server.stop()).toBe(0);
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 600_000);
});

describe("npm run export:postgres", () => {
  it("refuses to run when Dash already runs on PostgreSQL", () => {
    const result = spawnSync(tsx, ["scripts/export-postgres.ts", path.join(folder, "x.sql")], {
      env: serverProcessEnv({ DATABASE_URL: "postgres://dash@127.0.0.1:1/dash" }),
      encoding: "utf8",
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("DATABASE_URL is set: Dash already runs on PostgreSQL");
  });
});
