import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";

/**
 * While someone views Dash as another person, what they reach is the intersection of their own
 * scope and the viewed person's (an administrator's is the viewed person's), for every pair of
 * viewer and viewed roles. Losing the relationship ends the viewing; every end and every refused
 * attempt is in the audit.
 */

let t: TestApp;
const AVA = demoId("student-ava"); // Maya Patel's student at Maple Grove
const LEO = demoId("student-leo"); // Ava's brother at Riverside, taught by Hannah Fischer
const SAM = demoId("parent-sam"); // parent of Ava and Leo
const GRACE = demoId("guardian-grace"); // guardian of Ava
const JORDAN = demoId("multi"); // co-teaches Science in Patel's group, a student in Daniel Okoro's Math
const PROCTOR = demoId("proctor");
const ADMIN = demoId("admin");
const PATEL = demoId("guide-patel");
const OKORO = demoId("guide-okoro");
const FISCHER = demoId("guide-fischer");
const emails = new Map<string, string>();

beforeAll(async () => {
  t = await createTestApp();
  // Only the demo accounts have passwords: give two more Guides Maya Patel's, to sign in as them.
  await t.db.execute(sql`insert into user_credentials (user_sourced_id, password_hash)
    select u.sourced_id, c.password_hash from users u, user_credentials c
    where u.sourced_id in (${OKORO}, ${FISCHER}) and c.user_sourced_id = ${PATEL}
    on conflict do nothing`);
  const rows = await queryRows<{ sourcedId: string; email: string }>(
    t.db,
    sql`select sourced_id as "sourcedId", email from users where sourced_id in (${OKORO}, ${FISCHER})`,
  );
  for (const row of rows) emails.set(row.sourcedId, row.email);
});
afterAll(() => t.close());

const signInAs = (who: "admin" | "patel" | "okoro" | "fischer" | "parent" | "student" | "proctor") =>
  t.signIn(
    {
      admin: "admin@dash.demo",
      patel: "guide@dash.demo",
      okoro: emails.get(OKORO) as string,
      fischer: emails.get(FISCHER) as string,
      parent: "parent@dash.demo",
      student: "student@dash.demo",
      proctor: "proctor@dash.demo",
    }[who],
  );

const start = (cookie: string, userId: string) =>
  t.request("/api/auth/impersonation", { json: { userId, reason: "Checking a family's view" }, cookie });
const stop = (cookie: string) => t.request("/api/auth/impersonation", { method: "DELETE", cookie });
const status = async (cookie: string, path: string) => (await t.request(path, { cookie })).status;
const studentHome = (cookie: string, studentId: string) => status(cookie, `/api/students/${studentId}/home`);
const xpHistory = (cookie: string, studentId: string) =>
  status(cookie, `/api/xp/history?studentId=${studentId}`);
const ids = (rows: { sourcedId?: string; studentId?: string; student?: { sourcedId: string } }[]) =>
  rows.map((row) => row.sourcedId ?? row.studentId ?? row.student?.sourcedId).sort();
const auditRows = async () => {
  const admin = await signInAs("admin");
  const body = await (await t.request("/api/auth/impersonation/audit?limit=500", { cookie: admin })).json();
  return body.data as {
    action: string;
    actor: { sourcedId: string };
    target: { sourcedId: string };
    detail: string | null;
  }[];
};

/** Who may view as whom: every viewer role against every viewed role. */
const PAIRS: { viewer: Parameters<typeof signInAs>[0]; target: string; allowed: boolean }[] = [
  { viewer: "admin", target: AVA, allowed: true },
  { viewer: "admin", target: SAM, allowed: true },
  { viewer: "admin", target: GRACE, allowed: true },
  { viewer: "admin", target: JORDAN, allowed: true },
  { viewer: "admin", target: PROCTOR, allowed: true },
  { viewer: "admin", target: PATEL, allowed: true },
  { viewer: "patel", target: AVA, allowed: true },
  { viewer: "patel", target: SAM, allowed: true },
  { viewer: "patel", target: GRACE, allowed: true },
  { viewer: "patel", target: LEO, allowed: false },
  { viewer: "patel", target: JORDAN, allowed: false },
  { viewer: "patel", target: OKORO, allowed: false },
  { viewer: "patel", target: PROCTOR, allowed: false },
  { viewer: "patel", target: ADMIN, allowed: false },
  { viewer: "okoro", target: JORDAN, allowed: true },
  { viewer: "fischer", target: SAM, allowed: true },
  { viewer: "fischer", target: AVA, allowed: false },
  { viewer: "parent", target: AVA, allowed: false },
  { viewer: "student", target: GRACE, allowed: false },
  { viewer: "proctor", target: AVA, allowed: false },
];

