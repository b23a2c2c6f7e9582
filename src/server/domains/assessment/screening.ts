import { type SQL, sql } from "drizzle-orm";
import {
  type CsvImportReport,
  DASH_SUBJECTS,
  SCREENING_DECISIONS,
  SCREENING_RIT,
  type ScreeningChanges,
  type ScreeningDecision,
  type ScreeningInput,
  type ScreeningList,
  type ScreeningQuery,
  type ScreeningResult,
} from "../../../shared/contracts/assessment";
import { csvLine } from "../../../shared/csv";
import type { Language } from "../../../shared/languages";
import { localDateOf, SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { type Database, isoInstant, isUniqueViolation, queryRows, uuidEquals } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import type { FileSet } from "../../lib/file-set";
import { message, translate } from "../../lib/i18n";
import { invalidFields } from "../../lib/validation";
import { containsPattern } from "../rostering/filter";
import { isStudent, nameOf } from "../rostering/queries";
import { importErrors, RowReader, readImportRows, studentMatcher } from "./placement-csv";

/**
 * Admissions screening: applicants' (or students') screening tests with a decision, one per
 * applicant, subject, test and date. Administrators only; the routes check the role.
 */

const NOT_FOUND = message("assessment:screening.notFound");

const RESULT_JSON = sql`json_build_object('id', s.id, 'applicantName', s.applicant_name,
  'student', case when s.student_sourced_id is null then null else json_build_object('id', s.student_sourced_id,
    'name', coalesce(${nameOf(sql`s.student_sourced_id`)}, s.student_sourced_id)) end,
  'subject', s.subject, 'grade', s.grade, 'rit', s.rit, 'testName', s.test_name, 'testedOn', s.tested_on,
  'decision', s.decision, 'notes', s.notes, 'recordedBy', ${nameOf(sql`s.recorded_by`)},
  'recordedAt', ${isoInstant(sql`s.recorded_at`)})`;

function screeningFilter(query: Omit<ScreeningQuery, "page" | "perPage">, withDecision = true): SQL {
  const conditions: SQL[] = [sql`true`];
  if (query.subject) conditions.push(sql`s.subject = ${query.subject}`);
  if (withDecision && query.decision) conditions.push(sql`s.decision = ${query.decision}`);
  if (query.from) conditions.push(sql`s.tested_on >= ${query.from}::date`);
  if (query.to) conditions.push(sql`s.tested_on <= ${query.to}::date`);
  if (query.search) {
    const pattern = containsPattern(query.search);
    conditions.push(sql`(s.applicant_name ilike ${pattern} or s.test_name ilike ${pattern}
      or coalesce(${nameOf(sql`s.student_sourced_id`)}, '') ilike ${pattern})`);
  }
  return sql.join(conditions, sql` and `);
}

async function resultRows(db: Database, where: SQL, offset: number, limit: number) {
  const rows = await queryRows<{ result: ScreeningResult }>(
    db,
    sql`select ${RESULT_JSON} as result from screening_results s where ${where}
      order by s.tested_on desc, s.applicant_name, s.subject, s.id offset ${offset} limit ${limit}`,
  );
  return rows.map((row) => row.result);
}

/** Screening results, newest test first, filtered and paged; with the count per decision (whatever the decision filter). */
export async function listScreening(db: Database, query: ScreeningQuery): Promise<ScreeningList> {
  const where = screeningFilter(query);
  const [results, [count], decisions, subjects] = await Promise.all([
    resultRows(db, where, query.page * query.perPage, query.perPage),
    queryRows<{ total: number }>(
      db,
      sql`select count(*)::int as total from screening_results s where ${where}`,
    ),
    queryRows<{ decision: ScreeningDecision; count: number }>(
      db,
      sql`select s.decision, count(*)::int as count from screening_results s where ${screeningFilter(query, false)}
        group by s.decision`,
    ),
    queryRows<{ subject: string }>(db, sql`select distinct subject from screening_results`),
  ]);
  const perDecision = Object.fromEntries(SCREENING_DECISIONS.map((decision) => [decision, 0])) as Record<
    ScreeningDecision,
    number
  >;
  for (const row of decisions) perDecision[row.decision] = row.count;
  return {
    results,
    total: count?.total ?? 0,
    subjects: [...new Set([...DASH_SUBJECTS, ...subjects.map((row) => row.subject)])].sort(),
    decisions: perDecision,
  };
}

async function resultById(db: Database, id: string): Promise<ScreeningResult> {
  const [row] = await queryRows<{ result: ScreeningResult }>(
    db,
    sql`select ${RESULT_JSON} as result from screening_results s where ${uuidEquals(sql`s.id`, id)}`,
  );
  if (!row) throw new AppError("not_found", NOT_FOUND);
  return row.result;
}

/** Refuses a linked id that is no student's. */
async function assertStudent(db: Database, studentId: string | null | undefined) {
  if (!studentId) return;
  const [row] = await queryRows<{ ok: boolean }>(db, sql`select ${isStudent(sql`${studentId}::text`)} as ok`);
  if (!row?.ok)
    throw invalidFields([
      { path: "studentId", message: message("assessment:screening.notAStudent", { id: studentId }) },
    ]);
}

function assertNotFuture(testedOn: string, now: Date) {
  if (testedOn > localDateOf(now, SCHOOL_TIME_ZONE))
    throw invalidFields([{ path: "testedOn", message: message("assessment:screening.testedInFuture") }]);
}

/** Records one screening test; the same applicant, subject, test and date twice is a conflict. */
export async function addScreeningResult(
  db: Database,
  actor: Actor,
  input: ScreeningInput,
  now: Date,
): Promise<ScreeningResult> {
  assertNotFuture(input.testedOn, now);
  await assertStudent(db, input.studentId);
  try {
    const [row] = await queryRows<{ id: string }>(
      db,
      sql`insert into screening_results (applicant_name, student_sourced_id, subject, grade, rit, test_name, tested_on,
          decision, notes, recorded_by, recorded_at)
        values (${input.applicantName}, ${input.studentId ?? null}::text, ${input.subject}, ${input.grade}, ${input.rit ?? null}::int,
          ${input.testName}, ${input.testedOn}::date, ${input.decision}, ${input.notes || null}::text,
          ${actor.realUser.sourcedId}, ${now.toISOString()}::timestamptz)
        returning id`,
    );
    return resultById(db, row?.id as string);
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError(
        "conflict",
        message("assessment:screening.duplicate", {
          name: input.applicantName,
          test: input.testName,
          subject: input.subject,
          date: input.testedOn,
        }),
      );
    throw error;
  }
}

/** Changes a result's decision or notes, or links it to (or unlinks it from) a rostered student. */
export async function changeScreeningResult(
  db: Database,
  actor: Actor,
  id: string,
  changes: ScreeningChanges,
  now: Date,
): Promise<ScreeningResult> {
  await assertStudent(db, changes.studentId);
  const keep = (column: string, value: unknown, cast: string) =>
    value === undefined ? sql.raw(column) : sql`${value}::${sql.raw(cast)}`;
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`update screening_results set
        decision = ${keep("decision", changes.decision, "text")},
        notes = ${keep("notes", changes.notes === "" ? null : changes.notes, "text")},
        student_sourced_id = ${keep("student_sourced_id", changes.studentId, "text")},
        recorded_by = ${actor.realUser.sourcedId}, recorded_at = ${now.toISOString()}::timestamptz
      where ${uuidEquals(sql`id`, id)} returning id`,
  );
  if (!row) throw new AppError("not_found", NOT_FOUND);
  return resultById(db, row.id);
}

