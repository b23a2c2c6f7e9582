import { type SQL, sql } from "drizzle-orm";
import type { PlacementTestStatus } from "../../shared/contracts/assessment";
import { addDays, localDateOf, SCHOOL_TIME_ZONE } from "../../shared/time-zone";
import { type Database, queryRows } from "../db/client";
import { DEMO_FIRST_SCHOOL_ID, demoId } from "./demo-accounts";

/**
 * Placements for Maple Grove School: every student placed in Math and Reading (and Ava in
 * Language and Science too) at the start of the year, some moved up or down since with their
 * Guide's reason, and placement test histories in every status. Two subject tracks, Math and
 * Reading from kindergarten to grade 8, on the demo schools' courses.
 */

const ADMIN = demoId("admin");
const MAYA = demoId("guide-patel");
const AVA = demoId("student-ava");
const TRACK_SUBJECTS = ["Math", "Reading"] as const;
const DAY = 86_400_000;
/** The year's first placements, before the demo's two months of learning. */
const FIRST_PLACED_DAYS_AGO = 90;

interface Placement {
  student: string;
  subject: string;
  startingGrade: number;
  currentGrade: number;
  /** The changes after the first placement: [days ago, to grade, reason]. */
  moves: [number, number, string][];
}

interface Test {
  student: string;
  subject: string;
  gradeLevel: number;
  testName: string;
  status: PlacementTestStatus;
  score: number | null;
  daysAgo: number | null;
}

const rosterGrade = (grades: string[]) => {
  const grade = grades[0];
  return !grade || grade === "KG" ? 0 : Number(grade);
};

const testName = (subject: string, grade: number) =>
  `${subject} placement ${grade === 0 ? "K" : `grade ${grade}`}`;

