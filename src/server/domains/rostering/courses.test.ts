import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";

let t: TestApp;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const name of ["admin", "guide", "student", "parent", "guardian", "proctor", "multi"]) {
    cookies[name] = await t.signIn(`${name}@dash.demo`);
  }
});
afterAll(() => t.close());

const call = async (path: string, as: string, init: { method?: string; json?: unknown } = {}) => {
  const response = await t.request(path, { cookie: cookies[as] ?? as, ...init });
  return { status: response.status, body: await response.json() };
};
const titles = (body: { data: { title: string }[] }) => body.data.map((course) => course.title);

const MAPLE = demoId("maple-grove");
const RIVERSIDE = demoId("riverside");
const MAPLE_MATH = demoId("course-maple-grove-Math");
const RIVERSIDE_MATH = demoId("course-riverside-Math");
const MAPLE_TITLES = ["Language K–04", "Math K–04", "Reading K–04", "Science K–04"];
const RIVERSIDE_TITLES = ["Language 05–08", "Math 05–08", "Reading 05–08", "Science 05–08"];

describe("GET /api/courses for an administrator", () => {
  it("lists every course by title, with the { success, data, total, error } answer", async () => {
    const { status, body } = await call("/api/courses", "admin");
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, total: 8, error: null });
    expect(titles(body)).toEqual([...RIVERSIDE_TITLES, ...MAPLE_TITLES].sort((a, b) => a.localeCompare(b)));
    const math = body.data.find((course: { sourcedId: string }) => course.sourcedId === MAPLE_MATH);
    expect(math).toMatchObject({
      title: "Math K–04",
      courseCode: "MGS-MATH",
      subjects: ["Math"],
      grades: ["KG", "01", "02", "03", "04"],
      orgSourcedId: MAPLE,
      orgName: "Maple Grove School",
      classCount: 4,
      learners: [],
    });
    expect(math.studentCount).toBeGreaterThan(70);
    expect(math.schoolYearTitle).toMatch(/^\d{4}-\d{4}$/);
    expect(Date.parse(math.dateLastModified)).not.toBeNaN();
  });

  it("sorts both ways on whitelisted fields and pages with offset and limit", async () => {
    const desc = await call("/api/courses?orderBy=desc", "admin");
    expect(titles(desc.body)[0]).toBe("Science K–04");
    const byCode = await call("/api/courses?sort=courseCode&orderBy=asc&limit=3", "admin");
    expect(byCode.body.data.map((course: { courseCode: string }) => course.courseCode)).toEqual([
      "MGS-LANG",
      "MGS-MATH",
      "MGS-READ",
    ]);
    expect(byCode.body.total).toBe(8);
    const byOrg = await call("/api/courses?sort=orgName&orderBy=desc&limit=4", "admin");
    expect(new Set(byOrg.body.data.map((course: { orgName: string }) => course.orgName))).toEqual(
      new Set(["Riverside School"]),
    );
    const second = await call("/api/courses?offset=3&limit=3", "admin");
    expect(titles(second.body)).toEqual(titles((await call("/api/courses", "admin")).body).slice(3, 6));
    const pastTheEnd = await call("/api/courses?offset=40", "admin");
    expect(pastTheEnd.body).toMatchObject({ success: true, data: [], total: 8 });
  });

  it("searches titles and codes case-insensitively", async () => {
    expect(titles((await call("/api/courses?search=MATH", "admin")).body)).toEqual([
      "Math 05–08",
      "Math K–04",
    ]);
    expect((await call("/api/courses?search=rvs-", "admin")).body.total).toBe(4);
    expect((await call("/api/courses?search=%25", "admin")).body.total).toBe(0);
  });

  it("filters with OneRoster filters, AND and OR", async () => {
    const either = await call(
      `/api/courses?filter=${encodeURIComponent("subjects='Math' OR subjects='Science'")}`,
      "admin",
    );
    expect(either.body.total).toBe(4);
    const both = await call(
      `/api/courses?filter=${encodeURIComponent(`orgSourcedId='${RIVERSIDE}' AND subjects='Math'`)}`,
      "admin",
    );
    expect(titles(both.body)).toEqual(["Math 05–08"]);
    const contains = await call(`/api/courses?filter=${encodeURIComponent("title~'k–0'")}`, "admin");
    expect(contains.body.total).toBe(4);
  });

  it.each([
    ["filter=title%3D'unclosed", "no closing quote"],
    ["filter=colour%3D'red'", "unknown field: colour"],
    ["sort=colour", "sort is one of"],
    ["orderBy=up", "orderBy is asc or desc"],
    ["limit=1000", "limit is at most 500"],
    ["offset=-1", "offset cannot be negative"],
  ])("refuses %s with 400 and a readable error", async (query, message) => {
    const { status, body } = await call(`/api/courses?${query}`, "admin");
    expect(status).toBe(400);
    expect(body.success).toBe(false);
    expect(body.data).toEqual([]);
    expect(body.error).toContain(message);
    expect(body.message).toContain(message);
  });
});

