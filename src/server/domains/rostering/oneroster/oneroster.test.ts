import { type SQL, sql } from "drizzle-orm";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ONEROSTER_BASE_PATH, ONEROSTER_SCOPES } from "../../../../shared/contracts/api-clients";
import { queryRows } from "../../../db/client";
import { createLogger } from "../../../lib/logger";
import { createLocalBus } from "../../../platform/events/bus";
import { createLiveHub } from "../../../platform/live/hub";
import { demoId } from "../../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../../test/harness";
import { authSettingsFromEnv, createAuthService } from "../../auth/service";
import { demoSisToken } from "../../oauth/testing";
import { oneRosterRoutes } from "./routes";

type Json = Record<string, unknown>;
type Ref = { href: string; sourcedId: string; type: string };

let t: TestApp;
let token: string;

const ids = {
  district: demoId("district"),
  maple: demoId("maple-grove"),
  riverside: demoId("riverside"),
  ava: demoId("student-ava"),
  leo: demoId("student-leo"),
  sam: demoId("parent-sam"),
  patel: demoId("guide-patel"),
  jordan: demoId("multi"),
  admin: demoId("admin"),
  patelMath: demoId("class-maple-grove-guide-patel-Math"),
  fischerMath: demoId("class-riverside-guide-fischer-Math"),
  mapleMath: demoId("course-maple-grove-Math"),
  fall: "",
  spring: "",
  quarter1: "",
};

