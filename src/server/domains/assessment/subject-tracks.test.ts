import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StudentPlacements, SubjectTrack } from "../../../shared/contracts/assessment";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { currentCourseOf } from "./subject-tracks";

let t: TestApp;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent", "proctor"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
});
afterAll(() => t.close());

async function call(who: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await t.request(`/api/assessment${path}`, { ...init, cookie: cookies[who] });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

describe("the current course", () => {
  const step = (position: number, gradeLevel: number, title: string) => ({
    position,
    gradeLevel,
    title,
    courseId: null,
  });

  it("is the step at the placement's grade, the first by position when several share it", () => {
    const steps = [step(3, 4, "Math 4 (second)"), step(1, 3, "Math 3"), step(2, 4, "Math 4")];
    expect(currentCourseOf(steps, 4)).toEqual({ title: "Math 4", gradeLevel: 4, courseId: null });
    expect(currentCourseOf(steps, 3)?.title).toBe("Math 3");
  });

  it("is none without a step at the grade, a track or a level", () => {
    expect(currentCourseOf([step(1, 3, "Math 3")], 5)).toBeNull();
    expect(currentCourseOf([], 3)).toBeNull();
    expect(currentCourseOf([step(1, 3, "Math 3")], null)).toBeNull();
  });
});

describe("subject tracks", () => {
  it("are read by students, Guides and administrators, with their ordered steps and courses", async () => {
    const { status, body } = await call("student", "/subject-tracks");
    expect(status).toBe(200);
    const tracks = body.tracks as SubjectTrack[];
    expect(tracks.map((track) => track.subject)).toEqual(["Math", "Reading"]);
    const math = tracks[0] as SubjectTrack;
    expect(math.steps.map((step) => step.gradeLevel)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(math.steps[0]).toMatchObject({
      position: 1,
      title: "Kindergarten Math",
      courseTitle: "Math K–04",
    });
    expect(math.steps[5]).toMatchObject({
      courseId: demoId("course-riverside-Math"),
      courseTitle: "Math 05–08",
    });
    expect((await call("guide", "/subject-tracks")).status).toBe(200);
    expect((await call("parent", "/subject-tracks")).status).toBe(403);
    expect((await call("proctor", "/subject-tracks")).status).toBe(403);
  });

  it("are created by administrators, one per subject", async () => {
    const created = await call("admin", "/subject-tracks", { json: { subject: "Science" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ subject: "Science", steps: [], updatedBy: "Alex Morgan" });
    const twice = await call("admin", "/subject-tracks", { json: { subject: " Science " } });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe("Science already has a track");
    expect((await call("admin", "/subject-tracks", { json: { subject: "" } })).status).toBe(400);
    expect((await call("guide", "/subject-tracks", { json: { subject: "Writing" } })).status).toBe(403);
  });

  it("take their whole ordered list of steps in one change, and the current course follows it", async () => {
    const tracks = (await call("admin", "/subject-tracks")).body.tracks as SubjectTrack[];
    const math = tracks.find((track) => track.subject === "Math") as SubjectTrack;
    // Ava is at grade 4 in Math: put a new course for grade 4 before the old one.
    const steps = math.steps.map(({ gradeLevel, title, courseId }) => ({ gradeLevel, title, courseId }));
    steps.splice(4, 0, { gradeLevel: 4, title: "Math 4 Accelerated", courseId: null });
    const saved = await call("admin", `/subject-tracks/${math.id}/steps`, { method: "PUT", json: { steps } });
    expect(saved.status).toBe(200);
    expect((saved.body as SubjectTrack).steps.map((step) => step.position)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    const ava = (await call("student", "/placements")).body as StudentPlacements;
    expect(ava.subjects.find((subject) => subject.subject === "Math")?.currentCourse).toEqual({
      title: "Math 4 Accelerated",
      gradeLevel: 4,
      courseId: null,
    });

    const emptied = await call("admin", `/subject-tracks/${math.id}/steps`, {
      method: "PUT",
      json: { steps: [] },
    });
    expect(emptied.body.steps).toEqual([]);
    const without = (await call("student", "/placements")).body as StudentPlacements;
    expect(without.subjects.find((subject) => subject.subject === "Math")?.currentCourse).toBeNull();
  });

  it("refuse an unknown course, a bad grade, too many steps, and callers other than administrators", async () => {
    const [track] = (await call("admin", "/subject-tracks")).body.tracks as SubjectTrack[];
    const put = (who: string, steps: unknown) =>
      call(who, `/subject-tracks/${track?.id}/steps`, { method: "PUT", json: { steps } });
    const unknown = await put("admin", [{ gradeLevel: 1, title: "Math 1", courseId: "no-such-course" }]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues).toEqual([
      { path: "steps.0.courseId", message: "No course has the id no-such-course" },
    ]);
    expect((await put("admin", [{ gradeLevel: 13, title: "Math 13" }])).status).toBe(400);
    expect((await put("admin", [{ gradeLevel: 1, title: " " }])).status).toBe(400);
    expect(
      (
        await put(
          "admin",
          Array.from({ length: 101 }, () => ({ gradeLevel: 1, title: "x" })),
        )
      ).status,
    ).toBe(400);
    expect((await put("guide", [])).status).toBe(403);
    expect((await put("student", [])).status).toBe(403);
    const missing = "00000000-0000-4000-8000-000000000000";
    expect(
      (await call("admin", `/subject-tracks/${missing}/steps`, { method: "PUT", json: { steps: [] } }))
        .status,
    ).toBe(404);
  });

  it("are deleted by administrators", async () => {
    const tracks = (await call("admin", "/subject-tracks")).body.tracks as SubjectTrack[];
    const science = tracks.find((track) => track.subject === "Science") as SubjectTrack;
    expect((await call("guide", `/subject-tracks/${science.id}`, { method: "DELETE" })).status).toBe(403);
    expect((await call("admin", `/subject-tracks/${science.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await call("admin", `/subject-tracks/${science.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await call("admin", "/subject-tracks/nonsense", { method: "DELETE" })).status).toBe(404);
  });
});
