import { type SQL, sql } from "drizzle-orm";
import type {
  Assignee,
  Assignment,
  AssignmentChanges,
  AssignmentInput,
  AssignmentList,
  AssignmentListQuery,
  StudentAssignment,
} from "../../../shared/contracts/content";
import { SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { type Database, isoInstant, queryJsonRows, queryRows, uuidEquals } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { invalidFields } from "../../lib/validation";
import { isStudent, nameOf } from "../rostering/queries";
import {
  canSeeStudent,
  classIdsInGuideReach,
  classIdsOf,
  studentIdsInReach,
  studentIdsOfClass,
} from "../rostering/scope";
import {
  lessonStates,
  lessonStatus,
  statusOfCounts,
  syllabusLessons,
  syllabusOrder,
  targetLessons,
  todayIn,
} from "./progress-sql";

/**
 * Required learning: a Guide (or an administrator) assigns a lesson or a whole course to students
 * or classes, with an optional due date. One active assignment per target and assignee; removing
 * one keeps the row with who removed it and when. A class's assignment reaches whoever is actively
 * in the class, also those who join later.
 */

const ASSIGNING_ROLES = new Set(["teacher", "administrator"]);

/** The caller, who must be staff: students and families follow assignments, they do not make them. */
function assertMayAssign(actor: Actor) {
  if (!ASSIGNING_ROLES.has(actor.activeRole ?? ""))
    throw new AppError(
      "forbidden",
      message("common:roleForbids", { action: message("content:lessons.assignments.actions.assign") }),
    );
}

const isAdministrator = (actor: Actor) => actor.activeRole === "administrator";

/** The students the caller reaches (every student for an administrator). */
function reachOf(actor: Actor): SQL {
  return studentIdsInReach(actor) ?? sql`select null::text where false`;
}

/** The courses whose content the caller may assign: any for an administrator, a Guide's courses of the classes they teach. */
function courseAssignableBy(actor: Actor, courseColumn: SQL): SQL {
  if (isAdministrator(actor)) return sql`true`;
  return sql`${courseColumn} in (select k.course_sourced_id from classes k
    where k.sourced_id in (${classIdsInGuideReach(actor)}))`;
}

/** Whether the caller may assign to (and change the assignments of) the assignee `kind`/`id` columns. */
function assigneeInReach(actor: Actor, kind: SQL, id: SQL): SQL {
  const classes = isAdministrator(actor)
    ? sql`select k.sourced_id from classes k`
    : classIdsInGuideReach(actor);
  return sql`((${kind} = 'student' and ${id} in (${reachOf(actor)}))
    or (${kind} = 'class' and ${id} in (${classes})))`;
}

/**
 * The assignments a member of staff sees: an administrator every one; a Guide those they made and
 * those that reach their students (given to them, or to a class one of them is in).
 */
function assignmentVisibleTo(actor: Actor, alias: string): SQL {
  if (isAdministrator(actor)) return sql`true`;
  const a = sql.raw(alias);
  const reach = reachOf(actor);
  return sql`(${a}.assigned_by = ${actor.user.sourcedId}
    or ${assigneeInReach(actor, sql`${a}.assignee_kind`, sql`${a}.assignee_id`)}
    or (${a}.assignee_kind = 'class' and exists (select 1 from enrollments e
      where e.class_sourced_id = ${a}.assignee_id and e.role = 'student' and e.status = 'active'
        and e.user_sourced_id in (${reach}))))`;
}

/** The students an assignment row under `alias` reaches now: the student, or the class's active students. */
function assigneeStudents(alias: string): SQL {
  const a = sql.raw(alias);
  return sql`select ${a}.assignee_id as student_id where ${a}.assignee_kind = 'student'
    union all select e.user_sourced_id from enrollments e
      where ${a}.assignee_kind = 'class' and e.class_sourced_id = ${a}.assignee_id
        and e.role = 'student' and e.status = 'active'`;
}

/** The timezone an assignee's days are counted in: the student's own, the school's for a class. */
function assigneeTimeZone(kind: SQL, id: SQL): SQL {
  return sql`coalesce((select tz.timezone from users tz where ${kind} = 'student' and tz.sourced_id = ${id}), ${SCHOOL_TIME_ZONE})`;
}

/** The assignments a student has now: their own and their classes' (active enrollments). */
function assignmentsReaching(studentId: string, alias: string): SQL {
  const a = sql.raw(alias);
  return sql`${a}.removed_at is null and ((${a}.assignee_kind = 'student' and ${a}.assignee_id = ${studentId})
    or (${a}.assignee_kind = 'class' and ${a}.assignee_id in (${classIdsOf(sql`select ${studentId}::text`, "student")})))`;
}

function listFilters(query: AssignmentListQuery): SQL {
  const filters: SQL[] = [];
  if (query.classId)
    filters.push(sql`((a.assignee_kind = 'class' and a.assignee_id = ${query.classId})
      or (a.assignee_kind = 'student' and a.assignee_id in (${studentIdsOfClass(query.classId)})))`);
  if (query.studentId)
    filters.push(sql`((a.assignee_kind = 'student' and a.assignee_id = ${query.studentId})
      or (a.assignee_kind = 'class' and a.assignee_id in (${classIdsOf(sql`select ${query.studentId}::text`, "student")})))`);
  return filters.length ? sql.join(filters, sql` and `) : sql`true`;
}

function statusFilter(status: AssignmentListQuery["status"]): SQL {
  switch (status) {
    case "open":
      return sql`r.students > r.completed`;
    case "overdue":
      return sql`r.is_overdue`;
    case "completed":
      return sql`r.students > 0 and r.students = r.completed`;
    default:
      return sql`true`;
  }
}

/**
 * The assignments a member of staff sees, overdue first, then by due date, with each one's
 * progress: how many of the assignee's students (those the caller reaches) are at each step.
 */
export async function listAssignments(
  db: Database,
  actor: Actor,
  query: AssignmentListQuery,
  now: Date,
): Promise<AssignmentList> {
  assertMayAssign(actor);
  const reachFilter = isAdministrator(actor) ? sql`true` : sql`m.student_id in (${reachOf(actor)})`;
  const rows = await queryJsonRows<Assignment & { total: number }>(
    db,
    sql`with visible as (
        select a.*, ${isAdministrator(actor) ? sql`true` : assigneeInReach(actor, sql`a.assignee_kind`, sql`a.assignee_id`)} as can_change,
          ${assigneeTimeZone(sql`a.assignee_kind`, sql`a.assignee_id`)} as time_zone
        from learning_assignments a
        where a.removed_at is null and ${assignmentVisibleTo(actor, "a")} and ${listFilters(query)}
      ),
      members as (
        select v.id, m.student_id from visible v cross join lateral (${assigneeStudents("v")}) m where ${reachFilter}
      ),
      target_lessons as (
        select v.id, tl.lesson_id from visible v cross join lateral (${targetLessons("v")}) tl
      ),
      states as (${lessonStates(sql`select student_id from members`)}),
      per_student as (
        select m.id, count(tl.lesson_id) as lessons,
          count(tl.lesson_id) filter (where s.completed) as completed,
          count(tl.lesson_id) filter (where s.mastered) as mastered,
          count(tl.lesson_id) filter (where s.started) as started
        from members m left join target_lessons tl on tl.id = m.id
          left join states s on s.student_id = m.student_id and s.lesson_id = tl.lesson_id
        group by m.id, m.student_id
      ),
      counts as (
        select p.id, count(*)::int as students,
          count(*) filter (where p.status = 'not_started')::int as not_started,
          count(*) filter (where p.status = 'in_progress')::int as in_progress,
          count(*) filter (where p.status in ('completed', 'mastered'))::int as completed,
          count(*) filter (where p.status = 'mastered')::int as mastered
        from (select id, ${statusOfCounts(sql`lessons`, sql`completed`, sql`mastered`, sql`started`)} as status
          from per_student) p
        group by p.id
      ),
      r as (
        select v.*, coalesce(c.students, 0) as students, coalesce(c.not_started, 0) as not_started,
          coalesce(c.in_progress, 0) as in_progress, coalesce(c.completed, 0) as completed,
          coalesce(c.mastered, 0) as mastered,
          (v.due_date is not null and v.due_date < ${todayIn(now, sql`v.time_zone`)}
            and coalesce(c.students, 0) > coalesce(c.completed, 0)) as is_overdue
        from visible v left join counts c on c.id = v.id
      )
      select r.id, r.target_kind as "targetKind", r.target_id as "targetId",
        coalesce(tc.title, co.title, r.target_id) as "targetTitle",
        co.sourced_id as "courseId", co.title as "courseTitle", tu.title as "unitTitle",
        (select count(*)::int from target_lessons tl where tl.id = r.id) as "lessonCount",
        r.assignee_kind as "assigneeKind", r.assignee_id as "assigneeId",
        coalesce(case when r.assignee_kind = 'student' then ${nameOf(sql`r.assignee_id`)}
          else (select k.title from classes k where k.sourced_id = r.assignee_id) end, r.assignee_id) as "assigneeName",
        to_char(r.due_date, 'YYYY-MM-DD') as "dueDate", r.note, ${isoInstant(sql`r.assigned_at`)} as "assignedAt",
        ${nameOf(sql`r.assigned_by`)} as "assignedBy", r.is_overdue as "isOverdue",
        json_build_object('students', r.students, 'notStarted', r.not_started, 'inProgress', r.in_progress,
          'completed', r.completed, 'mastered', r.mastered) as progress,
        r.can_change as "canChange", count(*) over ()::int as total
      from r
        left join course_components tc on r.target_kind = 'lesson' and tc.sourced_id = r.target_id
        left join course_components tu on tu.sourced_id = tc.parent_component_sourced_id
        left join courses co on co.sourced_id = case when r.target_kind = 'course' then r.target_id else tc.course_sourced_id end
      where ${statusFilter(query.status)}
      order by r.is_overdue desc, r.due_date nulls last, r.assigned_at desc, r.id
      limit ${query.limit} offset ${query.offset}`,
  );
  const total = rows[0]?.total ?? (query.offset > 0 ? await countAssignments(db, actor, query, now) : 0);
  return {
    assignments: rows.map(({ total: _total, ...assignment }) => assignment),
    total,
    offset: query.offset,
    limit: query.limit,
  };
}

/** The total of a list whose page came back empty (a page past the end). */
async function countAssignments(db: Database, actor: Actor, query: AssignmentListQuery, now: Date) {
  const first = await listAssignments(db, actor, { ...query, offset: 0, limit: 1 }, now);
  return first.total;
}

/** The target (if the caller may assign it) and each assignee (whether the caller reaches them, and their today). */
async function checkAssignment(tx: Database, actor: Actor, input: AssignmentInput, now: Date) {
  const course = sql`c.status = 'active' and ${courseAssignableBy(actor, sql`c.sourced_id`)}`;
  const target =
    input.targetKind === "course"
      ? sql`exists (select 1 from courses c where c.sourced_id = ${input.targetId} and ${course})`
      : sql`exists (select 1 from (${syllabusLessons(sql`l.sourced_id = ${input.targetId}`)}) sl
          join courses c on c.sourced_id = sl.course_id where ${course})`;
  const classes = isAdministrator(actor)
    ? sql`select k.sourced_id from classes k where k.status = 'active'`
    : sql`select k.sourced_id from classes k where k.status = 'active' and k.sourced_id in (${classIdsInGuideReach(actor)})`;
  const kinds = sql.param(input.assignees.map((assignee) => assignee.kind));
  const ids = sql.param(input.assignees.map((assignee) => assignee.id));
  const [row] = await queryRows<{
    targetFound: boolean;
    assignees: (Assignee & { allowed: boolean; today: string })[];
  }>(
    tx,
    sql`select ${target} as "targetFound",
      (select json_agg(json_build_object('kind', x.kind, 'id', x.id,
          'allowed', (x.kind = 'student' and ${isStudent(sql`x.id`)} and x.id in (${reachOf(actor)}))
            or (x.kind = 'class' and x.id in (${classes})),
          'today', to_char(${todayIn(now, assigneeTimeZone(sql`x.kind`, sql`x.id`))}, 'YYYY-MM-DD')) order by x.ord)
        from unnest(${kinds}::text[], ${ids}::text[]) with ordinality as x(kind, id, ord)) as assignees`,
  );
  if (!row?.targetFound)
    throw new AppError(
      "not_found",
      message(
        input.targetKind === "course"
          ? "content:lessons.assignments.courseNotFound"
          : "content:lessons.assignments.lessonNotFound",
        { id: input.targetId },
      ),
    );
  const outside = row.assignees.filter((assignee) => !assignee.allowed);
  if (outside.length > 0)
    throw new AppError(
      "not_found",
      message("content:lessons.assignments.assigneesNotFound", {
        count: outside.length,
        ids: outside.map((assignee) => assignee.id).join(", "),
      }),
    );
  return row.assignees;
}

/** Refuses a due date before the assignee's today (each assignee's, in their timezone). */
function assertDueDateAhead(dueDate: string | null | undefined, todays: string[]) {
  if (dueDate && todays.some((today) => dueDate < today))
    throw invalidFields([{ path: "dueDate", message: message("content:lessons.assignments.duePassed") }]);
}

/**
 * Assigns a lesson or course to each assignee, in one transaction: the target and every assignee
 * are checked first (404 for the whole request, naming what was not found); an assignee that
 * already has it keeps its assignment with the new due date and note.
 */
export async function createAssignments(db: Database, actor: Actor, input: AssignmentInput, now: Date) {
  assertMayAssign(actor);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const assignees = await checkAssignment(tx, actor, input, now);
    assertDueDateAhead(
      input.dueDate,
      assignees.map((assignee) => assignee.today),
    );
    const kinds = sql.param(input.assignees.map((assignee) => assignee.kind));
    const ids = sql.param(input.assignees.map((assignee) => assignee.id));
    const saved = await queryRows<{
      id: string;
      assigneeKind: Assignee["kind"];
      assigneeId: string;
      isNew: boolean;
    }>(
      tx,
      sql`insert into learning_assignments (target_kind, target_id, assignee_kind, assignee_id, due_date, note,
          assigned_by, assigned_at)
        select ${input.targetKind}, ${input.targetId}, x.kind, x.id, ${input.dueDate}::date, ${input.note}::text,
          ${actor.realUser.sourcedId}, ${now.toISOString()}::timestamptz
        from unnest(${kinds}::text[], ${ids}::text[]) as x(kind, id)
        on conflict (target_kind, target_id, assignee_kind, assignee_id) where removed_at is null
        do update set due_date = excluded.due_date, note = excluded.note
        returning id::text as id, assignee_kind as "assigneeKind", assignee_id as "assigneeId", (xmax = 0) as "isNew"`,
    );
    const byAssignee = new Map(saved.map((row) => [`${row.assigneeKind}:${row.assigneeId}`, row]));
    return {
      assignments: input.assignees.flatMap(
        (assignee) => byAssignee.get(`${assignee.kind}:${assignee.id}`) ?? [],
      ),
    };
  });
}

