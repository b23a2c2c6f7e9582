import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";

let t: TestApp;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const name of ["admin", "guide", "student", "parent"])
    cookies[name] = await t.signIn(`${name}@dash.demo`);
});
afterAll(() => t.close());

const call = async (path: string, as: string, init: { method?: string; json?: unknown } = {}) => {
  const response = await t.request(path, { cookie: cookies[as] ?? as, ...init });
  return { status: response.status, body: await response.json() };
};
const titlesOf = (body: { data: { title: string }[] }) => body.data.map((unit) => unit.title);

const SCIENCE = demoId("course-maple-grove-Science");
const READING = demoId("course-maple-grove-Reading");
const MATH = demoId("course-maple-grove-Math");
const RIVERSIDE_MATH = demoId("course-riverside-Math");
const base = `/api/courses/${SCIENCE}/components`;
const add = (json: unknown, course = SCIENCE) => call(`/api/courses/${course}/components`, "admin", { json });

// Maple Grove's Math course has its rostered units only (its Science course has units built in Dash too).
describe("listing a course's components", () => {
  const mathUnits = `/api/courses/${MATH}/components`;

  it("orders by sortOrder with unsorted components last, in the list answer shape", async () => {
    const { status, body } = await call(mathUnits, "admin");
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, total: 4, error: null });
    expect(titlesOf(body)).toEqual(["Number sense", "Operations", "Fractions", "Math games"]);
    expect(body.data.map((unit: { sortOrder: number | null }) => unit.sortOrder)).toEqual([1, 2, 3, null]);
    expect(body.data[0]).toMatchObject({
      courseSourcedId: MATH,
      status: "active",
      parentComponentSourcedId: null,
    });
  });

  it("keeps unsorted components last when sorting the other way, and sorts by title both ways", async () => {
    const desc = await call(`${mathUnits}?orderBy=desc`, "admin");
    expect(titlesOf(desc.body)).toEqual(["Fractions", "Operations", "Number sense", "Math games"]);
    const byTitle = await call(`${mathUnits}?sort=title&orderBy=desc`, "admin");
    expect(titlesOf(byTitle.body)).toEqual(["Operations", "Number sense", "Math games", "Fractions"]);
  });

  it("pages, searches and filters", async () => {
    const page = await call(`${mathUnits}?offset=1&limit=2`, "admin");
    expect(page.body.total).toBe(4);
    expect(titlesOf(page.body)).toEqual(["Operations", "Fractions"]);
    expect(titlesOf((await call(`${mathUnits}?search=TION`, "admin")).body)).toEqual([
      "Operations",
      "Fractions",
    ]);
    const filtered = await call(
      `${mathUnits}?filter=${encodeURIComponent("sortOrder>='2' OR title='Math games'")}`,
      "admin",
    );
    expect(titlesOf(filtered.body)).toEqual(["Operations", "Fractions", "Math games"]);
    const bad = await call(`${mathUnits}?filter=${encodeURIComponent("sortOrder>='two'")}`, "admin");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      success: false,
      error: "sortOrder is a number up to 2147483647, not 'two'",
    });
  });

  it("is open to the course's Guide and student, and refused to others", async () => {
    expect((await call(base, "guide")).status).toBe(200);
    expect((await call(base, "student")).status).toBe(200);
    expect((await call(`/api/courses/${RIVERSIDE_MATH}/components`, "student")).status).toBe(403);
    expect((await call(`/api/courses/${RIVERSIDE_MATH}/components`, "guide")).status).toBe(403);
    expect((await call(base, "parent")).status).toBe(403);
    expect((await call("/api/courses/unknown/components", "admin")).status).toBe(404);
  });
});

