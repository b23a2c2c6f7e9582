import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CHECK_CHART_LIMITS,
  CHECK_CHART_PROBLEMS,
  type CheckChart,
  type CheckChartDraft,
  type CheckChartList,
  type ClassChartProgress,
  checkChartProblems,
  type LegacyReview,
  type StudentChartProgress,
  workingLevelIndex,
} from "../../../shared/contracts/assessment";
import { addDays, localDateOf, SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { queryRows } from "../../db/client";
import { readServerCatalogues } from "../../lib/i18n";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";

const DEMO_CHART = demoId("check-chart-math-facts");
const AVA = demoId("student-ava");
const LEO = demoId("student-leo"); // Ava's brother at Riverside: not one of Maya Patel's students
const SAM = demoId("parent-sam");
const PATEL_MATH = demoId("class-maple-grove-guide-patel-Math");
const OKORO_MATH = demoId("class-maple-grove-guide-okoro-Math");
const checkId = (level: number, check: number) => demoId(`check-chart-math-facts-check-${level}-${check}`);

describe("a student's working level", () => {
  const level = (checkCount: number, observedCount: number) => ({ checkCount, observedCount });

  it("is the first level with a check not yet observed", () => {
    expect(workingLevelIndex([level(3, 0), level(2, 0)])).toBe(0);
    expect(workingLevelIndex([level(3, 3), level(2, 1), level(4, 4)])).toBe(1);
    // Ticks further on do not skip a level left unfinished.
    expect(workingLevelIndex([level(3, 2), level(2, 2)])).toBe(0);
  });

  it("is none once every check is observed, or when the chart has no checks", () => {
    expect(workingLevelIndex([level(3, 3), level(2, 2)])).toBeNull();
    expect(workingLevelIndex([])).toBeNull();
    expect(workingLevelIndex([level(0, 0)])).toBeNull();
  });

  it("passes over a level without checks", () => {
    expect(workingLevelIndex([level(0, 0), level(2, 1)])).toBe(1);
  });
});

describe("a chart's rules", () => {
  const valid: CheckChartDraft = {
    title: "Reading fluency",
    subject: "Reading",
    levels: [
      { name: "Sounds", checks: [{ name: "Short vowels" }, { name: "Blends" }] },
      { name: "Words", checks: [{ name: "Sight words" }] },
    ],
  };
  const problemsOf = (draft: CheckChartDraft) =>
    checkChartProblems(draft).map(
      (issue) => `${issue.path} ${issue.problem}${issue.limit ? ` ${issue.limit}` : ""}`,
    );

  it("take a chart with a title, a subject and named levels of named checks", () => {
    expect(checkChartProblems(valid)).toEqual([]);
  });

  it("name each missing or overlong field", () => {
    expect(
      problemsOf({
        title: "  ",
        subject: "x".repeat(61),
        description: "d".repeat(1001),
        levels: [{ name: "", checks: [{ name: "n".repeat(121), description: "d".repeat(241) }] }],
      }),
    ).toEqual([
      "title titleRequired",
      "subject subjectTooLong 60",
      "description descriptionTooLong 1000",
      "levels.0.name levelNameRequired",
      "levels.0.checks.0.name checkNameTooLong 120",
      "levels.0.checks.0.description checkDescriptionTooLong 240",
    ]);
  });

  it("want at least one level, each with at least one check, within the limits", () => {
    expect(problemsOf({ ...valid, levels: [] })).toEqual(["levels levelsRequired"]);
    expect(problemsOf({ ...valid, levels: [{ name: "Empty", checks: [] }] })).toEqual([
      "levels.0.checks checksRequired",
    ]);
    const manyLevels = Array.from({ length: CHECK_CHART_LIMITS.levels + 1 }, (_, index) => ({
      name: `Level ${index}`,
      checks: [{ name: "A" }],
    }));
    expect(problemsOf({ ...valid, levels: manyLevels })).toEqual(["levels tooManyLevels 30"]);
    const manyChecks = Array.from({ length: CHECK_CHART_LIMITS.checksPerLevel + 1 }, (_, index) => ({
      name: `Check ${index}`,
    }));
    expect(problemsOf({ ...valid, levels: [{ name: "Big", checks: manyChecks }] })).toEqual([
      "levels.0.checks tooManyChecks 60",
    ]);
  });

  it("refuse two levels, or two checks of a level, of the same name, and a part sent twice", () => {
    expect(
      problemsOf({
        ...valid,
        levels: [
          { id: "a", name: "Sounds", checks: [{ id: "c", name: "Blends" }, { name: " blends " }] },
          { id: "a", name: "SOUNDS ", checks: [{ id: "c", name: "Blends" }] },
        ],
      }),
    ).toEqual([
      "levels.0.checks.1.name checkNameTwice",
      "levels.1.name levelNameTwice",
      "levels.1.id idTwice",
      "levels.1.checks.0.id idTwice",
    ]);
  });

  it("have a message for every problem in every language, on the server and in the editor", () => {
    for (const [language, catalogues] of Object.entries(readServerCatalogues())) {
      const problems = (catalogues.assessment as { checkCharts: { problems: Record<string, string> } })
        .checkCharts.problems;
      expect(Object.keys(problems).sort(), language).toEqual([...CHECK_CHART_PROBLEMS].sort());
      const web = JSON.parse(
        readFileSync(
          path.join(process.cwd(), `src/web/features/assessment/locales/${language}.json`),
          "utf8",
        ),
      ) as { checkCharts: { problems: Record<string, string> } };
      expect(Object.keys(web.checkCharts.problems).sort(), `web ${language}`).toEqual(
        [...CHECK_CHART_PROBLEMS].sort(),
      );
    }
  });
});

let t: TestApp;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent", "guardian", "proctor"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
  // Jordan Lee is a Guide too (Science in Maya Patel's group), but did not make the demo chart.
  cookies.jordan = `${await t.signIn("multi@dash.demo")}; selectedUserRole=teacher`;
});
afterAll(() => t.close());

