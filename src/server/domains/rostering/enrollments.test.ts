import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client";
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

const SPANISH = { "accept-language": "es" };
const call = async (
  path: string,
  as: string,
  init: { method?: string; json?: unknown; headers?: Record<string, string> } = {},
) => {
  const response = await t.request(path, { cookie: cookies[as] ?? as, ...init });
  return { status: response.status, body: await response.json() };
};
const list = (query: Record<string, string>, as = "admin") =>
  call(`/api/enrollments?${new URLSearchParams(query)}`, as);
const count = async (where: ReturnType<typeof sql>) => {
  const [row] = await queryRows<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from enrollments e where ${where}`,
  );
  return row?.n ?? -1;
};

interface Row {
  sourcedId: string;
  role: string;
  status: string;
  beginDate: string | null;
  endDate: string | null;
  dateLastModified: string;
  user: { sourcedId: string; givenName: string; familyName: string; email: string | null };
  class: { sourcedId: string; title: string };
  course: { sourcedId: string; title: string } | null;
}

const AVA = demoId("student-ava");
const MAPLE = demoId("maple-grove");
const OKORO_MATH = demoId("class-maple-grove-guide-okoro-Math");
const OKORO_READING = demoId("class-maple-grove-guide-okoro-Reading");
const FISCHER_MATH = demoId("class-riverside-guide-fischer-Math");
const MAPLE_MATH = demoId("course-maple-grove-Math");
const PATEL_CLASSES = ["Math", "Reading", "Language", "Science"].map((subject) =>
  demoId(`class-maple-grove-guide-patel-${subject}`),
);

describe("GET /api/enrollments for an administrator", () => {
  it("shows active students by default, latest begin date first", async () => {
    const { status, body } = await list({});
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, error: null });
    expect(body.total).toBe(await count(sql`e.status = 'active' and e.role = 'student'`));
    expect(body.data).toHaveLength(100);
    const rows = body.data as Row[];
    expect(rows.every((row) => row.role === "student" && row.status === "active")).toBe(true);
    const dates = rows.map((row) => row.beginDate ?? "");
    expect(dates).toEqual([...dates].sort().reverse());
    expect(rows[0]).toMatchObject({
      user: { givenName: expect.any(String), familyName: expect.any(String) },
      class: { title: expect.any(String) },
      course: { title: expect.any(String) },
      school: { name: expect.any(String) },
    });
  });

  it("filters with OneRoster filters (AND, OR) that replace the default", async () => {
    const teachers = await list({ filter: "role='teacher'" });
    expect(teachers.body.total).toBe(await count(sql`e.role = 'teacher'`));
    const either = await list({ filter: "role='teacher' OR role='student'" });
    expect(either.body.total).toBe(await count(sql`e.role in ('teacher', 'student')`));
    const both = await list({ filter: `role='teacher' AND primary='true' AND schoolSourcedId='${MAPLE}'` });
    expect(both.body.total).toBe(16);
    const everything = await list({ filter: "" });
    expect(everything.body.total).toBe(await count(sql`true`));
  });

  it("narrows to a class, a course, a school or a person", async () => {
    const inClass = await list({ classId: PATEL_CLASSES[0] as string, filter: "" });
    expect((inClass.body.data as Row[]).every((row) => row.class.sourcedId === PATEL_CLASSES[0])).toBe(true);
    expect(inClass.body.total).toBe(await count(sql`e.class_sourced_id = ${PATEL_CLASSES[0]}`));
    const inCourse = await list({ courseId: MAPLE_MATH });
    expect((inCourse.body.data as Row[]).every((row) => row.course?.title === "Math K–04")).toBe(true);
    expect(inCourse.body.total).toBeGreaterThan(70);
    const ofAva = await list({ userId: AVA });
    expect(ofAva.body.total).toBe(4);
    const atRiverside = await list({ schoolId: demoId("riverside"), limit: "500" });
    expect((atRiverside.body.data as Row[]).every((row) => !row.class.title.includes("Patel"))).toBe(true);
  });

  it("searches people's names and emails and class titles, case-insensitively", async () => {
    const byName = await list({ search: "AVA JOHNSON" });
    expect(byName.body.total).toBe(4);
    expect((byName.body.data as Row[]).every((row) => row.user.sourcedId === AVA)).toBe(true);
    expect((await list({ search: "student@dash" })).body.total).toBe(4);
    const byClass = await list({ search: "math · patel" });
    expect((byClass.body.data as Row[]).every((row) => row.class.title === "Math · Patel group")).toBe(true);
    expect(byClass.body.total).toBeGreaterThan(10);
  });

  it("sorts by name both ways and pages", async () => {
    const asc = (await list({ sort: "userName", orderBy: "asc", limit: "5" })).body.data as Row[];
    const desc = (await list({ sort: "userName", orderBy: "desc", limit: "5" })).body.data as Row[];
    expect(asc[0]?.user.familyName.localeCompare(desc[0]?.user.familyName ?? "")).toBeLessThan(0);
    const byClass = (await list({ sort: "classTitle", limit: "500" })).body.data as Row[];
    const classTitles = byClass.map((row) => row.class.title.toLowerCase());
    expect(classTitles).toEqual([...classTitles].sort().reverse());
    const all = (await list({ sort: "userName", limit: "20" })).body.data as Row[];
    const second = await list({ sort: "userName", limit: "10", offset: "10" });
    expect((second.body.data as Row[]).map((row) => row.sourcedId)).toEqual(
      all.slice(10).map((row) => row.sourcedId),
    );
  });

  it.each([
    [{ filter: "role='student" }, "no closing quote"],
    [{ filter: "name='Ava'" }, "unknown field: name"],
    [{ filter: "beginDate>'soon'" }, "beginDate is a date"],
    [{ sort: "age" }, "sort is one of"],
    [{ limit: "0" }, "limit is at least 1"],
  ])("refuses %o with 400", async (query, message) => {
    const { status, body } = await list(query);
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, data: [], total: 0 });
    expect(body.error).toContain(message);
  });

  it("says why a filter is refused in the reader's language", async () => {
    const query = new URLSearchParams({ filter: "role='student" });
    const english = await call(`/api/enrollments?${query}`, "admin");
    expect(english.body.error).toBe("Invalid filter at character 14: the value has no closing quote");
    const { status, body } = await call(`/api/enrollments?${query}`, "admin", { headers: SPANISH });
    expect(status).toBe(400);
    expect(body).toMatchObject({
      success: false,
      code: "bad_request",
      error: "Filtro no válido en el carácter 14: falta la comilla que cierra el valor",
      message: "Filtro no válido en el carácter 14: falta la comilla que cierra el valor",
    });
  });
});

describe("GET /api/enrollments for other roles", () => {
  it("gives a Guide only the enrollments of the classes they teach", async () => {
    const { status, body } = await list({ filter: "", limit: "500" }, "guide");
    expect(status).toBe(200);
    const classIds = new Set((body.data as Row[]).map((row) => row.class.sourcedId));
    expect([...classIds].sort()).toEqual([...PATEL_CLASSES].sort());
    expect(body.total).toBe(
      await count(
        sql`e.class_sourced_id in (${sql.join(
          PATEL_CLASSES.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      ),
    );
  });

  it("gives a Guide nothing from another course or class, whatever they ask", async () => {
    expect((await list({ courseId: demoId("course-riverside-Math") }, "guide")).body.total).toBe(0);
    expect((await list({ classId: OKORO_MATH, filter: "" }, "guide")).body.total).toBe(0);
    expect((await list({ search: "leo johnson" }, "guide")).body.total).toBe(0);
  });

  it("gives a co-teacher only their co-taught class", async () => {
    const { body } = await list({ filter: "", limit: "500" }, "multi");
    const titles = new Set((body.data as Row[]).map((row) => row.class.title));
    expect([...titles]).toEqual(["Science · Patel group"]);
  });

  it.each(["student", "parent", "guardian", "proctor"])("refuses a %s", async (as) => {
    const { status, body } = await list({}, as);
    expect(status).toBe(403);
    expect(body.success).toBe(false);
  });
});

