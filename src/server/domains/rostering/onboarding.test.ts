import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OnboardingRequest } from "../../../shared/contracts/onboarding";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { generateReadablePassword } from "../auth/password";

let t: TestApp;
let admin: string;
let guide: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signIn("admin@dash.demo");
  guide = await t.signIn("guide@dash.demo");
});
afterAll(() => t.close());

const MAPLE = demoId("maple-grove");
const RIVERSIDE = demoId("riverside");
const GRACE = demoId("guardian-grace");
const SAM = demoId("parent-sam");
const classOf = (school: string, guideKey: string, subject: string) =>
  demoId(`class-${school}-${guideKey}-${subject}`);
const PATEL_MATH = classOf("maple-grove", "guide-patel", "Math");
const PATEL_READING = classOf("maple-grove", "guide-patel", "Reading");
const OKORO_MATH = classOf("maple-grove", "guide-okoro", "Math");
const FISCHER_MATH = classOf("riverside", "guide-fischer", "Math");
// The first family of Riverside: known to nobody at Maple Grove.
const RIVERSIDE_PARENT = demoId("family-76-a");
const OTHER_RIVERSIDE_PARENT = demoId("family-77-a");

let counter = 0;
const unique = (prefix: string) => `${prefix}${++counter}.${Date.now().toString(36)}`;

function request(overrides: Partial<OnboardingRequest> = {}): OnboardingRequest {
  return {
    student: {
      givenName: "Nia",
      familyName: "Okafor",
      preferredFirstName: "Ni",
      email: `${unique("nia")}@learners.example.org`,
      grade: "03",
      birthDate: "2017-04-09",
    },
    schoolSourcedId: MAPLE,
    guardians: [
      {
        kind: "new",
        role: "parent",
        givenName: "Ngozi",
        familyName: "Okafor",
        email: `${unique("ngozi")}@families.example.org`,
      },
      { kind: "existing", sourcedId: GRACE },
    ],
    classSourcedIds: [PATEL_MATH, PATEL_READING],
    ...overrides,
  };
}

function newParentEmail(input: OnboardingRequest): string {
  const first = input.guardians?.[0];
  if (first?.kind !== "new") throw new Error("the request has no new parent first");
  return first.email;
}

const SPANISH = { "accept-language": "es" };

async function call(
  path: string,
  cookie: string,
  init: { method?: string; json?: unknown; headers?: Record<string, string> } = {},
) {
  const response = await t.request(path, { cookie, ...init });
  return { status: response.status, body: await response.json(), headers: response.headers };
}
const onboard = (json: unknown, cookie = admin) =>
  call("/api/admin/onboarding", cookie, { method: "POST", json });

async function usersWithEmail(emails: string[]) {
  return queryRows<{ sourcedId: string }>(
    t.db,
    sql`select sourced_id as "sourcedId" from users where lower(email) in ${emails.map((email) => email.toLowerCase())}`,
  );
}

