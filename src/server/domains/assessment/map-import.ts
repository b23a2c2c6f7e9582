import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type {
  MapImportError,
  MapImportRecord,
  MapImportReport,
  MapTestEvent,
  UnmatchedMapRow,
} from "../../../shared/contracts/assessment";
import type { Language } from "../../../shared/languages";
import { type Database, isoInstant, queryRows } from "../../db/client";
import { AppError } from "../../lib/errors";
import type { FileSet, FileSetEntry } from "../../lib/file-set";
import { message, translate } from "../../lib/i18n";
import { CsvSyntaxError, readCsvRecords } from "../../lib/uploads";
import { isStudent, nameOf } from "../rostering/queries";
import { refreshStoredGrowth } from "./growth-store";
import {
  readMapHeader,
  readMapRow,
  readStudentRow,
  readStudentsHeader,
  roleOfFile,
  type StudentsHeader,
} from "./map-columns";

/**
 * The MAP import: an NWEA export (AssessmentResults.csv alone, the combined file, or the CDF
 * package as a .zip) read row by row, each row matched to a student, and the results stored all
 * or nothing. A row that cannot be read is an error and nothing is stored; a row no student
 * matches is kept aside for an administrator to link, and the others are stored. Importing the
 * same file again changes nothing.
 */

export interface MapImportOptions {
  dryRun: boolean;
  /** Who imports (kept with the import). */
  actorId: string;
  fileName: string;
  now: Date;
  language: Language;
}

export type MapImportResult = MapImportReport & {
  applied: boolean;
  /** The students whose results changed: their growth may have earned Alphas. */
  changedStudentIds: string[];
};

/** Rows written per statement. */
const WRITE_CHUNK = 1_000;

interface MatchedRow {
  studentId: string;
  event: MapTestEvent;
  contentHash: string;
}

interface HeldRow extends UnmatchedMapRow {
  event: MapTestEvent;
}

export async function importMapExport(
  db: Database,
  files: FileSet,
  options: MapImportOptions,
): Promise<MapImportResult> {
  const resultsFile = resultsFileOf(files);
  const studentsFile = files.entries.find((entry) => roleOfFile(entry.name) === "students");
  const names = studentsFile ? await readStudentNames(studentsFile) : new Map<string, StudentName>();
  const matchStudent = await studentMatcher(db);

  const errors: MapImportError[] = [];
  const matched = new Map<string, MatchedRow>();
  const held = new Map<string, HeldRow>();
  let read = 0;
  const say = (text: Parameters<typeof translate>[0]) => translate(text, options.language);
  let mapHeader: MapHeader | null = null;
  for await (const { line, fields } of csvRows(resultsFile)) {
    if (!mapHeader) {
      mapHeader = requireHeader(fields);
      continue;
    }
    read++;
    const outcome = readMapRow(mapHeader, fields);
    if ("problems" in outcome) {
      for (const problem of outcome.problems)
        errors.push({ line, column: problem.column, message: say(problem.message) });
      continue;
    }
    const { event } = outcome;
    const studentId = matchStudent(event.studentId);
    // The same test twice in one file: the later row is the one kept.
    if (studentId) {
      const row = { studentId, event, contentHash: hashOf(event) };
      matched.set(keyOf(row), row);
    } else {
      const known = names.get(event.studentId);
      const name = [event.firstName ?? known?.firstName, event.lastName ?? known?.lastName]
        .filter(Boolean)
        .join(" ");
      held.set(resultKey(event.studentId, event.subject, event.termName, testKeyOf(event)), {
        line,
        studentId: event.studentId,
        name: name || null,
        school: event.schoolName ?? known?.schoolName ?? null,
        event,
      });
    }
  }
  if (read === 0) throw new AppError("bad_request", message("assessment:import.noRows"));

  const rows = [...matched.values()];
  const stored = await storedHashes(db, rows);
  const isNew = (row: MatchedRow) => !stored.has(keyOf(row));
  const isChanged = (row: MatchedRow) => stored.get(keyOf(row)) !== row.contentHash;
  const changed = rows.filter(isChanged);
  const rejected = new Set(errors.map((error) => error.line)).size;
  const report: MapImportResult = {
    dryRun: options.dryRun,
    applied: false,
    changedStudentIds: [],
    rows: {
      read,
      imported: changed.filter(isNew).length,
      updated: changed.filter((row) => !isNew(row)).length,
      unchanged: rows.length - changed.length,
      unmatched: held.size,
      rejected,
    },
    unmatched: [...held.values()].map(({ event: _event, ...row }) => row).sort((a, b) => a.line - b.line),
    errors,
  };
  if (options.dryRun || errors.length > 0) return report;

  const changedStudentIds = [...new Set(changed.map((row) => row.studentId))];
  await db.transaction(async (tx) => {
    const [importRow] = await queryRows<{ id: string }>(
      tx,
      sql`insert into map_imports (file_name, imported_by, rows, imported_at)
        values (${options.fileName}, ${options.actorId}, ${JSON.stringify(report.rows)}::jsonb, ${options.now})
        returning id`,
    );
    const importId = importRow?.id as string;
    for (let start = 0; start < changed.length; start += WRITE_CHUNK)
      await writeResults(tx, changed.slice(start, start + WRITE_CHUNK), importId, options.now);
    const heldRows = [...held.values()];
    for (let start = 0; start < heldRows.length; start += WRITE_CHUNK)
      await holdRows(tx, heldRows.slice(start, start + WRITE_CHUNK), importId, options.now);
    // Rows held by an earlier import that now matched (a roster change, say) are no longer waiting.
    await tx.execute(sql`delete from map_unmatched_rows h
      where exists (select 1 from jsonb_array_elements_text(${JSON.stringify([
        ...new Set(rows.map((row) => row.event.studentId)),
      ])}::jsonb) m(id) where m.id = h.nwea_student_id)`);
    await refreshStoredGrowth(tx, changedStudentIds);
  });
  return { ...report, applied: true, changedStudentIds };
}

