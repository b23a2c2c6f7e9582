import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importReportSchema } from "../../../../shared/contracts/roster-bulk";
import { queryRows } from "../../../db/client";
import { createTestApp, type TestApp } from "../../../test/harness";
import { importRosterFrom } from "./import";
import { removeTemporaryFolders, rosterSnapshot, writeSet, zipOf } from "./test-support";

/**
 * What real SIS exports carry, read with a warning per row instead of refusing the set: a
 * reference to a record outside the set (kept, linking up when the record arrives), OneRoster
 * 1.0's inactive status, an enrollment in a class the set removes (left out). A strict import
 * refuses each of them.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
  await removeTemporaryFolders();
});

const STAMP = "2025-08-01T08:00:00Z";
const HEADERS = {
  orgs: "sourcedId,status,dateLastModified,name,type,identifier,parentSourcedId",
  academicSessions:
    "sourcedId,status,dateLastModified,title,type,startDate,endDate,parentSourcedId,schoolYear",
  classes:
    "sourcedId,status,dateLastModified,title,classCode,classType,location,grades,subjects,courseSourcedId,schoolSourcedId,termSourcedIds",
  users:
    "sourcedId,status,dateLastModified,enabledUser,orgSourcedIds,role,username,userIds,givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password",
  enrollments:
    "sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary,beginDate,endDate",
};

/** A OneRoster 1.1 set, every file a delta: it adds to the demo school and removes nobody. */
function set11(files: Partial<Record<keyof typeof HEADERS, string[]>>) {
  const names = Object.keys(files) as (keyof typeof HEADERS)[];
  return {
    "manifest.csv": [
      "propertyName,value",
      "oneroster.version,1.1",
      ...names.map((name) => `file.${name},delta`),
    ].join("\r\n"),
    ...Object.fromEntries(
      names.map((name) => [`${name}.csv`, [HEADERS[name], ...(files[name] ?? [])].join("\r\n")]),
    ),
  };
}

const school = `lx-school,active,${STAMP},Lakeview School,school,LX,`;
const term = `lx-term,active,${STAMP},Fall,term,2025-08-15,2025-12-20,,2026`;

async function importBoth(files: Record<string, string>) {
  const before = await rosterSnapshot(t.db);
  const strict = await importRosterFrom(t.db, await writeSet(files), { strict: true });
  expect(strict).toMatchObject({ ok: false, applied: false, strict: true, errorCount: 0 });
  expect(strict.warningCount).toBeGreaterThan(0);
  expect(await rosterSnapshot(t.db)).toEqual(before);
  const lenient = await importRosterFrom(t.db, await writeSet(files));
  expect(lenient).toMatchObject({ ok: true, applied: true, strict: false, errorCount: 0 });
  return { strict, lenient };
}

const warningsOf = (report: {
  problems: { severity: string; file: string; line: number | null; column: string | null; message: string }[];
}) =>
  report.problems
    .filter((problem) => problem.severity === "warning")
    .map((problem) => `${problem.file}:${problem.line}:${problem.column} ${problem.message}`);

describe("references outside the set are kept, and link up when the record arrives", () => {
  it("keeps an org's parent that is not in the set", async () => {
    const { strict, lenient } = await importBoth(
      set11({ orgs: [`lx-school-a,active,${STAMP},Lakeview A,school,LXA,lx-district`] }),
    );
    const warning =
      "orgs.csv:2:parentSourcedId There is no org lx-district in orgs.csv or in Dash: the reference is kept, and links up when that org is imported";
    expect(warningsOf(strict)).toEqual([warning]);
    expect(warningsOf(lenient)).toEqual([warning]);
    const linked = () =>
      queryRows<{ parent: string; parentName: string | null }>(
        t.db,
        sql`select o.parent_sourced_id as parent, p.name as "parentName" from orgs o
            left join orgs p on p.sourced_id = o.parent_sourced_id where o.sourced_id = 'lx-school-a'`,
      );
    expect(await linked()).toEqual([{ parent: "lx-district", parentName: null }]);
    // The district arrives in the next export: the school links up, without a warning.
    const next = await importRosterFrom(
      t.db,
      await writeSet(set11({ orgs: [`lx-district,active,${STAMP},Lakeview District,district,LXD,`] })),
      { strict: true },
    );
    expect(next).toMatchObject({ ok: true, applied: true, warningCount: 0 });
    expect(await linked()).toEqual([{ parent: "lx-district", parentName: "Lakeview District" }]);
  });

  it("keeps an academic session's parent that is not in the set", async () => {
    const { lenient } = await importBoth(
      set11({ academicSessions: [`lx-fall,active,${STAMP},Fall,term,2025-08-15,2025-12-20,lx-year,2026`] }),
    );
    expect(warningsOf(lenient)).toEqual([
      "academicSessions.csv:2:parentSourcedId There is no academic session lx-year in academicSessions.csv or in Dash: the reference is kept, and links up when that academic session is imported",
    ]);
    const [session] = await queryRows<{ parent: string }>(
      t.db,
      sql`select parent_sourced_id as parent from academic_sessions where sourced_id = 'lx-fall'`,
    );
    expect(session?.parent).toBe("lx-year");
  });

  it("keeps a class whose course is not in the set", async () => {
    const { lenient } = await importBoth(
      set11({
        orgs: [school],
        academicSessions: [term],
        classes: [`lx-class,active,${STAMP},Math 3,M3,scheduled,,03,Math,lx-course,lx-school,lx-term`],
      }),
    );
    expect(warningsOf(lenient)).toEqual([
      "classes.csv:2:courseSourcedId There is no course lx-course in Dash (the set has no courses.csv): the reference is kept, and links up when that course is imported",
    ]);
    const [stored] = await queryRows<{ course: string; status: string }>(
      t.db,
      sql`select course_sourced_id as course, status from classes where sourced_id = 'lx-class'`,
    );
    expect(stored).toEqual({ course: "lx-course", status: "active" });
  });
});