describe("who may view as whom", () => {
  it.each(PAIRS)("$viewer as $target: allowed $allowed", async ({ viewer, target, allowed }) => {
    const cookie = await signInAs(viewer);
    const response = await start(cookie, target);
    expect(response.status).toBe(allowed ? 200 : 403);
    if (allowed) expect((await stop(cookie)).status).toBe(200);
  });

  it("audits every refused attempt with its reason", async () => {
    const cookie = await signInAs("patel");
    expect((await start(cookie, LEO)).status).toBe(403);
    const refused = (await auditRows()).find(
      (row) => row.action === "refuse" && row.actor.sourcedId === PATEL && row.target.sourcedId === LEO,
    );
    expect(refused?.detail).toMatch(/Guides can only view Dash as their own students/);
    const student = await signInAs("student");
    expect((await start(student, GRACE)).status).toBe(403);
    expect(
      (await auditRows()).some(
        (row) => row.action === "refuse" && row.actor.sourcedId === AVA && row.target.sourcedId === GRACE,
      ),
    ).toBe(true);
  });
});

describe("a Guide viewing as a parent", () => {
  it("reaches only the children the Guide teaches", async () => {
    const cookie = await signInAs("patel");
    expect((await start(cookie, SAM)).status).toBe(200);
    const children = await (await t.request("/api/parent/children", { cookie })).json();
    expect(ids(children.data)).toEqual([AVA]);
    const summaries = await (await t.request("/api/parent/children/summary", { cookie })).json();
    expect(ids(summaries.data)).toEqual([AVA]);
    expect(await studentHome(cookie, AVA)).toBe(200);
    expect(await studentHome(cookie, LEO)).toBe(403);
    expect(await xpHistory(cookie, LEO)).toBe(403);
    expect(await status(cookie, `/api/learning-metrics?studentId=${LEO}`)).toBe(403);
    const flow = await (await t.request("/api/flow/day", { cookie })).json();
    expect(flow.data.students.map((row: { sourcedId: string }) => row.sourcedId)).not.toContain(LEO);
    const courses = await (await t.request("/api/courses?limit=500", { cookie })).json();
    const learners = courses.data.flatMap((course: { learners: { sourcedId: string }[] }) => course.learners);
    expect(learners.map((row: { sourcedId: string }) => row.sourcedId)).not.toContain(LEO);
    expect(learners.length).toBeGreaterThan(0);
    expect((await stop(cookie)).status).toBe(200);
  });

  it("and the other child's Guide reaches only that child", async () => {
    const cookie = await signInAs("fischer");
    expect((await start(cookie, SAM)).status).toBe(200);
    expect(await studentHome(cookie, LEO)).toBe(200);
    expect(await studentHome(cookie, AVA)).toBe(403);
    expect((await stop(cookie)).status).toBe(200);
  });

  it("while an administrator viewing as the same parent reaches both children", async () => {
    const cookie = await signInAs("admin");
    expect((await start(cookie, SAM)).status).toBe(200);
    expect(await studentHome(cookie, LEO)).toBe(200);
    expect(await studentHome(cookie, AVA)).toBe(200);
    expect((await stop(cookie)).status).toBe(200);
  });
});