async function call<Body = unknown>(
  who: string,
  path: string,
  init: { method?: string; json?: unknown; headers?: Record<string, string> } = {},
) {
  const response = await t.request(`/api/assessment/check-charts${path}`, { ...init, cookie: cookies[who] });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Body };
}

const today = () => localDateOf(t.clock.now(), SCHOOL_TIME_ZONE);
const observationsOf = async (studentId: string) =>
  (
    await queryRows<{ count: number }>(
      t.db,
      sql`select count(*)::int as count from check_observations where student_sourced_id = ${studentId}`,
    )
  )[0]?.count;

/** A chart's draft as the editor sends it back: every part with its id. */
function draftOf(chart: CheckChart): CheckChartDraft {
  return {
    title: chart.title,
    subject: chart.subject,
    description: chart.description,
    updatedAt: chart.updatedAt,
    levels: chart.levels.map((level) => ({
      id: level.id,
      name: level.name,
      checks: level.checks.map((check) => ({
        id: check.id,
        name: check.name,
        description: check.description,
      })),
    })),
  };
}

describe("the list of charts", () => {
  it("holds every chart for staff, with whether they may change it", async () => {
    const guide = await call<CheckChartList>("guide", "");
    expect(guide.status).toBe(200);
    expect(guide.body.student).toBeNull();
    expect(guide.body.canCreate).toBe(true);
    const demo = guide.body.charts.find((chart) => chart.id === DEMO_CHART);
    expect(demo).toMatchObject({
      title: "Math facts fluency",
      subject: "Math",
      levelCount: 4,
      checkCount: 20,
      createdBy: { name: "Maya Patel" },
      canEdit: true,
      canDelete: true,
      progress: null,
    });
    const jordan = await call<CheckChartList>("jordan", "");
    expect(jordan.body.charts.find((chart) => chart.id === DEMO_CHART)).toMatchObject({
      canEdit: false,
      canDelete: false,
    });
    const admin = await call<CheckChartList>("admin", "");
    expect(admin.body.charts.find((chart) => chart.id === DEMO_CHART)?.canEdit).toBe(true);
  });

  it("shows a student their own charts with their progress", async () => {
    const { status, body } = await call<CheckChartList>("student", "");
    expect(status).toBe(200);
    expect(body.student).toEqual({ id: AVA, name: "Ava Johnson" });
    expect(body.canCreate).toBe(false);
    expect(body.charts.find((chart) => chart.id === DEMO_CHART)).toMatchObject({
      canEdit: false,
      progress: { observed: 8, total: 20, workingLevel: { index: 1, name: "Subtracting within 10" } },
    });
  });

  it("shows parents and Guides a student they reach, and no one else", async () => {
    expect((await call("parent", "")).status).toBe(400);
    const parent = await call<CheckChartList>("parent", `?studentId=${AVA}`);
    expect(parent.status).toBe(200);
    expect(parent.body.charts.map((chart) => chart.id)).toContain(DEMO_CHART);
    expect((await call("guardian", `?studentId=${AVA}`)).status).toBe(200);
    expect((await call("guide", `?studentId=${AVA}`)).status).toBe(200);
    expect((await call("guide", `?studentId=${LEO}`)).status).toBe(404);
    expect((await call("student", `?studentId=${LEO}`)).status).toBe(404);
    expect((await call("guardian", `?studentId=${LEO}`)).status).toBe(404);
    expect((await call("proctor", "")).status).toBe(403);
    expect((await call("proctor", `?studentId=${AVA}`)).status).toBe(403);
    // Leo has no progress and no Math class at Maple Grove: his list is his subjects' charts only.
    const leo = await call<CheckChartList>("parent", `?studentId=${LEO}`);
    expect(leo.status).toBe(200);
    expect(leo.body.charts.find((chart) => chart.id === DEMO_CHART)?.progress?.observed ?? 0).toBe(0);
  });
});