/** The results file: AssessmentResults.csv in a package, or the one CSV uploaded. */
function resultsFileOf(files: FileSet): FileSetEntry {
  const named = files.entries.find((entry) => roleOfFile(entry.name) === "results");
  if (named) return named;
  const csvFiles = files.entries.filter((entry) => entry.name.toLowerCase().endsWith(".csv"));
  if (csvFiles.length === 1) return csvFiles[0] as FileSetEntry;
  throw new AppError("bad_request", message("assessment:import.noResultsFile"));
}

type MapHeader = Exclude<ReturnType<typeof readMapHeader>, { missing: string[] }>;

/** The results file's header; a file without a column the import needs is refused whole. */
function requireHeader(fields: string[]): MapHeader {
  const header = readMapHeader(fields);
  if ("missing" in header)
    throw new AppError(
      "bad_request",
      message("assessment:import.missingColumns", { columns: header.missing.join(", ") }),
    );
  return header;
}

/** The file's records, the header first; broken CSV is the uploader's to fix, said with its line. */
async function* csvRows(file: FileSetEntry) {
  const input = await file.open();
  try {
    yield* readCsvRecords(input, { file: file.name });
  } catch (error) {
    if (error instanceof CsvSyntaxError)
      throw new AppError(
        "bad_request",
        message("assessment:import.brokenCsv", { file: file.name, line: error.line, reason: error.message }),
      );
    throw error;
  } finally {
    input.destroy();
  }
}

interface StudentName {
  firstName: string | null;
  lastName: string | null;
  schoolName: string | null;
}

/** StudentsBySchool.csv: names and schools by StudentID, for listing the rows no student matched. */
async function readStudentNames(file: FileSetEntry): Promise<Map<string, StudentName>> {
  const names = new Map<string, StudentName>();
  let header: StudentsHeader | null = null;
  for await (const { fields } of csvRows(file)) {
    if (header) {
      const student = readStudentRow(header, fields);
      if (student) names.set(student.studentId, student);
      continue;
    }
    const read = readStudentsHeader(fields);
    // Names only help: a file without their columns is passed over.
    if ("missing" in read) break;
    header = read;
  }
  return names;
}

/**
 * Who an NWEA StudentID is: a StudentID an administrator linked, else the student whose roster
 * `identifier` it is, else whose sourcedId, else whose email (in any case). Read once per import.
 */
async function studentMatcher(db: Database): Promise<(nweaId: string) => string | null> {
  const students = await queryRows<{ id: string; identifier: string | null; email: string | null }>(
    db,
    sql`select u.sourced_id as id, u.identifier, lower(u.email) as email from users u
      where ${isStudent(sql`u.sourced_id`)}`,
  );
  const links = await queryRows<{ nweaId: string; id: string }>(
    db,
    sql`select nwea_student_id as "nweaId", student_sourced_id as id from map_student_links`,
  );
  const byLink = new Map(links.map((link) => [link.nweaId, link.id]));
  const byIdentifier = new Map<string, string>();
  const bySourcedId = new Set<string>();
  const byEmail = new Map<string, string>();
  for (const student of students) {
    if (student.identifier && !byIdentifier.has(student.identifier))
      byIdentifier.set(student.identifier, student.id);
    bySourcedId.add(student.id);
    if (student.email) byEmail.set(student.email, student.id);
  }
  return (nweaId) =>
    byLink.get(nweaId) ??
    byIdentifier.get(nweaId) ??
    (bySourcedId.has(nweaId) ? nweaId : null) ??
    byEmail.get(nweaId.toLowerCase()) ??
    null;
}

