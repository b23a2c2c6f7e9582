import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  LessonListRow,
  Syllabus,
  SyllabusHistoryEntry,
  SyllabusLesson,
  SyllabusUnit,
} from "../../../shared/contracts/content";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";

let t: TestApp;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent", "proctor"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
  await seedBank();
});
afterAll(() => t.close());

const ADMIN = demoId("admin");
const GUIDE = demoId("guide-patel");
const AVA = demoId("student-ava");
const SCIENCE = demoId("course-maple-grove-Science");
const READING = demoId("course-maple-grove-Reading");
const MATH = demoId("course-maple-grove-Math");
const LANGUAGE = demoId("course-maple-grove-Language");
const RIVERSIDE_MATH = demoId("course-riverside-Math");

async function call(who: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await t.request(`/api/content${path}`, { ...init, cookie: cookies[who] });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** An edit that must succeed: its syllabus and the id it names. */
async function edit(
  who: string,
  path: string,
  init: { method?: string; json?: unknown },
): Promise<{ syllabus: Syllabus; id: string | null }> {
  const { status, body } = await call(who, path, init);
  if (status !== 200 && status !== 201) throw new Error(`${path}: ${status} ${JSON.stringify(body)}`);
  expect(body.success).toBe(true);
  return body.response;
}

const syllabusOf = async (courseId: string, who = "admin"): Promise<Syllabus> => {
  const { status, body } = await call(who, `/courses/${courseId}/syllabus`);
  expect(status).toBe(200);
  return body.response.syllabus;
};
const unitOf = (syllabus: Syllabus, unitId: string) =>
  syllabus.units.find((unit) => unit.sourcedId === unitId) as SyllabusUnit;
const lessonOf = (syllabus: Syllabus, lessonId: string) =>
  syllabus.units
    .flatMap((unit) => unit.lessons)
    .find((lesson) => lesson.sourcedId === lessonId) as SyllabusLesson;
const titles = (entries: { title: string }[]) => entries.map((entry) => entry.title);

const addUnit = (courseId: string, title: string, who = "admin") =>
  edit(who, `/courses/${courseId}/syllabus/units`, { json: { title } });
const addLesson = (courseId: string, unitId: string, title: string, who = "admin") =>
  edit(who, `/courses/${courseId}/syllabus/lessons`, { json: { unitId, title } });
const addResource = (courseId: string, lessonId: string, resource: Record<string, unknown>, who = "admin") =>
  edit(who, `/courses/${courseId}/syllabus/resources`, { json: { lessonId, ...resource } });

const ITEMS = ["syllabus-item-1", "syllabus-item-2", "syllabus-item-3"];
const TEST = "syllabus-test-1";

/** A few bank documents, written as the bank stores them, for resources to refer to. */
async function seedBank() {
  for (const identifier of ITEMS)
    await t.db.execute(
      sql`insert into qti_documents (kind, identifier, title, raw_xml, interactions)
        values ('item', ${identifier}, ${`Question ${identifier}`}, '<qti-assessment-item/>', array['choice'])`,
    );
  await t.db.execute(
    sql`insert into qti_documents (kind, identifier, title, raw_xml, "references")
      values ('test', ${TEST}, 'Unit check', '<qti-assessment-test/>', array['syllabus-item-3', 'syllabus-item-1'])`,
  );
}

describe("reading a syllabus", () => {
  it("answers the course and its units in order, unsorted last, in the fetchSyllabus shape", async () => {
    const { status, body } = await call("admin", `/courses/${SCIENCE}/syllabus`);
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    const syllabus = body.response.syllabus as Syllabus;
    expect(syllabus.course).toMatchObject({ sourcedId: SCIENCE, title: expect.any(String) });
    expect(syllabus.course.subjects).toContain("Science");
    // The rostered units, and the demo's two built in Dash (seed/demo-content.ts) before the unsorted one.
    expect(titles(syllabus.units)).toEqual([
      "Life science",
      "Earth and space",
      "Physical science",
      "Life in the ocean",
      "Measuring the ocean",
      "Investigations",
    ]);
    expect(syllabus.units.map((unit) => unit.sortOrder)).toEqual([1, 2, 3, 4, 5, null]);
    expect(syllabus.units.map((unit) => unit.lessons.map((lesson) => lesson.title))).toEqual([
      [],
      [],
      [],
      ["Meet the octopus", "Ocean food chains"],
      ["How much ocean?", "The deep, dark ocean"],
      [],
    ]);
  });

  it("orders lessons and resources by sortOrder with unsorted ones last, then by title", async () => {
    const unitId = (await addUnit(READING, "Ordering")).id as string;
    const lessonIds: Record<string, string> = {};
    for (const title of ["Zebra", "Apple", "Mango", "Banana"])
      lessonIds[title] = (await addLesson(READING, unitId, title)).id as string;
    // Two lessons lose their order, as lessons made elsewhere may have none.
    await t.db.execute(
      sql`update course_components set sort_order = null where sourced_id in (${lessonIds.Zebra}, ${lessonIds.Banana})`,
    );
    const lessonId = lessonIds.Apple as string;
    for (const title of ["Third", "First", "Second"])
      await addResource(READING, lessonId, { kind: "video", title, videoUrl: "https://example.org/v.mp4" });
    await t.db.execute(sql`update lesson_resources set sort_order = null where title = 'First'`);
    const syllabus = await syllabusOf(READING);
    expect(titles(unitOf(syllabus, unitId).lessons)).toEqual(["Apple", "Mango", "Banana", "Zebra"]);
    expect(titles(lessonOf(syllabus, lessonId).resources)).toEqual(["Third", "Second", "First"]);
    expect(lessonOf(syllabus, lessonId)).toMatchObject({
      expectedXp: 10,
      masteryPercent: 80,
      descriptionHtml: null,
    });
  });

  it("is open to the course's Guide and enrolled student, and a 404 to everyone else", async () => {
    expect((await call("guide", `/courses/${SCIENCE}/syllabus`)).status).toBe(200);
    expect((await call("student", `/courses/${SCIENCE}/syllabus`)).status).toBe(200);
    for (const who of ["guide", "student", "parent", "proctor"]) {
      const refused = await call(who, `/courses/${RIVERSIDE_MATH}/syllabus`);
      expect(refused.status, who).toBe(404);
      expect(refused.body.message).toMatch(/not open to you/);
    }
    expect((await call("parent", `/courses/${SCIENCE}/syllabus`)).status).toBe(404);
    expect((await call("admin", "/courses/no-such-course/syllabus")).status).toBe(404);
  });

  it("closes once the student's enrollment ends", async () => {
    const ended = await queryRows<{ id: string }>(
      t.db,
      sql`update enrollments e set status = 'tobedeleted' from classes k
        where k.sourced_id = e.class_sourced_id and k.course_sourced_id = ${MATH}
          and e.user_sourced_id = ${AVA} and e.status = 'active'
        returning e.sourced_id as id`,
    );
    expect(ended.length).toBeGreaterThan(0);
    try {
      expect((await call("student", `/courses/${MATH}/syllabus`)).status).toBe(404);
    } finally {
      await t.db.execute(
        sql`update enrollments set status = 'active' where sourced_id in (${sql.join(
          ended.map((row) => sql`${row.id}`),
          sql`, `,
        )})`,
      );
    }
  });
});

describe("units and lessons", () => {
  it("adds a unit after the sorted ones, renames it and removes it once it is empty", async () => {
    const created = await addUnit(SCIENCE, "  Weather  ");
    const unitId = created.id as string;
    expect(titles(created.syllabus.units)).toEqual([
      "Life science",
      "Earth and space",
      "Physical science",
      "Life in the ocean",
      "Measuring the ocean",
      "Weather",
      "Investigations",
    ]);
    expect(unitOf(created.syllabus, unitId).sortOrder).toBe(6);

    const renamed = await edit("admin", `/courses/${SCIENCE}/syllabus/units/${unitId}`, {
      method: "PATCH",
      json: { title: "Weather and climate" },
    });
    expect(unitOf(renamed.syllabus, unitId).title).toBe("Weather and climate");

    const lessonId = (await addLesson(SCIENCE, unitId, "Clouds")).id as string;
    const full = await call("admin", `/courses/${SCIENCE}/syllabus/units/${unitId}`, { method: "DELETE" });
    expect(full.status).toBe(409);
    expect(full.body.message).toMatch(/still has lessons/);

    await edit("admin", `/courses/${SCIENCE}/syllabus/lessons/${lessonId}`, { method: "DELETE" });
    const removed = await edit("admin", `/courses/${SCIENCE}/syllabus/units/${unitId}`, { method: "DELETE" });
    expect(removed.id).toBeNull();
    expect(unitOf(removed.syllabus, unitId)).toBeUndefined();
    const [row] = await queryRows<{ status: string }>(
      t.db,
      sql`select status from course_components where sourced_id = ${unitId}`,
    );
    expect(row?.status).toBe("tobedeleted");
  });

  it("creates a lesson with default settings, and records who changed its settings and when", async () => {
    const unitId = scienceUnit(0);
    const created = await addLesson(SCIENCE, unitId, "Cells", "guide");
    const lessonId = created.id as string;
    expect(lessonOf(created.syllabus, lessonId)).toMatchObject({
      title: "Cells",
      sortOrder: 1,
      expectedXp: 10,
      masteryPercent: 80,
      resources: [],
    });
    const [made] = await queryRows<{ updatedBy: string; parent: string }>(
      t.db,
      sql`select s.updated_by as "updatedBy", m.parent_component_sourced_id as parent
        from lessons s join course_components m on m.sourced_id = s.component_sourced_id
        where s.component_sourced_id = ${lessonId}`,
    );
    expect(made).toEqual({ updatedBy: GUIDE, parent: unitId });

    t.clock.advance(60_000);
    const updated = await edit("admin", `/courses/${SCIENCE}/syllabus/lessons/${lessonId}`, {
      method: "PATCH",
      json: {
        title: "Cells and tissues",
        expectedXp: 22.5,
        masteryPercent: 90,
        descriptionHtml: '<p onclick="steal()">Look <b>closely</b></p><script>alert(1)</script>',
      },
    });
    expect(lessonOf(updated.syllabus, lessonId)).toMatchObject({
      title: "Cells and tissues",
      expectedXp: 22.5,
      masteryPercent: 90,
      descriptionHtml: "<p>Look <b>closely</b></p>",
    });
    const [changed] = await queryRows<{ updatedBy: string; updatedAt: string }>(
      t.db,
      sql`select updated_by as "updatedBy", to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') as "updatedAt"
        from lessons where component_sourced_id = ${lessonId}`,
    );
    expect(changed?.updatedBy).toBe(ADMIN);
    expect(changed?.updatedAt).toBe(t.clock.now().toISOString().slice(0, 19));

    const cleared = await edit("admin", `/courses/${SCIENCE}/syllabus/lessons/${lessonId}`, {
      method: "PATCH",
      json: { descriptionHtml: "<p> </p>" },
    });
    expect(lessonOf(cleared.syllabus, lessonId).descriptionHtml).toBeNull();
  });

  it("numbers lessons added at the same moment one after another", async () => {
    const unitId = (await addUnit(SCIENCE, "Busy")).id as string;
    const added = await Promise.all(
      ["One", "Two", "Three", "Four", "Five"].map((title) => addLesson(SCIENCE, unitId, title, "guide")),
    );
    const lessons = unitOf(await syllabusOf(SCIENCE), unitId).lessons;
    expect(lessons.map((lesson) => lesson.sortOrder)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(lessons.map((lesson) => lesson.sourcedId))).toEqual(
      new Set(added.map((change) => change.id)),
    );
  });

  it("refuses settings out of range and empty changes, in the request's language", async () => {
    const unitId = scienceUnit(1);
    const lessonId = (await addLesson(SCIENCE, unitId, "Rocks")).id as string;
    const path = `/courses/${SCIENCE}/syllabus/lessons/${lessonId}`;
    for (const json of [
      { expectedXp: 501 },
      { expectedXp: -1 },
      { expectedXp: 1.234 },
      { masteryPercent: 0 },
      { masteryPercent: 101 },
      { masteryPercent: 50.5 },
      { title: "   " },
      {},
    ]) {
      const refused = await call("admin", path, { method: "PATCH", json });
      expect(refused.status, JSON.stringify(json)).toBe(400);
      expect(refused.body.code).toBe("validation_failed");
    }
    const spanish = await t.request(`/api/content${path}`, {
      method: "PATCH",
      json: { masteryPercent: 101 },
      cookie: cookies.admin,
      headers: { "accept-language": "es" },
    });
    expect((await spanish.json()).message).toMatch(/Como máximo 100/);
    expect(
      (await call("admin", `/courses/${SCIENCE}/syllabus/lessons`, { json: { unitId: "nope", title: "X" } }))
        .status,
    ).toBe(404);
  });

  it("keeps a removed lesson's attempts, and hides it from the syllabus and the lesson list", async () => {
    const unitId = scienceUnit(2);
    const lessonId = (await addLesson(SCIENCE, unitId, "Magnets")).id as string;
    await t.db.execute(
      sql`insert into lesson_attempts (lesson_id, student_sourced_id, attempt_number, finished_at, score_percent, mastered)
        values (${lessonId}, ${AVA}, 1, now(), 100, true)`,
    );
    const listed = await call("admin", `/lessons?search=Magnets`);
    expect(listed.body.data.map((row: LessonListRow) => [row.title, row.studentsAttempted])).toEqual([
      ["Magnets", 1],
    ]);

    const removed = await edit("admin", `/courses/${SCIENCE}/syllabus/lessons/${lessonId}`, {
      method: "DELETE",
    });
    expect(lessonOf(removed.syllabus, lessonId)).toBeUndefined();
    const [kept] = await queryRows<{ attempts: number; status: string }>(
      t.db,
      sql`select (select count(*)::int from lesson_attempts where lesson_id = ${lessonId}) as attempts,
        (select status from course_components where sourced_id = ${lessonId}) as status`,
    );
    expect(kept).toEqual({ attempts: 1, status: "tobedeleted" });
    expect((await call("admin", `/lessons?search=Magnets`)).body.total).toBe(0);
    expect(
      (await call("admin", `/courses/${SCIENCE}/syllabus/lessons/${lessonId}`, { method: "DELETE" })).status,
    ).toBe(404);
  });
});

/** A unit of the demo's Science course: 0 Life science, 1 Earth and space, 2 Physical science. */
const scienceUnit = (index: number) => demoId(`component-maple-grove-Science-${index}`);

describe("resources", () => {
  let lessonId: string;
  beforeAll(async () => {
    const unitId = (await addUnit(SCIENCE, "Resources")).id as string;
    lessonId = (await addLesson(SCIENCE, unitId, "Many kinds")).id as string;
  });

  it("stores an article's HTML sanitised, and refuses one with nothing left", async () => {
    const created = await addResource(SCIENCE, lessonId, {
      kind: "article",
      title: "Reading",
      articleHtml:
        '<h2>Plants</h2><p style="color: green; background-image: url(x)">Grow <a href="javascript:alert(1)">here</a></p><img src="x" onerror="alert(1)"><iframe src="https://evil.example"></iframe>',
    });
    const resource = lessonOf(created.syllabus, lessonId).resources.find((entry) => entry.id === created.id);
    expect(resource?.articleHtml).toBe(
      '<h2>Plants</h2><p style="color: green">Grow <a>here</a></p><img src="x">',
    );
    const [row] = await queryRows<{ createdBy: string; updatedBy: string }>(
      t.db,
      sql`select created_by as "createdBy", updated_by as "updatedBy" from lesson_resources where id = ${created.id}::uuid`,
    );
    expect(row).toEqual({ createdBy: ADMIN, updatedBy: ADMIN });

    const empty = await call("admin", `/courses/${SCIENCE}/syllabus/resources`, {
      json: { lessonId, kind: "article", title: "Nothing", articleHtml: "<script>alert(1)</script><p></p>" },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/article is empty/);
  });

  it("takes https videos only", async () => {
    const created = await addResource(SCIENCE, lessonId, {
      kind: "video",
      title: "Seeds",
      videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    });
    expect(lessonOf(created.syllabus, lessonId).resources.at(-1)).toMatchObject({
      kind: "video",
      videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      qtiItems: [],
      articleHtml: null,
    });
    for (const videoUrl of ["http://www.youtube.com/watch?v=x", "javascript:alert(1)", "not a url"]) {
      const refused = await call("admin", `/courses/${SCIENCE}/syllabus/resources`, {
        json: { lessonId, kind: "video", title: "Bad", videoUrl },
      });
      expect(refused.status, videoUrl).toBe(400);
      expect(refused.body.message).toMatch(/https/);
    }
  });

  it("links an active learning app, and refuses others", async () => {
    const [app] = await queryRows<{ id: string; name: string; launchUrl: string | null }>(
      t.db,
      sql`select id::text, name, launch_url as "launchUrl" from learning_apps
        where kind = 'learning' and is_active order by name limit 1`,
    );
    const created = await addResource(SCIENCE, lessonId, { kind: "app", title: "Practice", appId: app?.id });
    expect(lessonOf(created.syllabus, lessonId).resources.at(-1)).toMatchObject({
      kind: "app",
      appId: app?.id,
      appName: app?.name,
      launchUrl: app?.launchUrl,
    });
    const [agent] = await queryRows<{ id: string }>(
      t.db,
      sql`select id::text from learning_apps where kind = 'agent'`,
    );
    const inactive = randomUUID();
    await t.db.execute(
      sql`insert into learning_apps (id, name, kind, is_active) values (${inactive}::uuid, 'Retired app', 'learning', false)`,
    );
    for (const appId of [agent?.id, inactive, randomUUID()]) {
      const refused = await call("admin", `/courses/${SCIENCE}/syllabus/resources`, {
        json: { lessonId, kind: "app", title: "X", appId },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/active learning app/);
    }
  });

  it("names bank items in order or copies a bank test's items, and refuses unknown identifiers", async () => {
    const items = await addResource(SCIENCE, lessonId, {
      kind: "qti",
      title: "Quiz",
      qtiItems: ["syllabus-item-2", "syllabus-item-1"],
    });
    expect(lessonOf(items.syllabus, lessonId).resources.at(-1)).toMatchObject({
      qtiItems: ["syllabus-item-2", "syllabus-item-1"],
      qtiTest: null,
    });
    const fromTest = await addResource(SCIENCE, lessonId, { kind: "qti", title: "Check", qtiTest: TEST });
    expect(lessonOf(fromTest.syllabus, lessonId).resources.at(-1)).toMatchObject({
      qtiItems: ["syllabus-item-3", "syllabus-item-1"],
      qtiTest: TEST,
    });

    const refusals: [Record<string, unknown>, RegExp][] = [
      [
        { qtiItems: ["syllabus-item-1", "ghost-1", "ghost-2"] },
        /These questions are not in the bank: ghost-1, ghost-2/,
      ],
      [{ qtiItems: ["syllabus-item-1", "syllabus-item-1"] }, /each question once/],
      [{ qtiTest: "ghost-test" }, /test ghost-test is not in the bank/],
      [{ qtiItems: ["syllabus-item-1"], qtiTest: TEST }, /not both/],
      [{}, /not both/],
      // A test's identifier is not an item's, nor the other way round.
      [{ qtiItems: [TEST] }, /not in the bank/],
      [{ qtiTest: "syllabus-item-1" }, /not in the bank/],
    ];
    for (const [fields, problem] of refusals) {
      const refused = await call("admin", `/courses/${SCIENCE}/syllabus/resources`, {
        json: { lessonId, kind: "qti", title: "Bad", ...fields },
      });
      expect(refused.status, JSON.stringify(fields)).toBe(400);
      expect(refused.body.message).toMatch(problem);
    }
    await t.db.execute(
      sql`insert into qti_documents (kind, identifier, title, raw_xml, "references")
        values ('test', 'half-test', 'Half', '<qti-assessment-test/>', array['syllabus-item-1', 'ghost-9'])`,
    );
    const half = await call("admin", `/courses/${SCIENCE}/syllabus/resources`, {
      json: { lessonId, kind: "qti", title: "Half", qtiTest: "half-test" },
    });
    expect(half.status).toBe(400);
    expect(half.body.message).toMatch(/ghost-9/);
  });

  it("updates a resource in place, keeping its kind, and removes it from the syllabus only", async () => {
    const created = await addResource(SCIENCE, lessonId, {
      kind: "video",
      title: "Old",
      videoUrl: "https://a.example/1",
    });
    const id = created.id as string;
    t.clock.advance(1000);
    const updated = await edit("guide", `/courses/${SCIENCE}/syllabus/resources/${id}`, {
      method: "PUT",
      json: { kind: "video", title: "New", videoUrl: "https://vimeo.com/76979871" },
    });
    expect(lessonOf(updated.syllabus, lessonId).resources.find((entry) => entry.id === id)).toMatchObject({
      title: "New",
      videoUrl: "https://vimeo.com/76979871",
    });
    const changedKind = await call("admin", `/courses/${SCIENCE}/syllabus/resources/${id}`, {
      method: "PUT",
      json: { kind: "article", title: "New", articleHtml: "<p>Hi</p>" },
    });
    expect(changedKind.status).toBe(400);
    expect(changedKind.body.message).toMatch(/keeps its kind/);

    const removed = await edit("admin", `/courses/${SCIENCE}/syllabus/resources/${id}`, { method: "DELETE" });
    expect(lessonOf(removed.syllabus, lessonId).resources.some((entry) => entry.id === id)).toBe(false);
    const [row] = await queryRows<{ removed: boolean; updatedBy: string; createdBy: string }>(
      t.db,
      sql`select removed_at is not null as removed, updated_by as "updatedBy", created_by as "createdBy"
        from lesson_resources where id = ${id}::uuid`,
    );
    expect(row).toEqual({ removed: true, updatedBy: ADMIN, createdBy: ADMIN });
    for (const method of ["PUT", "DELETE"]) {
      const gone = await call("admin", `/courses/${SCIENCE}/syllabus/resources/${id}`, {
        method,
        json: { kind: "video", title: "Again", videoUrl: "https://a.example/2" },
      });
      expect(gone.status).toBe(404);
    }
    expect(
      (await call("admin", `/courses/${SCIENCE}/syllabus/resources/not-a-uuid`, { method: "DELETE" })).status,
    ).toBe(404);
  });
});

describe("moving by drag and drop", () => {
  let units: string[];
  let lessons: Record<string, string>;
  let resources: string[];
  beforeAll(async () => {
    units = [];
    for (const title of ["Move A", "Move B"]) units.push((await addUnit(READING, title)).id as string);
    lessons = {};
    for (const [unit, title] of [
      [0, "A1"],
      [0, "A2"],
      [1, "B1"],
    ] as const)
      lessons[title] = (await addLesson(READING, units[unit] as string, title)).id as string;
    resources = [];
    for (const title of ["R1", "R2"])
      resources.push(
        (
          await addResource(READING, lessons.A1 as string, {
            kind: "video",
            title,
            videoUrl: "https://a.example/v",
          })
        ).id as string,
      );
  });
  const move = (json: Record<string, unknown>, who = "admin") =>
    call(who, `/courses/${READING}/syllabus/move`, { json });

  it("reorders the units", async () => {
    const before = (await syllabusOf(READING)).units.map((unit) => unit.sourcedId);
    const reordered = [...before];
    const [last] = reordered.splice(reordered.indexOf(units[1] as string), 1);
    reordered.unshift(last as string);
    const { status, body } = await move({
      kind: "unit",
      id: units[1],
      parentId: null,
      orderedIds: reordered,
    });
    expect(status).toBe(200);
    const syllabus = body.response.syllabus as Syllabus;
    expect(syllabus.units.map((unit) => unit.sourcedId)).toEqual(reordered);
    expect(syllabus.units.map((unit) => unit.sortOrder)).toEqual(reordered.map((_, index) => index + 1));
  });

  it("moves a lesson into another unit at the place given", async () => {
    const orderedIds = [lessons.A2, lessons.B1];
    const { status, body } = await move({ kind: "lesson", id: lessons.A2, parentId: units[1], orderedIds });
    expect(status).toBe(200);
    const syllabus = body.response.syllabus as Syllabus;
    expect(titles(unitOf(syllabus, units[0] as string).lessons)).toEqual(["A1"]);
    expect(titles(unitOf(syllabus, units[1] as string).lessons)).toEqual(["A2", "B1"]);
    const [row] = await queryRows<{ updatedBy: string }>(
      t.db,
      sql`select updated_by as "updatedBy" from lessons where component_sourced_id = ${lessons.A2}`,
    );
    expect(row?.updatedBy).toBe(ADMIN);
  });

  it("moves a resource into another lesson and renumbers its siblings", async () => {
    const { status, body } = await move({
      kind: "resource",
      id: resources[1],
      parentId: lessons.B1,
      orderedIds: [resources[1]],
    });
    expect(status).toBe(200);
    const syllabus = body.response.syllabus as Syllabus;
    expect(titles(lessonOf(syllabus, lessons.B1 as string).resources)).toEqual(["R2"]);
    expect(titles(lessonOf(syllabus, lessons.A1 as string).resources)).toEqual(["R1"]);
    const back = await move({
      kind: "resource",
      id: resources[1],
      parentId: lessons.A1,
      orderedIds: [resources[1], resources[0]],
    });
    expect(titles(lessonOf(back.body.response.syllabus, lessons.A1 as string).resources)).toEqual([
      "R2",
      "R1",
    ]);
    expect(
      lessonOf(back.body.response.syllabus, lessons.A1 as string).resources.map((r) => r.sortOrder),
    ).toEqual([1, 2]);
  });

  it("refuses ids of another course, of the wrong kind, or an order that no longer matches", async () => {
    const otherUnit = (await addUnit(SCIENCE, "Elsewhere")).id as string;
    const otherLesson = (await addLesson(SCIENCE, otherUnit, "Not here")).id as string;
    const refusals: [Record<string, unknown>, number, RegExp][] = [
      [
        { kind: "lesson", id: otherLesson, parentId: units[0], orderedIds: [otherLesson, lessons.A1] },
        400,
        /Not part/,
      ],
      [{ kind: "lesson", id: lessons.A1, parentId: otherUnit, orderedIds: [lessons.A1] }, 400, /Not part/],
      [{ kind: "unit", id: otherUnit, parentId: null, orderedIds: [otherUnit] }, 400, /Not part/],
      [{ kind: "lesson", id: units[0], parentId: units[1], orderedIds: [units[0]] }, 400, /Not part/],
      [
        { kind: "resource", id: resources[0], parentId: units[0], orderedIds: [resources[0]] },
        400,
        /Not part/,
      ],
      [
        { kind: "unit", id: units[0], parentId: units[1], orderedIds: [units[0]] },
        400,
        /top of the syllabus/,
      ],
      [
        { kind: "lesson", id: lessons.A1, parentId: null, orderedIds: [lessons.A1] },
        400,
        /Say where it goes/,
      ],
      [{ kind: "lesson", id: lessons.A1, parentId: units[1], orderedIds: [lessons.B1] }, 400, /moved one/],
      [
        { kind: "lesson", id: lessons.A1, parentId: units[1], orderedIds: [lessons.A1, lessons.A1] },
        400,
        /once/,
      ],
      // B's lessons are A2 and B1: leaving one out means the caller's view is out of date.
      [
        { kind: "lesson", id: lessons.A1, parentId: units[1], orderedIds: [lessons.A1, lessons.B1] },
        409,
        /changed/,
      ],
      [{ kind: "unit", id: units[0], parentId: null, orderedIds: [units[0], units[1]] }, 409, /changed/],
      [{ kind: "folder", id: units[0], parentId: null, orderedIds: [units[0]] }, 400, /kind/],
    ];
    for (const [json, status, problem] of refusals) {
      const refused = await move(json);
      expect(refused.status, JSON.stringify(json)).toBe(status);
      expect(refused.body.message, JSON.stringify(json)).toMatch(problem);
    }
    // Nothing moved.
    expect(titles(unitOf(await syllabusOf(READING), units[0] as string).lessons)).toEqual(["A1"]);
    expect(titles(unitOf(await syllabusOf(SCIENCE), otherUnit).lessons)).toEqual(["Not here"]);
  });
});

describe("who may edit", () => {
  it("refuses students, parents and proctors (403), and a Guide outside their courses (404)", async () => {
    const unitId = scienceUnit(0);
    for (const who of ["student", "parent", "proctor"]) {
      for (const [path, init] of [
        [`/courses/${SCIENCE}/syllabus/units`, { json: { title: "Mine" } }],
        [`/courses/${SCIENCE}/syllabus/lessons`, { json: { unitId, title: "Mine" } }],
        [`/courses/${SCIENCE}/syllabus/units/${unitId}`, { method: "DELETE" }],
        [
          `/courses/${SCIENCE}/syllabus/move`,
          { json: { kind: "unit", id: unitId, parentId: null, orderedIds: [unitId] } },
        ],
      ] as const) {
        const refused = await call(who, path, init);
        expect(refused.status, `${who} ${path}`).toBe(403);
        expect(refused.body.code).toBe("forbidden");
      }
    }
    const outside = await call("guide", `/courses/${RIVERSIDE_MATH}/syllabus/units`, {
      json: { title: "Mine" },
    });
    expect(outside.status).toBe(404);
    const [units] = await queryRows<{ count: number }>(
      t.db,
      sql`select count(*)::int as count from course_components where title = 'Mine'`,
    );
    expect(units?.count).toBe(0);
  });

  it("lets a Guide who views Dash as a student read what both may read, and edit nothing", async () => {
    cookies.guideAsAva = await t.signIn("guide@dash.demo");
    const viewing = await t.request("/api/auth/impersonation", {
      json: { userId: AVA, reason: "Checking a student's view" },
      cookie: cookies.guideAsAva,
    });
    expect(viewing.status).toBe(200);
    const path = `/courses/${SCIENCE}/syllabus`;
    expect((await call("guideAsAva", `${path}/units`, { json: { title: "As Ava" } })).status).toBe(403);
    expect((await call("guideAsAva", path)).status).toBe(200);
    expect((await call("guideAsAva", `/courses/${RIVERSIDE_MATH}/syllabus`)).status).toBe(404);
  });
});

describe("the syllabus's history", () => {
  const historyOf = (courseId: string, who = "admin", query = "") =>
    call(who, `/courses/${courseId}/syllabus/changes${query}`);

  it("records every edit with who made it, in the same transaction, newest first", async () => {
    const unitId = (await addUnit(LANGUAGE, "Shapes")).id as string;
    await edit("guide", `/courses/${LANGUAGE}/syllabus/units/${unitId}`, {
      method: "PATCH",
      json: { title: "Shapes and solids" },
    });
    const lessonId = (await addLesson(LANGUAGE, unitId, "Cubes", "guide")).id as string;
    await edit("admin", `/courses/${LANGUAGE}/syllabus/lessons/${lessonId}`, {
      method: "PATCH",
      json: { expectedXp: 40, descriptionHtml: '<p onclick="steal()">Six faces</p>' },
    });
    const resourceId = (
      await addResource(
        LANGUAGE,
        lessonId,
        { kind: "video", title: "Nets", videoUrl: "https://example.org/nets.mp4" },
        "guide",
      )
    ).id as string;
    await edit("guide", `/courses/${LANGUAGE}/syllabus/resources/${resourceId}`, { method: "DELETE" });
    // A refused edit leaves no trace.
    expect(
      (await call("admin", `/courses/${LANGUAGE}/syllabus/units/${unitId}`, { method: "DELETE" })).status,
    ).toBe(409);

    const { status, body } = await historyOf(LANGUAGE, "admin", "?limit=6");
    expect(status).toBe(200);
    const entries = body.data as SyllabusHistoryEntry[];
    expect(entries.map((entry) => [entry.action, entry.targetKind, entry.actor.sourcedId])).toEqual([
      ["remove", "resource", GUIDE],
      ["create", "resource", GUIDE],
      ["update", "lesson", ADMIN],
      ["create", "lesson", GUIDE],
      ["update", "unit", GUIDE],
      ["create", "unit", ADMIN],
    ]);
    expect(entries[0]).toMatchObject({ targetId: resourceId, targetTitle: "Nets", details: {} });
    expect(entries[1]?.details).toEqual({
      lessonId,
      kind: "video",
      title: "Nets",
      videoUrl: "https://example.org/nets.mp4",
    });
    // What was stored, sanitised, is what the history keeps.
    expect(entries[2]?.details).toEqual({ expectedXp: 40, descriptionHtml: "<p>Six faces</p>" });
    expect(entries[4]).toMatchObject({
      targetId: unitId,
      targetTitle: "Shapes and solids",
      details: { title: "Shapes and solids" },
    });
    expect(entries[4]?.actor.name).toBe("Maya Patel");
    expect(body.total).toBeGreaterThanOrEqual(6);
  });

  it("records a move with the new parent and order", async () => {
    const units = (await syllabusOf(LANGUAGE)).units.map((unit) => unit.sourcedId);
    const orderedIds = [...units.slice(1), units[0] as string];
    await edit("admin", `/courses/${LANGUAGE}/syllabus/move`, {
      json: { kind: "unit", id: units[0], parentId: null, orderedIds },
    });
    const [latest] = (await historyOf(LANGUAGE, "admin", "?limit=1")).body.data as SyllabusHistoryEntry[];
    expect(latest).toMatchObject({
      action: "move",
      targetKind: "unit",
      targetId: units[0],
      details: { parentId: null, orderedIds },
    });
  });

  it("is for those who may edit the course: 403 for other roles, 404 for another Guide's course, 400 for a bad page", async () => {
    expect((await historyOf(SCIENCE, "guide")).status).toBe(200);
    for (const who of ["student", "parent", "proctor"])
      expect((await historyOf(SCIENCE, who)).status).toBe(403);
    expect((await historyOf(RIVERSIDE_MATH, "guide")).status).toBe(404);
    expect((await historyOf("no-such-course")).status).toBe(404);
    const bad = await historyOf(SCIENCE, "admin", "?limit=500");
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("validation_failed");
  });
});

describe("the lesson list of admin/lesson", () => {
  it("lists lessons across courses with their course, unit, counts and settings, for administrators only", async () => {
    const unitId = (await addUnit(MATH, "Parts of a whole")).id as string;
    const lessonId = (await addLesson(MATH, unitId, "Halves")).id as string;
    await addResource(MATH, lessonId, { kind: "video", title: "Pizza", videoUrl: "https://a.example/p" });
    await addResource(MATH, lessonId, {
      kind: "article",
      title: "Read",
      articleHtml: "<p>Half of two is one.</p>",
    });
    const { status, body } = await call("admin", `/lessons?courseId=${MATH}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, total: 1, error: null });
    expect(body.data[0]).toMatchObject({
      sourcedId: lessonId,
      title: "Halves",
      courseId: MATH,
      unitId,
      unitTitle: "Parts of a whole",
      resourceCount: 2,
      expectedXp: 10,
      masteryPercent: 80,
      studentsAttempted: 0,
    });
    const all = await call("admin", "/lessons?limit=2&offset=0");
    expect(all.body.data).toHaveLength(2);
    expect(all.body.total).toBeGreaterThan(2);
    const bySearch = await call("admin", "/lessons?search=PARTS%20of");
    expect(bySearch.body.data.map((row: LessonListRow) => row.title)).toEqual(["Halves"]);
    for (const who of ["guide", "student", "parent"]) {
      const refused = await call(who, "/lessons");
      expect(refused.status, who).toBe(403);
      expect(refused.body).toMatchObject({ success: false, data: [], total: 0 });
    }
    expect((await call("admin", "/lessons?limit=500")).status).toBe(400);
  });
});