/** An active assignment the caller may change, locked for the change, with the assignee's today. */
async function assignmentToChange(tx: Database, actor: Actor, assignmentId: string, now: Date) {
  assertMayAssign(actor);
  const [row] = await queryRows<{ visible: boolean; canChange: boolean; today: string }>(
    tx,
    sql`select ${assignmentVisibleTo(actor, "a")} as visible,
        ${assigneeInReach(actor, sql`a.assignee_kind`, sql`a.assignee_id`)} as "canChange",
        to_char(${todayIn(now, assigneeTimeZone(sql`a.assignee_kind`, sql`a.assignee_id`))}, 'YYYY-MM-DD') as today
      from learning_assignments a
      where ${uuidEquals(sql`a.id`, assignmentId)} and a.removed_at is null
      for update of a`,
  );
  if (!row?.visible) throw new AppError("not_found", message("content:lessons.assignments.notFound"));
  if (!row.canChange)
    throw new AppError("forbidden", message("content:lessons.assignments.notYoursToChange"));
  return row;
}

/** Changes an assignment's due date or note. */
export async function updateAssignment(
  db: Database,
  actor: Actor,
  assignmentId: string,
  changes: AssignmentChanges,
  now: Date,
) {
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const { today } = await assignmentToChange(tx, actor, assignmentId, now);
    assertDueDateAhead(changes.dueDate, [today]);
    await tx.execute(sql`update learning_assignments set
        due_date = ${changes.dueDate === undefined ? sql`due_date` : sql`${changes.dueDate}::date`},
        note = ${changes.note === undefined ? sql`note` : sql`${changes.note}::text`}
      where id = ${assignmentId}::uuid`);
  });
}