const CSV_PAGE = 1_000;

/** The filtered results as CSV, in the columns the import reads. */
export async function* screeningCsv(
  db: Database,
  query: Omit<ScreeningQuery, "page" | "perPage">,
): AsyncGenerator<string> {
  yield csvLine([
    "applicantName",
    "studentId",
    "student",
    "subject",
    "grade",
    "rit",
    "testName",
    "date",
    "decision",
    "notes",
  ]);
  const where = screeningFilter(query);
  for (let offset = 0; ; offset += CSV_PAGE) {
    const rows = await resultRows(db, where, offset, CSV_PAGE);
    let chunk = "";
    for (const result of rows)
      chunk += csvLine([
        result.applicantName,
        result.student?.id,
        result.student?.name,
        result.subject,
        result.grade === 0 ? "K" : result.grade,
        result.rit,
        result.testName,
        result.testedOn,
        result.decision,
        result.notes,
      ]);
    if (chunk) yield chunk;
    if (rows.length < CSV_PAGE) return;
  }
}

const SCREENING_COLUMNS = [
  { name: "applicantName", aliases: ["applicant", "name"], required: true },
  { name: "studentId", aliases: ["student", "sourcedId", "identifier", "email"], required: false },
  { name: "subject", required: true },
  { name: "grade", aliases: ["gradeLevel"], required: true },
  { name: "rit", aliases: ["ritScore", "score"], required: false },
  { name: "testName", aliases: ["test"], required: true },
  { name: "date", aliases: ["testedOn", "testDate"], required: true },
  { name: "decision", required: false },
  { name: "notes", required: false },
];

interface ImportedResult {
  applicantName: string;
  studentId: string | null;
  subject: string;
  grade: number;
  rit: number | null;
  testName: string;
  testedOn: string;
  decision: ScreeningDecision;
  notes: string | null;
}