describe("adding an enrollment", () => {
  it("enrolls a student in a class of their school, dated today by default", async () => {
    const { status, body } = await call("/api/enrollments", "admin", {
      json: { userSourcedId: AVA, classSourcedId: OKORO_READING, role: "student" },
    });
    expect(status).toBe(201);
    expect(body.data).toMatchObject({
      status: "active",
      role: "student",
      primary: false,
      beginDate: t.clock.now().toISOString().slice(0, 10),
      endDate: null,
      user: { sourcedId: AVA, givenName: "Ava" },
      class: { sourcedId: OKORO_READING, title: "Reading · Okoro group" },
      school: { sourcedId: MAPLE, name: "Maple Grove School" },
    });
    expect((await list({ userId: AVA })).body.total).toBe(5);
  });

  it("refuses a second active enrollment of the same person, class and role with 409", async () => {
    const { status, body } = await call("/api/enrollments", "admin", {
      json: {
        userSourcedId: AVA,
        classSourcedId: PATEL_CLASSES[0],
        role: "student",
        beginDate: "2025-09-01",
      },
    });
    expect(status).toBe(409);
    expect(body.message).toBe("Ava Johnson is already enrolled in this class as student");
    const spanish = await call("/api/enrollments", "admin", {
      json: { userSourcedId: AVA, classSourcedId: PATEL_CLASSES[0], role: "student" },
      headers: SPANISH,
    });
    expect(spanish.status).toBe(409);
    expect(spanish.body.message).toBe("Ava Johnson ya está inscrito en esta clase como estudiante");
  });

  it("names the field a person cannot be enrolled for, in the reader's language", async () => {
    const json = { userSourcedId: AVA, classSourcedId: OKORO_MATH, role: "teacher" };
    const english = await call("/api/enrollments", "admin", { json });
    expect(english.body.issues).toEqual([
      { path: "role", message: "Ava Johnson does not hold the teacher role at Maple Grove School" },
    ]);
    const { status, body } = await call("/api/enrollments", "admin", { json, headers: SPANISH });
    expect(status).toBe(400);
    expect(body).toMatchObject({
      code: "validation_failed",
      message: "Solicitud no válida: role: Ava Johnson no tiene el rol de Guía en Maple Grove School",
      issues: [{ path: "role", message: "Ava Johnson no tiene el rol de Guía en Maple Grove School" }],
    });
  });

  it("enrolls a Guide as the primary teacher", async () => {
    const { status, body } = await call("/api/enrollments", "admin", {
      json: {
        userSourcedId: demoId("guide-patel"),
        classSourcedId: OKORO_MATH,
        role: "teacher",
        primary: true,
        beginDate: "2025-09-01",
      },
    });
    expect(status).toBe(201);
    expect(body.data).toMatchObject({ role: "teacher", primary: true, beginDate: "2025-09-01" });
  });

  it.each([
    [
      { userSourcedId: AVA, classSourcedId: OKORO_MATH, role: "teacher" },
      "role",
      "does not hold the teacher role",
    ],
    [{ userSourcedId: AVA, classSourcedId: FISCHER_MATH, role: "student" }, "role", "at Riverside School"],
    [{ userSourcedId: demoId("parent-sam"), classSourcedId: OKORO_MATH, role: "student" }, "role", "student"],
    [{ userSourcedId: AVA, classSourcedId: "no-class", role: "student" }, "classSourcedId", "No class"],
    [{ userSourcedId: "nobody", classSourcedId: OKORO_MATH, role: "student" }, "userSourcedId", "No person"],
    [
      { userSourcedId: AVA, classSourcedId: OKORO_MATH, role: "student", primary: true },
      "primary",
      "Only a teacher",
    ],
    [{ userSourcedId: AVA, classSourcedId: OKORO_MATH, role: "parent" }, "role", "role is one of"],
    [
      { userSourcedId: AVA, classSourcedId: OKORO_MATH, role: "student", beginDate: "2025-02-30" },
      "beginDate",
      "yyyy-MM-dd",
    ],
    [{ classSourcedId: OKORO_MATH, role: "student" }, "userSourcedId", "Choose a person"],
  ])("refuses %o with 400", async (json, path, message) => {
    const { status, body } = await call("/api/enrollments", "admin", { json });
    expect(status).toBe(400);
    expect(body.issues[0].path).toBe(path);
    expect(body.message).toContain(message);
  });

  it.each(["guide", "student", "parent", "proctor"])("refuses a %s", async (as) => {
    const { status } = await call("/api/enrollments", as, {
      json: { userSourcedId: AVA, classSourcedId: OKORO_MATH, role: "student" },
    });
    expect(status).toBe(403);
  });
});