describe("OneRoster 1.0's inactive status", () => {
  it("reads an inactive user as an active user who is not enabled, and any other inactive record as removed", async () => {
    const { lenient } = await importBoth(
      set11({
        orgs: [school, `lx-old-school,inactive,${STAMP},Old School,school,LXO,`],
        users: [
          `lx-teacher,inactive,${STAMP},true,lx-school,teacher,lx.t,,Tess,Ng,,T-1,lx.t@lakeview.school,,,,,`,
        ],
      }),
    );
    expect(warningsOf(lenient)).toEqual([
      "orgs.csv:3:status inactive (OneRoster 1.0) is read as tobedeleted, as OneRoster 1.2 says it: the record is removed",
      "users.csv:2:status inactive (OneRoster 1.0) is read as an active user with enabledUser false, as OneRoster 1.2 says it",
    ]);
    const [user] = await queryRows<{ status: string; enabled: boolean }>(
      t.db,
      sql`select status, enabled_user as enabled from users where sourced_id = 'lx-teacher'`,
    );
    expect(user).toEqual({ status: "active", enabled: false });
    expect(
      await queryRows(t.db, sql`select 1 from orgs where sourced_id = 'lx-old-school' and status = 'active'`),
    ).toEqual([]);
  });
});

describe("enrollments in a class the set removes", () => {
  it("leaves those enrollments out with a warning and imports the rest", async () => {
    const files = set11({
      orgs: [school],
      academicSessions: [term],
      classes: [
        `lx-math,active,${STAMP},Math 4,M4,scheduled,,04,Math,lx-course,lx-school,lx-term`,
        `lx-art,tobedeleted,${STAMP},,,,,,,,,`,
      ],
      users: [`lx-student,active,${STAMP},true,lx-school,student,lx.s,,Sam,Lee,,S-1,,,,,04,`],
      enrollments: [
        `lx-enr-math,active,${STAMP},lx-math,lx-school,lx-student,student,false,,`,
        `lx-enr-art,active,${STAMP},lx-art,lx-school,lx-student,student,false,,`,
      ],
    });
    const { lenient } = await importBoth(files);
    expect(warningsOf(lenient)).toContain(
      "enrollments.csv:3:classSourcedId The class lx-art is marked tobedeleted in classes.csv (line 3): this row is left out",
    );
    const enrollments = await queryRows<{ id: string }>(
      t.db,
      sql`select sourced_id as id from enrollments where user_sourced_id = 'lx-student' order by sourced_id`,
    );
    expect(enrollments).toEqual([{ id: "lx-enr-math" }]);
    const summary = lenient.files.find((file) => file.file === "enrollments.csv");
    expect(summary).toMatchObject({ rows: 2, created: 1 });
  });

  it("still refuses what would corrupt the roster: an enrollment of an unknown user", async () => {
    const before = await rosterSnapshot(t.db);
    const report = await importRosterFrom(
      t.db,
      await writeSet(
        set11({ enrollments: [`lx-enr-ghost,active,${STAMP},lx-math,lx-school,lx-nobody,student,false,,`] }),
      ),
    );
    expect(report).toMatchObject({ ok: false, applied: false, errorCount: 1 });
    expect(report.problems[0]).toMatchObject({
      severity: "error",
      column: "userSourcedId",
      message: "There is no user lx-nobody in Dash (the set has no users.csv)",
    });
    expect(await rosterSnapshot(t.db)).toEqual(before);
  });
});

describe("strict over HTTP, as the roster page's checkbox sends it", () => {
  const zip = () =>
    zipOf(set11({ orgs: [`lx-school-h,active,${STAMP},Hill School,school,LXH,lx-elsewhere`] }));
  const post = async (query: string) => {
    const cookie = await t.signIn("admin@dash.demo");
    const response = await t.app.request(`/api/admin/roster/import${query}`, {
      method: "POST",
      headers: { cookie, "content-type": "application/zip" },
      body: new Blob([new Uint8Array(await zip())]),
    });
    expect(response.status).toBe(200);
    return importReportSchema.parse(await response.json());
  };

  it("refuses a set with warnings when strict=true, and takes it otherwise", async () => {
    expect(await post("?strict=true")).toMatchObject({
      ok: false,
      applied: false,
      strict: true,
      warningCount: 1,
    });
    expect(await post("?strict=false&dryRun=true")).toMatchObject({
      ok: true,
      applied: false,
      strict: false,
    });
  });

  it("answers 400 to a strict that is not true or false", async () => {
    const cookie = await t.signIn("admin@dash.demo");
    const response = await t.app.request("/api/admin/roster/import?strict=yes", {
      method: "POST",
      headers: { cookie, "content-type": "application/zip" },
      body: new Blob([new Uint8Array(await zip())]),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "validation_failed", issues: [{ path: "strict" }] });
  });
});
