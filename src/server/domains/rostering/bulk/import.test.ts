import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ImportReport } from "../../../../shared/contracts/roster-bulk";
import { type Database, queryRows } from "../../../db/client";
import { createTestApp, type TestApp } from "../../../test/harness";
import { importRosterFrom } from "./import";
import {
  fixture,
  fixtureVariant,
  manifestWith,
  removeTemporaryFolders,
  rosterSnapshot,
  writeSet,
  zipOf,
} from "./test-support";

afterAll(removeTemporaryFolders);

const ALL_DELTA = {
  orgs: "delta",
  academicSessions: "delta",
  courses: "delta",
  classes: "delta",
  users: "delta",
  roles: "delta",
  demographics: "delta",
  enrollments: "delta",
};

/** The school set as a delta: added to the demo school without removing anything. */
const schoolAsDelta = async () =>
  fixtureVariant("school-v1p2", { "manifest.csv": await manifestWith("school-v1p2", ALL_DELTA) });

const counts = (report: ImportReport) =>
  Object.fromEntries(
    report.files.map((file) => [file.file, [file.created, file.updated, file.deleted, file.unchanged]]),
  );

const one = async <Row>(db: Database, query: ReturnType<typeof sql>) => (await queryRows<Row>(db, query))[0];

describe("a valid OneRoster 1.2 set", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("is imported, with counts per file, into the tables of the roster", async () => {
    const report = await importRosterFrom(t.db, await schoolAsDelta());
    expect(report).toMatchObject({ ok: true, applied: true, dryRun: false, version: "1.2", errorCount: 0 });
    expect(report.warningCount).toBe(0);
    expect(counts(report)).toEqual({
      "orgs.csv": [3, 0, 0, 0],
      "academicSessions.csv": [3, 0, 0, 0],
      "courses.csv": [3, 0, 0, 0],
      "classes.csv": [3, 0, 0, 0],
      "users.csv": [8, 0, 0, 0],
      "roles.csv": [10, 0, 0, 0],
      "demographics.csv": [2, 0, 0, 0],
      "enrollments.csv": [9, 0, 0, 0],
    });

    const student = await one<Record<string, unknown>>(
      t.db,
      sql`select given_name, family_name, email, grades, primary_org_sourced_id, enabled_user, metadata,
            to_char(date_last_modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') as modified
          from users where sourced_id = 'fx-student-1'`,
    );
    expect(student).toEqual({
      given_name: "Mo",
      family_name: "Bello",
      email: "mo.bello@fixture.school",
      grades: ["04"],
      primary_org_sourced_id: "fx-school-north",
      enabled_user: true,
      metadata: {
        locker: "A-17",
        userIds: [{ type: "SIS", identifier: "1001" }],
        userMasterIdentifier: "MASTER-1001",
      },
      modified: "2025-08-01T08:00:00",
    });
    const teacher = await one<Record<string, unknown>>(
      t.db,
      sql`select family_name, middle_name, preferred_first_name, phone from users where sourced_id = 'fx-teacher-1'`,
    );
    expect(teacher).toEqual({
      family_name: "Díaz",
      middle_name: "María",
      preferred_first_name: "Rosie",
      phone: "555-0101",
    });
    const quoted = await one<{ family_name: string }>(
      t.db,
      sql`select family_name from users where sourced_id = 'fx-student-4'`,
    );
    expect(quoted?.family_name).toBe("O'Neil, Jr.");

    const agents = await queryRows<{ user: string }>(
      t.db,
      sql`select user_sourced_id as user from user_agents where agent_sourced_id = 'fx-parent-1' order by 1`,
    );
    expect(agents.map((row) => row.user)).toEqual(["fx-student-1", "fx-student-2"]);
    const roles = await queryRows<Record<string, unknown>>(
      t.db,
      sql`select role, role_type, org_sourced_id, sourced_id, end_date::text from user_roles
          where user_sourced_id = 'fx-teacher-2' order by role_type`,
    );
    expect(roles).toEqual([
      {
        role: "teacher",
        role_type: "primary",
        org_sourced_id: "fx-school-north",
        sourced_id: "fx-role-t2",
        end_date: null,
      },
      {
        role: "teacher",
        role_type: "secondary",
        org_sourced_id: "fx-school-south",
        sourced_id: "fx-role-t2-south",
        end_date: "2026-06-12",
      },
    ]);
    const science = await one<Record<string, unknown>>(
      t.db,
      sql`select location, term_sourced_ids, periods from classes where sourced_id = 'fx-math-4a'`,
    );
    expect(science).toEqual({
      location: "Room 12",
      term_sourced_ids: ["fx-2026-fall", "fx-2026-spring"],
      periods: ["1", "2"],
    });
    const course = await one<Record<string, unknown>>(
      t.db,
      sql`select title, subjects from courses where sourced_id = 'fx-science-4'`,
    );
    expect(course).toEqual({ title: "Science, Grade 4", subjects: ["Science", "Physics"] });
    const demographics = await one<Record<string, unknown>>(
      t.db,
      sql`select birth_date::text, sex, black_or_african_american, white from demographics where sourced_id = 'fx-student-1'`,
    );
    expect(demographics).toEqual({
      birth_date: "2016-03-02",
      sex: "male",
      black_or_african_american: true,
      white: false,
    });

    // The imported administrator can sign in once they have a password, and acts as administrator.
    const admin = await one<{ roles: string[] }>(
      t.db,
      sql`select array_agg(role) as roles from user_roles where user_sourced_id = 'fx-admin'`,
    );
    expect(admin?.roles).toEqual(["districtAdministrator"]);
  });

  it("changes nothing the second time", async () => {
    const before = await rosterSnapshot(t.db);
    const report = await importRosterFrom(t.db, await schoolAsDelta());
    expect(report.ok).toBe(true);
    for (const file of report.files) {
      expect(file, file.file).toMatchObject({ created: 0, updated: 0, deleted: 0, unchanged: file.rows });
    }
    expect(await rosterSnapshot(t.db)).toEqual(before);
  });

  it("as a delta, upserts rows and removes what tobedeleted rows name, with their enrollments", async () => {
    const report = await importRosterFrom(t.db, fixture("school-v1p2-delta"));
    expect(report.ok).toBe(true);
    expect(counts(report)).toEqual({
      "classes.csv": [0, 1, 0, 0],
      "users.csv": [1, 1, 1, 0],
      "roles.csv": [1, 0, 2, 0],
      "demographics.csv": [0, 0, 1, 0],
      // fx-enr-s1-science by its row, fx-student-3's two enrollments with them.
      "enrollments.csv": [1, 0, 3, 1],
    });
    const statuses = await queryRows<{ id: string; status: string }>(
      t.db,
      sql`select sourced_id as id, status from users where sourced_id in ('fx-student-3', 'fx-student-4', 'fx-student-5')
          union all select sourced_id, status from enrollments where sourced_id like 'fx-enr-s%' order by 1`,
    );
    expect(Object.fromEntries(statuses.map((row) => [row.id, row.status]))).toEqual({
      "fx-enr-s1-math": "active",
      "fx-enr-s1-science": "tobedeleted",
      "fx-enr-s2-homeroom": "active",
      "fx-enr-s3-math": "tobedeleted",
      "fx-enr-s3-science": "tobedeleted",
      "fx-enr-s4-math": "active",
      "fx-enr-s5-math": "active",
      "fx-student-3": "tobedeleted",
      "fx-student-4": "active",
      "fx-student-5": "active",
    });
    const remaining = await queryRows<{ id: string | null }>(
      t.db,
      sql`select sourced_id as id from user_roles where sourced_id in ('fx-role-t2-south', 'fx-role-s3', 'fx-role-s5')`,
    );
    expect(remaining).toEqual([{ id: "fx-role-s5" }]);
    const demographics = await queryRows(
      t.db,
      sql`select 1 from demographics where sourced_id = 'fx-student-2'`,
    );
    expect(demographics).toHaveLength(0);
    const agents = await queryRows<{ agent: string }>(
      t.db,
      sql`select agent_sourced_id as agent from user_agents where user_sourced_id = 'fx-student-5'`,
    );
    expect(agents).toEqual([{ agent: "fx-teacher-2" }]);

    const again = await importRosterFrom(t.db, fixture("school-v1p2-delta"));
    expect(again.files.every((file) => file.unchanged === file.rows && file.deleted === 0)).toBe(true);
  });

  it("in a dry run reports what would change and changes nothing", async () => {
    const before = await rosterSnapshot(t.db);
    const changed = await fixtureVariant("school-v1p2", {
      "manifest.csv": await manifestWith("school-v1p2", {
        ...ALL_DELTA,
        roles: "absent",
        demographics: "absent",
      }),
      "orgs.csv":
        "sourcedId,status,dateLastModified,name,type\nfx-district,active,2025-09-01T00:00:00Z,Lakeside Unified School District,district\n",
    });
    const report = await importRosterFrom(t.db, changed, { dryRun: true });
    expect(report).toMatchObject({ ok: true, dryRun: true, applied: false });
    expect(report.files.find((file) => file.file === "orgs.csv")).toMatchObject({ updated: 1 });
    // The delta set brings fx-student-3 and its enrollments back.
    expect(report.files.find((file) => file.file === "users.csv")).toMatchObject({ updated: 2 });
    expect(await rosterSnapshot(t.db)).toEqual(before);
  });
});

