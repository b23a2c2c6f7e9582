import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CourseProgress } from "../../../shared/contracts/content";
import { createTestApp, type TestApp } from "../../test/harness";
import {
  AVA,
  addAttempt,
  addLesson,
  MAPLE_MATH,
  OKORO_MATH,
  PATEL_MATH,
  RIVERSIDE_MATH,
  studentsOfClass,
  unitOf,
} from "./assignments-fixtures";

let t: TestApp;
const cookies: Record<string, string> = {};
const lessons = { first: "", second: "", third: "" };
let patelStudents: string[] = [];
let mathStudents = 0;
const lastWeek = new Date(Date.now() - 7 * 86_400_000);
const yesterday = new Date(Date.now() - 86_400_000);

beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent", "proctor"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
  // Unit 1 holds the first two lessons (the second sorted after the first), unit 2 the third.
  lessons.second = await addLesson(t.db, MAPLE_MATH, unitOf("maple-grove", "Math", 0), "Counting on", 2);
  lessons.first = await addLesson(t.db, MAPLE_MATH, unitOf("maple-grove", "Math", 0), "Counting", 1);
  lessons.third = await addLesson(t.db, MAPLE_MATH, unitOf("maple-grove", "Math", 1), "Adding", null);
  patelStudents = await studentsOfClass(t.db, PATEL_MATH);
  const [first] = patelStudents.filter((id) => id !== AVA) as [string];
  // Ava: the first mastered (and tried again), the second completed, the third open. A classmate: the first open.
  await addAttempt(t.db, { lessonId: lessons.first, studentId: AVA, finishedAt: lastWeek, mastered: true });
  await addAttempt(t.db, { lessonId: lessons.first, studentId: AVA, number: 2, finishedAt: lastWeek });
  await addAttempt(t.db, { lessonId: lessons.second, studentId: AVA, finishedAt: yesterday });
  await addAttempt(t.db, { lessonId: lessons.third, studentId: AVA, startedAt: yesterday });
  await addAttempt(t.db, { lessonId: lessons.first, studentId: first, startedAt: lastWeek });
  for (const classId of [PATEL_MATH, OKORO_MATH])
    mathStudents += (await studentsOfClass(t.db, classId)).length;
});
afterAll(() => t.close());

async function report(who: string, query: string) {
  const response = await t.request(`/api/content/progress?${query}`, { cookie: cookies[who] });
  return { status: response.status, body: (await response.json()) as CourseProgress & { message?: string } };
}

describe("a course's progress", () => {
  it("counts each student's lessons from their attempts, per student, class and unit", async () => {
    const { status, body } = await report("admin", `courseId=${MAPLE_MATH}`);
    expect(status).toBe(200);
    expect(body.course.id).toBe(MAPLE_MATH);
    expect(body.lessonCount).toBe(3);
    const ava = body.students.find((student) => student.id === AVA);
    expect(ava).toEqual({
      id: AVA,
      name: "Ava Johnson",
      classIds: [PATEL_MATH],
      counts: {
        lessons: 3,
        completed: 2,
        mastered: 1,
        inProgress: 1,
        notStarted: 0,
        percentComplete: 66,
        percentMastered: 33,
      },
      lastActivityAt: yesterday.toISOString(),
    });
    // Every Math class of the school, each with its students' lessons summed.
    expect(body.classes.length).toBeGreaterThanOrEqual(4);
    const patel = body.classes.find((entry) => entry.id === PATEL_MATH);
    expect(patel).toMatchObject({
      title: "Math · Patel group",
      students: patelStudents.length,
      counts: { lessons: 3 * patelStudents.length, completed: 2, mastered: 1, inProgress: 2 },
    });
    expect(body.students.length).toBeGreaterThanOrEqual(mathStudents);
    expect(body.totals.lessons).toBe(3 * body.students.length);
    // Units in syllabus order; only units with lessons.
    expect(body.units.map((unit) => [unit.id, unit.counts.lessons / body.students.length])).toEqual([
      [unitOf("maple-grove", "Math", 0), 2],
      [unitOf("maple-grove", "Math", 1), 1],
    ]);
    expect(body.units[0]?.counts).toMatchObject({ completed: 2, mastered: 1, inProgress: 1 });
  });

  it("narrows students, totals and units to one class, keeping every class's figures", async () => {
    const { body } = await report("admin", `courseId=${MAPLE_MATH}&classId=${PATEL_MATH}`);
    expect(body.students.map((student) => student.id).sort()).toEqual([...patelStudents].sort());
    expect(body.totals).toMatchObject({ lessons: 3 * patelStudents.length, completed: 2, inProgress: 2 });
    expect(body.classes.length).toBeGreaterThanOrEqual(4);
  });

  it("shows a Guide only the classes they teach", async () => {
    const { status, body } = await report("guide", `courseId=${MAPLE_MATH}`);
    expect(status).toBe(200);
    expect(body.classes.map((entry) => entry.id)).toEqual([PATEL_MATH]);
    expect(body.students.map((student) => student.id).sort()).toEqual([...patelStudents].sort());
    expect((await report("guide", `courseId=${MAPLE_MATH}&classId=${OKORO_MATH}`)).status).toBe(404);
    expect((await report("guide", `courseId=${RIVERSIDE_MATH}`)).status).toBe(404);
  });

  it("refuses other roles, unknown courses and a missing course", async () => {
    expect((await report("student", `courseId=${MAPLE_MATH}`)).status).toBe(403);
    expect((await report("parent", `courseId=${MAPLE_MATH}`)).status).toBe(403);
    expect((await report("proctor", `courseId=${MAPLE_MATH}`)).status).toBe(403);
    expect((await report("admin", "courseId=no-such-course")).status).toBe(404);
    expect((await report("admin", `courseId=${MAPLE_MATH}&classId=no-such-class`)).status).toBe(404);
    const missing = await report("admin", "");
    expect(missing.status).toBe(400);
  });

  it("downloads the same rows as a spreadsheet, in the reader's language", async () => {
    const json = (await report("admin", `courseId=${MAPLE_MATH}&classId=${PATEL_MATH}`)).body;
    const response = await t.request(
      `/api/content/progress.csv?courseId=${MAPLE_MATH}&classId=${PATEL_MATH}`,
      {
        cookie: cookies.admin,
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    expect(response.headers.get("content-disposition")).toContain("course-progress.csv");
    const rows = parse(await response.text()) as string[][];
    expect(rows[0]).toEqual([
      "Student id",
      "Student",
      "Classes",
      "Lessons",
      "Completed",
      "Mastered",
      "In progress",
      "Not started",
      "Percent complete",
      "Percent mastered",
      "Last activity (UTC)",
    ]);
    expect(rows.slice(1).map((row) => row[0])).toEqual(json.students.map((student) => student.id));
    expect(rows.find((row) => row[0] === AVA)).toEqual([
      AVA,
      "Ava Johnson",
      "Math · Patel group",
      "3",
      "2",
      "1",
      "1",
      "0",
      "66",
      "33",
      yesterday.toISOString(),
    ]);
    const spanish = await t.request(`/api/content/progress.csv?courseId=${MAPLE_MATH}`, {
      cookie: cookies.admin,
      headers: { "accept-language": "es" },
    });
    expect((await spanish.text()).split("\r\n")[0]).toContain("Estudiante");
    const refused = await t.request(`/api/content/progress.csv?courseId=${MAPLE_MATH}`, {
      cookie: cookies.student,
    });
    expect(refused.status).toBe(403);
  });
});