describe("a student's progress", () => {
  it("shows the checks of each level, the ticks and the working level", async () => {
    const { status, body } = await call<StudentChartProgress>("student", `/${DEMO_CHART}/students/${AVA}`);
    expect(status).toBe(200);
    expect(body.chart.title).toBe("Math facts fluency");
    expect(body.student.name).toBe("Ava Johnson");
    expect(body.levels.map((level) => level.checks.filter((check) => check.observation).length)).toEqual([
      5, 3, 0, 0,
    ]);
    expect(body.workingLevelId).toBe(demoId("check-chart-math-facts-level-2"));
    expect(body.canObserve).toBe(false);
    expect(body.today).toBe(today());
    expect(body.levels[0]?.checks[0]?.observation).toMatchObject({
      observedOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      observedBy: "Maya Patel",
    });
  });

  it("is for the student, their family, their Guides and administrators", async () => {
    const path = `/${DEMO_CHART}/students/${AVA}`;
    for (const who of ["parent", "guardian", "guide", "admin"]) {
      const { status, body } = await call<StudentChartProgress>(who, path);
      expect(status, who).toBe(200);
      expect(body.canObserve, who).toBe(who === "guide" || who === "admin");
    }
    expect((await call("proctor", path)).status).toBe(403);
    for (const who of ["student", "parent", "guide"])
      expect((await call(who, `/${DEMO_CHART}/students/${demoId("student-nobody")}`)).status, who).toBe(404);
    expect((await call("guide", `/${DEMO_CHART}/students/${LEO}`)).status).toBe(404);
    expect((await call("student", `/${DEMO_CHART}/students/${LEO}`)).status).toBe(404);
    expect((await call("admin", `/${DEMO_CHART}/students/${LEO}`)).status).toBe(200);
    expect((await call("student", `/${demoId("no-chart")}/students/${AVA}`)).status).toBe(404);
    expect((await call("student", `/not-a-uuid/students/${AVA}`)).status).toBe(404);
  });
});