export async function seedDemoPlacements(db: Database, today: Date): Promise<void> {
  const students = await queryRows<{ id: string; grades: string[]; guide: string | null }>(
    db,
    sql`select u.sourced_id as id, u.grades,
        (select t.user_sourced_id from enrollments s join enrollments t on t.class_sourced_id = s.class_sourced_id
          where s.user_sourced_id = u.sourced_id and s.role = 'student' and t.role = 'teacher'
          order by t."primary" desc, t.user_sourced_id limit 1) as guide
      from users u join user_roles r on r.user_sourced_id = u.sourced_id and r.role = 'student'
      where u.primary_org_sourced_id = ${DEMO_FIRST_SCHOOL_ID} and u.sourced_id <> ${demoId("multi")}
      order by u.sourced_id`,
  );
  const placements: Placement[] = [];
  const tests: Test[] = [];
  const guideOf = new Map(students.map((student) => [student.id, student.guide ?? ADMIN]));

  students.forEach((student, index) => {
    if (student.id === AVA) return;
    const grade = rosterGrade(student.grades);
    for (const [offset, subject] of TRACK_SUBJECTS.entries()) {
      const kind = (index + offset) % 6;
      // Most start at their roster grade; some a grade below, some moved up or back since.
      const startingGrade = kind === 5 && grade > 0 ? grade - 1 : grade;
      const currentGrade =
        kind === 0
          ? Math.min(startingGrade + 1, 8)
          : kind === 4 && startingGrade > 0
            ? startingGrade - 1
            : startingGrade;
      const moves: Placement["moves"] = [];
      if (currentGrade > startingGrade)
        moves.push([
          20 + (index % 25),
          currentGrade,
          `Passed the ${testName(subject, startingGrade)} test with a strong score`,
        ]);
      if (currentGrade < startingGrade)
        moves.push([
          15 + (index % 20),
          currentGrade,
          "Needs to secure the foundations of the grade below first",
        ]);
      placements.push({ student: student.id, subject, startingGrade, currentGrade, moves });
      // The tests of the starting grade and the ones above it.
      tests.push({
        student: student.id,
        subject,
        gradeLevel: startingGrade,
        testName: testName(subject, startingGrade),
        status:
          currentGrade > startingGrade ? "PASSED" : kind === 4 ? "FAILED" : kind === 3 ? "SKIP" : "STARTED",
        score: currentGrade > startingGrade ? 86 + (index % 12) : kind === 4 ? 48 + (index % 15) : null,
        daysAgo: currentGrade > startingGrade ? 22 + (index % 25) : kind === 4 ? 17 + (index % 20) : null,
      });
      const nextGrade = Math.max(startingGrade, currentGrade) + 1;
      if (nextGrade <= 8)
        tests.push({
          student: student.id,
          subject,
          gradeLevel: nextGrade,
          testName: testName(subject, nextGrade),
          status: "NOT_STARTED",
          score: null,
          daysAgo: null,
        });
    }
  });

  // Ava: moved up in Math, working at grade 3 in Reading after a failed test, skipped ahead in Language.
  placements.push(
    {
      student: AVA,
      subject: "Math",
      startingGrade: 3,
      currentGrade: 4,
      moves: [[24, 4, "Passed the grade 3 placement test with 92%"]],
    },
    { student: AVA, subject: "Reading", startingGrade: 3, currentGrade: 3, moves: [] },
    {
      student: AVA,
      subject: "Language",
      startingGrade: 2,
      currentGrade: 3,
      moves: [[40, 3, "Her writing samples show grade 3 work"]],
    },
    { student: AVA, subject: "Science", startingGrade: 3, currentGrade: 3, moves: [] },
  );
  tests.push(
    {
      student: AVA,
      subject: "Math",
      gradeLevel: 3,
      testName: testName("Math", 3),
      status: "PASSED",
      score: 92,
      daysAgo: 25,
    },
    {
      student: AVA,
      subject: "Math",
      gradeLevel: 4,
      testName: testName("Math", 4),
      status: "STARTED",
      score: null,
      daysAgo: 3,
    },
    {
      student: AVA,
      subject: "Math",
      gradeLevel: 5,
      testName: testName("Math", 5),
      status: "NOT_STARTED",
      score: null,
      daysAgo: null,
    },
    {
      student: AVA,
      subject: "Reading",
      gradeLevel: 2,
      testName: testName("Reading", 2),
      status: "PASSED",
      score: 88,
      daysAgo: 70,
    },
    {
      student: AVA,
      subject: "Reading",
      gradeLevel: 3,
      testName: testName("Reading", 3),
      status: "FAILED",
      score: 64,
      daysAgo: 12,
    },
    {
      student: AVA,
      subject: "Reading",
      gradeLevel: 4,
      testName: testName("Reading", 4),
      status: "NOT_STARTED",
      score: null,
      daysAgo: null,
    },
    {
      student: AVA,
      subject: "Language",
      gradeLevel: 2,
      testName: testName("Language", 2),
      status: "SKIP",
      score: null,
      daysAgo: null,
    },
    {
      student: AVA,
      subject: "Language",
      gradeLevel: 3,
      testName: testName("Language", 3),
      status: "PASSED",
      score: 95,
      daysAgo: 41,
    },
  );

  const day = localDateOf(today, SCHOOL_TIME_ZONE);
  const placedAt = (daysAgo: number) => new Date(today.getTime() - daysAgo * DAY).toISOString();
  const placementRows: SQL[] = [];
  const changeRows: SQL[] = [];
  for (const placement of placements) {
    const by = placement.student === AVA ? MAYA : (guideOf.get(placement.student) ?? ADMIN);
    const lastMove = placement.moves.at(-1);
    placementRows.push(sql`(${placement.student}::text, ${placement.subject}::text, ${placement.startingGrade}::int,
      ${placement.currentGrade}::int, ${by}::text, ${placedAt(lastMove ? lastMove[0] : FIRST_PLACED_DAYS_AGO)}::timestamptz)`);
    changeRows.push(sql`(${placement.student}::text, ${placement.subject}::text, null::int, ${placement.startingGrade}::int,
      ${"Placed from the fall screening and the start-of-year placement tests"}::text, ${ADMIN}::text,
      ${placedAt(FIRST_PLACED_DAYS_AGO)}::timestamptz)`);
    let from = placement.startingGrade;
    for (const [daysAgo, to, reason] of placement.moves) {
      changeRows.push(sql`(${placement.student}::text, ${placement.subject}::text, ${from}::int, ${to}::int, ${reason}::text,
        ${by}::text, ${placedAt(daysAgo)}::timestamptz)`);
      from = to;
    }
  }
  await db.transaction(async (tx) => {
    for (let start = 0; start < placementRows.length; start += 500)
      await tx.execute(sql`insert into placements (student_sourced_id, subject, starting_grade, current_grade, updated_by, updated_at)
        values ${sql.join(placementRows.slice(start, start + 500), sql`, `)}`);
    for (let start = 0; start < changeRows.length; start += 500)
      await tx.execute(sql`insert into placement_changes (student_sourced_id, subject, from_grade, to_grade, reason, changed_by, changed_at)
        values ${sql.join(changeRows.slice(start, start + 500), sql`, `)}`);
    for (let start = 0; start < tests.length; start += 500) {
      const rows = tests.slice(start, start + 500).map(
        (test) =>
          sql`(${test.student}::text, ${test.subject}::text, ${test.gradeLevel}::int, ${test.testName}::text, ${test.status}::text,
            ${test.score}::numeric, ${test.daysAgo === null ? null : addDays(day, -test.daysAgo)}::date,
            ${guideOf.get(test.student) ?? ADMIN}::text, ${placedAt(test.daysAgo ?? 0)}::timestamptz)`,
      );
      await tx.execute(sql`insert into placement_tests (student_sourced_id, subject, grade_level, test_name, status, score,
          taken_on, recorded_by, recorded_at) values ${sql.join(rows, sql`, `)}`);
    }
    for (const subject of TRACK_SUBJECTS) {
      const trackId = demoId(`track-${subject}`);
      await tx.execute(sql`insert into subject_tracks (id, subject, updated_by, updated_at)
        values (${trackId}::uuid, ${subject}, ${ADMIN}, ${placedAt(100)}::timestamptz)`);
      const steps = Array.from({ length: 9 }, (_, grade) => {
        const school = grade <= 4 ? "maple-grove" : "riverside";
        const title = grade === 0 ? `Kindergarten ${subject}` : `${subject} ${grade}`;
        return sql`(${trackId}::uuid, ${grade + 1}::int, ${grade}::int, ${title}::text, ${demoId(`course-${school}-${subject}`)}::text)`;
      });
      await tx.execute(sql`insert into subject_track_steps (track_id, position, grade_level, title, course_sourced_id)
        values ${sql.join(steps, sql`, `)}`);
    }
  });
}
