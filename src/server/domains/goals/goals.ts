import { sql } from "drizzle-orm";
import { z } from "zod";
import {
  type ClassGoals,
  type GoalChanges,
  type GoalInput,
  goalTargetSchema,
  type StudentGoals,
} from "../../../shared/contracts/goals";
import { localDateOf, SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { type Database, queryJsonRows, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { invalidFields, validationError } from "../../lib/validation";
import { homeSummariesOf } from "../activity/home-summaries";
import { classIdsInReach, studentIdsInReach, studentIdsOfClass, studentVisibleTo } from "../rostering/scope";
import { editableBy, goalJoins, goalJson, goalOf, progressOfStudents, type StoredGoal } from "./progress";

const STAFF = new Set(["teacher", "administrator"]);

/** Whether the caller may see a class's goals: administrators any class, others theirs (a Guide's, a student's own). */
function classVisibleTo(actor: Actor, classId: string) {
  if (actor.activeRole === "administrator")
    return sql`exists (select 1 from classes where sourced_id = ${classId})`;
  const reach = classIdsInReach(actor);
  return reach ? sql`${classId} in (${reach})` : sql`false`;
}

/** Who may add goals: staff for students and classes they reach, a student for themself. */
function mayAddFor(actor: Actor, target: { studentId?: string; classId?: string }): boolean {
  if (STAFF.has(actor.activeRole ?? "")) return true;
  return actor.activeRole === "student" && target.studentId === actor.user.sourcedId;
}

/** One student's goals: the caller's own for a student (without `studentId`), else a student they may see. */
export async function studentGoals(
  db: Database,
  actor: Actor,
  requested: string | undefined,
  now: Date,
): Promise<StudentGoals> {
  const studentId = requested ?? (actor.activeRole === "student" ? actor.user.sourcedId : undefined);
  if (!studentId) throw new AppError("bad_request", message("goals:chooseStudent"));
  const visible = studentVisibleTo(actor, studentId);
  if (!visible)
    throw new AppError("forbidden", message("common:roleForbids", { action: message("goals:actions.see") }));
  const [allowed] = await queryRows<{ allowed: boolean }>(db, sql`select ${visible} as allowed`);
  if (!allowed?.allowed) throw new AppError("not_found", message("goals:studentNotFound"));
  const student = sql`select ${studentId}::text`;
  const [[progress], [summary]] = await Promise.all([
    progressOfStudents(db, actor, student, now),
    homeSummariesOf(db, student, now),
  ]);
  if (!progress || !summary) throw new AppError("not_found", message("goals:studentNotFound"));
  return {
    student: { id: progress.id, name: progress.name, grades: progress.grades, timezone: progress.timezone },
    today: progress.today,
    streak: summary.streak,
    daily: summary.subjects,
    weekly: progress.weekly,
    targets: progress.targets,
    canAdd: mayAddFor(actor, { studentId }),
  };
}

/** A class as its Guide runs it: each student's day, week, streak and goals, and the class's own goals. */
export async function classGoals(
  db: Database,
  actor: Actor,
  classId: string,
  now: Date,
): Promise<ClassGoals> {
  if (!STAFF.has(actor.activeRole ?? ""))
    throw new AppError(
      "forbidden",
      message("common:roleForbids", { action: message("goals:actions.runClass") }),
    );
  // Read side by side; a class the caller may not see has no members to read.
  const visible = classVisibleTo(actor, classId);
  const members = sql`select m.user_sourced_id from (${studentIdsOfClass(classId)}) m where ${visible}`;
  const [[found], progress, summaries] = await Promise.all([
    queryJsonRows<{ allowed: boolean; class: ClassGoals["class"]; goals: StoredGoal[] }>(
      db,
      sql`select ${visible} as allowed,
          json_build_object('id', k.sourced_id, 'title', k.title, 'schoolId', k.school_sourced_id, 'schoolName', o.name) as class,
          (select coalesce(json_agg(${goalJson(actor)} order by g.kind = 'weekly_xp' desc, g.deadline, g.created_at), '[]'::json)
            from goals g ${goalJoins} where g.class_sourced_id = k.sourced_id) as goals
        from classes k left join orgs o on o.sourced_id = k.school_sourced_id
        where k.sourced_id = ${classId}`,
    ),
    progressOfStudents(db, actor, members, now),
    homeSummariesOf(db, members, now),
  ]);
  if (!found) throw new AppError("not_found", message("goals:classNotFound"));
  if (!found.allowed) throw new AppError("forbidden", message("goals:notYourClass"));
  const summaryOf = new Map(summaries.map((summary) => [summary.sourcedId, summary]));
  return {
    class: found.class,
    goals: found.goals.map(goalOf),
    students: progress.map((student) => {
      const summary = summaryOf.get(student.id);
      const count = (status: string) =>
        student.targets.filter((goal) => goal.forecast.status === status).length;
      return {
        id: student.id,
        name: student.name,
        grades: student.grades,
        xpToday: summary?.xpToday ?? 0,
        dailyGoal: (summary?.subjects ?? []).reduce((total, subject) => total + subject.goal, 0),
        xpThisWeek: student.weekly.value,
        weeklyGoal: student.weekly.target,
        streak: summary?.streak ?? 0,
        lastActivityAt: summary?.lastActivityAt ?? null,
        goalsOnTrack: count("on_track"),
        goalsBehind: count("behind") + count("no_pace") + count("missed"),
        goalsReached: count("reached"),
      };
    }),
    canAdd: true,
  };
}

/** The owner a new goal is for, checked against the caller's reach, with the day it starts on there. */
async function ownerOf(db: Database, actor: Actor, input: GoalInput, now: Date) {
  if (!mayAddFor(actor, input))
    throw new AppError(
      "forbidden",
      message(actor.activeRole === "student" ? "goals:onlyYourOwn" : "common:roleForbids", {
        action: message("goals:actions.set"),
      }),
    );
  const visible = input.studentId
    ? (studentVisibleTo(actor, input.studentId) ?? sql`false`)
    : classVisibleTo(actor, input.classId as string);
  const [row] = await queryRows<{
    allowed: boolean;
    timezone: string | null;
    course_subject: string | null;
    course_found: boolean;
  }>(
    db,
    sql`select ${visible} as allowed,
        (select u.timezone from users u where u.sourced_id = ${input.studentId ?? null}::text) as timezone,
        (select co.subjects[1] from courses co where co.sourced_id = ${input.courseId ?? null}::text) as course_subject,
        exists (select 1 from courses co where co.sourced_id = ${input.courseId ?? null}::text) as course_found`,
  );
  if (!row?.allowed)
    throw new AppError(
      "not_found",
      message(input.studentId ? "goals:studentNotFound" : "goals:classNotFound"),
    );
  if (input.kind === "course" && !row.course_found)
    throw invalidFields([{ path: "courseId", message: message("goals:courseNotFound") }]);
  return { today: localDateOf(now, row.timezone ?? SCHOOL_TIME_ZONE), courseSubject: row.course_subject };
}

function assertDeadlineAhead(deadline: string | undefined, today: string) {
  if (deadline && deadline < today)
    throw invalidFields([{ path: "deadline", message: message("goals:deadlinePassed") }]);
}

/** Sets a goal; a weekly goal replaces the one the student or class had. Answers the goal's id. */
export async function createGoal(
  db: Database,
  actor: Actor,
  input: GoalInput,
  now: Date,
): Promise<{ id: string }> {
  const { today, courseSubject } = await ownerOf(db, actor, input, now);
  assertDeadlineAhead(input.deadline, today);
  const values = sql`${input.kind}, ${input.studentId ?? null}::text, ${input.classId ?? null}::text,
    ${input.subject ?? courseSubject ?? null}::text, ${input.courseId ?? null}::text, ${input.target},
    ${input.kind === "rit" ? (input.baseline ?? null) : null}::int, ${today}::date, ${input.deadline ?? null}::date,
    ${actor.realUser.sourcedId}, ${actor.activeRole}`;
  const owner = input.studentId ? sql`student_sourced_id` : sql`class_sourced_id`;
  const [row] = await queryRows<{ id: string }>(
    db,
    input.kind === "weekly_xp"
      ? sql`insert into goals (kind, student_sourced_id, class_sourced_id, subject, course_sourced_id, target,
            baseline, starts_on, deadline, set_by_sourced_id, set_by_role)
          values (${values})
          on conflict (${owner}) where kind = 'weekly_xp' and ${owner} is not null do update set
            target = excluded.target, subject = excluded.subject, set_by_sourced_id = excluded.set_by_sourced_id,
            set_by_role = excluded.set_by_role, updated_at = now()
          returning id`
      : sql`insert into goals (kind, student_sourced_id, class_sourced_id, subject, course_sourced_id, target,
            baseline, starts_on, deadline, set_by_sourced_id, set_by_role)
          values (${values}) returning id`,
  );
  return { id: row?.id as string };
}

/** A goal the caller may see, with whether they may change it. */
async function goalToChange(db: Database, actor: Actor, goalId: string) {
  const students = studentIdsInReach(actor);
  const classes = classIdsInReach(actor);
  const visible =
    actor.activeRole === "administrator"
      ? sql`true`
      : sql`(${students ? sql`g.student_sourced_id in (${students})` : sql`false`}
          or ${classes ? sql`g.class_sourced_id in (${classes})` : sql`false`})`;
  const [goal] = await queryRows<{
    kind: GoalInput["kind"];
    timezone: string | null;
    visible: boolean;
    editable: boolean;
  }>(
    db,
    sql`select g.kind, u.timezone, ${visible} as visible, ${editableBy(actor)} as editable
      from goals g left join users u on u.sourced_id = g.student_sourced_id
      where g.id::text = ${goalId}`,
  );
  if (!goal?.visible) throw new AppError("not_found", message("goals:goalNotFound"));
  if (!goal.editable) throw new AppError("forbidden", message("goals:notYoursToChange"));
  return goal;
}

/** Changes a goal's target, deadline or subject, within its kind's bounds; it stays the goal of whoever set it. */
export async function updateGoal(
  db: Database,
  actor: Actor,
  goalId: string,
  changes: GoalChanges,
  now: Date,
) {
  const goal = await goalToChange(db, actor, goalId);
  if (changes.target !== undefined) {
    const target = z.object({ target: goalTargetSchema(goal.kind) }).safeParse({ target: changes.target });
    if (!target.success) throw validationError(target.error);
  }
  if (changes.deadline !== undefined) {
    if (goal.kind === "weekly_xp")
      throw invalidFields([{ path: "deadline", message: message("validation:weeklyGoalNoDeadline") }]);
    assertDeadlineAhead(changes.deadline, localDateOf(now, goal.timezone ?? SCHOOL_TIME_ZONE));
  }
  if (changes.subject === null && goal.kind === "rit")
    throw invalidFields([{ path: "subject", message: message("validation:chooseSubject") }]);
  await db.execute(sql`update goals set
      target = coalesce(${changes.target ?? null}::int, target),
      deadline = coalesce(${changes.deadline ?? null}::date, deadline),
      subject = ${changes.subject === undefined ? sql`subject` : sql`${changes.subject}::text`},
      updated_at = now()
    where id::text = ${goalId}`);
}

export async function deleteGoal(db: Database, actor: Actor, goalId: string) {
  await goalToChange(db, actor, goalId);
  await db.execute(sql`delete from goals where id::text = ${goalId}`);
}