describe("ending an enrollment", () => {
  const enroll = async (classId: string) =>
    (
      await call("/api/enrollments", "admin", {
        json: {
          userSourcedId: demoId("student-leo"),
          classSourcedId: classId,
          role: "student",
          beginDate: "2025-09-01",
        },
      })
    ).body.data as Row;

  it("ends it today by default and keeps it, as tobedeleted, for history", async () => {
    const enrollment = await enroll(demoId("class-riverside-guide-mensah-Math"));
    t.clock.advance(60_000);
    const { status, body } = await call(`/api/enrollments/${enrollment.sourcedId}/end`, "admin", {
      json: {},
    });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      sourcedId: enrollment.sourcedId,
      status: "tobedeleted",
      endDate: t.clock.now().toISOString().slice(0, 10),
    });
    expect(body.data.dateLastModified > enrollment.dateLastModified).toBe(true);
    // Gone from the default list, still there for history.
    const active = await list({ userId: demoId("student-leo") });
    expect((active.body.data as Row[]).map((row) => row.sourcedId)).not.toContain(enrollment.sourcedId);
    const ended = await list({ userId: demoId("student-leo"), filter: "status='tobedeleted'" });
    expect((ended.body.data as Row[]).map((row) => row.sourcedId)).toEqual([enrollment.sourcedId]);
    // Ending twice is a conflict; enrolling again is allowed.
    expect((await call(`/api/enrollments/${enrollment.sourcedId}/end`, "admin", { json: {} })).status).toBe(
      409,
    );
    expect((await enroll(demoId("class-riverside-guide-mensah-Math"))).status).toBe("active");
  });

  it("ends it on a chosen day, not before it began nor in the future", async () => {
    const enrollment = await enroll(demoId("class-riverside-guide-mensah-Reading"));
    const early = await call(`/api/enrollments/${enrollment.sourcedId}/end`, "admin", {
      json: { endDate: "2025-08-01" },
    });
    expect(early.status).toBe(400);
    expect(early.body.message).toContain("before the begin date");
    const future = await call(`/api/enrollments/${enrollment.sourcedId}/end`, "admin", {
      json: { endDate: "2999-01-01" },
    });
    expect(future.status).toBe(400);
    const chosen = await call(`/api/enrollments/${enrollment.sourcedId}/end`, "admin", {
      json: { endDate: "2025-10-15" },
    });
    expect(chosen.status).toBe(200);
    expect(chosen.body.data.endDate).toBe("2025-10-15");
  });

  it("answers 404 for an unknown enrollment and refuses non-administrators", async () => {
    expect((await call("/api/enrollments/nope/end", "admin", { json: {} })).status).toBe(404);
    const spanish = await call("/api/enrollments/nope/end", "admin", { json: {}, headers: SPANISH });
    expect(spanish).toMatchObject({
      status: 404,
      body: { code: "not_found", message: "Ninguna inscripción tiene este id" },
    });
    const [target] = (await list({ userId: AVA })).body.data as Row[];
    for (const as of ["guide", "student", "parent"]) {
      expect((await call(`/api/enrollments/${target?.sourcedId}/end`, as, { json: {} })).status).toBe(403);
    }
    expect((await list({ userId: AVA })).body.data.map((row: Row) => row.sourcedId)).toContain(
      target?.sourcedId,
    );
  });
});
