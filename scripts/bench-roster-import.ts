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
import { COLUMNS, fileNameOf, type StoredFile } from "../src/server/domains/rostering/bulk/spec";
import type { ImportReport } from "../src/shared/contracts/roster-bulk";
import { csvLine } from "../src/shared/csv";
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

/** A CSV row by column name; the columns it leaves out are empty. */
type CsvRow = Record<string, string>;

/** A CSV file written a line at a time, waiting when the disk is behind. */
async function writeCsv(file: string, columns: readonly string[], rows: Iterable<CsvRow>) {
  const out = createWriteStream(file);
  // The set stands for an SIS export: exact values, as the OneRoster export writes them.
  const line = (cells: string[]) => csvLine(cells, { mode: "exact" });
  out.write(line([...columns]));
  let count = 0;
  for (const row of rows) {
    if (!out.write(line(columns.map((column) => row[column] ?? "")))) await once(out, "drain");
    count++;
  }
  out.end();
  await once(out, "finish");
  return count;
}

/** One file of the set, with the columns the import knows for it. */
const writeRosterFile = (folder: string, file: StoredFile, rows: Iterable<CsvRow>) =>
  writeCsv(path.join(folder, fileNameOf(file)), COLUMNS[file], rows);

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
  const active = { status: "active", dateLastModified: STAMP };
  const files: StoredFile[] = [
    "orgs",
    "academicSessions",
    "courses",
    "classes",
    "users",
    "roles",
    "enrollments",
  ];
  let rows = 0;

  rows += await writeCsv(
    path.join(folder, "manifest.csv"),
    ["propertyName", "value"],
    [
      { propertyName: "manifest.version", value: "1.0" },
      { propertyName: "oneroster.version", value: "1.2" },
      ...files.map((file) => ({ propertyName: `file.${file}`, value: "bulk" })),
      { propertyName: "file.demographics", value: "absent" },
    ],
  );
  rows += await writeRosterFile(folder, "orgs", [
    {
      ...active,
      sourcedId: "bench-district",
      name: "Benchmark District",
      type: "district",
      identifier: "BD",
    },
    ...Array.from({ length: SCHOOLS }, (_, index) => ({
      ...active,
      sourcedId: school(index),
      name: `Benchmark School ${index}`,
      type: "school",
      identifier: `BS${index}`,
      parentSourcedId: "bench-district",
    })),
  ]);
  const year = { ...active, schoolYear: "2026" };
  rows += await writeRosterFile(folder, "academicSessions", [
    {
      ...year,
      sourcedId: "bench-year",
      title: "2025-26",
      type: "schoolYear",
      startDate: "2025-08-18",
      endDate: "2026-06-12",
    },
    {
      ...year,
      sourcedId: "bench-fall",
      title: "Fall",
      type: "term",
      startDate: "2025-08-18",
      endDate: "2025-12-19",
      parentSourcedId: "bench-year",
    },
    {
      ...year,
      sourcedId: "bench-spring",
      title: "Spring",
      type: "term",
      startDate: "2026-01-05",
      endDate: "2026-06-12",
      parentSourcedId: "bench-year",
    },
  ]);
  const courseOf = (subject: string, grade: string) => `bench-course-${subject.toLowerCase()}-${grade}`;
  rows += await writeRosterFile(
    folder,
    "courses",
    SUBJECTS.flatMap((subject) =>
      GRADES.map((grade) => ({
        ...active,
        sourcedId: courseOf(subject, grade),
        schoolYearSourcedId: "bench-year",
        title: `${subject} ${grade}`,
        grades: grade,
        orgSourcedId: "bench-district",
        subjects: subject,
      })),
    ),
  );
  // Class c: school c % SCHOOLS, subject and grade from c, teacher c % teachers.
  const classSubject = (c: number) => SUBJECTS[c % SUBJECTS.length] as string;
  const classGrade = (c: number) => GRADES[Math.floor(c / SUBJECTS.length) % GRADES.length] as string;
  rows += await writeRosterFile(
    folder,
    "classes",
    (function* () {
      for (let c = 0; c < classes; c++) {
        yield {
          ...active,
          sourcedId: `bench-class-${c}`,
          title: `${classSubject(c)} ${classGrade(c)} #${c}`,
          grades: classGrade(c),
          courseSourcedId: courseOf(classSubject(c), classGrade(c)),
          classCode: `C${c}`,
          classType: "scheduled",
          location: `Room ${c % 40}`,
          schoolSourcedId: school(c),
          termSourcedIds: "bench-fall,bench-spring",
          subjects: classSubject(c),
          periods: String((c % 6) + 1),
        };
      }
    })(),
  );
  const person = (id: string, role: "teacher" | "student", index: number, code: string) => ({
    ...active,
    sourcedId: id,
    enabledUser: "true",
    username: `${role}${index}`,
    userIds: `{SIS:${code}}`,
    givenName: role === "teacher" ? "Teacher" : "Student",
    familyName: code,
    identifier: code,
    email: `${role}${index}@bench.school`,
    primaryOrgSourcedId: school(index),
  });
  rows += await writeRosterFile(
    folder,
    "users",
    (function* () {
      for (let t = 0; t < teachers; t++) yield person(`bench-teacher-${t}`, "teacher", t, `T${t}`);
      for (let s = 0; s < students; s++)
        yield {
          ...person(`bench-student-${s}`, "student", s, `S${s}`),
          grades: GRADES[s % GRADES.length] as string,
        };
    })(),
  );
  const role = (id: string, user: string, name: "teacher" | "student", index: number) => ({
    ...active,
    sourcedId: id,
    userSourcedId: user,
    roleType: "primary",
    role: name,
    orgSourcedId: school(index),
  });
  rows += await writeRosterFile(
    folder,
    "roles",
    (function* () {
      for (let t = 0; t < teachers; t++) yield role(`bench-role-t${t}`, `bench-teacher-${t}`, "teacher", t);
      for (let s = 0; s < students; s++) yield role(`bench-role-s${s}`, `bench-student-${s}`, "student", s);
    })(),
  );
  const enrollment = (id: string, c: number, user: string, name: "teacher" | "student") => ({
    ...active,
    sourcedId: id,
    classSourcedId: `bench-class-${c}`,
    schoolSourcedId: school(c),
    userSourcedId: user,
    role: name,
    primary: String(name === "teacher"),
    beginDate: "2025-08-18",
  });
  const enrollments = await writeRosterFile(
    folder,
    "enrollments",
    (function* () {
      for (let c = 0; c < classes; c++)
        yield enrollment(`bench-enr-c${c}-t`, c, `bench-teacher-${c % teachers}`, "teacher");
      // Seat n of the classes goes to student n / 4: each student sits in four consecutive classes.
      for (let seat = 0; seat < students * ENROLLMENTS_PER_STUDENT; seat++) {
        const s = Math.floor(seat / ENROLLMENTS_PER_STUDENT);
        yield enrollment(`bench-enr-${seat}`, seat % classes, `bench-student-${s}`, "student");
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