describe("a Guide viewing as someone who is also a Guide", () => {
  it("gets none of that person's Guide powers over students the viewer does not teach", async () => {
    const cookie = await signInAs("okoro");
    expect((await start(cookie, JORDAN)).status).toBe(200);
    const teacher = `${cookie}; selectedUserRole=teacher`;
    const me = await (await t.request("/api/auth/me", { cookie: teacher })).json();
    expect(me.selectedRole).toBe("teacher");
    const award = await t.request("/api/xp/manual", {
      cookie: teacher,
      json: {
        studentId: AVA,
        amount: 5,
        subject: "Science",
        reason: "Not the viewer's student",
        idempotencyKey: "view-as-reach-award",
      },
    });
    expect(award.status).toBe(403);
    const students = await (await t.request("/api/guide/students", { cookie: teacher })).json();
    expect(students.data).toEqual([]);
    expect(await studentHome(teacher, AVA)).toBe(403);
    // Jordan's own learning is the viewer's to see: Jordan is their student.
    expect(await studentHome(`${cookie}; selectedUserRole=student`, JORDAN)).toBe(200);
    expect((await stop(cookie)).status).toBe(200);
  });

  it("while an administrator viewing as that Guide gets the Guide's students", async () => {
    const cookie = await signInAs("admin");
    expect((await start(cookie, JORDAN)).status).toBe(200);
    const teacher = `${cookie}; selectedUserRole=teacher`;
    expect(await studentHome(teacher, AVA)).toBe(200);
    expect((await stop(cookie)).status).toBe(200);
  });
});

describe("the end of viewing", () => {
  it("ends when the enrollment that allowed it ends, with a revoke entry", async () => {
    const admin = await signInAs("admin");
    const patelClass = await queryRows<{ classId: string }>(
      t.db,
      sql`select class_sourced_id as "classId" from enrollments where user_sourced_id = ${PATEL}
          and role = 'teacher' and status = 'active' limit 1`,
    );
    const onboarded = await t.request("/api/admin/onboarding", {
      cookie: admin,
      json: {
        schoolSourcedId: demoId("maple-grove"),
        student: { givenName: "Nia", familyName: "Brook", grade: "03", username: "nia.brook.reach" },
        guardians: [],
        classSourcedIds: [patelClass[0]?.classId],
      },
    });
    expect(onboarded.status).toBe(201);
    const nia = (await onboarded.json()).data.student.sourcedId as string;

    const guide = await signInAs("patel");
    expect((await start(guide, nia)).status).toBe(200);
    expect(await studentHome(guide, nia)).toBe(200);

    const [enrollment] = await queryRows<{ id: string }>(
      t.db,
      sql`select sourced_id as id from enrollments where user_sourced_id = ${nia}`,
    );
    const today = t.clock.now().toISOString().slice(0, 10);
    const ended = await t.request(`/api/enrollments/${enrollment?.id}/end`, {
      cookie: admin,
      json: { endDate: today },
    });
    expect(ended.status).toBe(200);

    const me = await (await t.request("/api/auth/me", { cookie: guide })).json();
    expect(me.impersonatedUser).toBeUndefined();
    expect(await studentHome(guide, nia)).toBe(403);
    const rows = (await auditRows()).filter((row) => row.target.sourcedId === nia);
    expect(rows.map((row) => row.action).sort()).toEqual(["revoke", "start"]);
  });

  it("signing out while viewing leaves a stop entry", async () => {
    const actions = async () =>
      (await auditRows())
        .filter((row) => row.actor.sourcedId === PATEL && row.target.sourcedId === GRACE)
        .map((row) => row.action);
    const before = await actions();
    const guide = await signInAs("patel");
    expect((await start(guide, GRACE)).status).toBe(200);
    expect((await t.request("/api/auth/logout", { method: "POST", cookie: guide })).status).toBe(200);
    const after = await actions();
    const count = (list: string[], action: string) => list.filter((entry) => entry === action).length;
    expect(count(after, "start") - count(before, "start")).toBe(1);
    expect(count(after, "stop") - count(before, "stop")).toBe(1);
  });
});