describe("a bulk file", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("is the whole set of its kind: others are marked tobedeleted, keeping their rows and activity", async () => {
    const [demo] = await queryRows<{ users: number; enrollments: number; events: number }>(
      t.db,
      sql`select (select count(*)::int from users where status = 'active') as users,
            (select count(*)::int from enrollments where status = 'active') as enrollments,
            (select count(*)::int from activity_events) as events`,
    );
    const report = await importRosterFrom(t.db, fixture("school-v1p2"));
    expect(report.ok).toBe(true);
    const users = report.files.find((file) => file.file === "users.csv");
    expect(users).toMatchObject({ created: 8, deleted: demo?.users });
    expect(report.files.find((file) => file.file === "enrollments.csv")).toMatchObject({
      created: 9,
      deleted: demo?.enrollments,
    });
    const [after] = await queryRows<{ removed: number; events: number; active: number }>(
      t.db,
      sql`select (select count(*)::int from users where status = 'tobedeleted') as removed,
            (select count(*)::int from activity_events) as events,
            (select count(*)::int from users where status = 'active') as active`,
    );
    expect(after).toEqual({ removed: demo?.users, events: demo?.events, active: 8 });

    // A removed person can no longer sign in.
    const signIn = await t.request("/api/auth/login", {
      json: { email: "student@dash.demo", password: "dash-demo" },
    });
    expect(signIn.status).toBe(401);
  });
});