/** Takes an assignment back; the row stays with who removed it and when. */
export async function removeAssignment(db: Database, actor: Actor, assignmentId: string, now: Date) {
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    await assignmentToChange(tx, actor, assignmentId, now);
    await tx.execute(sql`update learning_assignments
      set removed_by = ${actor.realUser.sourcedId}, removed_at = ${now.toISOString()}::timestamptz
      where id = ${assignmentId}::uuid`);
  });
}

/**
 * A student's assignments (their own and their classes'), each target once (the earliest due
 * date wins), with every lesson's status: what is not done first, the next due first. The caller
 * has checked that they may see the student.
 */
export async function assignmentsOfStudent(
  db: Database,
  studentId: string,
  now: Date,
): Promise<{ today: string; assignments: StudentAssignment[] }> {
  const [[day], assignments] = await Promise.all([
    queryRows<{ today: string }>(
      db,
      sql`select to_char(${todayIn(now, assigneeTimeZone(sql`'student'`, sql`${studentId}::text`))}, 'YYYY-MM-DD') as today`,
    ),
    queryJsonRows<StudentAssignment>(
      db,
      sql`with mine as (
          select distinct on (a.target_kind, a.target_id) a.*,
            (select k.title from classes k where a.assignee_kind = 'class' and k.sourced_id = a.assignee_id) as class_name
          from learning_assignments a where ${assignmentsReaching(studentId, "a")}
          order by a.target_kind, a.target_id, a.due_date nulls last, a.assigned_at
        ),
        states as (${lessonStates(sql`select ${studentId}::text`)}),
        per as (
          select m.id,
            coalesce(json_agg(json_build_object('id', tl.lesson_id, 'title', tl.lesson_title, 'unitTitle', tl.unit_title,
                'status', ${lessonStatus("s")}) order by ${syllabusOrder("tl")}) filter (where tl.lesson_id is not null),
              '[]'::json) as lessons,
            (array_agg(tl.lesson_id order by ${syllabusOrder("tl")})
              filter (where tl.lesson_id is not null and not coalesce(s.completed, false)))[1] as next_lesson_id,
            ${statusOfCounts(
              sql`count(tl.lesson_id)`,
              sql`count(tl.lesson_id) filter (where s.completed)`,
              sql`count(tl.lesson_id) filter (where s.mastered)`,
              sql`count(tl.lesson_id) filter (where s.started)`,
            )} as status
          from mine m left join lateral (${targetLessons("m")}) tl on true
            left join states s on s.lesson_id = tl.lesson_id
          group by m.id
        )
        select m.id, m.target_kind as "targetKind", m.target_id as "targetId",
          coalesce(tc.title, co.title, m.target_id) as title, co.sourced_id as "courseId", co.title as "courseTitle",
          to_char(m.due_date, 'YYYY-MM-DD') as "dueDate", m.note, ${isoInstant(sql`m.assigned_at`)} as "assignedAt",
          ${nameOf(sql`m.assigned_by`)} as "assignedBy", m.class_name as "className", p.status,
          (m.due_date is not null and p.status not in ('completed', 'mastered')
            and m.due_date < ${todayIn(now, assigneeTimeZone(sql`'student'`, sql`${studentId}::text`))}) as "isOverdue",
          p.lessons, p.next_lesson_id as "nextLessonId"
        from mine m join per p on p.id = m.id
          left join course_components tc on m.target_kind = 'lesson' and tc.sourced_id = m.target_id
          left join courses co on co.sourced_id = case when m.target_kind = 'course' then m.target_id else tc.course_sourced_id end
        order by p.status in ('completed', 'mastered'), m.due_date nulls last, m.assigned_at desc, m.id`,
    ),
  ]);
  return { today: day?.today ?? "", assignments };
}

/** GET /assignments/mine: the signed-in student's (or the student viewed as) assignments. */
export async function myAssignments(db: Database, actor: Actor, now: Date) {
  if (actor.activeRole !== "student")
    throw new AppError(
      "forbidden",
      message("common:roleForbids", { action: message("content:lessons.assignments.actions.follow") }),
    );
  // Viewing as a student keeps to the viewer's own reach (see rostering/scope.ts).
  if (!(await canSeeStudent(db, actor, actor.user.sourcedId)))
    throw new AppError("not_found", message("content:lessons.assignments.studentNotFound"));
  return assignmentsOfStudent(db, actor.user.sourcedId, now);
}