describe("onboarding by a Guide", () => {
  const newStudent = (username: string, guardians: unknown[], classId: string) => ({
    schoolSourcedId: demoId("maple-grove"),
    student: { givenName: "Made", familyName: "Up", grade: "03", username },
    guardians,
    classSourcedIds: [classId],
  });
  const patelClassId = async () => {
    const [row] = await queryRows<{ classId: string }>(
      t.db,
      sql`select class_sourced_id as "classId" from enrollments where user_sourced_id = ${PATEL}
          and role = 'teacher' and status = 'active' limit 1`,
    );
    return row?.classId as string;
  };
  const childrenOfSam = async () => {
    const rows = await queryRows<{ id: string }>(
      t.db,
      sql`select user_sourced_id as id from user_agents where agent_sourced_id = ${SAM}`,
    );
    return rows.map((row) => row.id);
  };

  it("asks an administrator before linking an existing parent, who decides once", async () => {
    const guide = await signInAs("patel");
    const response = await t.request("/api/admin/onboarding", {
      cookie: guide,
      json: newStudent("made.up.one", [{ kind: "existing", sourcedId: SAM }], await patelClassId()),
    });
    expect(response.status).toBe(201);
    const result = (await response.json()).data;
    expect(result.linkedGuardians).toEqual([]);
    expect(result.pendingGuardians).toEqual([{ sourcedId: SAM, name: "Sam Johnson" }]);
    expect(await childrenOfSam()).not.toContain(result.student.sourcedId);

    expect((await t.request("/api/admin/guardian-link-requests", { cookie: guide })).status).toBe(403);
    const admin = await signInAs("admin");
    const list = await (await t.request("/api/admin/guardian-link-requests", { cookie: admin })).json();
    const request = list.data.find(
      (entry: { student: { sourcedId: string } }) => entry.student.sourcedId === result.student.sourcedId,
    );
    expect(request).toMatchObject({ agent: { sourcedId: SAM }, requestedBy: { sourcedId: PATEL } });

    const decide = (cookie: string, decision: string, id = request.id) =>
      t.request(`/api/admin/guardian-link-requests/${id}`, { cookie, json: { decision } });
    expect((await decide(guide, "approve")).status).toBe(403);
    expect((await decide(admin, "approve")).status).toBe(200);
    expect(await childrenOfSam()).toContain(result.student.sourcedId);
    expect((await decide(admin, "refuse")).status).toBe(404);
    expect((await decide(admin, "approve", "not-a-uuid")).status).toBe(400);
    expect((await decide(admin, "maybe")).status).toBe(400);
  });

  it("a refused request links nobody", async () => {
    const guide = await signInAs("patel");
    const response = await t.request("/api/admin/onboarding", {
      cookie: guide,
      json: newStudent("made.up.two", [{ kind: "existing", sourcedId: SAM }], await patelClassId()),
    });
    const studentId = (await response.json()).data.student.sourcedId;
    const admin = await signInAs("admin");
    const list = await (await t.request("/api/admin/guardian-link-requests", { cookie: admin })).json();
    const request = list.data.find(
      (entry: { student: { sourcedId: string } }) => entry.student.sourcedId === studentId,
    );
    const refused = await t.request(`/api/admin/guardian-link-requests/${request.id}`, {
      cookie: admin,
      json: { decision: "refuse" },
    });
    expect(refused.status).toBe(200);
    expect(await childrenOfSam()).not.toContain(studentId);
  });

  it("an administrator links existing parents at once", async () => {
    const admin = await signInAs("admin");
    const response = await t.request("/api/admin/onboarding", {
      cookie: admin,
      json: newStudent("made.up.three", [{ kind: "existing", sourcedId: SAM }], await patelClassId()),
    });
    const result = (await response.json()).data;
    expect(result.linkedGuardians).toEqual([{ sourcedId: SAM, name: "Sam Johnson" }]);
    expect(result.pendingGuardians).toEqual([]);
    expect(await childrenOfSam()).toContain(result.student.sourcedId);
  });

  it("is refused while viewing Dash as someone else", async () => {
    const admin = await signInAs("admin");
    expect((await start(admin, PATEL)).status).toBe(200);
    const response = await t.request("/api/admin/onboarding", {
      cookie: admin,
      json: newStudent("made.up.four", [], await patelClassId()),
    });
    expect(response.status).toBe(403);
    expect((await response.json()).message).toBe("Stop viewing Dash as someone else to onboard a student");
    expect((await stop(admin)).status).toBe(200);
  });
});