describe("ticking checks", () => {
  const tick = (who: string, studentId: string, check: string, observedOn: string, headers = {}) =>
    call<StudentChartProgress>(who, `/${DEMO_CHART}/students/${studentId}/checks/${check}`, {
      method: "PUT",
      json: { observedOn },
      headers,
    });
  const untick = (who: string, studentId: string, check: string) =>
    call<StudentChartProgress>(who, `/${DEMO_CHART}/students/${studentId}/checks/${check}`, {
      method: "DELETE",
    });
  const observationOf = (progress: StudentChartProgress, check: string) =>
    progress.levels.flatMap((level) => level.checks).find((entry) => entry.id === check)?.observation;

  it("lets a Guide tick their student's check on a day, once, the latest day kept", async () => {
    const before = await observationsOf(AVA);
    const first = await tick("guide", AVA, checkId(2, 4), addDays(today(), -2));
    expect(first.status).toBe(200);
    expect(observationOf(first.body, checkId(2, 4))).toMatchObject({
      observedOn: addDays(today(), -2),
      observedBy: "Maya Patel",
    });
    const again = await tick("guide", AVA, checkId(2, 4), today());
    expect(observationOf(again.body, checkId(2, 4))?.observedOn).toBe(today());
    expect(await observationsOf(AVA)).toBe((before ?? 0) + 1);
    // Level 2 is complete now: Ava works at level 3.
    expect(again.body.workingLevelId).toBe(demoId("check-chart-math-facts-level-3"));
  });

  it("lets a Guide untick it, and unticking twice changes nothing", async () => {
    const cleared = await untick("guide", AVA, checkId(2, 4));
    expect(cleared.status).toBe(200);
    expect(observationOf(cleared.body, checkId(2, 4))).toBeNull();
    expect(cleared.body.workingLevelId).toBe(demoId("check-chart-math-facts-level-2"));
    expect((await untick("guide", AVA, checkId(2, 4))).status).toBe(200);
  });

  it("refuses a day after today, or long ago, saying why in the reader's language", async () => {
    const future = await tick("guide", AVA, checkId(2, 4), addDays(today(), 1));
    expect(future.status).toBe(400);
    expect(future.body).toMatchObject({
      issues: [
        { path: "observedOn", message: `The day a check was observed cannot be after today (${today()})` },
      ],
    });
    const spanish = await tick("guide", AVA, checkId(2, 4), addDays(today(), 1), { "accept-language": "es" });
    expect((spanish.body as unknown as { message: string }).message).toContain(
      "no puede ser posterior a hoy",
    );
    expect((await tick("guide", AVA, checkId(2, 4), "1999-12-31")).status).toBe(400);
    expect((await tick("guide", AVA, checkId(2, 4), "2024-02-30")).status).toBe(400);
    const missing = await call("guide", `/${DEMO_CHART}/students/${AVA}/checks/${checkId(2, 4)}`, {
      method: "PUT",
      json: {},
    });
    expect(missing.status).toBe(400);
  });

  it("is for the student's Guides and administrators only", async () => {
    const day = today();
    for (const who of ["student", "parent", "guardian", "proctor"])
      expect((await tick(who, AVA, checkId(3, 1), day)).status, who).toBe(403);
    expect((await untick("student", AVA, checkId(1, 1))).status).toBe(403);
    expect((await tick("guide", LEO, checkId(1, 1), day)).status).toBe(404);
    expect((await untick("guide", LEO, checkId(1, 1))).status).toBe(404);
    const byAdmin = await tick("admin", LEO, checkId(1, 1), day);
    expect(byAdmin.status).toBe(200);
    expect(observationOf(byAdmin.body, checkId(1, 1))?.observedBy).toBe("Alex Morgan");
    expect((await untick("admin", LEO, checkId(1, 1))).status).toBe(200);
    expect(await observationsOf(LEO)).toBe(0);
  });

  it("refuses a check the chart does not have", async () => {
    expect((await tick("guide", AVA, demoId("no-such-check"), today())).status).toBe(404);
    expect((await tick("guide", AVA, "not-a-uuid", today())).status).toBe(404);
  });

  it("while a Guide views Dash as a parent, reaches only what both reach, and ticks nothing", async () => {
    const cookie = await t.signIn("guide@dash.demo");
    const started = await t.request("/api/auth/impersonation", {
      json: { userId: SAM, reason: "Checking a family's view" },
      cookie,
    });
    expect(started.status).toBeLessThan(300);
    cookies.patelAsSam = cookie;
    expect((await call("patelAsSam", `/${DEMO_CHART}/students/${AVA}`)).status).toBe(200);
    expect((await call("patelAsSam", `/${DEMO_CHART}/students/${LEO}`)).status).toBe(404);
    expect((await call("patelAsSam", `?studentId=${LEO}`)).status).toBe(404);
    expect((await tick("patelAsSam", AVA, checkId(3, 1), today())).status).toBe(403);
    await t.request("/api/auth/impersonation", { method: "DELETE", cookie });
  });
});

