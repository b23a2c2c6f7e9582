import { createWriteStream } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, queryRows } from "../../../db/client";
import { openFileSet } from "../../../lib/file-set";
import { createTestApp, openEmptyTestDatabase, type TestApp } from "../../../test/harness";
import { exportRosterZip } from "./export";
import { importRosterFrom } from "./import";
import { STORED_FILES } from "./spec";
import { fixture, removeTemporaryFolders, rosterSnapshot, writeSet } from "./test-support";

let source: TestApp;
let empty: { handle: DatabaseHandle; dispose: () => Promise<void> };
let zipPath: string;

beforeAll(async () => {
  source = await createTestApp();
  empty = await openEmptyTestDatabase();
  // The demo school plus the fixture school's extras (agents, metadata, demographics, quoted names).
  const imported = await importRosterFrom(source.db, await withDeltaManifest());
  expect(imported.ok).toBe(true);
  // Names a spreadsheet would read as formulas: the interchange export keeps them exactly.
  await source.db.execute(
    sql`update users set given_name = '=HYPERLINK("http://x","y")', family_name = '-Wong', middle_name = '@Li'
        where sourced_id = 'fx-student-3'`,
  );
  zipPath = path.join(await writeSet({}), "roster.zip");
  await pipeline(exportRosterZip(source.db), createWriteStream(zipPath));
});
afterAll(async () => {
  await source.close();
  await empty.dispose();
  await removeTemporaryFolders();
});

async function withDeltaManifest() {
  const files: Record<string, string> = {};
  for (const name of STORED_FILES) {
    files[`${name}.csv`] = await readFile(path.join(fixture("school-v1p2"), `${name}.csv`), "utf8");
  }
  const modes = Object.keys(files).map((name) => `file.${name.replace(".csv", "")},delta`);
  return writeSet({
    ...files,
    "manifest.csv": ["propertyName,value", "oneroster.version,1.2", ...modes].join("\n"),
  });
}

/** The roster without the columns OneRoster CSV cannot carry (they keep their defaults in a new database). */
async function portableRoster(db: DatabaseHandle["db"]) {
  const snapshot = await rosterSnapshot(db);
  const without = (rows: unknown[], columns: string[]) =>
    rows.map((row) =>
      Object.fromEntries(Object.entries(row as object).filter(([key]) => !columns.includes(key))),
    );
  return {
    ...snapshot,
    academic_sessions: without(snapshot.academic_sessions ?? [], ["org_sourced_id"]),
    users: without(snapshot.users ?? [], ["timezone"]),
    // Roles made in Dash get a sourcedId when exported.
    user_roles: without(snapshot.user_roles ?? [], ["sourced_id"]),
  };
}

describe("the roster export", () => {
  it("is a OneRoster 1.2 bulk set: a manifest and the eight files with their standard headers", async () => {
    const set = await openFileSet(zipPath);
    try {
      expect(set.entries.map((entry) => entry.name)).toEqual([
        "manifest.csv",
        "orgs.csv",
        "academicSessions.csv",
        "courses.csv",
        "classes.csv",
        "users.csv",
        "roles.csv",
        "demographics.csv",
        "enrollments.csv",
      ]);
      const read = async (name: string) => {
        const entry = set.entries.find((candidate) => candidate.name === name);
        let text = "";
        for await (const chunk of (await entry?.open()) ?? []) text += chunk;
        return text;
      };
      expect(await read("manifest.csv")).toContain("oneroster.version,1.2\r\nfile.orgs,bulk\r\n");
      const users = (await read("users.csv")).split("\r\n");
      expect(users[0]).toBe(
        "sourcedId,status,dateLastModified,enabledUser,username,userIds,givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password,userMasterIdentifier,preferredGivenName,preferredMiddleName,preferredFamilyName,primaryOrgSourcedId,pronouns,metadata.locker",
      );
      expect(users).toContain(
        'fx-student-4,active,2025-08-01T08:00:00.000000Z,false,sam.o,{SIS:1004},Sam,"O\'Neil, Jr.",,S-1004,,,,,04,,,,,,fx-school-north,,',
      );
      expect(users).toContain(
        "fx-student-1,active,2025-08-01T08:00:00.000000Z,true,mo.bello,{SIS:1001},Mo,Bello,,S-1001,mo.bello@fixture.school,,,fx-parent-1,04,,MASTER-1001,,,,fx-school-north,,A-17",
      );
      expect(users).toContain(
        'fx-student-3,active,2025-08-01T08:00:00.000000Z,true,li.wong,{SIS:1003},"=HYPERLINK(""http://x"",""y"")",-Wong,@Li,S-1003,li.wong@fixture.school,,,,04,,,,,,fx-school-north,,',
      );
    } finally {
      await set.close();
    }
  });

  it("imported into an empty database gives the same roster", async () => {
    const report = await importRosterFrom(empty.handle.db, zipPath);
    expect(report).toMatchObject({ ok: true, applied: true, errorCount: 0, warningCount: 0 });
    const [counts] = await queryRows<{ users: number; enrollments: number }>(
      empty.handle.db,
      sql`select (select count(*)::int from users) as users, (select count(*)::int from enrollments) as enrollments`,
    );
    expect(counts?.users).toBeGreaterThan(300);
    expect(counts?.enrollments).toBeGreaterThan(600);
    expect(await portableRoster(empty.handle.db)).toEqual(await portableRoster(source.db));

    // And the same set read again finds everything unchanged.
    const again = await importRosterFrom(empty.handle.db, zipPath);
    expect(again.files.every((file) => file.unchanged === file.rows && file.deleted === 0)).toBe(true);
  });
});