describe("changing components", () => {
  it("adds components: one without sortOrder goes after the sorted ones, by title", async () => {
    const added = await add({ title: "Field trip", metadata: { kind: "unit" } }, READING);
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({
      title: "Field trip",
      sortOrder: null,
      metadata: { kind: "unit" },
    });
    const first = await add({ title: "Letters", sortOrder: 0 }, READING);
    expect(first.body.data.sortOrder).toBe(0);
    const list = await call(`/api/courses/${READING}/components`, "admin");
    expect(titlesOf(list.body)).toEqual([
      "Letters",
      "Phonics and fluency",
      "Vocabulary",
      "Comprehension",
      "Field trip",
      "Reading for fun",
    ]);
  });

  it("edits a component and moves its dateLastModified", async () => {
    const created = (await add({ title: "Draft", sortOrder: 9 })).body.data;
    t.clock.advance(60_000);
    const { status, body } = await call(`${base}/${created.sourcedId}`, "admin", {
      method: "PATCH",
      json: { title: "Weather", sortOrder: null },
    });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ title: "Weather", sortOrder: null });
    expect(body.data.dateLastModified > created.dateLastModified).toBe(true);
  });

  it("nests a component under another of the same course, never under itself or another course's", async () => {
    const unit = (await add({ title: "Plants", sortOrder: 20 })).body.data;
    const part = (await add({ title: "Seeds", parentComponentSourcedId: unit.sourcedId })).body.data;
    expect(part.parentComponentSourcedId).toBe(unit.sourcedId);

    const intoItself = await call(`${base}/${unit.sourcedId}`, "admin", {
      method: "PATCH",
      json: { parentComponentSourcedId: unit.sourcedId },
    });
    expect(intoItself.status).toBe(400);
    expect(intoItself.body.message).toContain("cannot be placed inside itself");
    const intoItsPart = await call(`${base}/${unit.sourcedId}`, "admin", {
      method: "PATCH",
      json: { parentComponentSourcedId: part.sourcedId },
    });
    expect(intoItsPart.status).toBe(400);
    const otherCourse = await add({
      title: "Elsewhere",
      parentComponentSourcedId: demoId("component-maple-grove-Math-0"),
    });
    expect(otherCourse.status).toBe(400);
    expect(otherCourse.body.issues[0].path).toBe("parentComponentSourcedId");

    // A unit with parts cannot be removed until its parts are.
    const blocked = await call(`${base}/${unit.sourcedId}`, "admin", { method: "DELETE" });
    expect(blocked.status).toBe(409);
    expect((await call(`${base}/${part.sourcedId}`, "admin", { method: "DELETE" })).status).toBe(200);
    expect((await call(`${base}/${unit.sourcedId}`, "admin", { method: "DELETE" })).status).toBe(200);
  });

  it("removes a component from the list but keeps it as tobedeleted", async () => {
    const doomed = (await add({ title: "Old unit", sortOrder: 50 })).body.data;
    expect((await call(`${base}/${doomed.sourcedId}`, "admin", { method: "DELETE" })).status).toBe(200);
    expect(titlesOf((await call(base, "admin")).body)).not.toContain("Old unit");
    const removed = await call(`${base}?filter=${encodeURIComponent("status='tobedeleted'")}`, "admin");
    expect(titlesOf(removed.body)).toContain("Old unit");
    expect((await call(`${base}/${doomed.sourcedId}`, "admin", { method: "DELETE" })).status).toBe(404);
  });

  it("reorders components by giving them sortOrder 1, 2, 3…", async () => {
    const course = demoId("course-riverside-Language");
    const list = (await call(`/api/courses/${course}/components`, "admin")).body.data as {
      sourcedId: string;
      title: string;
    }[];
    const reversed = list.map((unit) => unit.sourcedId).reverse();
    const { status } = await call(`/api/courses/${course}/components/order`, "admin", {
      method: "PUT",
      json: { componentIds: reversed },
    });
    expect(status).toBe(200);
    const after = await call(`/api/courses/${course}/components`, "admin");
    expect(titlesOf(after.body)).toEqual(list.map((unit) => unit.title).reverse());
    expect(after.body.data.map((unit: { sortOrder: number }) => unit.sortOrder)).toEqual([1, 2, 3, 4]);

    const foreign = await call(`/api/courses/${course}/components/order`, "admin", {
      method: "PUT",
      json: { componentIds: [demoId("component-maple-grove-Math-0")] },
    });
    expect(foreign.status).toBe(400);
    const twice = await call(`/api/courses/${course}/components/order`, "admin", {
      method: "PUT",
      json: { componentIds: [reversed[0], reversed[0]] },
    });
    expect(twice.status).toBe(400);
  });

  it.each([
    [{ title: "" }, "title"],
    [{ title: "Unit", sortOrder: 1.5 }, "sortOrder"],
    [{ title: "Unit", sortOrder: "1" }, "sortOrder"],
    [{ title: "Unit", metadata: "text" }, "metadata"],
  ])("refuses an invalid component (%#) with 400", async (json, path) => {
    const { status, body } = await add(json);
    expect(status).toBe(400);
    expect(body.issues[0].path).toBe(path);
  });

  it("answers 404 for a component of another course", async () => {
    const { status } = await call(
      `/api/courses/${READING}/components/${demoId("component-maple-grove-Math-0")}`,
      "admin",
      {
        method: "PATCH",
        json: { title: "Moved" },
      },
    );
    expect(status).toBe(404);
  });

  it.each(["guide", "student", "parent"])("refuses every change to a %s", async (as) => {
    const unit = demoId("component-maple-grove-Science-0");
    expect((await call(base, as, { json: { title: "Mine" } })).status).toBe(403);
    expect((await call(`${base}/${unit}`, as, { method: "PATCH", json: { title: "Mine" } })).status).toBe(
      403,
    );
    expect((await call(`${base}/${unit}`, as, { method: "DELETE" })).status).toBe(403);
    expect((await call(`${base}/order`, as, { method: "PUT", json: { componentIds: [unit] } })).status).toBe(
      403,
    );
  });
});