describe("POST /api/admin/onboarding", () => {
  it("creates the student, a new parent, links a guardian and enrolls, in one go", async () => {
    const input = request();
    const { status, body, headers } = await onboard(input);
    expect(status).toBe(201);
    expect(headers.get("cache-control")).toBe("no-store");
    const result = body.data;
    expect(result.student).toMatchObject({
      name: "Nia Okafor",
      role: "student",
      signIn: input.student.email,
    });
    expect(result.student.password).toMatch(/^[2-9a-z]{4}(-[2-9a-z]{4}){3}$/);
    expect(result.newGuardians).toHaveLength(1);
    expect(result.newGuardians[0]).toMatchObject({ name: "Ngozi Okafor", role: "parent" });
    expect(result.linkedGuardians).toEqual([{ sourcedId: GRACE, name: "Grace Miller" }]);
    expect(result.school).toEqual({ sourcedId: MAPLE, name: "Maple Grove School" });
    expect(result.classes.map((entry: { title: string }) => entry.title)).toEqual([
      "Math · Patel group",
      "Reading · Patel group",
    ]);

    const studentId = result.student.sourcedId;
    const [student] = await queryRows<Record<string, unknown>>(
      t.db,
      sql`select u.grades, u.preferred_first_name as preferred, u.primary_org_sourced_id as "primaryOrg",
            d.birth_date::text as "birthDate",
            (select json_agg(json_build_object('role', r.role, 'roleType', r.role_type, 'org', r.org_sourced_id))
              from user_roles r where r.user_sourced_id = u.sourced_id) as roles,
            (select count(*)::int from enrollments e where e.user_sourced_id = u.sourced_id and e.role = 'student'
              and e.status = 'active' and e.school_sourced_id = ${MAPLE}) as enrollments,
            (select array_agg(a.agent_sourced_id order by a.agent_sourced_id) from user_agents a where a.user_sourced_id = u.sourced_id) as agents
          from users u left join demographics d on d.sourced_id = u.sourced_id where u.sourced_id = ${studentId}`,
    );
    expect(student).toMatchObject({
      grades: ["03"],
      preferred: "Ni",
      primaryOrg: MAPLE,
      birthDate: "2017-04-09",
      roles: [{ role: "student", roleType: "primary", org: MAPLE }],
      enrollments: 2,
    });
    expect(student?.agents).toEqual([GRACE, result.newGuardians[0].sourcedId].sort());

    const log = await call(`/api/admin/roster-changes?userId=${studentId}`, admin);
    expect(log.body.data[0]).toMatchObject({
      action: "onboarding",
      actor: { name: "Alex Morgan" },
      summary:
        "Onboarded Nia Okafor (grade 3) at Maple Grove School with 2 parents or guardians and 2 classes",
    });
    const spanish = await call(`/api/admin/roster-changes?userId=${studentId}`, admin, { headers: SPANISH });
    expect(spanish.body.data[0].summary).toBe(
      "Se incorporó a Nia Okafor (grado 3) en Maple Grove School con 2 padres, madres o tutores legales y 2 clases",
    );
  });

  it("gives accounts that sign in with the shown passwords; the parent sees the new child", async () => {
    const input = request();
    const { body } = await onboard(input);
    const studentCookie = await t.signIn(body.data.student.signIn, body.data.student.password);
    const me = await call("/api/auth/me", studentCookie);
    expect(me.body.user).toMatchObject({
      givenName: "Nia",
      roles: [{ role: "student", org: { name: "Maple Grove School" } }],
    });

    const parent = body.data.newGuardians[0];
    const parentCookie = await t.signIn(parent.signIn, parent.password);
    const children = await call("/api/parent/children", parentCookie);
    expect(children.body.data.map((child: { sourcedId: string }) => child.sourcedId)).toEqual([
      body.data.student.sourcedId,
    ]);
    const grace = await call("/api/parent/children", await t.signIn("guardian@dash.demo"));
    expect(grace.body.data.map((child: { sourcedId: string }) => child.sourcedId)).toContain(
      body.data.student.sourcedId,
    );
    // The student's Guide has them among her students at once.
    const guideStudents = await call("/api/guide/students", guide);
    expect(guideStudents.body.data.map((s: { sourcedId: string }) => s.sourcedId)).toContain(
      body.data.student.sourcedId,
    );
  });

  it("creates a student with a username only, who signs in with it", async () => {
    const username = unique("kai.");
    const { status, body } = await onboard(
      request({
        student: { givenName: "Kai", familyName: "Moss", username: username.toUpperCase(), grade: "KG" },
        guardians: [],
        classSourcedIds: [],
      }),
    );
    expect(status).toBe(201);
    expect(body.data.student.signIn).toBe(username);
    const cookie = await t.signIn(username, body.data.student.password);
    expect((await call("/api/auth/me", cookie)).body.user.email).toBeNull();
    const taken = await onboard(
      request({
        student: { givenName: "Kai", familyName: "Two", username, grade: "KG" },
        guardians: [],
        classSourcedIds: [],
      }),
    );
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe(`The username ${username} is already taken`);
    // A username two sign-in accounts share (an import may bring one) signs in neither.
    await t.db.execute(
      sql`update users set username = ${username.toUpperCase()} where email = 'guide@dash.demo'`,
    );
    const ambiguous = await t.request("/api/auth/login", {
      json: { email: username, password: body.data.student.password },
    });
    expect(ambiguous.status).toBe(401);
  });

  it("links an existing parent from another school, giving them a role at this one", async () => {
    const { status } = await onboard(
      request({ guardians: [{ kind: "existing", sourcedId: OTHER_RIVERSIDE_PARENT }] }),
    );
    expect(status).toBe(201);
    const roles = await queryRows<{ org: string; roleType: string }>(
      t.db,
      sql`select org_sourced_id as org, role_type as "roleType" from user_roles where user_sourced_id = ${OTHER_RIVERSIDE_PARENT} order by role_type`,
    );
    expect(roles).toEqual([
      { org: RIVERSIDE, roleType: "primary" },
      { org: MAPLE, roleType: "secondary" },
    ]);
  });

  it("answers 409 naming an email that is taken, in any case, and creates nothing", async () => {
    const input = request();
    const student = { ...input.student, email: "PARENT@dash.demo" };
    const { status, body } = await onboard({ ...input, student });
    expect(status).toBe(409);
    expect(body.message).toBe(
      "An account with the email parent@dash.demo already exists. Link that person instead.",
    );
    const guardianEmail = newParentEmail(input);
    expect(await usersWithEmail([guardianEmail])).toEqual([]);

    const parentTaken = await onboard(
      request({
        guardians: [
          { kind: "new", role: "guardian", givenName: "G", familyName: "M", email: "guardian@dash.demo" },
        ],
      }),
    );
    expect(parentTaken.status).toBe(409);
    expect(parentTaken.body.message).toMatch(/guardian@dash\.demo/);
  });

  it("rejects a bad request with the problems listed", async () => {
    const noSignIn = await onboard(request({ student: { givenName: "A", familyName: "B", grade: "03" } }));
    expect(noSignIn.status).toBe(400);
    expect(noSignIn.body.issues).toContainEqual({
      path: "student.email",
      message: "Give an email or a username: the student signs in with it",
    });
    const future = new Date(Date.now() + 86_400_000 * 2).toISOString().slice(0, 10);
    const bad = await onboard(
      request({
        student: {
          givenName: " ",
          familyName: "B",
          email: "not-an-email",
          grade: "13" as "12",
          birthDate: future,
        },
      }),
    );
    expect(bad.status).toBe(400);
    const paths = bad.body.issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining(["student.givenName", "student.email", "student.grade", "student.birthDate"]),
    );
    const twice = request();
    const sameEmail = await onboard({
      ...twice,
      guardians: [
        { kind: "new", role: "parent", givenName: "P", familyName: "Q", email: twice.student.email },
      ],
    });
    expect(sameEmail.status).toBe(400);
    expect(sameEmail.body.message).toMatch(/is given twice/);
    const otherSchoolClass = await onboard(request({ classSourcedIds: [FISCHER_MATH] }));
    expect(otherSchoolClass.status).toBe(400);
    expect(otherSchoolClass.body.message).toMatch(
      /not an active class of Maple Grove School open to grade 3/,
    );
    const notASchool = await onboard(request({ schoolSourcedId: demoId("district") }));
    expect(notASchool.status).toBe(400);
    const notAGuardian = await onboard(
      request({ guardians: [{ kind: "existing", sourcedId: demoId("guide-okoro") }] }),
    );
    expect(notAGuardian.status).toBe(400);
    expect(notAGuardian.body.message).toMatch(/No active parent or guardian/);
  });

  it("is all or nothing: a failure half-way leaves nothing behind", async () => {
    const before = await queryRows<{
      users: number;
      credentials: number;
      enrollments: number;
      changes: number;
    }>(
      t.db,
      sql`select (select count(*)::int from users) as users, (select count(*)::int from user_credentials) as credentials,
            (select count(*)::int from enrollments) as enrollments, (select count(*)::int from roster_changes) as changes`,
    );
    // The parent links are written after the accounts and roles: make them fail.
    await t.db.execute(sql`create function refuse_agents() returns trigger language plpgsql as $$
      begin raise exception 'user_agents refused for this test'; end $$`);
    await t.db.execute(
      sql`create trigger refuse_agents before insert on user_agents for each row execute function refuse_agents()`,
    );
    try {
      const input = request();
      const { status, body } = await onboard(input);
      expect(status).toBe(500);
      expect(body.message).not.toMatch(/user_agents/);
      const emails = [input.student.email as string, newParentEmail(input)];
      expect(await usersWithEmail(emails)).toEqual([]);
    } finally {
      await t.db.execute(sql`drop trigger refuse_agents on user_agents`);
      await t.db.execute(sql`drop function refuse_agents()`);
    }
    const after = await queryRows(
      t.db,
      sql`select (select count(*)::int from users) as users, (select count(*)::int from user_credentials) as credentials,
            (select count(*)::int from enrollments) as enrollments, (select count(*)::int from roster_changes) as changes`,
    );
    expect(after).toEqual(before);
  });
});