describe("a class's progress", () => {
  it("shows a Guide's class, student by student and level by level", async () => {
    const { status, body } = await call<ClassChartProgress>("guide", `/${DEMO_CHART}/classes/${PATEL_MATH}`);
    expect(status).toBe(200);
    expect(body.class.id).toBe(PATEL_MATH);
    expect(body.levels.map((level) => level.checkCount)).toEqual([5, 4, 6, 5]);
    const ava = body.students.find((student) => student.id === AVA);
    expect(ava).toMatchObject({ name: "Ava Johnson", observed: [5, 3, 0, 0], workingLevelIndex: 1 });
    expect(body.students.length).toBeGreaterThan(1);
    for (const student of body.students)
      expect(student.observed.every((count, index) => count <= (body.levels[index]?.checkCount ?? 0))).toBe(
        true,
      );
  });

  it("is for the class's Guides and administrators", async () => {
    expect((await call("admin", `/${DEMO_CHART}/classes/${OKORO_MATH}`)).status).toBe(200);
    expect((await call("guide", `/${DEMO_CHART}/classes/${OKORO_MATH}`)).status).toBe(404);
    expect((await call("guide", `/${DEMO_CHART}/classes/no-such-class`)).status).toBe(404);
    expect((await call("guide", `/${demoId("no-chart")}/classes/${PATEL_MATH}`)).status).toBe(404);
    for (const who of ["student", "parent", "proctor"])
      expect((await call(who, `/${DEMO_CHART}/classes/${PATEL_MATH}`)).status, who).toBe(403);
  });
});

