import { sql } from "drizzle-orm";
import { z } from "zod";
import {
  appLoginPassword,
  appLoginUsername,
  CREDENTIAL_CSV_COLUMNS,
  type CredentialImportReport,
} from "../../../shared/contracts/credentials";
import type { Language } from "../../../shared/languages";
import { type Database, queryRows } from "../../db/client";
import { AppError } from "../../lib/errors";
import type { FileSetEntry } from "../../lib/file-set";
import { type Message, message, translate } from "../../lib/i18n";
import type { SecretBox } from "../../lib/secret-box";
import { CsvSyntaxError, readCsvRecords } from "../../lib/uploads";
import { parseWith } from "../../lib/validation";
import { studentIdsOfClass } from "../rostering/scope";
import { saveCredentialIn } from "./credentials";

/**
 * A CSV of logins (student, app, username, password), for a class or the whole district: every
 * row is checked first, and either all are saved in one transaction or none is and each row's
 * problems are listed with its line.
 */

/** A class's logins fit many times over; more is a mistake, not a class. */
export const MAX_IMPORT_ROWS = 5_000;

type Column = (typeof CREDENTIAL_CSV_COLUMNS)[number];

interface Row {
  line: number;
  student: string;
  app: string;
  username: string;
  password: string;
}

const rowFields = z.object({ username: appLoginUsername, password: appLoginPassword });
const headerName = (field: string) =>
  field
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, "");

async function readRows(file: FileSetEntry): Promise<Row[]> {
  const input = await file.open();
  const rows: Row[] = [];
  let columns: Record<Column, number> | null = null;
  try {
    for await (const record of readCsvRecords(input, { file: file.name })) {
      if (!columns) {
        const names = record.fields.map(headerName);
        const missing = CREDENTIAL_CSV_COLUMNS.filter((column) => !names.includes(column));
        if (missing.length)
          throw new AppError(
            "bad_request",
            message("credentials:import.missingColumns", { columns: missing.join(", ") }),
          );
        columns = Object.fromEntries(
          CREDENTIAL_CSV_COLUMNS.map((column) => [column, names.indexOf(column)]),
        ) as Record<Column, number>;
        continue;
      }
      if (rows.length >= MAX_IMPORT_ROWS)
        throw new AppError(
          "payload_too_large",
          message("credentials:import.tooManyRows", { max: MAX_IMPORT_ROWS }),
        );
      const field = (column: Column) => record.fields[(columns as Record<Column, number>)[column]] ?? "";
      rows.push({
        line: record.line,
        student: field("student").trim(),
        app: field("app").trim(),
        username: field("username"),
        password: field("password"),
      });
    }
  } catch (error) {
    if (error instanceof CsvSyntaxError)
      throw new AppError(
        "bad_request",
        message("credentials:import.brokenCsv", { line: error.line, reason: error.message }),
      );
    throw error;
  } finally {
    input.destroy();
  }
  if (!columns) throw new AppError("bad_request", message("credentials:import.empty"));
  if (rows.length === 0) throw new AppError("bad_request", message("credentials:import.noRows"));
  return rows;
}

/** The texts as a sub-query, sent as one JSON parameter however many rows the file has. */
const textsOf = (values: string[]) => sql`select json_array_elements_text(${JSON.stringify(values)}::json)`;

/** Students named by sourcedId or email (any case), with whether they are in the class when one is given. */
async function findStudents(db: Database, names: string[], classId: string | null) {
  const found = await queryRows<{ sourcedId: string; email: string | null; inClass: boolean }>(
    db,
    sql`select u.sourced_id as "sourcedId", lower(u.email) as email,
        ${classId ? sql`u.sourced_id in (${studentIdsOfClass(classId)})` : sql`true`} as "inClass"
      from users u
      where (u.sourced_id in (${textsOf(names)}) or lower(u.email) in (${textsOf(names.map((name) => name.toLowerCase()))}))
        and exists (select 1 from user_roles r where r.user_sourced_id = u.sourced_id and lower(r.role) = 'student')`,
  );
  return (name: string) =>
    found.filter((student) => student.sourcedId === name || student.email === name.toLowerCase());
}

/** Learning apps named by id or name (any case). */
async function findApps(db: Database, names: string[]) {
  const found = await queryRows<{ id: string; name: string }>(
    db,
    sql`select id::text as id, lower(name) as name from learning_apps
      where kind = 'learning'
        and (id::text in (${textsOf(names)}) or lower(name) in (${textsOf(names.map((name) => name.toLowerCase()))}))`,
  );
  return (name: string) =>
    found.filter((app) => app.id === name.toLowerCase() || app.name === name.toLowerCase());
}

export async function importCredentials(
  db: Database,
  box: SecretBox,
  file: FileSetEntry,
  options: { byId: string; classId: string | null; language: Language; now: Date },
): Promise<CredentialImportReport> {
  const { classId, language } = options;
  if (classId) {
    const [known] = await queryRows<{ found: boolean }>(
      db,
      sql`select exists (select 1 from classes where sourced_id = ${classId}) as found`,
    );
    if (!known?.found) throw new AppError("not_found", message("credentials:import.classNotFound"));
  }
  const rows = await readRows(file);
  const studentsNamed = await findStudents(db, [...new Set(rows.map((row) => row.student))], classId);
  const appsNamed = await findApps(db, [...new Set(rows.map((row) => row.app))]);

  const errors: CredentialImportReport["errors"] = [];
  const complain = (line: number, said: Message | string) =>
    errors.push({ line, message: translate(said, language) });
  const valid: { studentId: string; appId: string; username: string; password: string }[] = [];
  const seen = new Map<string, number>();
  for (const row of rows) {
    const problems = errors.length;
    const students = studentsNamed(row.student);
    const [student] = students;
    if (!row.student) complain(row.line, message("credentials:import.studentMissing"));
    else if (!student)
      complain(row.line, message("credentials:import.studentUnknown", { student: row.student }));
    else if (students.length > 1)
      complain(row.line, message("credentials:import.studentAmbiguous", { student: row.student }));
    else if (!student.inClass)
      complain(row.line, message("credentials:import.studentNotInClass", { student: row.student }));
    const apps = appsNamed(row.app);
    const [app] = apps;
    if (!row.app) complain(row.line, message("credentials:import.appMissing"));
    else if (!app) complain(row.line, message("credentials:import.appUnknown", { app: row.app }));
    else if (apps.length > 1)
      complain(row.line, message("credentials:import.appAmbiguous", { app: row.app }));
    let fields: z.output<typeof rowFields> | null = null;
    try {
      fields = parseWith(rowFields, { username: row.username, password: row.password }, language);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      for (const issue of error.toBody(language).issues ?? [{ message: error.toBody(language).message }])
        complain(row.line, issue.message);
    }
    if (errors.length > problems || !student || !app || !fields) continue;
    const pair = `${student.sourcedId}\u0000${app.id}`;
    const earlier = seen.get(pair);
    if (earlier !== undefined) {
      complain(row.line, message("credentials:import.duplicate", { line: earlier }));
      continue;
    }
    seen.set(pair, row.line);
    valid.push({ studentId: student.sourcedId, appId: app.id, ...fields });
  }

  const report = { rows: rows.length, created: 0, updated: 0, errors };
  if (errors.length) return { applied: false, ...report };
  await db.transaction(async (tx) => {
    for (const input of valid) {
      const { created } = await saveCredentialIn(tx, box, options.byId, input, options.now, "import");
      if (created) report.created += 1;
      else report.updated += 1;
    }
  });
  return { applied: true, ...report };
}