const resultKey = (result: Pick<ImportedResult, "applicantName" | "subject" | "testName" | "testedOn">) =>
  [result.applicantName, result.subject, result.testName, result.testedOn].join("\u0000");

const sameResult = (a: ImportedResult, b: ImportedResult) =>
  a.studentId === b.studentId &&
  a.grade === b.grade &&
  a.rit === b.rit &&
  a.decision === b.decision &&
  a.notes === b.notes;

/**
 * Screening results from a CSV, all rows or none: new ones are added, changed ones replaced, and
 * the same file a second time changes nothing. A dry run only says what would happen.
 */
export async function importScreening(
  db: Database,
  actor: Actor,
  files: FileSet,
  options: { dryRun: boolean; now: Date; language: Language },
): Promise<CsvImportReport> {
  const rows = await readImportRows(files, SCREENING_COLUMNS);
  const matchStudent = await studentMatcher(db);
  const today = localDateOf(options.now, SCHOOL_TIME_ZONE);
  const readers: RowReader[] = [];
  const results = new Map<string, ImportedResult>();
  const lineOfKey = new Map<string, number>();
  for (const row of rows) {
    const reader = new RowReader(row);
    readers.push(reader);
    const applicantName = reader.text("applicantName", { required: true, max: 200 });
    const studentId = reader.student("studentId", matchStudent, { required: false });
    const subject = reader.text("subject", { required: true, max: 60 });
    const grade = reader.grade("grade");
    const rit = reader.wholeNumber("rit", SCREENING_RIT.min, SCREENING_RIT.max);
    const testName = reader.text("testName", { required: true, max: 120 });
    const testedOn = reader.date("date", today);
    const decision = reader.oneOf("decision", SCREENING_DECISIONS, "pending");
    const notes = reader.text("notes", { required: false, max: 2000 });
    if (
      reader.problems.length ||
      !applicantName ||
      !subject ||
      grade === null ||
      !testName ||
      !testedOn ||
      !decision
    )
      continue;
    const result = {
      applicantName,
      studentId,
      subject,
      grade,
      rit,
      testName,
      testedOn,
      decision,
      notes,
    };
    const earlier = lineOfKey.get(resultKey(result));
    if (earlier !== undefined) {
      reader.problem(null, message("assessment:screening.duplicateRow", { line: earlier }));
      continue;
    }
    lineOfKey.set(resultKey(result), row.line);
    results.set(resultKey(result), result);
  }
  const { errors, rejected } = importErrors(readers, (text) => translate(text, options.language));
  const stored = await storedResults(db, [...results.values()]);
  const changing = [...results.values()].filter((result) => {
    const known = stored.get(resultKey(result));
    return !known || !sameResult(known, result);
  });
  const report: CsvImportReport = {
    dryRun: options.dryRun,
    applied: false,
    rows: {
      read: rows.length,
      changed: changing.length,
      unchanged: results.size - changing.length,
      rejected,
    },
    errors,
  };
  if (options.dryRun || errors.length || changing.length === 0) return report;
  await db.transaction(async (tx) => {
    for (let start = 0; start < changing.length; start += 500) {
      const values = changing.slice(start, start + 500).map(
        (result) =>
          sql`(${result.applicantName}::text, ${result.studentId}::text, ${result.subject}::text, ${result.grade}::int,
              ${result.rit}::int, ${result.testName}::text, ${result.testedOn}::date, ${result.decision}::text,
              ${result.notes}::text, ${actor.realUser.sourcedId}::text, ${options.now.toISOString()}::timestamptz)`,
      );
      await tx.execute(sql`insert into screening_results (applicant_name, student_sourced_id, subject, grade, rit,
          test_name, tested_on, decision, notes, recorded_by, recorded_at)
        values ${sql.join(values, sql`, `)}
        on conflict (applicant_name, subject, test_name, tested_on) do update set
          student_sourced_id = excluded.student_sourced_id, grade = excluded.grade, rit = excluded.rit,
          decision = excluded.decision, notes = excluded.notes, recorded_by = excluded.recorded_by,
          recorded_at = excluded.recorded_at`);
    }
  });
  return { ...report, applied: true };
}

async function storedResults(db: Database, results: ImportedResult[]): Promise<Map<string, ImportedResult>> {
  const stored = new Map<string, ImportedResult>();
  const names = [...new Set(results.map((result) => result.applicantName))];
  for (let start = 0; start < names.length; start += 1_000) {
    const rows = await queryRows<ImportedResult>(
      db,
      sql`select applicant_name as "applicantName", student_sourced_id as "studentId", subject, grade, rit,
          test_name as "testName", to_char(tested_on, 'YYYY-MM-DD') as "testedOn", decision, notes
        from screening_results where applicant_name in ${names.slice(start, start + 1_000)}`,
    );
    for (const row of rows) stored.set(resultKey(row), row);
  }
  return stored;
}
