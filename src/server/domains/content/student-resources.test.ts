import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StudentResources } from "../../../shared/contracts/content";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { zipFilesOf } from "../../test/zip-files";
import {
  AVA,
  addAttempt,
  addLesson,
  addResource,
  LEO,
  MAPLE_MATH,
  PATEL_MATH,
  RIVERSIDE_MATH,
  unitOf,
} from "./assignments-fixtures";
import { DASH_LESSONS_APP_ID } from "./lesson-app";

let t: TestApp;
const cookies: Record<string, string> = {};
const ids = { counting: "", ratios: "", countingSheet: "", ratiosSheet: "", removedSheet: "" };

beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent", "guardian", "proctor"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
  ids.counting = await addLesson(t.db, MAPLE_MATH, unitOf("maple-grove", "Math", 0), "Counting", 1);
  ids.ratios = await addLesson(t.db, RIVERSIDE_MATH, unitOf("riverside", "Math", 0), "Ratios", 1);
  ids.countingSheet = await addResource(t.db, ids.counting, "Counting sheet");
  ids.ratiosSheet = await addResource(t.db, ids.ratios, "Ratio tables");
  ids.removedSheet = await addResource(t.db, ids.counting, "Old sheet");
  await t.db.execute(
    sql`update lesson_resources set removed_at = now() where id = ${ids.removedSheet}::uuid`,
  );
  await addAttempt(t.db, { lessonId: ids.counting, studentId: AVA, finishedAt: new Date(), mastered: true });
});
afterAll(() => t.close());