describe("GET /api/courses for other roles", () => {
  it("gives a Guide the courses of the classes they teach", async () => {
    const { status, body } = await call("/api/courses", "guide");
    expect(status).toBe(200);
    expect(titles(body)).toEqual(MAPLE_TITLES);
    // Only the Guide's own class counts.
    expect(body.data.every((course: { classCount: number }) => course.classCount === 1)).toBe(true);
    expect(body.data[0].studentCount).toBeGreaterThan(10);
    expect(body.data[0].studentCount).toBeLessThan(30);
  });

  it("gives a co-teaching Guide only the course they teach", async () => {
    expect(titles((await call("/api/courses", "multi")).body)).toEqual(["Science K–04"]);
  });

  it("gives a parent their children's courses, naming the child", async () => {
    const { body } = await call("/api/courses", "parent");
    expect(body.total).toBe(8);
    const learnersOf = (title: string) =>
      body.data
        .find((course: { title: string }) => course.title === title)
        .learners.map((learner: { givenName: string }) => learner.givenName);
    expect(learnersOf("Math K–04")).toEqual(["Ava"]);
    expect(learnersOf("Math 05–08")).toEqual(["Leo"]);
  });

  it("gives a guardian only their ward's courses", async () => {
    expect(titles((await call("/api/courses", "guardian")).body)).toEqual(MAPLE_TITLES);
  });

  it("gives a proctor the courses of their school", async () => {
    const { body } = await call("/api/courses", "proctor");
    expect(titles(body)).toEqual(MAPLE_TITLES);
    expect(body.data[0].classCount).toBe(4);
  });

  it("refuses students, who have no courses index", async () => {
    const { status, body } = await call("/api/courses", "student");
    expect(status).toBe(403);
    expect(body).toMatchObject({ success: false, code: "forbidden" });
  });

  it("refuses a Guide who is acting as a student", async () => {
    const { status } = await call("/api/courses", `${cookies.multi}; selectedUserRole=student`);
    expect(status).toBe(403);
  });

  it("answers 401 without a session", async () => {
    expect((await t.request("/api/courses")).status).toBe(401);
  });
});

describe("GET /api/courses/:courseId", () => {
  it("gives an administrator every class with its teachers and students, the units and the enrollment counts", async () => {
    const { status, body } = await call(`/api/courses/${MAPLE_MATH}`, "admin");
    expect(status).toBe(200);
    const { course, classes, components, enrollmentCounts } = body.data;
    expect(course.title).toBe("Math K–04");
    expect(classes).toHaveLength(4);
    const patel = classes.find((entry: { title: string }) => entry.title === "Math · Patel group");
    expect(patel.teachers).toEqual([
      { sourcedId: demoId("guide-patel"), givenName: "Maya", familyName: "Patel" },
    ]);
    expect(patel.studentCount).toBeGreaterThan(10);
    expect(patel.schoolName).toBe("Maple Grove School");
    expect(components.map((unit: { title: string }) => unit.title)).toEqual([
      "Number sense",
      "Operations",
      "Fractions",
      "Math games",
    ]);
    expect(components.at(-1).sortOrder).toBeNull();
    expect(enrollmentCounts).toEqual(
      expect.arrayContaining([
        { role: "student", status: "active", count: expect.any(Number) },
        { role: "teacher", status: "active", count: 4 },
      ]),
    );
  });

  it("gives a Guide only their own class of the course", async () => {
    const { status, body } = await call(`/api/courses/${MAPLE_MATH}`, "guide");
    expect(status).toBe(200);
    expect(body.data.classes.map((entry: { title: string }) => entry.title)).toEqual(["Math · Patel group"]);
    expect(body.data.enrollmentCounts).not.toBeNull();
  });

  it("gives a student their own class, without enrollment counts", async () => {
    const { status, body } = await call(`/api/courses/${MAPLE_MATH}`, "student");
    expect(status).toBe(200);
    expect(body.data.classes.map((entry: { title: string }) => entry.title)).toEqual(["Math · Patel group"]);
    expect(body.data.components).toHaveLength(4);
    expect(body.data.enrollmentCounts).toBeNull();
  });

  it("refuses a student a course they are not enrolled in", async () => {
    const { status, body } = await call(`/api/courses/${RIVERSIDE_MATH}`, "student");
    expect(status).toBe(403);
    expect(body.message).toBe("You are not enrolled in or teaching this course");
  });

  it("lets a Guide who is also a student open, as a student, only the course they take", async () => {
    const asStudent = `${cookies.multi}; selectedUserRole=student`;
    expect((await call(`/api/courses/${MAPLE_MATH}`, asStudent)).status).toBe(200);
    expect((await call(`/api/courses/${demoId("course-maple-grove-Science")}`, asStudent)).status).toBe(403);
  });

  it("refuses a Guide a course they do not teach", async () => {
    expect((await call(`/api/courses/${RIVERSIDE_MATH}`, "guide")).status).toBe(403);
  });

  it.each(["parent", "guardian", "proctor"])("refuses the course page's data to a %s", async (as) => {
    expect((await call(`/api/courses/${MAPLE_MATH}`, as)).status).toBe(403);
  });

  it("answers 404 for an unknown course", async () => {
    expect((await call("/api/courses/no-such-course", "admin")).status).toBe(404);
  });
});

