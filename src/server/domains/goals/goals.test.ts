import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClassGoals, StudentGoals } from "../../../shared/contracts/goals";
import { addDays, localDateOf, weekStartOf } from "../../../shared/time-zone";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { awardsDue } from "../rewards/earning";

let t: TestApp;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
  cookies.jordan = `${await t.signIn("multi@dash.demo")}; selectedUserRole=student`;
});
afterAll(() => t.close());

const AVA = demoId("student-ava");

async function call(who: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await t.request(`/api/goals${path}`, { ...init, cookie: cookies[who] });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const today = () => localDateOf(t.clock.now(), "America/New_York");

async function avasClass() {
  const [row] = await queryRows<{ id: string }>(
    t.db,
    sql`select c.sourced_id as id from classes c join enrollments e on e.class_sourced_id = c.sourced_id
      where e.user_sourced_id = ${AVA} and e.role = 'student' and e.status = 'active' and c.status = 'active'
        and c.sourced_id in (select class_sourced_id from enrollments where user_sourced_id = ${demoId("guide-patel")})
      order by c.title limit 1`,
  );
  return row?.id as string;
}

describe("a student's goals", () => {
  it("show the weekly goal, this week's XP from the daily totals, the streak and the daily goals", async () => {
    const { status, body } = await call("student", "");
    expect(status).toBe(200);
    const goals = body as StudentGoals;
    expect(goals.student.id).toBe(AVA);
    expect(goals.weekly.kind).toBe("weekly_xp");
    expect(goals.weekly.startsOn).toBe(weekStartOf(today()));
    expect(goals.weekly.deadline).toBe(addDays(weekStartOf(today()), 6));
    const [week] = await queryRows<{ xp: number }>(
      t.db,
      sql`select coalesce(sum(xp), 0)::float8 as xp from daily_student_metrics
        where student_sourced_id = ${AVA} and local_date between ${weekStartOf(today())}::date and ${today()}::date`,
    );
    expect(goals.weekly.value).toBeCloseTo(week?.xp ?? 0, 2);
    expect(goals.daily.length).toBeGreaterThan(0);
    expect(goals.canAdd).toBe(true);
  });

  it("let a student set their own goal and change it, and staff see and edit it; a parent only reads", async () => {
    const deadline = addDays(today(), 30);
    const created = await call("student", "", {
      method: "POST",
      json: { kind: "units", studentId: AVA, target: 12, deadline },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const mine = (await call("student", "")).body as StudentGoals;
    const goal = mine.targets.find((target) => target.id === id);
    expect(goal).toMatchObject({
      kind: "units",
      target: 12,
      deadline,
      startsOn: today(),
      canEdit: true,
      source: "student",
    });
    expect(goal?.forecast.status).toMatch(/on_track|behind|no_pace|reached/);

    expect((await call("student", `/${id}`, { method: "PATCH", json: { target: 15 } })).status).toBe(204);
    const guideView = (await call("guide", `?studentId=${AVA}`)).body as StudentGoals;
    expect(guideView.targets.find((target) => target.id === id)).toMatchObject({ target: 15, canEdit: true });
    expect(
      (await call("guide", `/${id}`, { method: "PATCH", json: { deadline: addDays(today(), 40) } })).status,
    ).toBe(204);
    // Still the student's own goal, theirs to change.
    expect((await call("student", `/${id}`, { method: "PATCH", json: { target: 14 } })).status).toBe(204);

    const parentView = await call("parent", `?studentId=${AVA}`);
    expect(parentView.status).toBe(200);
    expect(parentView.body.canAdd).toBe(false);
    expect((parentView.body as StudentGoals).targets.find((target) => target.id === id)?.canEdit).toBe(false);
    expect((await call("parent", `/${id}`, { method: "DELETE" })).status).toBe(403);
    expect(
      (
        await call("parent", "", {
          method: "POST",
          json: { kind: "units", studentId: AVA, target: 3, deadline },
        })
      ).status,
    ).toBe(403);

    expect((await call("guide", `/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await call("guide", `/${id}`, { method: "DELETE" })).status).toBe(404);
  });

  it("refuse what does not make a goal, naming the field", async () => {
    const bad = async (json: unknown) => {
      const { status, body } = await call("student", "", { method: "POST", json });
      expect(status).toBe(400);
      return (body.issues as { path: string; message: string }[]).map(
        (issue) => `${issue.path}: ${issue.message}`,
      );
    };
    expect(await bad({ kind: "units", studentId: AVA, target: 5 })).toContain(
      "deadline: Choose the day it should be done by",
    );
    expect(
      await bad({ kind: "units", studentId: AVA, target: 5000, deadline: addDays(today(), 3) }),
    ).toContain("target: The target is at most 1000");
    expect(await bad({ kind: "weekly_xp", studentId: AVA, target: 2.5 })).toContain(
      "target: The target is a whole number",
    );
    expect(await bad({ kind: "rit", studentId: AVA, target: 220, deadline: addDays(today(), 3) })).toContain(
      "subject: Choose a subject",
    );
    expect(
      await bad({
        kind: "course",
        studentId: AVA,
        target: 900,
        deadline: addDays(today(), 3),
        courseId: "nope",
      }),
    ).toContain("courseId: There is no such course");
    expect(await bad({ kind: "units", studentId: AVA, target: 5, deadline: addDays(today(), -1) })).toContain(
      "deadline: The deadline is today or later",
    );
    expect(await bad({ kind: "planet", studentId: AVA, target: 5 })).toContain(
      "kind: kind is one of weekly_xp, course, rit, units",
    );
  });

  it("are for the student, their family and their staff only", async () => {
    const jordan = (
      await queryRows<{ id: string }>(
        t.db,
        sql`select sourced_id as id from users where email = 'multi@dash.demo'`,
      )
    )[0]?.id;
    expect((await call("jordan", `?studentId=${AVA}`)).status).toBe(404);
    expect((await call("parent", `?studentId=${jordan}`)).status).toBe(404);
    expect(
      (
        await call("jordan", "", {
          method: "POST",
          json: { kind: "units", studentId: AVA, target: 3, deadline: addDays(today(), 5) },
        })
      ).status,
    ).toBe(403);
    expect((await call("admin", `?studentId=${AVA}`)).status).toBe(200);
    expect((await call("guide", "")).status).toBe(400);
  });
});

describe("a class's goals", () => {
  it("apply to every student of the class, and a class's weekly goal replaces the school's", async () => {
    const classId = await avasClass();
    // Ava's own weekly goal (the demo school's) comes first; without it, her class's applies.
    const own = ((await call("student", "")).body as StudentGoals).weekly;
    if (own.source === "student")
      expect((await call("guide", `/${own.id}`, { method: "DELETE" })).status).toBe(204);
    const weekly = await call("guide", "", {
      method: "POST",
      json: { kind: "weekly_xp", classId, target: 250 },
    });
    expect(weekly.status).toBe(201);
    const again = await call("guide", "", {
      method: "POST",
      json: { kind: "weekly_xp", classId, target: 260 },
    });
    expect(again.body.id).toBe(weekly.body.id);
    const course = await queryRows<{ id: string }>(
      t.db,
      sql`select sourced_id as id from courses order by sourced_id limit 1`,
    );
    const target = await call("guide", "", {
      method: "POST",
      json: {
        kind: "course",
        classId,
        courseId: course[0]?.id,
        target: 1500,
        deadline: addDays(today(), 60),
      },
    });
    expect(target.status).toBe(201);

    const ava = (await call("student", "")).body as StudentGoals;
    expect(ava.weekly).toMatchObject({ source: "class", target: 260, canEdit: false, classId });
    expect(ava.targets.find((goal) => goal.id === target.body.id)).toMatchObject({
      source: "class",
      kind: "course",
    });

    const page = await call("guide", `/classes/${classId}`);
    expect(page.status).toBe(200);
    const classGoals = page.body as ClassGoals;
    expect(classGoals.goals.map((goal) => goal.id)).toEqual([weekly.body.id, target.body.id]);
    const avaRow = classGoals.students.find((student) => student.id === AVA);
    expect(avaRow).toMatchObject({ weeklyGoal: 260, xpThisWeek: ava.weekly.value, streak: ava.streak });
    expect(classGoals.students.every((student) => student.weeklyGoal > 0)).toBe(true);

    // A student's own weekly goal comes before the class's.
    await call("student", "", { method: "POST", json: { kind: "weekly_xp", studentId: AVA, target: 180 } });
    expect(((await call("student", "")).body as StudentGoals).weekly).toMatchObject({
      source: "student",
      target: 180,
    });
  });

  it("are run by the class's own Guides and administrators only", async () => {
    const [foreign] = await queryRows<{ id: string }>(
      t.db,
      sql`select c.sourced_id as id from classes c where c.sourced_id not in (
          select class_sourced_id from enrollments where user_sourced_id = ${demoId("guide-patel")}) order by 1 limit 1`,
    );
    expect((await call("guide", `/classes/${foreign?.id}`)).status).toBe(403);
    expect((await call("admin", `/classes/${foreign?.id}`)).status).toBe(200);
    expect((await call("student", `/classes/${await avasClass()}`)).status).toBe(403);
    expect((await call("guide", "/classes/no-such-class")).status).toBe(404);
    expect(
      (
        await call("guide", "", {
          method: "POST",
          json: { kind: "weekly_xp", classId: foreign?.id, target: 100 },
        })
      ).status,
    ).toBe(404);
  });
});

describe("the weekly goal's Alphas", () => {
  it("are measured against the student's weekly goal, in its subject when it has one", async () => {
    // A week of 2030 has nothing but what the test gives: 50 XP of Math and 5 of Reading.
    await t.db.execute(sql`insert into daily_student_metrics (student_sourced_id, local_date, subject, app_key, xp)
      values (${AVA}, '2030-03-05', 'Math', 'goals-test', 50), (${AVA}, '2030-03-06', 'Reading', 'goals-test', 5)`);
    const due = async () =>
      (await awardsDue(t.db, { from: "2030-03-03", to: "2030-03-09", studentIds: [AVA] }, "weekly_goal")).map(
        (award) => award.period,
      );
    const setWeekly = (target: number, subject?: string) =>
      call("student", "", { method: "POST", json: { kind: "weekly_xp", studentId: AVA, target, subject } });
    expect((await setWeekly(54)).status).toBe(201);
    expect(await due()).toEqual(["2030-03-03"]);
    await setWeekly(55);
    expect(await due()).toEqual([]);
    await setWeekly(4, "Reading");
    expect(await due()).toEqual(["2030-03-03"]);
    await setWeekly(6, "Reading");
    expect(await due()).toEqual([]);
  });
});
