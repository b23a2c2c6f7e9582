/**
 * Benchmark of the OneRoster bulk CSV import (part of `npm run bench`): writes a synthetic set of
 * 100,000 users (students with 4 enrollments each, their teachers, schools, classes, courses and
 * a school year with terms) to a temporary folder, then imports it into a fresh PGlite database
 * and a fresh PostgreSQL database, and imports it a second time (nothing changes).
 *   tsx scripts/bench-roster-import.ts [--users 100000] [--only pglite|postgres] [--keep-set]
 * --keep-set leaves the generated set in .tmp/bench-roster-import/set for a look or a manual import.
 * Target: 100,000 users with their enrollments in under 60 s on PGlite.
 */

import { once } from "node:events";
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { openDatabase } from "../src/server/db/client";
import { importRosterFrom } from "../src/server/domains/rostering/bulk/import";
import type { ImportReport } from "../src/shared/contracts/roster-bulk";
import { killAllChildren, startChild } from "./bench-lib";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values: args } = parseArgs({
  options: {
    users: { type: "string", default: "100000" },
    only: { type: "string" },
    "keep-set": { type: "boolean", default: false },
    set: { type: "string" },
    "postgres-child": { type: "boolean", default: false },
    "result-file": { type: "string" },
  },
});
const TARGET_SECONDS = 60;
const ENROLLMENTS_PER_STUDENT = 4;
const CLASS_SIZE = 25;
const SCHOOLS = 100;
const SUBJECTS = ["Math", "Reading", "Language", "Science"];
const GRADES = ["KG", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12"];
const STAMP = "2025-08-01T08:00:00.000Z";

const log = (message: string) => process.stderr.write(`[bench-roster-import] ${message}\n`);

/** A CSV file written a line at a time, waiting when the disk is behind. */
async function writeCsv(file: string, header: string[], rows: Iterable<(string | number)[]>) {
  const out = createWriteStream(file);
  const line = (cells: (string | number)[]) => `${cells.join(",")}\n`;
  out.write(line(header));
  let count = 0;
  for (const row of rows) {
    if (!out.write(line(row))) await once(out, "drain");
    count++;
  }
  out.end();
  await once(out, "finish");
  return count;
}

interface GeneratedSet {
  folder: string;
  rows: number;
  users: number;
  enrollments: number;
}

/** Students fill classes of 25 in their school and grade; each teacher teaches about four classes. */
async function generateSet(folder: string, users: number): Promise<GeneratedSet> {
  const teachers = Math.round(users / 25);
  const students = users - teachers;
  const classes = Math.ceil((students * ENROLLMENTS_PER_STUDENT) / CLASS_SIZE);
  const school = (index: number) => `bench-school-${index % SCHOOLS}`;
  let rows = 0;

  rows += await writeCsv(
    path.join(folder, "manifest.csv"),
    ["propertyName", "value"],
    [
      ["manifest.version", "1.0"],
      ["oneroster.version", "1.2"],
      ...["orgs", "academicSessions", "courses", "classes", "users", "roles", "enrollments"].map((file) => [
        `file.${file}`,
        "bulk",
      ]),
      ["file.demographics", "absent"],
    ],
  );
  rows += await writeCsv(
    path.join(folder, "orgs.csv"),
    ["sourcedId", "status", "dateLastModified", "name", "type", "identifier", "parentSourcedId"],
    [
      ["bench-district", "active", STAMP, "Benchmark District", "district", "BD", ""],
      ...Array.from({ length: SCHOOLS }, (_, index) => [
        school(index),
        "active",
        STAMP,
        `Benchmark School ${index}`,
        "school",
        `BS${index}`,
        "bench-district",
      ]),
    ],
  );
  rows += await writeCsv(
    path.join(folder, "academicSessions.csv"),
    [
      "sourcedId",
      "status",
      "dateLastModified",
      "title",
      "type",
      "startDate",
      "endDate",
      "parentSourcedId",
      "schoolYear",
    ],
    [
      ["bench-year", "active", STAMP, "2025-26", "schoolYear", "2025-08-18", "2026-06-12", "", "2026"],
      ["bench-fall", "active", STAMP, "Fall", "term", "2025-08-18", "2025-12-19", "bench-year", "2026"],
      ["bench-spring", "active", STAMP, "Spring", "term", "2026-01-05", "2026-06-12", "bench-year", "2026"],
    ],
  );
  const courseOf = (subject: string, grade: string) => `bench-course-${subject.toLowerCase()}-${grade}`;
  rows += await writeCsv(
    path.join(folder, "courses.csv"),
    [
      "sourcedId",
      "status",
      "dateLastModified",
      "schoolYearSourcedId",
      "title",
      "courseCode",
      "grades",
      "orgSourcedId",
      "subjects",
    ],
    SUBJECTS.flatMap((subject) =>
      GRADES.map((grade) => [
        courseOf(subject, grade),
        "active",
        STAMP,
        "bench-year",
        `${subject} ${grade}`,
        "",
        grade,
        "bench-district",
        subject,
      ]),
    ),
  );
  // Class c: school c % SCHOOLS, subject and grade from c, teacher c % teachers.
  const classSubject = (c: number) => SUBJECTS[c % SUBJECTS.length] as string;
  const classGrade = (c: number) => GRADES[Math.floor(c / SUBJECTS.length) % GRADES.length] as string;
  rows += await writeCsv(
    path.join(folder, "classes.csv"),
    [
      "sourcedId",
      "status",
      "dateLastModified",
      "title",
      "grades",
      "courseSourcedId",
      "classCode",
      "classType",
      "location",
      "schoolSourcedId",
      "termSourcedIds",
      "subjects",
      "subjectCodes",
      "periods",
    ],
    (function* () {
      for (let c = 0; c < classes; c++) {
        yield [
          `bench-class-${c}`,
          "active",
          STAMP,
          `${classSubject(c)} ${classGrade(c)} #${c}`,
          classGrade(c),
          courseOf(classSubject(c), classGrade(c)),
          `C${c}`,
          "scheduled",
          `Room ${c % 40}`,
          school(c),
          '"bench-fall,bench-spring"',
          classSubject(c),
          "",
          String((c % 6) + 1),
        ];
      }
    })(),
  );
  const userHeader = [
    "sourcedId",
    "status",
    "dateLastModified",
    "enabledUser",
    "username",
    "userIds",
    "givenName",
    "familyName",
    "middleName",
    "identifier",
    "email",
    "sms",
    "phone",
    "agentSourcedIds",
    "grades",
    "password",
    "userMasterIdentifier",
    "preferredGivenName",
    "preferredMiddleName",
    "preferredFamilyName",
    "primaryOrgSourcedId",
    "pronouns",
  ];
  rows += await writeCsv(
    path.join(folder, "users.csv"),
    userHeader,
    (function* () {
      for (let t = 0; t < teachers; t++) {
        yield [
          `bench-teacher-${t}`,
          "active",
          STAMP,
          "true",
          `teacher${t}`,
          `{SIS:T${t}}`,
          "Teacher",
          `T${t}`,
          "",
          `T${t}`,
          `teacher${t}@bench.school`,
          "",
          "",
          "",
          "",
          "",
          "",
          "",
          "",
          "",
          school(t),
          "",
        ];
      }
      for (let s = 0; s < students; s++) {
        yield [
          `bench-student-${s}`,
          "active",
          STAMP,
          "true",
          `student${s}`,
          `{SIS:S${s}}`,
          "Student",
          `S${s}`,
          "",
          `S${s}`,
          `student${s}@bench.school`,
          "",
          "",
          "",
          GRADES[s % GRADES.length] as string,
          "",
          "",
          "",
          "",
          "",
          school(s),
          "",
        ];
      }
    })(),
  );
  rows += await writeCsv(
    path.join(folder, "roles.csv"),
    [
      "sourcedId",
      "status",
      "dateLastModified",
      "userSourcedId",
      "roleType",
      "role",
      "beginDate",
      "endDate",
      "orgSourcedId",
      "userProfileSourcedId",
    ],
    (function* () {
      for (let t = 0; t < teachers; t++)
        yield [
          `bench-role-t${t}`,
          "active",
          STAMP,
          `bench-teacher-${t}`,
          "primary",
          "teacher",
          "",
          "",
          school(t),
          "",
        ];
      for (let s = 0; s < students; s++)
        yield [
          `bench-role-s${s}`,
          "active",
          STAMP,
          `bench-student-${s}`,
          "primary",
          "student",
          "",
          "",
          school(s),
          "",
        ];
    })(),
  );
  const enrollments = await writeCsv(
    path.join(folder, "enrollments.csv"),
    [
      "sourcedId",
      "status",
      "dateLastModified",
      "classSourcedId",
      "schoolSourcedId",
      "userSourcedId",
      "role",
      "primary",
      "beginDate",
      "endDate",
    ],
    (function* () {
      for (let c = 0; c < classes; c++) {
        yield [
          `bench-enr-c${c}-t`,
          "active",
          STAMP,
          `bench-class-${c}`,
          school(c),
          `bench-teacher-${c % teachers}`,
          "teacher",
          "true",
          "2025-08-18",
          "",
        ];
      }
      // Seat n of the classes goes to student n / 4: each student sits in four consecutive classes.
      for (let seat = 0; seat < students * ENROLLMENTS_PER_STUDENT; seat++) {
        const s = Math.floor(seat / ENROLLMENTS_PER_STUDENT);
        const c = seat % classes;
        yield [
          `bench-enr-${seat}`,
          "active",
          STAMP,
          `bench-class-${c}`,
          school(c),
          `bench-student-${s}`,
          "student",
          "false",
          "2025-08-18",
          "",
        ];
      }
    })(),
  );
  rows += enrollments;
  return { folder, rows, users, enrollments };
}

interface Run {
  name: string;
  seconds: number;
  /** CPU time of this process (with PGlite, the database's work too): the machine may be shared. */
  cpuSeconds: number;
  report: Pick<ImportReport, "ok" | "errorCount"> & { changed: number; unchanged: number };
}
interface SuiteResult {
  db: "pglite" | "postgres";
  runs: Run[];
}

async function runSuite(
  db: SuiteResult["db"],
  set: GeneratedSet,
  env: NodeJS.ProcessEnv,
): Promise<SuiteResult> {
  const dataDir = db === "pglite" ? await mkdtemp(path.join(tmpdir(), "dash-bench-roster-pglite-")) : null;
  const database = await openDatabase(
    env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: dataDir as string },
  );
  const runs: Run[] = [];
  try {
    await database.migrate();
    for (const name of ["first import (empty database)", "same set again (nothing changes)"]) {
      log(`${db}: ${name}`);
      const started = performance.now();
      const cpu = process.cpuUsage();
      const report = await importRosterFrom(database.db, set.folder);
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      if (!report.ok)
        throw new Error(`the generated set has errors: ${JSON.stringify(report.problems.slice(0, 3))}`);
      runs.push({
        name,
        seconds,
        cpuSeconds: (used.user + used.system) / 1e6,
        report: {
          ok: report.ok,
          errorCount: report.errorCount,
          changed: report.files.reduce((sum, file) => sum + file.created + file.updated + file.deleted, 0),
          unchanged: report.files.reduce((sum, file) => sum + file.unchanged, 0),
        },
      });
    }
  } finally {
    await database.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
  return { db, runs };
}

function report(set: GeneratedSet, results: SuiteResult[]) {
  const lines = [
    "",
    `OneRoster CSV import: ${set.users.toLocaleString("en")} users, ${set.enrollments.toLocaleString("en")} enrollments, ${set.rows.toLocaleString("en")} rows in all`,
    "",
    "| database | run | seconds | CPU s (importer) | rows/s | written | unchanged | target | result |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const suite of results) {
    for (const run of suite.runs) {
      const isFirst = run.name.startsWith("first");
      const target = suite.db === "pglite" && isFirst ? `< ${TARGET_SECONDS} s` : "";
      const verdict = target ? (run.seconds < TARGET_SECONDS ? "pass" : "FAIL") : "";
      lines.push(
        `| ${suite.db} | ${run.name} | ${run.seconds.toFixed(1)} | ${run.cpuSeconds.toFixed(1)} | ${Math.round(set.rows / run.seconds).toLocaleString("en")} | ${run.report.changed} | ${run.report.unchanged} | ${target} | ${verdict} |`,
      );
    }
  }
  console.log(lines.join("\n"));
}

async function main() {
  const users = Number(args.users);
  if (args["postgres-child"]) {
    const set = JSON.parse(readFileSync(args.set as string, "utf8")) as GeneratedSet;
    writeFileSync(
      args["result-file"] as string,
      JSON.stringify(await runSuite("postgres", set, process.env)),
    );
    return;
  }
  const workDir = path.join(projectRoot, ".tmp", "bench-roster-import");
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(path.join(workDir, "set"), { recursive: true });
  log(`writing a set of ${users} users`);
  const started = performance.now();
  const set = await generateSet(path.join(workDir, "set"), users);
  log(`wrote ${set.rows} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const results: SuiteResult[] = [];
  try {
    if (args.only !== "postgres")
      results.push(await runSuite("pglite", set, { ...process.env, DATABASE_URL: "" }));
    if (args.only !== "pglite") {
      log("postgres: through scripts/with-postgres.sh");
      const setFile = path.join(workDir, "set.json");
      const resultFile = path.join(workDir, "postgres-result.json");
      writeFileSync(setFile, JSON.stringify(set));
      const child = startChild(
        "bash",
        [
          "scripts/with-postgres.sh",
          process.execPath,
          "--import",
          "tsx",
          "scripts/bench-roster-import.ts",
          "--postgres-child",
          `--set=${setFile}`,
          `--result-file=${resultFile}`,
        ],
        { cwd: projectRoot, env: { ...process.env, DATABASE_URL: "" }, inheritOutput: true },
      );
      const code = await child.exited;
      if (code === 3) log("PostgreSQL was skipped: no PostgreSQL 15 binaries");
      else if (existsSync(resultFile))
        results.push(JSON.parse(readFileSync(resultFile, "utf8")) as SuiteResult);
      else throw new Error(`the PostgreSQL run failed (exit ${code})`);
    }
    report(set, results);
  } finally {
    if (!args["keep-set"]) rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch(async (error) => {
  process.stderr.write(
    `bench-roster-import: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  await killAllChildren();
  process.exit(1);
});