async function call(path: string, bearer: string | null = token) {
  const response = await t.request(`${ONEROSTER_BASE_PATH}${path}`, {
    headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
}

/** A collection's records, after checking the answer is a 200 with the envelope key. */
async function list(path: string, key: string) {
  const answer = await call(path);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(Object.keys(answer.body)).toEqual([key]);
  return {
    records: answer.body[key] as Json[],
    total: Number(answer.headers.get("x-total-count")),
    link: answer.headers.get("link") ?? "",
  };
}

const idsOf = (records: Json[]) => records.map((record) => record.sourcedId as string);

async function sqlIds(query: SQL): Promise<string[]> {
  return (await queryRows<{ id: string }>(t.db, query)).map((row) => row.id);
}

const filtered = (filter: string) => `filter=${encodeURIComponent(filter)}`;

function expectImsxError(body: Json, codeMinor: string) {
  expect(body).toMatchObject({
    imsx_codeMajor: "failure",
    imsx_severity: "error",
    imsx_CodeMinor: {
      imsx_codeMinorField: [
        { imsx_codeMinorFieldName: "TargetEndSystem", imsx_codeMinorFieldValue: codeMinor },
      ],
    },
  });
  expect(typeof body.imsx_description).toBe("string");
}

beforeAll(async () => {
  t = await createTestApp();
  token = await demoSisToken(t);
  const sessions = await queryRows<{ id: string; title: string }>(
    t.db,
    sql`select sourced_id as id, title from academic_sessions where type in ('term', 'gradingPeriod') order by start_date, type desc`,
  );
  ids.fall = sessions.find((s) => s.title.startsWith("Fall"))?.id ?? "";
  ids.spring = sessions.find((s) => s.title.startsWith("Spring"))?.id ?? "";
  ids.quarter1 = sessions.find((s) => s.title === "Quarter 1")?.id ?? "";
});
afterAll(() => t.close());

describe("collections and their envelopes", () => {
  it("lists orgs and schools", async () => {
    const orgs = await list("/orgs", "orgs");
    expect(orgs.total).toBe(3);
    const schools = await list("/schools", "orgs");
    expect(idsOf(schools.records).sort()).toEqual([ids.maple, ids.riverside].sort());
    const district = orgs.records.find((org) => org.sourcedId === ids.district) as Json;
    expect(district).toMatchObject({ name: "Dash Demo District", type: "district", identifier: "DDD" });
    expect((district.children as Ref[]).map((child) => child.sourcedId).sort()).toEqual(
      [ids.maple, ids.riverside].sort(),
    );
    const maple = orgs.records.find((org) => org.sourcedId === ids.maple) as Json;
    expect(maple.parent).toEqual({
      href: `http://localhost${ONEROSTER_BASE_PATH}/orgs/${ids.district}`,
      sourcedId: ids.district,
      type: "org",
    });
  });

  it("lists users in the 1.2 shape, with roles, agents and text booleans", async () => {
    const users = await list(`/users?${filtered(`sourcedId='${ids.ava}'`)}`, "users");
    expect(users.total).toBe(1);
    const ava = users.records[0] as Json;
    expect(ava).toMatchObject({
      sourcedId: ids.ava,
      status: "active",
      username: "student",
      userIds: [],
      enabledUser: "true",
      givenName: "Ava",
      familyName: "Johnson",
      email: "student@dash.demo",
      grades: ["03"],
      primaryOrg: { sourcedId: ids.maple, type: "org" },
    });
    expect(ava.dateLastModified).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(ava.roles).toEqual([
      {
        roleType: "primary",
        role: "student",
        org: { href: expect.stringContaining(`/orgs/${ids.maple}`), sourcedId: ids.maple, type: "org" },
        beginDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      },
    ]);
    // A student's agents are her parent and guardian; a parent's are his children.
    expect((ava.agents as Ref[]).map((agent) => agent.sourcedId)).toContain(ids.sam);
    const { body } = await call(`/users/${ids.sam}`);
    expect(((body.user as Json).agents as Ref[]).map((agent) => agent.sourcedId).sort()).toEqual(
      [ids.ava, ids.leo].sort(),
    );
  });

  it("names the 1.1 administrator role in 1.2 terms", async () => {
    const { body } = await call(`/users/${ids.admin}`);
    expect(((body.user as Json).roles as Json[])[0]?.role).toBe("districtAdministrator");
  });

  it("lists students and teachers as the users holding that role", async () => {
    const students = await list("/students?limit=1", "users");
    const teachers = await list("/teachers?limit=100", "users");
    const expectedStudents = await sqlIds(
      sql`select distinct user_sourced_id as id from user_roles where lower(role) = 'student'`,
    );
    const expectedTeachers = await sqlIds(
      sql`select distinct user_sourced_id as id from user_roles where lower(role) = 'teacher'`,
    );
    expect(students.total).toBe(expectedStudents.length);
    expect(idsOf(teachers.records).sort()).toEqual(expectedTeachers.sort());
    expect(idsOf(teachers.records)).toContain(ids.jordan);
  });

  it("lists classes, courses, enrollments and sessions with their references", async () => {
    const classes = await list("/classes", "classes");
    expect(classes.total).toBe(32);
    const patelMath = classes.records.find((record) => record.sourcedId === ids.patelMath) as Json;
    expect(patelMath).toMatchObject({
      title: "Math · Patel group",
      classType: "scheduled",
      subjects: ["Math"],
      course: { sourcedId: ids.mapleMath, type: "course" },
      school: { sourcedId: ids.maple, type: "org" },
    });
    expect((patelMath.terms as Ref[]).map((term) => term.type)).toEqual([
      "academicSession",
      "academicSession",
    ]);

    const courses = await list("/courses", "courses");
    expect(courses.total).toBe(8);
    expect(courses.records.find((course) => course.sourcedId === ids.mapleMath)).toMatchObject({
      title: "Math K–04",
      org: { sourcedId: ids.maple },
      schoolYear: { type: "academicSession" },
    });

    const enrollments = await list("/enrollments?limit=5", "enrollments");
    const [enrollmentCount] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from enrollments`,
    );
    expect(enrollments.total).toBe(enrollmentCount?.n);
    expect(enrollments.records[0]).toMatchObject({
      user: { type: "user" },
      class: { type: "class" },
      school: { type: "org" },
      primary: expect.stringMatching(/^(true|false)$/),
    });

    expect((await list("/academicSessions", "academicSessions")).total).toBe(7);
    const terms = await list("/terms", "academicSessions");
    expect(idsOf(terms.records).sort()).toEqual([ids.fall, ids.spring].sort());
    const periods = await list("/gradingPeriods", "academicSessions");
    expect(periods.total).toBe(4);
    expect(periods.records.every((period) => period.type === "gradingPeriod")).toBe(true);
  });

  it("lists demographics for a demographics scope", async () => {
    await t.db.execute(sql`insert into demographics (sourced_id, birth_date, sex, asian, white, city_of_birth)
      values (${ids.ava}, '2017-04-02', 'Female', false, true, 'Springfield'),
             (${ids.leo}, '2014-09-30', 'male', null, null, null)`);
    const demographics = await list("/demographics?sort=birthDate", "demographics");
    expect(demographics.total).toBe(2);
    expect(demographics.records[1]).toMatchObject({
      sourcedId: ids.ava,
      birthDate: "2017-04-02",
      sex: "female",
      asian: "false",
      white: "true",
      cityOfBirth: "Springfield",
    });
    expect(demographics.records[0]).not.toHaveProperty("asian");
    const single = await call(`/demographics/${ids.ava}`);
    expect(Object.keys(single.body)).toEqual(["demographics"]);
    expect((single.body.demographics as Json).sourcedId).toBe(ids.ava);
  });
});

describe("linked collections", () => {
  it.each([
    [
      "/schools/{maple}/classes",
      "classes",
      sql`select sourced_id as id from classes where school_sourced_id = ${demoId("maple-grove")}`,
    ],
    [
      "/schools/{maple}/classes/{patelMath}/enrollments",
      "enrollments",
      sql`select sourced_id as id from enrollments where class_sourced_id = ${demoId("class-maple-grove-guide-patel-Math")}`,
    ],
    [
      "/schools/{maple}/classes/{patelMath}/students",
      "users",
      sql`select user_sourced_id as id from enrollments where class_sourced_id = ${demoId("class-maple-grove-guide-patel-Math")} and role = 'student'`,
    ],
    [
      "/schools/{maple}/classes/{patelMath}/teachers",
      "users",
      sql`select user_sourced_id as id from enrollments where class_sourced_id = ${demoId("class-maple-grove-guide-patel-Math")} and role = 'teacher'`,
    ],
    [
      "/schools/{maple}/courses",
      "courses",
      sql`select sourced_id as id from courses where org_sourced_id = ${demoId("maple-grove")}`,
    ],
    [
      "/schools/{riverside}/enrollments",
      "enrollments",
      sql`select sourced_id as id from enrollments where school_sourced_id = ${demoId("riverside")}`,
    ],
    [
      "/schools/{riverside}/students",
      "users",
      sql`select user_sourced_id as id from user_roles where org_sourced_id = ${demoId("riverside")} and role = 'student'`,
    ],
    [
      "/schools/{maple}/teachers",
      "users",
      sql`select user_sourced_id as id from user_roles where org_sourced_id = ${demoId("maple-grove")} and role = 'teacher'`,
    ],
    [
      "/schools/{maple}/terms",
      "academicSessions",
      sql`select sourced_id as id from academic_sessions where type = 'term'`,
    ],
    [
      "/users/{jordan}/classes",
      "classes",
      sql`select class_sourced_id as id from enrollments where user_sourced_id = ${demoId("multi")}`,
    ],
    [
      "/students/{jordan}/classes",
      "classes",
      sql`select class_sourced_id as id from enrollments where user_sourced_id = ${demoId("multi")} and role = 'student'`,
    ],
    [
      "/teachers/{patel}/classes",
      "classes",
      sql`select class_sourced_id as id from enrollments where user_sourced_id = ${demoId("guide-patel")} and role = 'teacher'`,
    ],
    [
      "/classes/{fischerMath}/students",
      "users",
      sql`select user_sourced_id as id from enrollments where class_sourced_id = ${demoId("class-riverside-guide-fischer-Math")} and role = 'student'`,
    ],
    [
      "/classes/{patelMath}/teachers",
      "users",
      sql`select user_sourced_id as id from enrollments where class_sourced_id = ${demoId("class-maple-grove-guide-patel-Math")} and role = 'teacher'`,
    ],
    [
      "/courses/{mapleMath}/classes",
      "classes",
      sql`select sourced_id as id from classes where course_sourced_id = ${demoId("course-maple-grove-Math")}`,
    ],
    ["/terms/{fall}/classes", "classes", sql`select sourced_id as id from classes`],
    [
      "/terms/{fall}/gradingPeriods",
      "academicSessions",
      sql`select s.sourced_id as id from academic_sessions s join academic_sessions p on p.sourced_id = s.parent_sourced_id
        where s.type = 'gradingPeriod' and p.title like 'Fall%'`,
    ],
  ])("%s lists what the tables hold", async (template, key, expected) => {
    const path = template.replace(/\{(\w+)\}/g, (_, name: keyof typeof ids) => ids[name]);
    const answer = await list(`${path}?limit=500`, key);
    const expectedIds = [...new Set(await sqlIds(expected))].sort();
    expect(expectedIds.length).toBeGreaterThan(0);
    expect(idsOf(answer.records).sort()).toEqual(expectedIds);
    expect(answer.total).toBe(expectedIds.length);
  });

  it.each([
    ["/schools/{district}/classes", "a district is not a school"],
    ["/schools/{riverside}/classes/{patelMath}/students", "the class is at another school"],
    ["/schools/nowhere/teachers", "unknown school"],
    ["/classes/nowhere/students", "unknown class"],
    ["/courses/nowhere/classes", "unknown course"],
    ["/users/nobody/classes", "unknown user"],
    ["/students/{patel}/classes", "a Guide is not a student"],
    ["/teachers/{ava}/classes", "a student is not a teacher"],
    ["/terms/{quarter1}/gradingPeriods", "a grading period is not a term"],
    ["/terms/nowhen/classes", "unknown term"],
  ])("%s answers 404 unknownobject (%s)", async (template) => {
    const path = template.replace(/\{(\w+)\}/g, (_, name: keyof typeof ids) => ids[name]);
    const answer = await call(path);
    expect(answer.status).toBe(404);
    expectImsxError(answer.body, "unknownobject");
  });
});

describe("single records", () => {
  it.each([
    ["/orgs/{district}", "org"],
    ["/schools/{maple}", "org"],
    ["/users/{ava}", "user"],
    ["/students/{ava}", "user"],
    ["/teachers/{patel}", "user"],
    ["/classes/{patelMath}", "class"],
    ["/courses/{mapleMath}", "course"],
    ["/academicSessions/{fall}", "academicSession"],
    ["/terms/{fall}", "academicSession"],
    ["/gradingPeriods/{quarter1}", "academicSession"],
  ])("%s answers the record under %s", async (template, key) => {
    const path = template.replace(/\{(\w+)\}/g, (_, name: keyof typeof ids) => ids[name]);
    const answer = await call(path);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual([key]);
    expect((answer.body[key] as Json).sourcedId).toBe(path.split("/").at(-1));
  });

  it("answers an enrollment by id", async () => {
    const [enrollment] = await sqlIds(sql`select sourced_id as id from enrollments limit 1`);
    const answer = await call(`/enrollments/${enrollment}`);
    expect((answer.body.enrollment as Json).sourcedId).toBe(enrollment);
  });

  it.each([
    "/users/nobody",
    "/orgs/nowhere",
    "/schools/{district}",
    "/students/{patel}",
    "/teachers/{ava}",
    "/classes/nothing",
    "/courses/nothing",
    "/enrollments/nothing",
    "/academicSessions/nothing",
    "/terms/{quarter1}",
    "/gradingPeriods/{fall}",
    "/demographics/{patel}",
  ])("%s answers 404 unknownobject", async (template) => {
    const path = template.replace(/\{(\w+)\}/g, (_, name: keyof typeof ids) => ids[name]);
    const answer = await call(path);
    expect(answer.status).toBe(404);
    expectImsxError(answer.body, "unknownobject");
  });
});

describe("paging", () => {
  it("pages with limit and offset, the total in X-Total-Count and links to the other pages", async () => {
    const first = await list("/users?limit=10&sort=familyName", "users");
    const second = await list("/users?limit=10&offset=10&sort=familyName", "users");
    expect(first.records).toHaveLength(10);
    expect(second.records).toHaveLength(10);
    expect(idsOf(first.records).filter((id) => idsOf(second.records).includes(id))).toEqual([]);
    const [count] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from users`);
    const total = count?.n ?? 0;
    expect(first.total).toBe(total);

    const links = (header: string) =>
      Object.fromEntries(
        header.split(", ").map((part) => {
          const [, url, rel] = /^<([^>]+)>; rel="(\w+)"$/.exec(part) ?? [];
          return [rel, new URL(url as string)];
        }),
      ) as Record<string, URL>;
    const firstLinks = links(first.link);
    expect(Object.keys(firstLinks).sort()).toEqual(["first", "last", "next"]);
    expect(firstLinks.next?.searchParams.get("offset")).toBe("10");
    expect(firstLinks.next?.searchParams.get("sort")).toBe("familyName");
    expect(firstLinks.last?.searchParams.get("offset")).toBe(String(Math.floor((total - 1) / 10) * 10));
    const secondLinks = links(second.link);
    expect(secondLinks.prev?.searchParams.get("offset")).toBe("0");

    // Following "next" gives the second page.
    const next = firstLinks.next as URL;
    const followed = await list(`${next.pathname.replace(ONEROSTER_BASE_PATH, "")}${next.search}`, "users");
    expect(idsOf(followed.records)).toEqual(idsOf(second.records));

    const last = firstLinks.last as URL;
    const lastPage = await list(`${last.pathname.replace(ONEROSTER_BASE_PATH, "")}${last.search}`, "users");
    expect(lastPage.records.length).toBe(total - Number(last.searchParams.get("offset")));
    expect(lastPage.link).not.toContain('rel="next"');
  });

  it("defaults to 100 records and answers an empty page past the end", async () => {
    expect((await list("/users", "users")).records).toHaveLength(100);
    const past = await list("/users?offset=100000", "users");
    expect(past.records).toEqual([]);
    expect(past.total).toBeGreaterThan(0);
  });

  it.each(["limit=0", "limit=3001", "limit=ten", "offset=-1", "offset=1.5", "orderBy=up"])(
    "refuses %s with 400 invaliddata",
    async (query) => {
      const answer = await call(`/users?${query}`);
      expect(answer.status).toBe(400);
      expectImsxError(answer.body, "invaliddata");
    },
  );
});

describe("sorting", () => {
  it("sorts both ways, in the database's order, with ties broken by sourcedId", async () => {
    const expected = await sqlIds(
      sql`select sourced_id as id from users order by family_name asc, sourced_id asc limit 50`,
    );
    expect(idsOf((await list("/users?sort=familyName&limit=50", "users")).records)).toEqual(expected);
    const expectedDesc = await sqlIds(
      sql`select sourced_id as id from users order by family_name desc, sourced_id desc limit 50`,
    );
    expect(idsOf((await list("/users?sort=familyName&orderBy=desc&limit=50", "users")).records)).toEqual(
      expectedDesc,
    );
  });

  it("sorts dates", async () => {
    const ascending = (await list("/academicSessions?sort=startDate", "academicSessions")).records;
    const starts = ascending.map((session) => session.startDate as string);
    expect(starts).toEqual([...starts].sort());
    const descending = (await list("/academicSessions?sort=startDate&orderBy=desc", "academicSessions"))
      .records;
    expect(descending.map((session) => session.startDate)).toEqual([...starts].sort().reverse());
  });

  it("sorts by sourcedId when no sort is given", async () => {
    const records = (await list("/classes", "classes")).records;
    expect(idsOf(records)).toEqual(idsOf(records).sort());
  });

  it("refuses a field it cannot sort on", async () => {
    const answer = await call("/users?sort=roles");
    expect(answer.status).toBe(400);
    expectImsxError(answer.body, "invaliddata");
  });
});

describe("filters", () => {
  it("= and != on text", async () => {
    const avas = await list(`/users?${filtered("givenName='Ava'")}`, "users");
    expect(avas.records.map((user) => user.givenName)).toEqual(avas.records.map(() => "Ava"));
    expect(idsOf(avas.records)).toContain(ids.ava);
    const teaching = await list(`/enrollments?limit=1000&${filtered("role!='student'")}`, "enrollments");
    const expected = await sqlIds(sql`select sourced_id as id from enrollments where role <> 'student'`);
    expect(teaching.total).toBe(expected.length);
    expect(teaching.records.every((enrollment) => enrollment.role === "teacher")).toBe(true);
  });

  it("> and < on dates", async () => {
    const later = await list(
      `/academicSessions?${filtered(`startDate>'${await fallEnd()}'`)}`,
      "academicSessions",
    );
    expect(later.records.map((session) => session.title).sort()).toEqual([
      "Quarter 3",
      "Quarter 4",
      expect.stringMatching(/^Spring \d{4}$/),
    ]);
    const earlier = await list(
      `/academicSessions?${filtered(`endDate<'${await fallEnd()}'`)}`,
      "academicSessions",
    );
    expect(earlier.records.map((session) => session.title)).toEqual(["Quarter 1"]);
  });

  it("~ is a case-insensitive contains", async () => {
    const found = await list(`/users?${filtered("email~'STUDENT@DASH'")}`, "users");
    expect(idsOf(found.records)).toEqual([ids.ava]);
  });

  it("AND binds tighter than OR", async () => {
    const both = await list(`/users?limit=500&${filtered("role='student' AND grades='03'")}`, "users");
    expect(both.total).toBeGreaterThan(0);
    expect(both.records.every((user) => (user.grades as string[]).includes("03"))).toBe(true);
    const either = await list(`/orgs?${filtered("identifier='MGS' OR identifier='RVS'")}`, "orgs");
    expect(either.total).toBe(2);
    const mixed = await list(
      `/orgs?${filtered("identifier='DDD' OR type='school' AND name~'river'")}`,
      "orgs",
    );
    expect(idsOf(mixed.records).sort()).toEqual([ids.district, ids.riverside].sort());
  });

  it("filters on dotted paths", async () => {
    expect((await list(`/classes?${filtered(`school.sourcedId='${ids.maple}'`)}`, "classes")).total).toBe(16);
    expect((await list(`/classes?${filtered(`course.sourcedId='${ids.mapleMath}'`)}`, "classes")).total).toBe(
      4,
    );
    expect((await list(`/classes?${filtered(`terms.sourcedId='${ids.fall}'`)}`, "classes")).total).toBe(32);
    const inClass = await list(
      `/enrollments?${filtered(`class.sourcedId='${ids.patelMath}'`)}`,
      "enrollments",
    );
    expect(inClass.records.every((enrollment) => (enrollment.class as Ref).sourcedId === ids.patelMath)).toBe(
      true,
    );
    const ofAva = await list(`/enrollments?${filtered(`user.sourcedId='${ids.ava}'`)}`, "enrollments");
    expect(ofAva.total).toBe(4);
    const atRiverside = await list(
      `/users?limit=500&${filtered(`roles.org.sourcedId='${ids.riverside}' AND roles.role='teacher'`)}`,
      "users",
    );
    expect(atRiverside.total).toBe(4);
    const children = await list(`/users?${filtered(`agents.sourcedId='${ids.sam}'`)}`, "users");
    expect(idsOf(children.records).sort()).toEqual([ids.ava, ids.leo].sort());
    const periods = await list(
      `/academicSessions?${filtered(`parent.sourcedId='${ids.fall}'`)}`,
      "academicSessions",
    );
    expect(periods.total).toBe(2);
    const schoolsOf = await list(`/orgs?${filtered(`parent.sourcedId='${ids.district}'`)}`, "orgs");
    expect(schoolsOf.total).toBe(2);
    const withChild = await list(`/orgs?${filtered(`children.sourcedId='${ids.maple}'`)}`, "orgs");
    expect(idsOf(withChild.records)).toEqual([ids.district]);
    const notTeachers = await list(`/users?limit=1&${filtered("roles.role!='teacher'")}`, "users");
    const [teacherCount] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(distinct user_sourced_id)::int as n from user_roles where role = 'teacher'`,
    );
    expect(notTeachers.total).toBe((await list("/users?limit=1", "users")).total - (teacherCount?.n ?? 0));
  });

  it("takes the 1.1 field role on users, in any case", async () => {
    const students = await list("/students?limit=1", "users");
    for (const filter of ["role='student'", "role='STUDENT'", "role='Student'"]) {
      expect((await list(`/users?limit=1&${filtered(filter)}`, "users")).total).toBe(students.total);
    }
    const guides = await list(`/users?limit=100&${filtered("role='teacher'")}`, "users");
    expect(idsOf(guides.records)).toContain(ids.patel);
  });

  it("filters on booleans", async () => {
    const primary = await list(`/enrollments?limit=1000&${filtered("primary='true'")}`, "enrollments");
    expect(primary.total).toBeGreaterThan(0);
    expect(primary.records.every((enrollment) => enrollment.primary === "true")).toBe(true);
    expect((await list(`/users?limit=1&${filtered("enabledUser='false'")}`, "users")).total).toBe(0);
  });

  it("treats quotes and SQL in values as plain text", async () => {
    const quoted = await list(`/users?${filtered("givenName='x'' OR ''1''=''1'")}`, "users");
    expect(quoted.total).toBe(0);
    const comment = await list(`/users?${filtered("familyName='Johnson''; drop table users; --'")}`, "users");
    expect(comment.total).toBe(0);
    expect((await list("/users?limit=1", "users")).total).toBeGreaterThan(100);
  });

  it.each([
    ["givenName", "no operator"],
    ["givenName='Ava' OR 1=1", "a value without quotes"],
    ["givenName='Ava'; drop table users", "text after the value"],
    ["password='x'", "a field the collection does not offer"],
    ["secretField~'x'", "an unknown field"],
    ["dateLastModified>'yesterday'", "a value that is not a date"],
    ["dateLastModified>'2024-02-30T00:00:00Z'", "a date the database refuses"],
    ["startDate<'2024-02-30'", "a calendar day that does not exist"],
    ["enabledUser='yes'", "a boolean that is not true or false"],
    ["grades>'03'", "an order on a list"],
  ])("answers 400 invalid_filter_field to %s (%s)", async (filter) => {
    const path = filter.startsWith("startDate") ? "/academicSessions" : "/users";
    const answer = await call(`${path}?${filtered(filter)}`);
    expect(answer.status).toBe(400);
    expectImsxError(answer.body, "invalid_filter_field");
  });
});

describe("fields and search", () => {
  it("keeps only the fields asked for, in lists and single records", async () => {
    const users = await list("/users?limit=5&fields=sourcedId,givenName", "users");
    for (const user of users.records) expect(Object.keys(user)).toEqual(["sourcedId", "givenName"]);
    const { body } = await call(`/users/${ids.ava}?fields=email,%20roles`);
    expect(Object.keys(body.user as Json)).toEqual(["email", "roles"]);
    // A field of the standard that this record does not have is simply absent.
    const absent = await call(`/users/${ids.ava}?fields=sourcedId,middleName`);
    expect(absent.body.user).toEqual({ sourcedId: ids.ava });
  });

  it("answers 400 invalid_selection_field to an unknown field", async () => {
    for (const path of ["/users?fields=sourcedId,secret", `/classes/${ids.patelMath}?fields=students`]) {
      const answer = await call(path);
      expect(answer.status).toBe(400);
      expectImsxError(answer.body, "invalid_selection_field");
    }
  });

  it("searches names, emails, titles and identifiers, case-insensitively", async () => {
    const johnsons = await list("/users?search=JOHNSON", "users");
    expect(idsOf(johnsons.records)).toEqual(expect.arrayContaining([ids.ava, ids.leo, ids.sam]));
    expect(
      (await list("/users?search=ava%20johnson", "users")).records.map((user) => user.sourcedId),
    ).toEqual([ids.ava]);
    expect(idsOf((await list("/orgs?search=rvs", "orgs")).records)).toEqual([ids.riverside]);
    expect((await list("/classes?search=patel%20group", "classes")).total).toBe(4);
    expect((await list("/courses?search=MGS-MATH", "courses")).total).toBe(1);
    expect((await list("/users?search=100%25", "users")).total).toBe(0);
  });
});

describe("access", () => {
  it("answers 401 unauthorisedrequest without a token or with a bad one", async () => {
    for (const bearer of [null, "not-a-token"]) {
      const answer = await call("/users", bearer);
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toContain("Bearer");
      expectImsxError(answer.body, "unauthorisedrequest");
    }
    const basic = await t.request(`${ONEROSTER_BASE_PATH}/users`, {
      headers: { authorization: "Basic ZGVtby1zaXM6ZGVtby1zaXMtc2VjcmV0" },
    });
    expect(basic.status).toBe(401);
  });

  it("does not take a session cookie instead of a token", async () => {
    const cookie = await t.signIn("admin@dash.demo");
    const response = await t.request(`${ONEROSTER_BASE_PATH}/users`, { cookie });
    expect(response.status).toBe(401);
  });

  it("answers 403 forbidden when the token lacks the endpoint's scope", async () => {
    const core = await demoSisToken(t, ONEROSTER_SCOPES.core);
    expect((await call("/users", core)).status).toBe(200);
    expect((await call(`/classes/${ids.patelMath}`, core)).status).toBe(200);
    for (const path of ["/demographics", `/demographics/${ids.ava}`, `/classes/${ids.patelMath}/students`]) {
      const answer = await call(path, core);
      expect(answer.status).toBe(403);
      expect(answer.headers.get("www-authenticate")).toContain("insufficient_scope");
      expectImsxError(answer.body, "forbidden");
    }

    const full = await demoSisToken(t, ONEROSTER_SCOPES.full);
    expect((await call(`/classes/${ids.patelMath}/students`, full)).status).toBe(200);
    expect((await call("/demographics", full)).status).toBe(403);

    const demographicsOnly = await demoSisToken(t, ONEROSTER_SCOPES.demographics);
    expect((await call("/demographics", demographicsOnly)).status).toBe(200);
    expect((await call("/users", demographicsOnly)).status).toBe(403);
  });

  it("answers unknown endpoints with 404 and writes with 405", async () => {
    const unknown = await call("/students/x/grades");
    expect(unknown.status).toBe(404);
    expectImsxError(unknown.body, "unknownobject");
    const write = await t.request(`${ONEROSTER_BASE_PATH}/users`, {
      method: "POST",
      json: {},
      headers: { authorization: `Bearer ${token}` },
    });
    expect(write.status).toBe(405);
    expect(write.headers.get("allow")).toBe("GET");
  });

  it("answers 429 server_busy with Retry-After past the per-client limit, then recovers", async () => {
    const logger = createLogger("silent");
    const bus = createLocalBus(logger);
    const auth = createAuthService(t.db, authSettingsFromEnv(t.env), bus, t.clock.now);
    const live = createLiveHub({ bus, auth, logger });
    const limited = new Hono().route(
      ONEROSTER_BASE_PATH,
      oneRosterRoutes(
        { ...t.deps, logger, auth, bus, live },
        // Counted apart from the app's own limiter, which the tests above have used.
        { rateLimit: { name: "oneroster-small", limit: 3, windowMs: 60_000 } },
      ),
    );
    const get = () =>
      limited.request(`${ONEROSTER_BASE_PATH}/orgs`, { headers: { authorization: `Bearer ${token}` } });
    for (let request = 0; request < 3; request++) expect((await get()).status).toBe(200);
    const refused = await get();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expectImsxError((await refused.json()) as Json, "server_busy");
    t.clock.advance(60_000);
    expect((await get()).status).toBe(200);
  });
});

async function fallEnd(): Promise<string> {
  const [row] = await queryRows<{ end: string }>(
    t.db,
    sql`select to_char(end_date, 'YYYY-MM-DD') as "end" from academic_sessions where sourced_id = ${ids.fall}`,
  );
  return row?.end ?? "";
}
