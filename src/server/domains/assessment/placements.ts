import { type SQL, sql } from "drizzle-orm";
import {
  type BulkPlacementInput,
  type BulkPlacementResult,
  type CsvImportReport,
  DASH_SUBJECTS,
  PLACEMENT_TEST_DONE,
  type PlacementChangeRecord,
  type PlacementLevelInput,
  type PlacementListQuery,
  type PlacementReport,
  type PlacementReportQuery,
  type PlacementReportRow,
  type PlacementStudentList,
  type PlacementStudentRow,
  type PlacementTestInput,
  type PlacementTestRecord,
  type PlacementTestStatus,
  type StudentPlacements,
  type SubjectPlacement,
  type SubjectTrack,
} from "../../../shared/contracts/assessment";
import { csvLine } from "../../../shared/csv";
import type { Language } from "../../../shared/languages";
import { localDateOf, SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { type Database, isoInstant, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import type { FileSet } from "../../lib/file-set";
import { type Message, message, translate } from "../../lib/i18n";
import { invalidFields } from "../../lib/validation";
import { containsPattern } from "../rostering/filter";
import { isActiveUser, nameOf } from "../rostering/queries";
import { studentIdsInReach, studentVisibleTo } from "../rostering/scope";
import { importErrors, RowReader, readImportRows, studentMatcher } from "./placement-csv";
import { currentCourseOf, stepsBySubject } from "./subject-tracks";

/**
 * Placements: a student's level per subject (the grade they started at and the one they work at
 * now), every change of it with who made it and why, and the placement tests they took. Students
 * read their own, parents and guardians their children's, Guides their students' (and change
 * them), administrators everyone's.
 */

const STAFF = new Set(["teacher", "administrator"]);
const STUDENT_NOT_FOUND = message("assessment:placements.studentNotFound");

// ── Pure rules ────────────────────────────────────────────────────────────────────────────────

/**
 * The test to take next in a subject: the first, in grade order, at or above the current grade
 * that is neither passed nor skipped. Null when every one is (or there is none).
 */
export function nextPlacementTest<
  Test extends { gradeLevel: number; testName: string; status: PlacementTestStatus },
>(tests: readonly Test[], currentGrade: number | null): Test | null {
  const floor = currentGrade ?? Number.NEGATIVE_INFINITY;
  const open = tests.filter((test) => test.gradeLevel >= floor && !PLACEMENT_TEST_DONE.includes(test.status));
  open.sort((a, b) => a.gradeLevel - b.gradeLevel || a.testName.localeCompare(b.testName));
  return open[0] ?? null;
}

/** "grade 3", "kindergarten": a level in the server's messages. */
function gradeWords(grade: number): Message {
  return message("assessment:placements.gradeName", { grade });
}

// ── One student ───────────────────────────────────────────────────────────────────────────────

interface PlacementRow {
  subject: string;
  startingGrade: number;
  currentGrade: number;
  updatedAt: string;
}
type TestRow = PlacementTestRecord;

const TEST_JSON = sql`json_build_object('subject', t.subject, 'gradeLevel', t.grade_level, 'testName', t.test_name,
  'status', t.status, 'score', t.score, 'takenOn', t.taken_on, 'recordedAt', ${isoInstant(sql`t.recorded_at`)})`;
const PLACEMENT_JSON = sql`json_build_object('subject', p.subject, 'startingGrade', p.starting_grade,
  'currentGrade', p.current_grade, 'updatedAt', ${isoInstant(sql`p.updated_at`)})`;

/** One subject's card: its level, course, tests, next test and history. */
function subjectPlacementOf(
  subject: string,
  placement: PlacementRow | undefined,
  tests: TestRow[],
  history: PlacementChangeRecord[],
  steps: SubjectTrack["steps"] | undefined,
): SubjectPlacement {
  const currentGrade = placement?.currentGrade ?? null;
  const ordered = [...tests].sort(
    (a, b) => a.gradeLevel - b.gradeLevel || a.testName.localeCompare(b.testName),
  );
  return {
    subject,
    startingGrade: placement?.startingGrade ?? null,
    currentGrade,
    updatedAt: placement?.updatedAt ?? null,
    currentCourse: currentCourseOf(steps ?? [], currentGrade),
    tests: ordered,
    nextTest: nextPlacementTest(ordered, currentGrade),
    history,
  };
}

/** A student's placements: the caller's own for a student (without `studentId`), else one they may see. */
export async function studentPlacements(
  db: Database,
  actor: Actor,
  requested: string | undefined,
): Promise<StudentPlacements> {
  const studentId = requested ?? (actor.activeRole === "student" ? actor.user.sourcedId : undefined);
  if (!studentId) throw new AppError("bad_request", message("assessment:placements.chooseStudent"));
  const visible = studentVisibleTo(actor, studentId);
  if (!visible)
    throw new AppError(
      "forbidden",
      message("common:roleForbids", { action: message("assessment:placements.actions.see") }),
    );
  const [row] = await queryRows<{
    student: StudentPlacements["student"] | null;
    placements: PlacementRow[];
    tests: TestRow[];
    history: PlacementChangeRecord[];
  }>(
    db,
    sql`select
        (select json_build_object('id', u.sourced_id, 'name', ${nameOf(sql`u.sourced_id`)}, 'grades', u.grades)
          from users u where u.sourced_id = ${studentId}) as student,
        (select coalesce(json_agg(${PLACEMENT_JSON}), '[]'::json) from placements p
          where p.student_sourced_id = ${studentId}) as placements,
        (select coalesce(json_agg(${TEST_JSON}), '[]'::json) from placement_tests t
          where t.student_sourced_id = ${studentId}) as tests,
        (select coalesce(json_agg(json_build_object('id', c.id, 'subject', c.subject, 'fromGrade', c.from_grade,
            'toGrade', c.to_grade, 'reason', c.reason, 'changedBy', ${nameOf(sql`c.changed_by`)},
            'changedAt', ${isoInstant(sql`c.changed_at`)}) order by c.changed_at desc, c.id), '[]'::json)
          from placement_changes c where c.student_sourced_id = ${studentId}) as history
      where ${visible}`,
  );
  if (!row?.student) throw new AppError("not_found", STUDENT_NOT_FOUND);
  const steps = await stepsBySubject(db);
  const subjects = [
    ...new Set([...row.placements.map((entry) => entry.subject), ...row.tests.map((test) => test.subject)]),
  ].sort();
  return {
    student: row.student,
    subjects: subjects.map((subject) =>
      subjectPlacementOf(
        subject,
        row.placements.find((entry) => entry.subject === subject),
        row.tests.filter((test) => test.subject === subject),
        row.history.filter((change) => change.subject === subject),
        steps.get(subject),
      ),
    ),
    canEdit: STAFF.has(actor.activeRole ?? ""),
  };
}

// ── Changing levels ───────────────────────────────────────────────────────────────────────────

interface LevelChange {
  studentId: string;
  subject: string;
  grade: number;
  reason: string;
}

interface AppliedChange {
  student: string;
  subject: string;
  fromGrade: number | null;
  toGrade: number;
}

const WRITE_CHUNK = 500;

/**
 * Sets each student's level, in the caller's transaction: a first placement sets the starting and
 * current grade, a change keeps the starting grade, and each change is written to the history.
 * A student already at the level is left as is. Answers the changes made.
 */
async function applyLevels(
  tx: Database,
  levels: readonly LevelChange[],
  actorId: string,
  now: Date,
): Promise<AppliedChange[]> {
  const applied: AppliedChange[] = [];
  for (let start = 0; start < levels.length; start += WRITE_CHUNK) {
    const wanted = sql.join(
      levels
        .slice(start, start + WRITE_CHUNK)
        .map(
          (level) =>
            sql`(${level.studentId}::text, ${level.subject}::text, ${level.grade}::int, ${level.reason}::text)`,
        ),
      sql`, `,
    );
    const at = sql`${now.toISOString()}::timestamptz`;
    const rows = await queryRows<AppliedChange>(
      tx,
      sql`with wanted(student, subject, grade, reason) as (values ${wanted}),
        locked as (select p.student_sourced_id as student, p.subject, p.current_grade from placements p
          join wanted w on w.student = p.student_sourced_id and w.subject = p.subject for update of p),
        changes as (select w.student, w.subject, w.grade, w.reason, l.current_grade as from_grade from wanted w
          left join locked l on l.student = w.student and l.subject = w.subject
          where l.current_grade is distinct from w.grade),
        placed as (insert into placements (student_sourced_id, subject, starting_grade, current_grade, updated_by, updated_at)
          select student, subject, grade, grade, ${actorId}, ${at} from changes
          on conflict (student_sourced_id, subject) do update set current_grade = excluded.current_grade,
            updated_by = excluded.updated_by, updated_at = excluded.updated_at
          returning 1),
        logged as (insert into placement_changes (student_sourced_id, subject, from_grade, to_grade, reason, changed_by, changed_at)
          select student, subject, from_grade, grade, reason, ${actorId}, ${at} from changes
          returning 1)
      select student, subject, from_grade as "fromGrade", grade as "toGrade" from changes`,
    );
    applied.push(...rows);
  }
  return applied;
}

function assertStaff(actor: Actor, action: string) {
  if (!STAFF.has(actor.activeRole ?? ""))
    throw new AppError("forbidden", message("common:roleForbids", { action: message(action) }));
}

/** Whether the caller reaches the student, or a 404: a Guide sees only their own students. */
async function assertReaches(db: Database, actor: Actor, studentId: string) {
  const visible = studentVisibleTo(actor, studentId) ?? sql`false`;
  const [row] = await queryRows<{ allowed: boolean; name: string | null }>(
    db,
    sql`select ${visible} as allowed, ${nameOf(sql`${studentId}::text`)} as name`,
  );
  if (!row?.allowed) throw new AppError("not_found", STUDENT_NOT_FOUND);
  return row.name ?? studentId;
}

/** A Guide (their students) or an administrator sets or changes one student's level in a subject. */
export async function setPlacementLevel(
  db: Database,
  actor: Actor,
  studentId: string,
  input: PlacementLevelInput,
  now: Date,
): Promise<AppliedChange> {
  assertStaff(actor, "assessment:placements.actions.change");
  return db.transaction(async (tx) => {
    const name = await assertReaches(tx as unknown as Database, actor, studentId);
    const [change] = await applyLevels(
      tx as unknown as Database,
      [{ studentId, ...input }],
      actor.realUser.sourcedId,
      now,
    );
    if (!change)
      throw new AppError(
        "conflict",
        message("assessment:placements.alreadyAtLevel", {
          name,
          subject: input.subject,
          grade: gradeWords(input.grade),
        }),
      );
    return change;
  });
}

/** An administrator moves many students to one level of one subject: every one of them, or none. */
export async function bulkSetPlacementLevel(
  db: Database,
  actor: Actor,
  input: BulkPlacementInput,
  now: Date,
): Promise<BulkPlacementResult> {
  const studentIds = [...new Set(input.studentIds)];
  const reach = studentIdsInReach(actor) ?? sql`select null::text where false`;
  return db.transaction(async (tx) => {
    const found = await queryRows<{ id: string }>(
      tx as unknown as Database,
      sql`select u.sourced_id as id from users u where u.sourced_id in ${studentIds} and u.sourced_id in (${reach})`,
    );
    const known = new Set(found.map((row) => row.id));
    const missing = studentIds.filter((id) => !known.has(id));
    if (missing.length)
      throw invalidFields([
        {
          path: "studentIds",
          message: message("assessment:placements.notStudents", {
            count: missing.length,
            ids: missing.slice(0, 5).join(", "),
          }),
        },
      ]);
    const changes = await applyLevels(
      tx as unknown as Database,
      studentIds.map((studentId) => ({
        studentId,
        subject: input.subject,
        grade: input.grade,
        reason: input.reason,
      })),
      actor.realUser.sourcedId,
      now,
    );
    return { changed: changes.length, unchanged: studentIds.length - changes.length };
  });
}

/** Records a placement test's result, replacing the one of the same subject, grade and name. */
export async function recordPlacementTest(
  db: Database,
  actor: Actor,
  studentId: string,
  input: PlacementTestInput,
  now: Date,
): Promise<PlacementTestRecord> {
  assertStaff(actor, "assessment:placements.actions.change");
  if (input.takenOn && input.takenOn > localDateOf(now, SCHOOL_TIME_ZONE))
    throw invalidFields([{ path: "takenOn", message: message("assessment:placements.takenInFuture") }]);
  const visible = studentVisibleTo(actor, studentId) ?? sql`false`;
  const [row] = await queryRows<{ test: PlacementTestRecord }>(
    db,
    sql`with saved as (
        insert into placement_tests (student_sourced_id, subject, grade_level, test_name, status, score, taken_on,
          recorded_by, recorded_at)
        select ${studentId}::text, ${input.subject}::text, ${input.gradeLevel}::int, ${input.testName}::text,
          ${input.status}::text, ${input.score ?? null}::numeric, ${input.takenOn ?? null}::date, ${actor.realUser.sourcedId}::text,
          ${now.toISOString()}::timestamptz
        where ${visible}
        on conflict (student_sourced_id, subject, grade_level, test_name) do update set status = excluded.status,
          score = excluded.score, taken_on = excluded.taken_on, recorded_by = excluded.recorded_by,
          recorded_at = excluded.recorded_at
        returning *)
      select ${TEST_JSON} as test from saved t`,
  );
  if (!row) throw new AppError("not_found", STUDENT_NOT_FOUND);
  return row.test;
}

// ── Lists for staff ───────────────────────────────────────────────────────────────────────────

function studentFilter(actor: Actor, query: Omit<PlacementListQuery, "page" | "perPage">): SQL {
  const reach = studentIdsInReach(actor) ?? sql`select null::text where false`;
  const conditions: SQL[] = [sql`u.sourced_id in (${reach})`, isActiveUser];
  if (query.schoolId)
    conditions.push(sql`(u.primary_org_sourced_id = ${query.schoolId} or exists (select 1 from user_roles r
      where r.user_sourced_id = u.sourced_id and r.org_sourced_id = ${query.schoolId} and lower(r.role) = 'student'))`);
  if (query.subject)
    conditions.push(sql`exists (select 1 from placements p where p.student_sourced_id = u.sourced_id
      and p.subject = ${query.subject} ${query.grade === undefined ? sql`` : sql`and p.current_grade = ${query.grade}`})`);
  if (query.search) {
    const pattern = containsPattern(query.search);
    conditions.push(sql`(coalesce(u.preferred_first_name, u.given_name) || ' ' || u.family_name ilike ${pattern}
      or u.given_name || ' ' || u.family_name ilike ${pattern} or u.email ilike ${pattern} or u.identifier ilike ${pattern})`);
  }
  return sql.join(conditions, sql` and `);
}

interface StudentRow {
  id: string;
  name: string;
  email: string | null;
  grades: string[];
  schoolName: string | null;
  placements: PlacementRow[];
  tests: TestRow[];
}

async function studentRows(db: Database, where: SQL, offset: number, limit: number): Promise<StudentRow[]> {
  const rows = await queryRows<{ row: StudentRow }>(
    db,
    sql`select json_build_object('id', u.sourced_id, 'name', ${nameOf(sql`u.sourced_id`)}, 'email', u.email,
        'grades', u.grades, 'schoolName', (select o.name from orgs o where o.sourced_id = u.primary_org_sourced_id),
        'placements', (select coalesce(json_agg(${PLACEMENT_JSON} order by p.subject), '[]'::json)
          from placements p where p.student_sourced_id = u.sourced_id),
        'tests', (select coalesce(json_agg(${TEST_JSON}), '[]'::json)
          from placement_tests t where t.student_sourced_id = u.sourced_id)) as row
      from users u where ${where}
      order by u.family_name, coalesce(u.preferred_first_name, u.given_name), u.sourced_id
      offset ${offset} limit ${limit}`,
  );
  return rows.map((entry) => entry.row);
}

function summaryOf(row: StudentRow, steps: Map<string, SubjectTrack["steps"]>): PlacementStudentRow {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    grades: row.grades,
    schoolName: row.schoolName,
    placements: row.placements.map((placement) => {
      const next = nextPlacementTest(
        row.tests.filter((test) => test.subject === placement.subject),
        placement.currentGrade,
      );
      return {
        subject: placement.subject,
        startingGrade: placement.startingGrade,
        currentGrade: placement.currentGrade,
        currentCourse:
          currentCourseOf(steps.get(placement.subject) ?? [], placement.currentGrade)?.title ?? null,
        nextTest: next && { gradeLevel: next.gradeLevel, testName: next.testName, status: next.status },
        updatedAt: placement.updatedAt,
      };
    }),
  };
}

/** The subjects a filter offers: Dash's, those placed and those with a track. */
async function subjectChoices(db: Database): Promise<string[]> {
  const rows = await queryRows<{ subject: string }>(
    db,
    sql`select distinct subject from placements union select subject from subject_tracks`,
  );
  return [...new Set([...DASH_SUBJECTS, ...rows.map((row) => row.subject)])].sort();
}

async function schoolChoices(db: Database, students: SQL): Promise<{ id: string; name: string }[]> {
  return queryRows<{ id: string; name: string }>(
    db,
    sql`select o.sourced_id as id, o.name from orgs o where o.type = 'school' and o.sourced_id in (
        select r.org_sourced_id from user_roles r where lower(r.role) = 'student' and r.user_sourced_id in (${students}))
      order by o.name`,
  );
}

/** Students in the caller's reach with their placements, filtered and paged: a Guide's or everyone (administrators). */
export async function placementStudents(
  db: Database,
  actor: Actor,
  query: PlacementListQuery,
): Promise<PlacementStudentList> {
  assertStaff(actor, "assessment:placements.actions.see");
  const where = studentFilter(actor, query);
  const reach = studentIdsInReach(actor) ?? sql`select null::text where false`;
  const [rows, [count], steps, schools, subjects] = await Promise.all([
    studentRows(db, where, query.page * query.perPage, query.perPage),
    queryRows<{ total: number }>(db, sql`select count(*)::int as total from users u where ${where}`),
    stepsBySubject(db),
    schoolChoices(db, reach),
    subjectChoices(db),
  ]);
  return { students: rows.map((row) => summaryOf(row, steps)), total: count?.total ?? 0, schools, subjects };
}

const CSV_PAGE = 500;
const csvGrade = (grade: number | null | undefined) =>
  grade === null || grade === undefined ? "" : grade === 0 ? "K" : grade;

/** The filtered students' placements as CSV, one line per student and subject, a page at a time. */
export async function* placementsCsv(
  db: Database,
  actor: Actor,
  query: Omit<PlacementListQuery, "page" | "perPage">,
  language: Language,
): AsyncGenerator<string> {
  assertStaff(actor, "assessment:placements.actions.see");
  const say = (key: string) => translate(message(`assessment:placements.csv.${key}`), language);
  yield csvLine(
    [
      "studentId",
      "student",
      "email",
      "school",
      "subject",
      "startingGrade",
      "currentGrade",
      "currentCourse",
      "nextTest",
      "nextTestGrade",
      "updatedAt",
    ].map(say),
  );
  const where = studentFilter(actor, query);
  const steps = await stepsBySubject(db);
  for (let offset = 0; ; offset += CSV_PAGE) {
    const rows = await studentRows(db, where, offset, CSV_PAGE);
    let chunk = "";
    for (const student of rows.map((row) => summaryOf(row, steps))) {
      for (const placement of student.placements) {
        if (query.subject && placement.subject !== query.subject) continue;
        chunk += csvLine([
          student.id,
          student.name,
          student.email,
          student.schoolName,
          placement.subject,
          csvGrade(placement.startingGrade),
          csvGrade(placement.currentGrade),
          placement.currentCourse,
          placement.nextTest?.testName,
          csvGrade(placement.nextTest?.gradeLevel),
          placement.updatedAt,
        ]);
      }
    }
    if (chunk) yield chunk;
    if (rows.length < CSV_PAGE) return;
  }
}

// ── The report of changes ─────────────────────────────────────────────────────────────────────

function changeFilter(query: Omit<PlacementReportQuery, "page" | "perPage">): SQL {
  const conditions: SQL[] = [sql`true`];
  const localDay = sql`(c.changed_at at time zone ${SCHOOL_TIME_ZONE})::date`;
  if (query.schoolId)
    conditions.push(sql`exists (select 1 from users u where u.sourced_id = c.student_sourced_id
      and (u.primary_org_sourced_id = ${query.schoolId} or exists (select 1 from user_roles r
        where r.user_sourced_id = u.sourced_id and r.org_sourced_id = ${query.schoolId})))`);
  if (query.subject) conditions.push(sql`c.subject = ${query.subject}`);
  if (query.from) conditions.push(sql`${localDay} >= ${query.from}::date`);
  if (query.to) conditions.push(sql`${localDay} <= ${query.to}::date`);
  return sql.join(conditions, sql` and `);
}

const CHANGE_JSON = sql`json_build_object('id', c.id, 'subject', c.subject, 'fromGrade', c.from_grade,
  'toGrade', c.to_grade, 'reason', c.reason, 'changedBy', ${nameOf(sql`c.changed_by`)},
  'changedAt', ${isoInstant(sql`c.changed_at`)},
  'student', json_build_object('id', c.student_sourced_id, 'name', coalesce(${nameOf(sql`c.student_sourced_id`)}, c.student_sourced_id)),
  'schoolName', (select o.name from users u join orgs o on o.sourced_id = u.primary_org_sourced_id
    where u.sourced_id = c.student_sourced_id))`;

async function changeRows(db: Database, where: SQL, offset: number, limit: number) {
  const rows = await queryRows<{ change: PlacementReportRow }>(
    db,
    sql`select ${CHANGE_JSON} as change from placement_changes c where ${where}
      order by c.changed_at desc, c.id offset ${offset} limit ${limit}`,
  );
  return rows.map((row) => row.change);
}

/** Every level change, newest first, filtered; with the changes per month of the whole range. */
export async function placementReport(db: Database, query: PlacementReportQuery): Promise<PlacementReport> {
  const where = changeFilter(query);
  const everyStudent = sql`select r.user_sourced_id from user_roles r where lower(r.role) = 'student'`;
  const [changes, [count], perMonth, schools, subjects] = await Promise.all([
    changeRows(db, where, query.page * query.perPage, query.perPage),
    queryRows<{ total: number }>(
      db,
      sql`select count(*)::int as total from placement_changes c where ${where}`,
    ),
    queryRows<{ month: string; count: number }>(
      db,
      sql`select to_char(c.changed_at at time zone ${SCHOOL_TIME_ZONE}, 'YYYY-MM') as month, count(*)::int as count
        from placement_changes c where ${where} group by 1 order by 1`,
    ),
    schoolChoices(db, everyStudent),
    subjectChoices(db),
  ]);
  return { changes, total: count?.total ?? 0, perMonth, schools, subjects };
}

/** The filtered level changes as CSV, oldest first, a page at a time. */
export async function* placementReportCsv(
  db: Database,
  query: Omit<PlacementReportQuery, "page" | "perPage">,
  language: Language,
): AsyncGenerator<string> {
  const say = (key: string) => translate(message(`assessment:placements.csv.${key}`), language);
  yield csvLine(
    [
      "changedAt",
      "studentId",
      "student",
      "school",
      "subject",
      "fromGrade",
      "toGrade",
      "reason",
      "changedBy",
    ].map(say),
  );
  const where = changeFilter(query);
  for (let offset = 0; ; offset += CSV_PAGE) {
    const rows = await changeRows(db, where, offset, CSV_PAGE);
    let chunk = "";
    for (const change of rows)
      chunk += csvLine([
        change.changedAt,
        change.student.id,
        change.student.name,
        change.schoolName,
        change.subject,
        csvGrade(change.fromGrade),
        csvGrade(change.toGrade),
        change.reason,
        change.changedBy,
      ]);
    if (chunk) yield chunk;
    if (rows.length < CSV_PAGE) return;
  }
}

// ── The CSV import of levels ──────────────────────────────────────────────────────────────────

const LEVEL_COLUMNS = [
  {
    name: "student",
    aliases: ["studentId", "sourcedId", "identifier", "email", "studentEmail"],
    required: true,
  },
  { name: "subject", required: true },
  { name: "grade", aliases: ["gradeLevel", "level", "currentGrade"], required: true },
  { name: "reason", required: true },
];

/**
 * Levels from a CSV (student by identifier, sourcedId or email; subject; grade; reason): all rows
 * or none. A dry run says what would change; a row already at its level changes nothing, so
 * importing the same file again changes nothing.
 */
export async function importPlacementLevels(
  db: Database,
  actor: Actor,
  files: FileSet,
  options: { dryRun: boolean; now: Date; language: Language },
): Promise<CsvImportReport> {
  const rows = await readImportRows(files, LEVEL_COLUMNS);
  const matchStudent = await studentMatcher(db);
  const readers: RowReader[] = [];
  const levels: LevelChange[] = [];
  const lineOfKey = new Map<string, number>();
  for (const row of rows) {
    const reader = new RowReader(row);
    readers.push(reader);
    const studentId = reader.student("student", matchStudent, { required: true });
    const subject = reader.text("subject", { required: true, max: 60 });
    const grade = reader.grade("grade");
    const reason = reader.text("reason", { required: true, max: 500 });
    if (reader.problems.length || !studentId || !subject || grade === null || !reason) continue;
    const key = `${studentId}\u0000${subject}`;
    const earlier = lineOfKey.get(key);
    if (earlier !== undefined) {
      reader.problem(null, message("assessment:placements.import.duplicateRow", { line: earlier }));
      continue;
    }
    lineOfKey.set(key, row.line);
    levels.push({ studentId, subject, grade, reason });
  }
  const { errors, rejected } = importErrors(readers, (text) => translate(text, options.language));
  const current = await currentGrades(db, levels);
  const changing = levels.filter(
    (level) => current.get(`${level.studentId}\u0000${level.subject}`) !== level.grade,
  );
  const report: CsvImportReport = {
    dryRun: options.dryRun,
    applied: false,
    rows: {
      read: rows.length,
      changed: changing.length,
      unchanged: levels.length - changing.length,
      rejected,
    },
    errors,
  };
  if (options.dryRun || errors.length || changing.length === 0) return report;
  const applied = await db.transaction((tx) =>
    applyLevels(tx as unknown as Database, changing, actor.realUser.sourcedId, options.now),
  );
  return {
    ...report,
    applied: true,
    rows: { ...report.rows, changed: applied.length, unchanged: levels.length - applied.length },
  };
}

async function currentGrades(db: Database, levels: readonly LevelChange[]): Promise<Map<string, number>> {
  const grades = new Map<string, number>();
  const studentIds = [...new Set(levels.map((level) => level.studentId))];
  for (let start = 0; start < studentIds.length; start += 1_000) {
    const rows = await queryRows<{ student: string; subject: string; grade: number }>(
      db,
      sql`select student_sourced_id as student, subject, current_grade as grade from placements
        where student_sourced_id in ${studentIds.slice(start, start + 1_000)}`,
    );
    for (const row of rows) grades.set(`${row.student}\u0000${row.subject}`, row.grade);
  }
  return grades;
}