/** Which test of a term and subject a row is: its name, as a term may hold an end-of-course test too. */
const testKeyOf = (event: MapTestEvent) => event.testName ?? "";

/** A row's identity in the maps of an import: its student (or StudentID), subject, term and test, joined. */
const resultKey = (...parts: (string | number)[]) => parts.join("\u001f");

const keyOf = ({ studentId, event }: Pick<MatchedRow, "studentId" | "event">) =>
  resultKey(studentId, event.subject, event.schoolYear, event.season, testKeyOf(event));

/** The event's figures, hashed with its keys in order: an event read back from jsonb hashes the same. */
function hashOf(event: MapTestEvent): string {
  const sortedKeys = (_key: string, value: unknown) =>
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value;
  return createHash("sha256").update(JSON.stringify(event, sortedKeys)).digest("base64url");
}

/** The content hashes already stored for the file's students, by student, subject and term. */
async function storedHashes(db: Database, rows: MatchedRow[]): Promise<Map<string, string>> {
  const studentIds = [...new Set(rows.map((row) => row.studentId))];
  if (studentIds.length === 0) return new Map();
  const stored = await queryRows<{
    studentId: string;
    subject: string;
    schoolYear: number;
    season: string;
    testKey: string;
    hash: string;
  }>(
    db,
    sql`select r.student_sourced_id as "studentId", r.subject, r.school_year as "schoolYear", r.season,
        r.test_key as "testKey", r.content_hash as hash
      from map_results r
      where r.student_sourced_id in (select jsonb_array_elements_text(${JSON.stringify(studentIds)}::jsonb))`,
  );
  return new Map(
    stored.map((row) => [
      resultKey(row.studentId, row.subject, row.schoolYear, row.season, row.testKey),
      row.hash,
    ]),
  );
}

/** Stores new and changed results; a term's result replaces the one stored for the same term. */
async function writeResults(db: Database, rows: MatchedRow[], importId: string, now: Date) {
  const given = rows.map(({ studentId, event, contentHash }) => ({
    student: studentId,
    content_hash: contentHash,
    nwea_student_id: event.studentId,
    term_name: event.termName,
    season: event.season,
    school_year: event.schoolYear,
    subject: event.subject,
    discipline: event.discipline,
    test_name: event.testName,
    test_key: testKeyOf(event),
    growth_measure: event.growthMeasure,
    test_id: event.testId,
    test_type: event.testType,
    test_date: event.testDate,
    test_start_time: event.testStartTime,
    duration_minutes: event.durationMinutes,
    rit: event.rit,
    standard_error: event.standardError,
    percentile: event.percentile,
    achievement_quintile: event.achievementQuintile,
    percent_correct: event.percentCorrect,
    rapid_guessing_percent: event.rapidGuessingPercent,
    lexile: event.lexile,
    grade: event.grade,
    school_name: event.schoolName,
    goals: event.goals,
    growth: event.growth,
  }));
  await db.execute(sql`insert into map_results (student_sourced_id, content_hash, nwea_student_id, term_name, season,
      school_year, subject, discipline, test_name, test_key, growth_measure, test_id, test_type, test_date, test_start_time, duration_minutes,
      rit, standard_error, percentile, achievement_quintile, percent_correct, rapid_guessing_percent, lexile, grade,
      school_name, goals, growth, import_id, imported_at)
    select student, content_hash, nwea_student_id, term_name, season, school_year, subject, discipline, test_name,
      test_key, growth_measure, test_id, test_type, test_date, test_start_time, duration_minutes, rit, standard_error, percentile,
      achievement_quintile, percent_correct, rapid_guessing_percent, lexile, grade, school_name,
      coalesce(goals, '[]'::jsonb), coalesce(growth, '{}'::jsonb), ${importId}::uuid, ${now}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(given)}::jsonb) as g(student text, content_hash text,
      nwea_student_id text, term_name text, season text, school_year int, subject text, discipline text,
      test_name text, test_key text, growth_measure boolean, test_id text, test_type text, test_date date, test_start_time text, duration_minutes int,
      rit int, standard_error numeric, percentile int, achievement_quintile text, percent_correct numeric,
      rapid_guessing_percent numeric, lexile text, grade int, school_name text, goals jsonb, growth jsonb)
    on conflict (student_sourced_id, subject, school_year, season, test_key) do update set
      content_hash = excluded.content_hash, nwea_student_id = excluded.nwea_student_id,
      term_name = excluded.term_name, growth_measure = excluded.growth_measure, discipline = excluded.discipline, test_name = excluded.test_name,
      test_id = excluded.test_id, test_type = excluded.test_type, test_date = excluded.test_date,
      test_start_time = excluded.test_start_time, duration_minutes = excluded.duration_minutes,
      rit = excluded.rit, standard_error = excluded.standard_error, percentile = excluded.percentile,
      achievement_quintile = excluded.achievement_quintile, percent_correct = excluded.percent_correct,
      rapid_guessing_percent = excluded.rapid_guessing_percent, lexile = excluded.lexile, grade = excluded.grade,
      school_name = excluded.school_name, goals = excluded.goals, growth = excluded.growth,
      import_id = excluded.import_id, imported_at = excluded.imported_at`);
}