describe("a set with errors", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("changes nothing and locates every error by file, line and column", async () => {
    const before = await rosterSnapshot(t.db);
    const report = await importRosterFrom(t.db, fixture("with-errors"));
    expect(report).toMatchObject({ ok: false, applied: false });
    expect(await rosterSnapshot(t.db)).toEqual(before);
    const errors = report.problems
      .filter((problem) => problem.severity === "error")
      .map((problem) => `${problem.file}:${problem.line}:${problem.column}`);
    expect(errors).toEqual([
      "manifest.csv:4:value",
      "orgs.csv:3:type",
      "users.csv:1:prefferedGivenName",
      "users.csv:3:email",
      "users.csv:4:enabledUser",
      "users.csv:5:dateLastModified",
      "users.csv:5:primaryOrgSourcedId",
      "users.csv:6:sourcedId",
      "roles.csv:2:roleType",
      "roles.csv:3:userSourcedId",
      "enrollments.csv:2:classSourcedId",
      "enrollments.csv:3:beginDate",
      "enrollments.csv:3:classSourcedId",
      "enrollments.csv:4:role",
      "enrollments.csv:4:classSourcedId",
    ]);
    expect(report.errorCount).toBe(errors.length);
    const messages = report.problems.map((problem) => problem.message);
    expect(messages).toContain("file.courses is bulk but the set has no courses.csv");
    expect(messages).toContain(
      "Unknown column prefferedGivenName: did you mean preferredGivenName? (extension columns start with metadata.)",
    );
    expect(messages).toContain("TESS@errors.school is also the email of er-teacher (line 2)");
    expect(messages).toContain("There is no org er-nowhere in orgs.csv");
    expect(messages).toContain("There is no class er-class in Dash (the set has no classes.csv)");
    expect(report.problems.filter((problem) => problem.severity === "warning")).toEqual([
      expect.objectContaining({
        file: "orgs.csv",
        line: 2,
        column: "type",
        message: "School is read as school (the standard spelling)",
      }),
      expect.objectContaining({ file: "users.csv", line: 1, column: "familyname" }),
    ]);
  });

  it("refuses an email that another user in Dash already has, and a reference to a removed record", async () => {
    const users = [
      "sourcedId,status,dateLastModified,enabledUser,givenName,familyName,email,primaryOrgSourcedId",
      "new-person,active,2025-08-01T08:00:00Z,true,Copy,Cat,Student@Dash.Demo,",
      "new-person-2,active,2025-08-01T08:00:00Z,true,Second,Person,,gone-org",
    ].join("\n");
    const orgs =
      "sourcedId,status,dateLastModified,name,type\ngone-org,tobedeleted,2025-08-01T08:00:00Z,Gone,school\n";
    const set = await writeSet({
      "manifest.csv": "propertyName,value\noneroster.version,1.2\nfile.users,delta\nfile.orgs,delta\n",
      "users.csv": users,
      "orgs.csv": orgs,
    });
    const report = await importRosterFrom(t.db, set);
    expect(report.problems).toEqual([
      expect.objectContaining({
        file: "users.csv",
        line: 3,
        column: "primaryOrgSourcedId",
        message: "The org gone-org is marked tobedeleted in orgs.csv (line 2)",
      }),
      expect.objectContaining({
        file: "users.csv",
        line: 2,
        column: "email",
        message: expect.stringMatching(/^student@dash\.demo is already the email of user .+ in Dash$/),
      }),
    ]);
  });

  it("reports a set without a manifest, and files Dash does not store", async () => {
    const noManifest = await writeSet({ "users.csv": "sourcedId\n" });
    expect((await importRosterFrom(t.db, noManifest)).problems).toEqual([
      expect.objectContaining({ severity: "error", file: "manifest.csv", line: null }),
    ]);
    const withExtras = await writeSet({
      "manifest.csv": "propertyName,value\noneroster.version,1.2\nfile.lineItems,bulk\nfile.shoes,bulk\n",
      "lineItems.csv": "sourcedId\nx\n",
      "notes.csv": "a\n",
      "README.txt": "hello",
    });
    const report = await importRosterFrom(t.db, withExtras);
    expect(report.ok).toBe(true);
    expect(report.problems.map((problem) => `${problem.file}: ${problem.message}`)).toEqual([
      "README.txt: Not a CSV file: skipped",
      expect.stringMatching(/^manifest\.csv: file\.shoes is not a OneRoster file/),
      "lineItems.csv: Dash does not store lineItems.csv: skipped",
      "notes.csv: Not a OneRoster file: skipped",
    ]);
    expect(report.files.map((file) => [file.file, file.mode])).toEqual([
      ["lineItems.csv", "skipped"],
      ["notes.csv", "skipped"],
    ]);
  });
});

