import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ImportReport } from "../../../../shared/contracts/roster-bulk";
import { createTestApp, type TestApp } from "../../../test/harness";
import { importRosterFrom } from "./import";
import { rosterSnapshot } from "./test-support";

/**
 * Conformance with public OneRoster sets kept beside the project (../shared/fixtures), read in
 * place and never copied. Skipped, with a notice, where that folder is absent.
 */
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../..");
const SETS = path.join(projectRoot, "../shared/fixtures/oneroster/csv");
const hasSets = existsSync(path.join(SETS, "clean-v1p2")) && existsSync(path.join(SETS, "flawed-v1p2"));
if (!hasSets) console.warn(`OneRoster conformance skipped: no public sets in ${SETS}`);

const where = (report: ImportReport, severity: "error" | "warning") =>
  report.problems
    .filter((problem) => problem.severity === severity)
    .map((problem) => `${problem.file}:${problem.line ?? "-"}:${problem.column ?? "-"} ${problem.message}`);

describe.skipIf(!hasSets)("public OneRoster 1.2 sets", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("imports the clean set, skipping its userProfiles.csv and its passwords with warnings", async () => {
    const report = await importRosterFrom(t.db, path.join(SETS, "clean-v1p2"));
    expect(report).toMatchObject({ ok: true, applied: true, version: "1.2", errorCount: 0 });
    expect(where(report, "warning")).toEqual([
      "userProfiles.csv:-:- Dash does not store userProfiles.csv: skipped",
      "users.csv:2:password Passwords are not imported: people sign in with their Dash password",
    ]);
    const stored = report.files.filter((file) => file.mode === "delta");
    expect(stored.map((file) => file.file).sort()).toEqual(
      ["academicSessions", "classes", "courses", "demographics", "enrollments", "orgs", "roles", "users"].map(
        (name) => `${name}.csv`,
      ),
    );
    expect(stored.every((file) => file.created === 1)).toBe(true);
  });

  it("names every problem of the flawed set, with its place, and imports nothing", async () => {
    const before = await rosterSnapshot(t.db);
    const report = await importRosterFrom(t.db, path.join(SETS, "flawed-v1p2"));
    expect(report).toMatchObject({ ok: false, applied: false });
    expect(await rosterSnapshot(t.db)).toEqual(before);
    const errors = where(report, "error");
    const warnings = where(report, "warning");

    // Misspelt headers, each with the column it meant.
    expect(errors).toContain(
      "roles.csv:1:dataLastModified Unknown column dataLastModified: did you mean dateLastModified? (extension columns start with metadata.)",
    );
    for (const part of ["GivenName", "MiddleName", "FamilyName"]) {
      expect(errors).toContain(
        `users.csv:1:preffered${part} Unknown column preffered${part}: did you mean preferred${part}? (extension columns start with metadata.)`,
      );
    }
    // A userprofiles.csv (wrong case) holding the columns of roles.csv.
    expect(warnings).toContain("userprofiles.csv:-:- The file name is read as userProfiles.csv");
    expect(warnings).toContain(
      "userprofiles.csv:1:- Its columns are those of roles.csv, not of userProfiles.csv: is it misnamed?",
    );
    expect(warnings).toContain(
      "manifest.csv:22:value file.userProfiles has no value (bulk, delta or absent): the file is treated as absent",
    );
    // Enumerations: a wrong case is read with a warning; OneRoster 1.0's inactive is read as 1.2 says it.
    expect(warnings).toContain(
      "classes.csv:2:classType Scheduled is read as scheduled (the standard spelling)",
    );
    expect(warnings).toContain(
      "academicSessions.csv:4:status inactive (OneRoster 1.0) is read as tobedeleted, as OneRoster 1.2 says it: the record is removed",
    );
    // Dates that are not ISO 8601.
    for (const [line, value] of [
      [2, "1/05/2023"],
      [4, "1/05/2023"],
      [5, "1/05/2023"],
      [6, "1/05/2023"],
      [7, "15/06/2023"],
    ] as const) {
      expect(errors).toContain(
        `users.csv:${line}:dateLastModified ${value} is not an ISO 8601 date and time such as 2024-08-15T13:45:00.000Z`,
      );
    }
    expect(warnings).toContain(
      "academicSessions.csv:4:dateLastModified A date without a time is read as midnight UTC",
    );
    // References to records outside the set are kept (they link up when the record arrives);
    // enrollments in a class the set removes are left out, one warning for the three rows.
    const kept = ": the reference is kept, and links up when that";
    expect(warnings).toContain(
      `orgs.csv:2:parentSourcedId There is no org org-sch-222-3456 in orgs.csv${kept} org is imported`,
    );
    expect(warnings).toContain(
      `academicSessions.csv:3:parentSourcedId There is no academic session as-syr-222-2023 in academicSessions.csv${kept} academic session is imported`,
    );
    expect(warnings).toContain(
      `classes.csv:2:courseSourcedId There is no course crs-222-2023-456-12345 in Dash (the set has no courses.csv)${kept} course is imported`,
    );
    expect(report.problems).toContainEqual(
      expect.objectContaining({
        severity: "warning",
        file: "enrollments.csv",
        line: 5,
        column: "classSourcedId",
        message:
          "The class cls-222-123478 is marked tobedeleted in classes.csv (line 3): this row is left out",
        occurrences: 3,
      }),
    );
    expect(report.errorCount).toBe(errors.length);
  });
});