/** Keeps the rows no student matched, replacing what an earlier import held for the same test. */
async function holdRows(db: Database, rows: HeldRow[], importId: string, now: Date) {
  const given = rows.map((row) => ({
    nwea_student_id: row.studentId,
    name: row.name,
    school_name: row.school,
    term_name: row.event.termName,
    subject: row.event.subject,
    test_key: testKeyOf(row.event),
    line: row.line,
    event: row.event,
  }));
  await db.execute(sql`insert into map_unmatched_rows (nwea_student_id, name, school_name, term_name, subject,
      test_key, line, event, import_id, created_at)
    select nwea_student_id, name, school_name, term_name, subject, test_key, line, event, ${importId}::uuid,
      ${now}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(given)}::jsonb) as g(nwea_student_id text, name text, school_name text,
      term_name text, subject text, test_key text, line int, event jsonb)
    on conflict (nwea_student_id, subject, term_name, test_key) do update set name = excluded.name,
      school_name = excluded.school_name, line = excluded.line, event = excluded.event,
      import_id = excluded.import_id, created_at = excluded.created_at`);
}

/**
 * Ties an NWEA StudentID to a student: the rows held for it import now, and later imports match
 * it first. Answers how many results it stored.
 */
export async function linkMapStudent(
  db: Database,
  link: { nweaStudentId: string; studentId: string; actorId: string },
  now: Date,
): Promise<{ imported: number }> {
  const [student] = await queryRows<{ id: string }>(
    db,
    sql`select u.sourced_id as id from users u where u.sourced_id = ${link.studentId}
      and ${isStudent(sql`u.sourced_id`)}`,
  );
  if (!student) throw new AppError("not_found", message("assessment:studentNotFound"));
  return db.transaction(async (tx) => {
    await tx.execute(sql`insert into map_student_links (nwea_student_id, student_sourced_id, linked_by, linked_at)
      values (${link.nweaStudentId}, ${link.studentId}, ${link.actorId}, ${now})
      on conflict (nwea_student_id) do update set student_sourced_id = excluded.student_sourced_id,
        linked_by = excluded.linked_by, linked_at = excluded.linked_at`);
    const held = await queryRows<{ event: MapTestEvent; importId: string }>(
      tx,
      sql`delete from map_unmatched_rows where nwea_student_id = ${link.nweaStudentId}
        returning event, import_id as "importId"`,
    );
    const rows = held.map(({ event }) => ({ studentId: link.studentId, event, contentHash: hashOf(event) }));
    if (rows.length > 0) {
      await writeResults(tx, rows, held[0]?.importId as string, now);
      await refreshStoredGrowth(tx, [link.studentId]);
    }
    return { imported: rows.length };
  });
}

/** The rows waiting for a link, oldest import first. */
export function heldMapRows(db: Database) {
  return queryRows<UnmatchedMapRow & { termName: string; subject: string }>(
    db,
    sql`select line, nwea_student_id as "studentId", name, school_name as school, term_name as "termName", subject
      from map_unmatched_rows order by created_at, nwea_student_id, subject`,
  );
}

/** The imports applied so far, newest first. */
export function mapImportHistory(db: Database) {
  return queryRows<MapImportRecord>(
    db,
    sql`select id, file_name as "fileName", imported_by as "importedBy", ${nameOf(sql`imported_by`)} as "importedByName",
        rows, ${isoInstant(sql`imported_at`)} as "importedAt"
      from map_imports order by imported_at desc limit 100`,
  );
}