describe("tolerance for real exports", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("reads a OneRoster 1.1 users.csv with role and orgSourcedIds, role names in any case", async () => {
    const report = await importRosterFrom(t.db, fixture("district-v1p1"));
    expect(report).toMatchObject({ ok: true, version: "1.1" });
    expect(report.files.find((file) => file.file === "users.csv")).toMatchObject({ created: 4 });
    expect(
      report.problems.filter((problem) => problem.column === "role").map((problem) => problem.message),
    ).toEqual([
      "Administrator is read as administrator (the standard spelling)",
      "Teacher is read as teacher (the standard spelling)",
      "STUDENT is read as student (the standard spelling)",
      "Teacher is read as teacher (the standard spelling)",
    ]);
    expect(report.problems).toContainEqual(
      expect.objectContaining({ file: "users.csv", line: 4, column: "password", severity: "warning" }),
    );
    const roles = await queryRows<{ user: string; role: string; type: string; org: string }>(
      t.db,
      sql`select user_sourced_id as user, role, role_type as type, org_sourced_id as org from user_roles
          where user_sourced_id like 'v11-%' order by 1, 3`,
    );
    expect(roles).toEqual([
      { user: "v11-mother", role: "parent", type: "primary", org: "v11-school" },
      { user: "v11-principal", role: "administrator", type: "primary", org: "v11-district" },
      { user: "v11-student", role: "student", type: "primary", org: "v11-school" },
      { user: "v11-teacher", role: "teacher", type: "primary", org: "v11-school" },
      { user: "v11-teacher", role: "teacher", type: "secondary", org: "v11-district" },
    ]);
    const mother = await one<{ enabled: boolean; org: string }>(
      t.db,
      sql`select enabled_user as enabled, primary_org_sourced_id as org from users where sourced_id = 'v11-mother'`,
    );
    expect(mother).toEqual({ enabled: false, org: "v11-school" });
    const enrollment = await one<{ role: string; primary: boolean }>(
      t.db,
      sql`select role, "primary" from enrollments where sourced_id = 'v11-enr-teacher'`,
    );
    expect(enrollment).toEqual({ role: "teacher", primary: true });

    // The second time, the roles read from users.csv are found unchanged too.
    const again = await importRosterFrom(t.db, fixture("district-v1p1"));
    expect(again.files.every((file) => file.unchanged === file.rows)).toBe(true);
  });

  it("reads a byte-order mark, CRLF line ends and quoted fields holding commas, quotes and line breaks", async () => {
    const crlf = (lines: string[]) => `${lines.join("\r\n")}\r\n`;
    const set = await writeSet({
      "manifest.csv": `\uFEFF${crlf(["propertyName,value", "oneroster.version,1.2", "file.orgs,delta"])}`,
      "orgs.csv": `\uFEFF${crlf([
        "sourcedId,status,dateLastModified,name,type,identifier,parentSourcedId",
        'q-school,active,2025-08-01T08:00:00Z,"Quote ""Q"" School, North","school",,',
        'q-annex,active,2025-08-01T08:00:00Z,"Annex\r\nsecond line",school,,q-school',
        "",
        "q-last,active,2025-08-01T08:00:00Z,Last,school,,",
      ])}`,
    });
    const report = await importRosterFrom(t.db, set);
    expect(report).toMatchObject({ ok: true, warningCount: 0 });
    expect(report.files[0]).toMatchObject({ rows: 3, created: 3 });
    const names = await queryRows<{ id: string; name: string }>(
      t.db,
      sql`select sourced_id as id, name from orgs where sourced_id like 'q-%' order by 1`,
    );
    expect(names).toEqual([
      { id: "q-annex", name: "Annex\r\nsecond line" },
      { id: "q-last", name: "Last" },
      { id: "q-school", name: 'Quote "Q" School, North' },
    ]);
  });

  it("reads a .zip whose files sit in one folder, and refuses what is not a zip", async () => {
    const zip = await zipOf({
      "export/manifest.csv": "propertyName,value\noneroster.version,1.2\nfile.orgs,delta\n",
      "export/orgs.csv":
        "sourcedId,status,dateLastModified,name,type\nz-school,active,2025-08-01T08:00:00Z,Zipped,school\n",
      "__MACOSX/export/._orgs.csv": "junk",
    });
    const folder = await writeSet({ "set.zip": zip, "not-a-zip.zip": "sourcedId\n" });
    const report = await importRosterFrom(t.db, `${folder}/set.zip`);
    expect(report).toMatchObject({ ok: true, warningCount: 0 });
    expect(report.files).toEqual([expect.objectContaining({ file: "orgs.csv", created: 1 })]);
    await expect(importRosterFrom(t.db, `${folder}/not-a-zip.zip`)).rejects.toThrow("not a .zip");
  });
});