describe("making and changing charts", () => {
  const draft: CheckChartDraft = {
    title: "Handwriting",
    subject: "Writing",
    description: "Letters to joined-up writing.",
    levels: [
      { name: "Letters", checks: [{ name: "Forms lower-case letters" }, { name: "Forms capitals" }] },
      { name: "Words", checks: [{ name: "Spaces words evenly", description: "A finger's width" }] },
    ],
  };
  let chart: CheckChart;

  it("lets a Guide make a chart, whose parts get ids in order", async () => {
    const created = await call<CheckChart>("guide", "", { json: draft });
    expect(created.status).toBe(201);
    chart = created.body;
    expect(chart).toMatchObject({
      title: "Handwriting",
      subject: "Writing",
      createdBy: { name: "Maya Patel" },
      canEdit: true,
      levels: [
        {
          name: "Letters",
          checks: [{ name: "Forms lower-case letters", observationCount: 0 }, { name: "Forms capitals" }],
        },
        { name: "Words", checks: [{ name: "Spaces words evenly", description: "A finger's width" }] },
      ],
    });
    expect((await call<CheckChart>("guide", `/${chart.id}`)).body).toEqual(chart);
  });

  it("refuses a chart its rules refuse, field by field, in the reader's language", async () => {
    const bad = {
      ...draft,
      title: "",
      levels: [
        { name: "Letters", checks: [] },
        { name: "letters", checks: [{ name: "A" }] },
      ],
    };
    const english = await call<{ issues: { path: string; message: string }[] }>("guide", "", { json: bad });
    expect(english.status).toBe(400);
    expect(english.body.issues).toEqual([
      { path: "title", message: "Give the chart a title" },
      { path: "levels.0.checks", message: "Add at least one check to the level" },
      { path: "levels.1.name", message: "Another level has this name: give each level its own" },
    ]);
    const spanish = await call<{ issues: { message: string }[] }>("guide", "", {
      json: bad,
      headers: { "accept-language": "es" },
    });
    expect(spanish.body.issues[0]?.message).toBe("Ponle un título a la tabla");
    expect((await call("guide", "", { json: { title: "x" } })).status).toBe(400);
    expect((await call("guide", "", { json: { ...draft, title: "t".repeat(121) } })).status).toBe(400);
  });

  it("is for Guides and administrators", async () => {
    for (const who of ["student", "parent", "proctor"]) {
      expect((await call(who, "", { json: draft })).status, who).toBe(403);
      expect((await call(who, `/${chart.id}`)).status, who).toBe(403);
    }
  });

  it("keeps the ids of parts it keeps, so their ticks stay; parts left out go with theirs", async () => {
    const [letters, words] = chart.levels;
    const [lowerCase, capitals] = letters?.checks ?? [];
    // Ava has the lower-case letters and the capitals ticked.
    for (const check of [lowerCase, capitals])
      expect(
        (
          await call("guide", `/${chart.id}/students/${AVA}/checks/${check?.id}`, {
            method: "PUT",
            json: { observedOn: today() },
          })
        ).status,
      ).toBe(200);
    const withTicks = (await call<CheckChart>("guide", `/${chart.id}`)).body;
    expect(withTicks.levels[0]?.checks.map((check) => check.observationCount)).toEqual([1, 1]);

    // Words first and renamed; capitals removed; lower-case letters moved to the words; a new check.
    const saved = await call<CheckChart>("guide", `/${chart.id}`, {
      method: "PUT",
      json: {
        ...draftOf(withTicks),
        title: "Handwriting basics",
        levels: [
          {
            id: words?.id,
            name: "Words and spacing",
            checks: [
              { id: words?.checks[0]?.id, name: "Spaces words evenly" },
              { id: lowerCase?.id, name: "Forms lower-case letters" },
            ],
          },
          { id: letters?.id, name: "Letters", checks: [{ name: "Sits letters on the line" }] },
        ],
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.title).toBe("Handwriting basics");
    expect(saved.body.levels.map((level) => [level.id, level.name])).toEqual([
      [words?.id, "Words and spacing"],
      [letters?.id, "Letters"],
    ]);
    expect(saved.body.levels[0]?.checks.map((check) => [check.id, check.observationCount])).toEqual([
      [words?.checks[0]?.id, 0],
      [lowerCase?.id, 1],
    ]);
    const added = saved.body.levels[1]?.checks[0];
    expect(added?.name).toBe("Sits letters on the line");
    expect([lowerCase?.id, capitals?.id]).not.toContain(added?.id);
    const [removed] = await queryRows<{ checks: number; ticks: number }>(
      t.db,
      sql`select (select count(*)::int from check_chart_checks where id = ${capitals?.id}::uuid) as checks,
        (select count(*)::int from check_observations where check_id = ${capitals?.id}::uuid) as ticks`,
    );
    expect(removed).toEqual({ checks: 0, ticks: 0 });
    chart = saved.body;
  });

  it("refuses a save over a later change, and ids the chart does not have", async () => {
    const stale = await call("guide", `/${chart.id}`, {
      method: "PUT",
      json: { ...draftOf(chart), updatedAt: "2000-01-01T00:00:00.000Z" },
    });
    expect(stale.status).toBe(409);
    const foreign = draftOf(chart);
    foreign.levels[0]?.checks.push({ id: checkId(1, 1), name: "Someone else's check" });
    const refused = await call<{ issues: { path: string }[] }>("guide", `/${chart.id}`, {
      method: "PUT",
      json: foreign,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.issues.map((issue) => issue.path)).toEqual(["levels.0.checks.2.id"]);
    // The demo chart's check is where it was.
    const demo = await call<CheckChart>("guide", `/${DEMO_CHART}`);
    expect(demo.body.levels[0]?.checks[0]?.id).toBe(checkId(1, 1));
  });

  it("lets only its maker and administrators change or delete it", async () => {
    const save = (who: string) => call(who, `/${chart.id}`, { method: "PUT", json: draftOf(chart) });
    expect((await save("jordan")).status).toBe(403);
    expect((await call("jordan", `/${chart.id}`, { method: "DELETE" })).status).toBe(403);
    expect(
      (await call<CheckChart>("jordan", `/${chart.id}`)).body.levels[0]?.checks[0]?.observationCount,
    ).toBeNull();
    expect((await save("student")).status).toBe(403);
    const byAdmin = await save("admin");
    expect(byAdmin.status).toBe(200);
    expect(
      (await call("guide", `/${demoId("no-chart")}`, { method: "PUT", json: draftOf(chart) })).status,
    ).toBe(404);
    expect((await call("guide", `/${chart.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await call("guide", `/${chart.id}`)).status).toBe(404);
    const [left] = await queryRows<{ count: number }>(
      t.db,
      sql`select count(*)::int as count from check_chart_levels where chart_id = ${chart.id}::uuid`,
    );
    expect(left?.count).toBe(0);
  });
});

describe("the legacy review", () => {
  const review = async () => {
    const { status, body } = await call<LegacyReview>("admin", "/legacy-review");
    expect(status).toBe(200);
    const demo = body.charts.find((chart) => chart.id === DEMO_CHART);
    if (!demo) throw new Error("the demo chart is not in the review");
    return demo;
  };
  const level2 = demoId("check-chart-math-facts-level-2");

  it("shows each level's mapped grade and the students working at it, with their placement", async () => {
    await t.db.execute(sql`insert into placements (student_sourced_id, subject, starting_grade, current_grade, updated_by, updated_at)
      values (${AVA}, 'Math', 2, 2, ${demoId("admin")}, now())
      on conflict (student_sourced_id, subject) do update set current_grade = 2`);
    const demo = await review();
    expect(demo.levels[0]).toMatchObject({
      mappedGrade: 1,
      mappedBy: { name: "Alex Morgan" },
      checkCount: 5,
    });
    const ava = demo.levels[1]?.students.find((student) => student.id === AVA);
    expect(ava).toEqual({ id: AVA, name: "Ava Johnson", placementGrade: 2, differs: false });
    const counted = demo.levels.reduce((total, level) => total + level.students.length, demo.completedCount);
    const [withProgress] = await queryRows<{ count: number }>(
      t.db,
      sql`select count(distinct o.student_sourced_id)::int as count from check_observations o
        join check_chart_checks k on k.id = o.check_id join check_chart_levels l on l.id = k.level_id
        where l.chart_id = ${DEMO_CHART}::uuid`,
    );
    expect(counted).toBe(withProgress?.count);
  });

  it("maps a level to a grade and clears it, keeping who did it", async () => {
    const mapped = await call("admin", `/${DEMO_CHART}/levels/${level2}/mapping`, {
      method: "PUT",
      json: { grade: 1 },
    });
    expect(mapped.status).toBe(200);
    expect(mapped.body).toMatchObject({ mappedGrade: 1, mappedBy: { name: "Alex Morgan" } });
    const ava = (await review()).levels[1]?.students.find((student) => student.id === AVA);
    expect(ava?.differs).toBe(true);
    const cleared = await call("admin", `/${DEMO_CHART}/levels/${level2}/mapping`, {
      method: "PUT",
      json: { grade: null },
    });
    expect(cleared.body).toMatchObject({ mappedGrade: null, mappedBy: { name: "Alex Morgan" } });
    expect((await review()).levels[1]?.students.find((student) => student.id === AVA)?.differs).toBe(false);
  });

  it("refuses a grade out of range and a level of another chart, and is for administrators", async () => {
    const path = `/${DEMO_CHART}/levels/${level2}/mapping`;
    expect((await call("admin", path, { method: "PUT", json: { grade: 13 } })).status).toBe(400);
    expect((await call("admin", path, { method: "PUT", json: { grade: 1.5 } })).status).toBe(400);
    expect(
      (
        await call("admin", `/${demoId("no-chart")}/levels/${level2}/mapping`, {
          method: "PUT",
          json: { grade: 1 },
        })
      ).status,
    ).toBe(404);
    for (const who of ["guide", "student", "parent", "proctor"]) {
      expect((await call(who, "/legacy-review")).status, who).toBe(403);
      expect((await call(who, path, { method: "PUT", json: { grade: 2 } })).status, who).toBe(403);
    }
  });
});
