import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Assignment, AssignmentList, MyAssignments } from "../../../shared/contracts/content";
import { addDays, localDateOf } from "../../../shared/time-zone";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import {
  AVA,
  addAttempt,
  addLesson,
  MAPLE_MATH,
  MAPLE_SCIENCE,
  OKORO_MATH,
  OKORO_SCIENCE,
  PATEL_MATH,
  RIVERSIDE_MATH,
  studentsOfClass,
  unitOf,
} from "./assignments-fixtures";

let t: TestApp;
const cookies: Record<string, string> = {};
/** Two lessons of Maple Grove's Math (units 1 and 2) and one of Riverside's. */
const lessons = { fractions: "", decimals: "", riverside: "" };
let classmates: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
  lessons.fractions = await addLesson(t.db, MAPLE_MATH, unitOf("maple-grove", "Math", 0), "Fractions", 1);
  lessons.decimals = await addLesson(t.db, MAPLE_MATH, unitOf("maple-grove", "Math", 1), "Decimals", 1);
  lessons.riverside = await addLesson(t.db, RIVERSIDE_MATH, unitOf("riverside", "Math", 0), "Ratios", 1);
  classmates = (await studentsOfClass(t.db, PATEL_MATH)).filter((id) => id !== AVA);
});
afterAll(() => t.close());