describe("creating and editing courses", () => {
  const valid = {
    title: "Coding K–4",
    courseCode: "MGS-CODE",
    grades: ["KG", "01"],
    subjects: ["Computer Science"],
    orgSourcedId: MAPLE,
  };

  it("creates a course and lists it", async () => {
    const before = t.clock.now().toISOString();
    const { status, body } = await call("/api/courses", "admin", { json: valid });
    expect(status).toBe(201);
    expect(body.data).toMatchObject({
      ...valid,
      status: "active",
      orgName: "Maple Grove School",
      schoolYearSourcedId: null,
      classCount: 0,
    });
    expect(body.data.dateLastModified >= before.slice(0, 19)).toBe(true);
    const listed = await call("/api/courses?search=coding", "admin");
    expect(listed.body.data.map((course: { sourcedId: string }) => course.sourcedId)).toEqual([
      body.data.sourcedId,
    ]);
    const detail = await call(`/api/courses/${body.data.sourcedId}`, "admin");
    expect(detail.body.data).toMatchObject({ classes: [], components: [] });
  });

  it.each([
    [{ ...valid, title: "  " }, "title", "Give the course a title"],
    [{ ...valid, title: undefined }, "title", "Give the course a title"],
    [{ ...valid, grades: ["3rd"] }, "grades.0", "Grades are CEDS levels"],
    [{ ...valid, grades: ["01", "01"] }, "grades", "List each grade once"],
    [{ ...valid, orgSourcedId: "" }, "orgSourcedId", "The organisation is required"],
    [{ ...valid, orgSourcedId: "nowhere" }, "orgSourcedId", "No active organization has this id"],
    [{ ...valid, schoolYearSourcedId: "never" }, "schoolYearSourcedId", "No school year has this id"],
  ])("refuses an invalid course (%#) with 400", async (json, path, message) => {
    const { status, body } = await call("/api/courses", "admin", { json });
    expect(status).toBe(400);
    expect(body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    expect(body.message).toContain(message);
  });

  it("edits a course and moves its dateLastModified", async () => {
    const created = (await call("/api/courses", "admin", { json: { ...valid, title: "Art K–4" } })).body.data;
    t.clock.advance(60_000);
    const { status, body } = await call(`/api/courses/${created.sourcedId}`, "admin", {
      method: "PATCH",
      json: { title: "Art and design K–4", courseCode: "", status: "tobedeleted" },
    });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ title: "Art and design K–4", courseCode: null, status: "tobedeleted" });
    expect(body.data.dateLastModified > created.dateLastModified).toBe(true);
  });

  it("refuses an empty or invalid edit and an unknown course", async () => {
    const empty = await call(`/api/courses/${MAPLE_MATH}`, "admin", { method: "PATCH", json: {} });
    expect(empty.status).toBe(400);
    const badStatus = await call(`/api/courses/${MAPLE_MATH}`, "admin", {
      method: "PATCH",
      json: { status: "gone" },
    });
    expect(badStatus.status).toBe(400);
    const unknown = await call("/api/courses/nope", "admin", { method: "PATCH", json: { title: "X" } });
    expect(unknown.status).toBe(404);
  });

  it.each(["guide", "student", "parent", "proctor"])("refuses creating and editing to a %s", async (as) => {
    expect((await call("/api/courses", as, { json: valid })).status).toBe(403);
    const edit = await call(`/api/courses/${MAPLE_MATH}`, as, { method: "PATCH", json: { title: "Hacked" } });
    expect(edit.status).toBe(403);
    expect((await call(`/api/courses/${MAPLE_MATH}`, "admin")).body.data.course.title).toBe("Math K–04");
  });
});

describe("GET /api/course-options", () => {
  it("lists organisations and school years for the course form", async () => {
    const { status, body } = await call("/api/course-options", "admin");
    expect(status).toBe(200);
    expect(body.data.orgs.map((org: { name: string }) => org.name)).toEqual([
      "Dash Demo District",
      "Maple Grove School",
      "Riverside School",
    ]);
    expect(body.data.schoolYears).toHaveLength(1);
  });

  it("is for administrators only", async () => {
    expect((await call("/api/course-options", "guide")).status).toBe(403);
  });
});