describe("onboarding by a Guide", () => {
  it("works into their own school and classes", async () => {
    const { status, body } = await onboard(
      request({ guardians: [{ kind: "existing", sourcedId: SAM }] }),
      guide,
    );
    expect(status).toBe(201);
    expect(body.data.classes).toHaveLength(2);
    const log = await call(`/api/admin/roster-changes?userId=${body.data.student.sourcedId}`, admin);
    expect(log.body.data[0].actor.name).toBe("Maya Patel");
    expect(log.body.data[0].summary).toBe(
      "Onboarded Nia Okafor (grade 3) at Maple Grove School with 0 parents or guardians and 2 classes, asking to link Sam Johnson",
    );
    const spanish = await call(`/api/admin/roster-changes?userId=${body.data.student.sourcedId}`, admin, {
      headers: SPANISH,
    });
    expect(spanish.body.data[0].summary).toBe(
      "Se incorporó a Nia Okafor (grado 3) en Maple Grove School con 0 padres, madres o tutores legales y 2 clases, y se pidió vincular a Sam Johnson",
    );
  });

  it("is refused into another school, and creates nothing", async () => {
    const input = request({ schoolSourcedId: RIVERSIDE, classSourcedIds: [FISCHER_MATH] });
    const { status, body } = await onboard({ ...input, student: { ...input.student, grade: "06" } }, guide);
    expect(status).toBe(403);
    expect(body.message).toBe("Guides can only onboard students into their own school, not Riverside School");
    const spanish = await call("/api/admin/onboarding", guide, {
      method: "POST",
      json: { ...input, student: { ...input.student, grade: "06" } },
      headers: SPANISH,
    });
    expect(spanish.status).toBe(403);
    expect(spanish.body.message).toBe(
      "Los Guías solo pueden incorporar estudiantes en su propia escuela, no en Riverside School",
    );
    expect(await usersWithEmail([input.student.email as string])).toEqual([]);
  });

  it("is refused into a class of another Guide", async () => {
    const { status, body } = await onboard(request({ classSourcedIds: [PATEL_MATH, OKORO_MATH] }), guide);
    expect(status).toBe(403);
    expect(body.message).toBe(
      "Guides can only enroll students in their own classes, not in Math · Okoro group",
    );
  });

  it("is refused to link a parent of another school", async () => {
    const { status } = await onboard(
      request({ guardians: [{ kind: "existing", sourcedId: RIVERSIDE_PARENT }] }),
      guide,
    );
    expect(status).toBe(403);
  });

  it.each(["student@dash.demo", "parent@dash.demo", "proctor@dash.demo"])(
    "is refused to %s",
    async (email) => {
      const cookie = await t.signIn(email);
      expect((await onboard(request(), cookie)).status).toBe(403);
      expect((await call("/api/admin/onboarding/schools", cookie)).status).toBe(403);
    },
  );
});