async function call(who: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await t.request(`/api/content${path}`, { ...init, cookie: cookies[who] });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const today = () => localDateOf(t.clock.now(), "America/New_York");

async function activeRows(targetId: string) {
  return queryRows<{ assignee_id: string; due_date: string | null; note: string | null }>(
    t.db,
    sql`select assignee_id, to_char(due_date, 'YYYY-MM-DD') as due_date, note from learning_assignments
      where target_id = ${targetId} and removed_at is null order by assignee_id`,
  );
}

const listOf = async (who: string, query = "") =>
  (await call(who, `/assignments${query}`)).body as AssignmentList;

describe("assigning", () => {
  let classAssignment = "";
  let avaAssignment = "";

  it("gives a lesson to a class and a student in one go, and updates rather than duplicates", async () => {
    const due = addDays(today(), 7);
    const created = await call("guide", "/assignments", {
      method: "POST",
      json: {
        targetKind: "lesson",
        targetId: lessons.fractions,
        assignees: [
          { kind: "class", id: PATEL_MATH },
          { kind: "student", id: AVA },
          { kind: "student", id: AVA },
        ],
        dueDate: due,
        note: "  Start with the pictures.  ",
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.assignments).toMatchObject([
      { assigneeKind: "class", assigneeId: PATEL_MATH, isNew: true },
      { assigneeKind: "student", assigneeId: AVA, isNew: true },
    ]);
    classAssignment = created.body.assignments[0].id;
    avaAssignment = created.body.assignments[1].id;

    const again = await call("guide", "/assignments", {
      method: "POST",
      json: {
        targetKind: "lesson",
        targetId: lessons.fractions,
        assignees: [{ kind: "student", id: AVA }],
        dueDate: addDays(today(), 10),
      },
    });
    expect(again.status).toBe(201);
    expect(again.body.assignments).toEqual([
      { id: avaAssignment, assigneeKind: "student", assigneeId: AVA, isNew: false },
    ]);
    const rows = await activeRows(lessons.fractions);
    expect(rows).toHaveLength(2);
    expect(rows.find((row) => row.assignee_id === AVA)).toMatchObject({
      due_date: addDays(today(), 10),
      note: null,
    });
    expect(rows.find((row) => row.assignee_id === PATEL_MATH)).toMatchObject({
      due_date: due,
      note: "Start with the pictures.",
    });
  });

  it("lists them with the assignee's students at each step, counted from their attempts", async () => {
    const [first, second] = classmates as [string, string];
    await addAttempt(t.db, {
      lessonId: lessons.fractions,
      studentId: AVA,
      finishedAt: t.clock.now(),
      mastered: true,
    });
    await addAttempt(t.db, { lessonId: lessons.fractions, studentId: first, finishedAt: t.clock.now() });
    await addAttempt(t.db, { lessonId: lessons.fractions, studentId: second });

    const list = await listOf("guide", `?classId=${PATEL_MATH}`);
    const ofClass = list.assignments.find((entry) => entry.id === classAssignment) as Assignment;
    const size = classmates.length + 1;
    expect(ofClass).toMatchObject({
      targetKind: "lesson",
      targetTitle: "Fractions",
      courseId: MAPLE_MATH,
      lessonCount: 1,
      assigneeKind: "class",
      assigneeName: "Math · Patel group",
      dueDate: addDays(today(), 7),
      assignedBy: "Maya Patel",
      isOverdue: false,
      canChange: true,
      progress: { students: size, completed: 2, mastered: 1, inProgress: 1, notStarted: size - 3 },
    });
    const ofAva = list.assignments.find((entry) => entry.id === avaAssignment) as Assignment;
    expect(ofAva).toMatchObject({
      assigneeName: "Ava Johnson",
      progress: { students: 1, completed: 1, mastered: 1, inProgress: 0, notStarted: 0 },
    });
    expect((await listOf("guide", "?status=completed")).assignments.map((entry) => entry.id)).toContain(
      avaAssignment,
    );
    expect((await listOf("guide", "?status=open")).assignments.map((entry) => entry.id)).not.toContain(
      avaAssignment,
    );
  });

  it("shows a student their own and their class's assignments, a course as its every lesson", async () => {
    const course = await call("guide", "/assignments", {
      method: "POST",
      json: { targetKind: "course", targetId: MAPLE_MATH, assignees: [{ kind: "class", id: PATEL_MATH }] },
    });
    expect(course.status).toBe(201);
    const mine = (await call("student", "/assignments/mine")).body as MyAssignments;
    const [{ title: mathTitle }] = (await queryRows<{ title: string }>(
      t.db,
      sql`select title from courses where sourced_id = ${MAPLE_MATH}`,
    )) as [{ title: string }];
    expect(mine.today).toBe(today());
    const fractions = mine.assignments.find((entry) => entry.targetId === lessons.fractions);
    // Given twice (to Ava and to her class): shown once, with the earlier due date.
    expect(mine.assignments.filter((entry) => entry.targetId === lessons.fractions)).toHaveLength(1);
    expect(fractions).toMatchObject({
      title: "Fractions",
      courseTitle: mathTitle,
      dueDate: addDays(today(), 7),
      className: "Math · Patel group",
      status: "mastered",
      isOverdue: false,
      nextLessonId: null,
      lessons: [{ id: lessons.fractions, title: "Fractions", status: "mastered" }],
    });
    const whole = mine.assignments.find((entry) => entry.targetKind === "course");
    expect(whole).toMatchObject({ title: mathTitle, status: "in_progress", nextLessonId: lessons.decimals });
    expect(whole?.lessons.map((lesson) => [lesson.id, lesson.status])).toEqual([
      [lessons.fractions, "mastered"],
      [lessons.decimals, "not_started"],
    ]);
    // Not done comes first.
    expect(mine.assignments.at(-1)?.targetId).toBe(lessons.fractions);
  });

  it("flags what is past its due date and not done, in the student's own day", async () => {
    const [, , third] = classmates as [string, string, string];
    const created = await call("guide", "/assignments", {
      method: "POST",
      json: {
        targetKind: "lesson",
        targetId: lessons.decimals,
        assignees: [
          { kind: "student", id: AVA },
          { kind: "student", id: third },
        ],
        dueDate: today(),
      },
    });
    expect(created.status).toBe(201);
    await t.db.execute(sql`update learning_assignments set due_date = ${addDays(today(), -1)}::date
      where target_id = ${lessons.decimals} and removed_at is null`);
    await addAttempt(t.db, { lessonId: lessons.decimals, studentId: third, finishedAt: t.clock.now() });

    const overdue = await listOf("guide", "?status=overdue");
    const ids = overdue.assignments.map((entry) => entry.assigneeId);
    expect(ids).toContain(AVA);
    expect(ids).not.toContain(third);
    // Overdue ones lead the list.
    expect((await listOf("guide")).assignments[0]?.isOverdue).toBe(true);

    const mine = (await call("student", "/assignments/mine")).body as MyAssignments;
    expect(mine.assignments[0]).toMatchObject({
      targetId: lessons.decimals,
      isOverdue: true,
      status: "not_started",
      nextLessonId: lessons.decimals,
    });
  });

  it("changes a due date or note and takes an assignment back, keeping who did it", async () => {
    const patched = await call("guide", `/assignments/${avaAssignment}`, {
      method: "PATCH",
      json: { dueDate: addDays(today(), 3), note: "Well done" },
    });
    expect(patched.status).toBe(204);
    expect((await activeRows(lessons.fractions)).find((row) => row.assignee_id === AVA)).toMatchObject({
      due_date: addDays(today(), 3),
      note: "Well done",
    });
    expect(
      (await call("guide", `/assignments/${avaAssignment}`, { method: "PATCH", json: { dueDate: null } }))
        .status,
    ).toBe(204);
    expect((await activeRows(lessons.fractions)).find((row) => row.assignee_id === AVA)?.due_date).toBeNull();

    expect((await call("guide", `/assignments/${avaAssignment}`, { method: "DELETE" })).status).toBe(204);
    const [removed] = await queryRows<{ removed_by: string; removed: boolean }>(
      t.db,
      sql`select removed_by, removed_at is not null as removed from learning_assignments where id = ${avaAssignment}::uuid`,
    );
    expect(removed).toEqual({ removed_by: demoId("guide-patel"), removed: true });
    expect((await call("guide", `/assignments/${avaAssignment}`, { method: "DELETE" })).status).toBe(404);
    expect(
      (await call("guide", `/assignments/${avaAssignment}`, { method: "PATCH", json: { note: "x" } })).status,
    ).toBe(404);
    // The class's assignment of the same lesson stays, so Ava still has it, through her class.
    const mine = (await call("student", "/assignments/mine")).body as MyAssignments;
    expect(mine.assignments.find((entry) => entry.targetId === lessons.fractions)?.className).toBe(
      "Math · Patel group",
    );
    // The same lesson may be given again after it was taken back.
    const again = await call("guide", "/assignments", {
      method: "POST",
      json: { targetKind: "lesson", targetId: lessons.fractions, assignees: [{ kind: "student", id: AVA }] },
    });
    expect(again.body.assignments[0]).toMatchObject({ isNew: true });
    expect(again.body.assignments[0].id).not.toBe(avaAssignment);
  });

  it("reaches students who join the class later", async () => {
    // A student of Rachel Hughes's group (students are grouped by their number, four groups).
    const newcomer = demoId("student-maple-grove-2");
    await t.db.execute(sql`insert into enrollments (sourced_id, user_sourced_id, class_sourced_id, school_sourced_id, role)
      values ('test-join-patel-math', ${newcomer}, ${PATEL_MATH}, ${demoId("maple-grove")}, 'student')`);
    const list = await call("guide", `/assignments?classId=${PATEL_MATH}`);
    const ofClass = (list.body as AssignmentList).assignments.find((entry) => entry.id === classAssignment);
    expect(ofClass?.progress.students).toBe(classmates.length + 2);
  });
});

describe("who may assign", () => {
  const assign = (who: string, json: unknown) => call(who, "/assignments", { method: "POST", json });

  it("refuses students and families (403) and people outside the Guide's reach (404, naming them)", async () => {
    const lesson = { targetKind: "lesson", targetId: lessons.fractions };
    expect((await assign("student", { ...lesson, assignees: [{ kind: "student", id: AVA }] })).status).toBe(
      403,
    );
    expect((await assign("parent", { ...lesson, assignees: [{ kind: "student", id: AVA }] })).status).toBe(
      403,
    );
    expect((await call("student", "/assignments")).status).toBe(403);
    expect((await call("parent", "/assignments/mine")).status).toBe(403);
    expect((await call("guide", "/assignments/mine")).status).toBe(403);

    const okoroStudent = (await studentsOfClass(t.db, OKORO_MATH))[0] as string;
    const outside = await assign("guide", {
      ...lesson,
      assignees: [
        { kind: "student", id: AVA },
        { kind: "student", id: okoroStudent },
        { kind: "class", id: OKORO_MATH },
      ],
    });
    expect(outside.status).toBe(404);
    expect(outside.body.message).toContain(okoroStudent);
    expect(outside.body.message).toContain(OKORO_MATH);
    expect(outside.body.message).not.toContain(AVA);
    // Nothing of the request was written.
    const rows = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from learning_assignments where assignee_id = ${okoroStudent} or assignee_id = ${OKORO_MATH}`,
    );
    expect(rows[0]?.n).toBe(0);
  });

  it("refuses targets that do not exist or that the Guide does not teach, and dates that are not ahead", async () => {
    const toAva = { assignees: [{ kind: "student", id: AVA }] };
    const missing = await assign("guide", { ...toAva, targetKind: "lesson", targetId: "no-such-lesson" });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toContain("no-such-lesson");
    expect(
      (await assign("guide", { ...toAva, targetKind: "lesson", targetId: lessons.riverside })).status,
    ).toBe(404);
    expect((await assign("guide", { ...toAva, targetKind: "course", targetId: RIVERSIDE_MATH })).status).toBe(
      404,
    );
    // A unit is not a lesson.
    expect(
      (await assign("guide", { ...toAva, targetKind: "lesson", targetId: unitOf("maple-grove", "Math", 0) }))
        .status,
    ).toBe(404);

    const past = await assign("guide", {
      ...toAva,
      targetKind: "course",
      targetId: MAPLE_SCIENCE,
      dueDate: addDays(today(), -1),
    });
    expect(past.status).toBe(400);
    expect(past.body.issues).toEqual([
      { path: "dueDate", message: "The due date has passed: choose today or a later day." },
    ]);
    const badDate = await assign("guide", {
      ...toAva,
      targetKind: "course",
      targetId: MAPLE_SCIENCE,
      dueDate: "31/12/2030",
    });
    expect(badDate.status).toBe(400);
    expect(badDate.body.issues[0].path).toBe("dueDate");
    expect((await assign("guide", { ...toAva, targetKind: "unit", targetId: MAPLE_SCIENCE })).status).toBe(
      400,
    );
    expect(
      (await assign("guide", { targetKind: "course", targetId: MAPLE_SCIENCE, assignees: [] })).status,
    ).toBe(400);
  });

  it("lets an administrator assign anything to anyone; a Guide sees what reaches their students but changes only their own", async () => {
    const created = await assign("admin", {
      targetKind: "lesson",
      targetId: lessons.riverside,
      assignees: [{ kind: "class", id: OKORO_SCIENCE }],
      dueDate: addDays(today(), 5),
    });
    expect(created.status).toBe(201);
    const id = created.body.assignments[0].id as string;
    expect((await listOf("admin")).assignments.map((entry) => entry.id)).toContain(id);
    // Not one of Maya Patel's students is in that class yet: she does not see it.
    expect((await listOf("guide")).assignments.map((entry) => entry.id)).not.toContain(id);
    expect((await call("guide", `/assignments/${id}`, { method: "DELETE" })).status).toBe(404);

    // One of her students joins it: she sees the assignment, counted over her students only.
    const [mine] = classmates as [string];
    await t.db.execute(sql`insert into enrollments (sourced_id, user_sourced_id, class_sourced_id, school_sourced_id, role)
      values ('test-join-okoro-science', ${mine}, ${OKORO_SCIENCE}, ${demoId("maple-grove")}, 'student')`);
    const seen = (await listOf("guide")).assignments.find((entry) => entry.id === id);
    expect(seen).toMatchObject({ canChange: false, assignedBy: "Alex Morgan", progress: { students: 1 } });
    expect(
      (await call("guide", `/assignments/${id}`, { method: "PATCH", json: { note: "mine now" } })).status,
    ).toBe(403);
    expect((await call("guide", `/assignments/${id}`, { method: "DELETE" })).status).toBe(403);
    expect((await call("admin", `/assignments/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await call("admin", "/assignments/not-a-uuid", { method: "DELETE" })).status).toBe(404);
  });

  it("keeps to the Guide's reach while they view Dash as a student", async () => {
    const cookie = await t.signIn("guide@dash.demo");
    const started = await t.request("/api/auth/impersonation", {
      json: { userId: AVA, reason: "Checking her assignments" },
      cookie,
    });
    expect(started.status).toBe(200);
    const mine = await t.request("/api/content/assignments/mine", { cookie });
    expect(mine.status).toBe(200);
    expect(((await mine.json()) as MyAssignments).assignments.length).toBeGreaterThan(0);
    // As the student, the Guide cannot assign.
    const assigned = await t.request("/api/content/assignments", {
      json: { targetKind: "lesson", targetId: lessons.fractions, assignees: [{ kind: "student", id: AVA }] },
      cookie,
    });
    expect(assigned.status).toBe(403);
  });
});