async function call(who: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await t.request(`/api/content${path}`, { ...init, cookie: cookies[who] });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const resourcesOf = async (who: string, studentId: string) =>
  call(who, `/students/${encodeURIComponent(studentId)}/resources`);

describe("a student's resources", () => {
  it("show the student their courses with progress, their assignments and the apps of their subjects", async () => {
    await call("guide", "/assignments", {
      method: "POST",
      json: { targetKind: "lesson", targetId: ids.counting, assignees: [{ kind: "class", id: PATEL_MATH }] },
    });
    const { status, body } = await resourcesOf("student", AVA);
    expect(status).toBe(200);
    const resources = body as StudentResources;
    expect(resources.student).toEqual({ id: AVA, name: "Ava Johnson", givenName: "Ava" });
    expect(resources.canSave).toBe(true);
    const [{ n: courses }] = (await queryRows<{ n: number }>(
      t.db,
      sql`select count(distinct k.course_sourced_id)::int as n from enrollments e join classes k on k.sourced_id = e.class_sourced_id
        where e.user_sourced_id = ${AVA} and e.role = 'student' and e.status = 'active'`,
    )) as [{ n: number }];
    expect(resources.courses).toHaveLength(courses);
    expect(resources.courses.find((course) => course.id === MAPLE_MATH)).toMatchObject({
      classTitles: ["Math · Patel group"],
      counts: { lessons: 1, completed: 1, mastered: 1, percentComplete: 100, percentMastered: 100 },
    });
    // Beside the demo's own (the Ocean Explorers lessons given to her class).
    expect(resources.assignments.find((assignment) => assignment.targetId === ids.counting)).toMatchObject({
      status: "mastered",
      className: "Math · Patel group",
    });
    const appNames = resources.apps.map((app) => app.name);
    expect(appNames).toEqual(expect.arrayContaining(["Math Academy", "Reading Quest", "Science Explorer"]));
    expect(resources.apps.map((app) => app.id)).not.toContain(DASH_LESSONS_APP_ID);
    expect(resources.apps.every((app) => app.launchUrl.length > 0)).toBe(true);
  });

  it("leave out apps for subjects the student does not learn", async () => {
    await t.db.execute(sql`insert into learning_apps (name, subjects, launch_url) values
      ('Chess Club', array['Chess'], 'https://chess.example.org'), ('Typing Tutor', '{}', 'https://typing.example.org'),
      ('Hidden app', '{}', null)`);
    const apps = ((await resourcesOf("student", AVA)).body as StudentResources).apps.map((app) => app.name);
    expect(apps).toContain("Typing Tutor");
    expect(apps).not.toContain("Chess Club");
    expect(apps).not.toContain("Hidden app");
  });

  it("let the student keep resources of lessons they may open, once, and let them go", async () => {
    const save = (who: string, resourceId: string, method = "PUT") =>
      call(who, `/saved-resources/${resourceId}`, { method });
    expect((await save("student", ids.countingSheet)).status).toBe(204);
    expect((await save("student", ids.countingSheet)).status).toBe(204);
    const saved = ((await resourcesOf("student", AVA)).body as StudentResources).saved;
    expect(saved).toEqual([
      expect.objectContaining({
        resourceId: ids.countingSheet,
        title: "Counting sheet",
        kind: "article",
        lessonId: ids.counting,
        lessonTitle: "Counting",
      }),
    ]);

    // Another school's lesson is not hers, until it is assigned to her.
    expect((await save("student", ids.ratiosSheet)).status).toBe(404);
    expect((await save("student", ids.removedSheet)).status).toBe(404);
    expect((await save("student", "00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await save("student", "not-a-uuid")).status).toBe(404);
    const assigned = await call("admin", "/assignments", {
      method: "POST",
      json: { targetKind: "course", targetId: RIVERSIDE_MATH, assignees: [{ kind: "student", id: AVA }] },
    });
    expect(assigned.status).toBe(201);
    expect((await save("student", ids.ratiosSheet)).status).toBe(204);

    expect((await save("student", ids.countingSheet, "DELETE")).status).toBe(204);
    expect((await save("student", ids.countingSheet, "DELETE")).status).toBe(404);
    const left = ((await resourcesOf("student", AVA)).body as StudentResources).saved;
    expect(left.map((entry) => entry.resourceId)).toEqual([ids.ratiosSheet]);

    // Only the student keeps resources.
    expect((await save("parent", ids.countingSheet)).status).toBe(403);
    expect((await save("guide", ids.countingSheet)).status).toBe(403);
  });

  it("are seen by the student's parents and Guides, and by nobody else", async () => {
    const parent = await resourcesOf("parent", AVA);
    expect(parent.status).toBe(200);
    expect((parent.body as StudentResources).canSave).toBe(false);
    expect((await resourcesOf("parent", LEO)).status).toBe(200);
    expect((await resourcesOf("guardian", AVA)).status).toBe(200);
    // Grace is Ava's guardian, not Leo's.
    expect((await resourcesOf("guardian", LEO)).status).toBe(404);
    expect((await resourcesOf("guide", AVA)).status).toBe(200);
    expect((await resourcesOf("guide", LEO)).status).toBe(404);
    expect((await resourcesOf("admin", LEO)).status).toBe(200);
    expect((await resourcesOf("student", LEO)).status).toBe(404);
    expect((await resourcesOf("student", demoId("guide-patel"))).status).toBe(404);
    expect((await resourcesOf("proctor", AVA)).status).toBe(403);
  });

  it("keep what the student keeps theirs while staff view Dash as them", async () => {
    const cookie = await t.signIn("guide@dash.demo");
    await t.request("/api/auth/impersonation", {
      json: { userId: AVA, reason: "Helping with resources" },
      cookie,
    });
    const seen = await t.request(`/api/content/students/${AVA}/resources`, { cookie });
    expect(seen.status).toBe(200);
    expect(((await seen.json()) as StudentResources).canSave).toBe(false);
    const kept = await t.request(`/api/content/saved-resources/${ids.countingSheet}`, {
      method: "PUT",
      cookie,
    });
    expect(kept.status).toBe(403);
  });
});

describe("a student's assignments and kept resources, for privacy", () => {
  it("are part of the student's export", async () => {
    const response = await t.request(`/api/admin/privacy/students/${AVA}/export`, { cookie: cookies.admin });
    expect(response.status).toBe(200);
    const files = await zipFilesOf(response);
    // Ava's own assignment (the Riverside course), not her class's lesson.
    const assignments = files["assignments.csv"]?.split("\r\n") ?? [];
    expect(assignments[0]).toBe(
      "kind,assigned,course,dueDate,note,assignedBy,assignedAt,removedBy,removedAt",
    );
    expect(assignments.filter(Boolean)).toHaveLength(2);
    expect(assignments[1]).toMatch(/^course,Math [^,]+,Math [^,]+,,,Alex Morgan,/);
    expect(files["saved-resources.csv"]).toContain("Ratio tables,article,Ratios,");
  });

  it("lose the student's name from notes, and what they kept, when the student is anonymised", async () => {
    const [student] = await queryRows<{ id: string; name: string }>(
      t.db,
      sql`select u.sourced_id as id, u.given_name || ' ' || u.family_name as name from enrollments e
        join users u on u.sourced_id = e.user_sourced_id
        where e.class_sourced_id = ${PATEL_MATH} and e.role = 'student' and e.status = 'active' and u.sourced_id <> ${AVA}
        order by u.sourced_id limit 1`,
    );
    const { id, name } = student as { id: string; name: string };
    const assigned = await call("guide", "/assignments", {
      method: "POST",
      json: {
        targetKind: "lesson",
        targetId: ids.counting,
        assignees: [{ kind: "student", id }],
        note: `${name} should start with the sheet`,
      },
    });
    expect(assigned.status).toBe(201);
    await t.db.execute(
      sql`insert into saved_resources (student_sourced_id, resource_id) values (${id}, ${ids.countingSheet}::uuid)`,
    );

    const anonymised = await t.request(`/api/admin/privacy/students/${id}/anonymise`, {
      json: { confirm: name, reason: "The family asked" },
      cookie: cookies.admin,
    });
    expect(anonymised.status).toBe(200);
    const [row] = await queryRows<{ note: string; kept: number }>(
      t.db,
      sql`select a.note, (select count(*)::int from saved_resources where student_sourced_id = ${id}) as kept
        from learning_assignments a where a.assignee_id = ${id}`,
    );
    expect(row?.note).not.toContain(name);
    expect(row?.note).toMatch(/^Former student \d{4} should start with the sheet$/);
    expect(row?.kept).toBe(0);
  });
});