describe("the wizard's lists", () => {
  it("offer a Guide only their own school", async () => {
    const mine = await call("/api/admin/onboarding/schools", guide);
    expect(mine.body.data.map((school: { name: string }) => school.name)).toEqual(["Maple Grove School"]);
    const all = await call("/api/admin/onboarding/schools", admin);
    expect(all.body.data.map((school: { name: string }) => school.name)).toEqual([
      "Maple Grove School",
      "Riverside School",
    ]);
  });

  it("list the school's classes for a grade, the Guide's own first and the only ones they may choose", async () => {
    const { status, body } = await call(
      `/api/admin/onboarding/classes?schoolSourcedId=${MAPLE}&grade=03`,
      guide,
    );
    expect(status).toBe(200);
    expect(body.data).toHaveLength(16);
    const own = body.data.slice(0, 4);
    expect(
      own.every((entry: { isMine: boolean; canEnroll: boolean }) => entry.isMine && entry.canEnroll),
    ).toBe(true);
    expect(own.map((entry: { title: string }) => entry.title)).toContain("Math · Patel group");
    expect(body.data.slice(4).some((entry: { canEnroll: boolean }) => entry.canEnroll)).toBe(false);
    const forAdmin = await call(`/api/admin/onboarding/classes?schoolSourcedId=${MAPLE}&grade=03`, admin);
    expect(forAdmin.body.data.every((entry: { canEnroll: boolean }) => entry.canEnroll)).toBe(true);
    // Maple Grove teaches K–4: no class is open to grade 7.
    expect(
      (await call(`/api/admin/onboarding/classes?schoolSourcedId=${MAPLE}&grade=07`, admin)).body.data,
    ).toEqual([]);
    expect(
      (await call(`/api/admin/onboarding/classes?schoolSourcedId=${RIVERSIDE}&grade=06`, guide)).status,
    ).toBe(403);
    expect((await call(`/api/admin/onboarding/classes?schoolSourcedId=${MAPLE}`, guide)).status).toBe(400);
  });

  it("find parents and guardians: anyone for an administrator, the Guide's school and families for a Guide", async () => {
    const riversideName = await queryRows<{ email: string }>(
      t.db,
      sql`select email from users where sourced_id = ${RIVERSIDE_PARENT}`,
    );
    const email = riversideName[0]?.email as string;
    const forAdmin = await call(`/api/admin/onboarding/guardians?search=${encodeURIComponent(email)}`, admin);
    expect(forAdmin.body.data.map((p: { sourcedId: string }) => p.sourcedId)).toEqual([RIVERSIDE_PARENT]);
    const forGuide = await call(`/api/admin/onboarding/guardians?search=${encodeURIComponent(email)}`, guide);
    expect(forGuide.body.data).toEqual([]);
    const sam = await call("/api/admin/onboarding/guardians?search=sam%20johnson", guide);
    expect(sam.body.data.map((p: { sourcedId: string; roles: string[] }) => [p.sourcedId, p.roles])).toEqual([
      [SAM, ["parent"]],
    ]);
    const notGuardians = await call("/api/admin/onboarding/guardians?search=maya%20patel", admin);
    expect(notGuardians.body.data).toEqual([]);
  });
});

describe("generated passwords", () => {
  it("are four groups of four unambiguous signs, different every time", () => {
    const passwords = new Set(Array.from({ length: 200 }, generateReadablePassword));
    expect(passwords.size).toBe(200);
    for (const password of passwords)
      expect(password).toMatch(/^[2-9a-hjkmnp-z]{4}(-[2-9a-hjkmnp-z]{4}){3}$/);
  });
});
