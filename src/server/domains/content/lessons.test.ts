import { randomUUID } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AttemptResult, LessonView } from "../../../shared/contracts/content";
import { computeXp } from "../../../shared/xp-rules";
import { type Database, queryRows } from "../../db/client";
import { openZipUpload } from "../../lib/uploads";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { xpRulesOf } from "../activity/settings";
import { AVA, addLesson, MAPLE_MATH, RIVERSIDE_MATH, unitOf } from "./assignments-fixtures";
import { DASH_LESSONS_APP_ID } from "./lesson-app";
import { CHOICE_ITEM, LESSON_TEST_ITEMS } from "./lesson-test-items";
import { withoutAnswers } from "./qti/answers";
import { saveQtiDocuments } from "./qti/bank";
import { readQtiDocument } from "./qti/qti-document";

const ADMIN = demoId("admin");

/** Puts the test items into the bank as an import would. */
async function addTestItems(db: Database, actorId: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await saveQtiDocuments(tx as unknown as Database, LESSON_TEST_ITEMS.map(readQtiDocument), actorId, now);
  });
}
const EXPECTED_XP = 20;
const MASTERY = 90;

async function seedLesson(t: TestApp, courseId: string, unitId: string, title: string) {
  const lessonId = await addLesson(t.db, courseId, unitId, title, 1);
  await t.db.execute(sql`insert into lessons (component_sourced_id, expected_xp, mastery_percent, description_html)
    values (${lessonId}, ${EXPECTED_XP}, ${MASTERY}, '<p>Numbers all around us.</p>')`);
  const [questions] = await queryRows<{ id: string }>(
    t.db,
    sql`insert into lesson_resources (lesson_id, kind, title, sort_order, qti_items) values
        (${lessonId}, 'qti', 'Practice', 2,
         array['dash-lesson-even', 'dash-lesson-primes-and-paris', 'dash-lesson-sum', 'dash-lesson-essay'])
      returning id::text`,
  );
  await t.db.execute(sql`insert into lesson_resources (lesson_id, kind, title, sort_order, article_html) values
    (${lessonId}, 'article', 'Read first', 1, '<p>Even numbers end in 0, 2, 4, 6 or 8.</p>')`);
  await t.db.execute(sql`insert into lesson_resources (lesson_id, kind, title, video_url) values
    (${lessonId}, 'video', 'Watch', 'https://video.example/numbers')`);
  // Removed: neither shown nor scored.
  await t.db.execute(sql`insert into lesson_resources (lesson_id, kind, title, sort_order, qti_items, removed_at) values
    (${lessonId}, 'qti', 'Old quiz', 0, array['dash-lesson-even'], now())`);
  return { lessonId, questionsId: questions?.id as string };
}

let t: TestApp;
const cookies: Record<string, string> = {};
let lesson: { lessonId: string; questionsId: string };
let riverside: { lessonId: string; questionsId: string };

beforeAll(async () => {
  t = await createTestApp();
  await addTestItems(t.db, ADMIN, t.clock.now());
  lesson = await seedLesson(t, MAPLE_MATH, unitOf("maple-grove", "Math", 0), "Even and odd");
  riverside = await seedLesson(t, RIVERSIDE_MATH, unitOf("riverside", "Math", 0), "Riverside numbers");
  for (const who of ["admin", "guide", "student", "parent"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
  cookies.jordan = `${await t.signIn("multi@dash.demo")}; selectedUserRole=student`;
});
afterAll(() => t.close());

async function call(who: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await t.request(`/api/content${path}`, { ...init, cookie: cookies[who] });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const view = async (who = "student", lessonId = lesson.lessonId) => {
  const { status, body } = await call(who, `/lessons/${lessonId}`);
  expect(status).toBe(200);
  return body as LessonView;
};
const start = (who = "student", lessonId = lesson.lessonId) =>
  call(who, `/lessons/${lessonId}/attempts`, { method: "POST" });
const save = (
  attemptId: string,
  itemIdentifier: string,
  response: unknown,
  who = "student",
  resourceId = lesson.questionsId,
) =>
  call(who, `/attempts/${attemptId}/responses`, {
    method: "PUT",
    json: { resourceId, itemIdentifier, response },
  });
const finish = (attemptId: string, activeSeconds = 120, who = "student") =>
  call(who, `/attempts/${attemptId}/finish`, { json: { activeSeconds } });

/** The sum the template item shows in this attempt, read from the XML the student is served. */
async function templateSum(attemptId: string) {
  const current = await view();
  expect(current.openAttempt?.id).toBe(attemptId);
  const questions = current.resources.find((resource) => resource.kind === "qti");
  const xml =
    questions?.kind === "qti"
      ? questions.items.find((item) => item.identifier === "dash-lesson-sum")?.rawXml
      : null;
  const templateValue = (name: string) =>
    Number(
      new RegExp(`identifier="${name}"[^>]*>\\s*<qti-default-value>\\s*<qti-value>(\\d+)<`).exec(
        xml ?? "",
      )?.[1],
    );
  return templateValue("A") + templateValue("B");
}

/** Every item right (the essay answered too). */
async function answerAllRight(attemptId: string) {
  expect((await save(attemptId, "dash-lesson-even", { RESPONSE: "B" })).status).toBe(200);
  expect(
    (await save(attemptId, "dash-lesson-primes-and-paris", { RESPONSE: ["A", "C"], CAPITAL: "paris" }))
      .status,
  ).toBe(200);
  expect(
    (await save(attemptId, "dash-lesson-sum", { RESPONSE: String(await templateSum(attemptId)) })).status,
  ).toBe(200);
  expect((await save(attemptId, "dash-lesson-essay", { RESPONSE: "Seven, it is lucky." })).status).toBe(200);
}

async function eventOf(attemptId: string) {
  const rows = await queryRows<{
    awardedXp: string;
    masteredUnits: number;
    activeSeconds: number;
    attempt: number;
    subject: string;
  }>(
    t.db,
    sql`select awarded_xp::text as "awardedXp", mastered_units as "masteredUnits", active_seconds as "activeSeconds",
          attempt, subject
        from activity_events where app_id = ${DASH_LESSONS_APP_ID}::uuid and event_id = ${`lesson-attempt:${attemptId}`}`,
  );
  return rows.map(({ awardedXp, ...row }) => ({ ...row, awardedXp: Number(awardedXp) }));
}

async function ledgerOf(attemptId: string) {
  const rows = await queryRows<{ amount: string }>(
    t.db,
    sql`select l.amount::text from xp_ledger l join activity_events e on e.id = l.activity_event_id
        where e.app_id = ${DASH_LESSONS_APP_ID}::uuid and e.event_id = ${`lesson-attempt:${attemptId}`}`,
  );
  return rows.map((row) => Number(row.amount));
}

describe("a student takes a lesson", () => {
  it("shows the lesson with its resources in order, and no questions before an attempt starts", async () => {
    const current = await view();
    expect(current.lesson).toMatchObject({
      id: lesson.lessonId,
      title: "Even and odd",
      expectedXp: EXPECTED_XP,
      masteryPercent: MASTERY,
      subject: "Math",
      course: { id: MAPLE_MATH },
      unit: { id: unitOf("maple-grove", "Math", 0) },
    });
    expect(current).toMatchObject({
      mode: "student",
      canAnswer: true,
      attempts: [],
      openAttempt: null,
      mastered: false,
    });
    expect(current.resources.map((resource) => [resource.kind, resource.title])).toEqual([
      ["article", "Read first"],
      ["qti", "Practice"],
      ["video", "Watch"],
    ]);
    const questions = current.resources[1];
    expect(
      questions?.kind === "qti" && questions.items.map((item) => [item.identifier, item.rawXml]),
    ).toEqual([
      ["dash-lesson-even", null],
      ["dash-lesson-primes-and-paris", null],
      ["dash-lesson-sum", null],
      ["dash-lesson-essay", null],
    ]);
  });

  it("starts one attempt, resumes it, and serves its questions without their answers", async () => {
    const first = await start();
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ number: 1, isNew: true });
    const again = await start();
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ id: first.body.id, number: 1, isNew: false });

    const current = await view();
    expect(current.openAttempt).toMatchObject({ id: first.body.id, number: 1, responses: [] });
    const questions = current.resources.find((resource) => resource.kind === "qti");
    const items = questions?.kind === "qti" ? questions.items : [];
    expect(items).toHaveLength(4);
    for (const item of items) {
      expect(item.rawXml).toContain("qti-assessment-item");
      expect(item.rawXml).not.toMatch(
        /qti-correct-response|qti-mapping|qti-response-processing|qti-template-processing|qti-feedback-block/,
      );
    }
    // The template's values are fixed for the attempt: the same on every visit.
    expect(await templateSum(first.body.id)).toBe(await templateSum(first.body.id));
  });

  it("keeps the latest answer of each item without telling whether it is right", async () => {
    const { body: attempt } = await start();
    const saved = await save(attempt.id, "dash-lesson-even", { RESPONSE: "A" });
    expect(saved).toEqual({ status: 200, body: { saved: true } });
    expect((await save(attempt.id, "dash-lesson-even", { RESPONSE: "B" })).status).toBe(200);
    const current = await view();
    expect(current.openAttempt?.responses).toEqual([
      { resourceId: lesson.questionsId, itemIdentifier: "dash-lesson-even", response: { RESPONSE: "B" } },
    ]);
    const [stored] = await queryRows<{ score: string; maxScore: string }>(
      t.db,
      sql`select score::text, max_score::text as "maxScore" from lesson_item_responses where attempt_id = ${attempt.id}::uuid`,
    );
    expect(Number(stored?.score)).toBe(1);
    expect(Number(stored?.maxScore)).toBe(1);
  });

  it("scores every item at the finish, reports it to the XP engine and answers the result", async () => {
    const { body: attempt } = await start();
    const sum = await templateSum(attempt.id);
    // Right; two of three points; right; the essay is never scored. The time counted is capped by the clock.
    await save(attempt.id, "dash-lesson-primes-and-paris", { RESPONSE: ["A", "B", "C"], CAPITAL: "Paris" });
    await save(attempt.id, "dash-lesson-sum", { RESPONSE: String(sum) });
    await save(attempt.id, "dash-lesson-essay", { RESPONSE: "Four, because it is even." });
    t.clock.advance(300_000);
    const { status, body } = await finish(attempt.id, 3_000);
    expect(status).toBe(200);
    const result = body as AttemptResult;
    expect(result.attempt).toMatchObject({
      id: attempt.id,
      number: 1,
      correctItems: 2,
      totalItems: 3,
      scorePercent: 80,
      mastered: false,
    });
    expect(result.firstMastery).toBe(false);
    expect(
      result.items.map((item) => [
        item.itemIdentifier,
        item.answered,
        item.scored,
        item.score,
        item.maxScore,
        item.correct,
      ]),
    ).toEqual([
      ["dash-lesson-even", true, true, 1, 1, true],
      ["dash-lesson-primes-and-paris", true, true, 2, 3, false],
      ["dash-lesson-sum", true, true, 1, 1, true],
      ["dash-lesson-essay", true, false, 0, 0, false],
    ]);

    const expected = computeXp(
      {
        baseXp: EXPECTED_XP,
        totalQuestions: 3,
        correctQuestions: 2,
        attempt: 1,
        activeSeconds: 300,
        wasteSeconds: 0,
        antiPatternSeconds: 0,
      },
      await xpRulesOf(t.db),
    );
    expect(result.attempt.xp).toEqual({
      status: "credited",
      xp: expected.xp,
      explanation: expected.explanation,
    });
    expect(await eventOf(attempt.id)).toEqual([
      { awardedXp: expected.xp, masteredUnits: 0, activeSeconds: 300, attempt: 1, subject: "Math" },
    ]);
    expect(await ledgerOf(attempt.id)).toEqual([expected.xp]);

    const current = await view();
    expect(current.openAttempt).toBeNull();
    expect(current.attempts).toEqual([result.attempt]);
  });

  it("answers the same result when finished again, and never credits twice", async () => {
    const id = (await view()).attempts[0]?.id as string;
    const first = (await call("student", `/attempts/${id}`)).body as AttemptResult;
    const again = await finish(id, 50);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first);
    expect(await ledgerOf(id)).toHaveLength(1);
  });

  it("counts a first mastery as a mastered unit once, and scales XP for later attempts", async () => {
    const rules = await xpRulesOf(t.db);
    const second = (await start()).body;
    expect(second.number).toBe(2);
    await answerAllRight(second.id);
    t.clock.advance(60_000);
    const mastered = (await finish(second.id, 45)).body as AttemptResult;
    expect(mastered.attempt).toMatchObject({
      number: 2,
      correctItems: 3,
      totalItems: 3,
      scorePercent: 100,
      mastered: true,
    });
    expect(mastered.firstMastery).toBe(true);
    const retry = computeXp(
      {
        baseXp: EXPECTED_XP,
        totalQuestions: 3,
        correctQuestions: 3,
        attempt: 2,
        activeSeconds: 45,
        wasteSeconds: 0,
        antiPatternSeconds: 0,
      },
      rules,
    );
    expect(mastered.attempt.xp?.xp).toBe(retry.xp);
    expect((await eventOf(second.id))[0]).toMatchObject({ masteredUnits: 1, attempt: 2 });

    const third = (await start()).body;
    await answerAllRight(third.id);
    t.clock.advance(60_000);
    const again = (await finish(third.id, 30)).body as AttemptResult;
    expect(again.attempt.mastered).toBe(true);
    expect(again.firstMastery).toBe(false);
    expect((await eventOf(third.id))[0]).toMatchObject({ masteredUnits: 0, attempt: 3 });

    const current = await view();
    expect(current.mastered).toBe(true);
    expect(current.attempts.map((attempt) => attempt.number)).toEqual([3, 2, 1]);
  });
});

describe("who may open, start, answer and finish", () => {
  it("refuses roles that take no lessons, and lessons out of reach", async () => {
    expect((await call("parent", `/lessons/${lesson.lessonId}`)).status).toBe(403);
    expect((await call("student", `/lessons/${riverside.lessonId}`)).status).toBe(404);
    expect((await start("student", riverside.lessonId)).status).toBe(404);
    expect((await call("student", "/lessons/no-such-lesson")).status).toBe(404);
    expect((await call("guide", `/lessons/${riverside.lessonId}`)).status).toBe(404);
    // A unit is not a lesson.
    expect((await call("student", `/lessons/${unitOf("maple-grove", "Math", 0)}`)).status).toBe(404);
  });

  it("opens a lesson of another course while it is assigned to the student", async () => {
    const [assignment] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into learning_assignments (target_kind, target_id, assignee_kind, assignee_id, assigned_by)
          values ('lesson', ${riverside.lessonId}, 'student', ${AVA}, ${demoId("guide-patel")}) returning id::text`,
    );
    expect((await view("student", riverside.lessonId)).lesson.course.id).toBe(RIVERSIDE_MATH);
    await t.db.execute(sql`update learning_assignments set removed_at = now(), removed_by = ${ADMIN}
      where id = ${assignment?.id}::uuid`);
    expect((await call("student", `/lessons/${riverside.lessonId}`)).status).toBe(404);
  });

  it("gives staff a preview with the questions to try, and no attempts", async () => {
    const preview = await view("guide");
    expect(preview).toMatchObject({ mode: "preview", canAnswer: false, attempts: [], openAttempt: null });
    const questions = preview.resources.find((resource) => resource.kind === "qti");
    for (const item of questions?.kind === "qti" ? questions.items : []) {
      expect(item.rawXml).toContain("qti-item-body");
      expect(item.rawXml).not.toContain("qti-correct-response");
    }
    expect((await start("guide")).status).toBe(403);
    expect((await view("admin", riverside.lessonId)).mode).toBe("preview");
  });

  it("lets no one else answer, finish or read a student's attempt", async () => {
    const { body: attempt } = await start();
    expect((await save(attempt.id, "dash-lesson-even", { RESPONSE: "B" }, "jordan")).status).toBe(404);
    expect((await finish(attempt.id, 10, "jordan")).status).toBe(404);
    expect((await call("jordan", `/attempts/${attempt.id}`)).status).toBe(404);
    expect((await save(attempt.id, "dash-lesson-even", { RESPONSE: "B" }, "guide")).status).toBe(403);
    expect((await call("student", "/attempts/not-an-attempt")).status).toBe(404);
    // The open attempt has no result yet.
    expect((await call("student", `/attempts/${attempt.id}`)).status).toBe(409);
  });

  it("takes answers only to the lesson's own questions, in a well-formed body", async () => {
    const { body: attempt } = await start();
    expect((await save(attempt.id, "dash-lesson-unknown", { RESPONSE: "B" })).status).toBe(404);
    expect(
      (await save(attempt.id, "dash-lesson-even", { RESPONSE: "B" }, "student", riverside.questionsId))
        .status,
    ).toBe(404);
    const [removed] = await queryRows<{ id: string }>(
      t.db,
      sql`select id::text from lesson_resources where lesson_id = ${lesson.lessonId} and removed_at is not null`,
    );
    expect(
      (await save(attempt.id, "dash-lesson-even", { RESPONSE: "B" }, "student", removed?.id)).status,
    ).toBe(404);
    expect(
      (await save(attempt.id, "dash-lesson-even", { RESPONSE: "B" }, "student", "not-a-uuid")).status,
    ).toBe(404);
    const bad = await save(attempt.id, "dash-lesson-even", "B");
    expect(bad.status).toBe(400);
    expect(bad.body.issues?.[0]?.path).toBe("response");
    expect((await save(attempt.id, "dash-lesson-even", { RESPONSE: 4 })).status).toBe(400);
    expect((await finish(attempt.id, -5)).status).toBe(400);
  });

  it("takes a file answer (a data URL) up to its size, and says so in words beyond it", async () => {
    const { body: attempt } = await start();
    const dataUrl = (bytes: number) => `data:image/png;base64,${Buffer.alloc(bytes, 7).toString("base64")}`;
    expect((await save(attempt.id, "dash-lesson-even", { RESPONSE: dataUrl(600 * 1024) })).status).toBe(200);
    for (const response of [dataUrl(700 * 1024), "x".repeat(20_001)]) {
      const refused = await save(attempt.id, "dash-lesson-even", { RESPONSE: response });
      expect(refused.status).toBe(400);
      expect(refused.body.issues?.[0]).toMatchObject({
        path: "response.RESPONSE",
        message: expect.stringContaining("640 KB"),
      });
    }
  });

  it("refuses answers to a finished attempt", async () => {
    const { body: attempt } = await start();
    expect((await finish(attempt.id, 5)).status).toBe(200);
    const late = await save(attempt.id, "dash-lesson-even", { RESPONSE: "B" });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe("This attempt is finished: start a new one to answer again.");
  });

  it("lets staff viewing Dash as the student read the lesson, never answer it", async () => {
    const guide = await t.signIn("guide@dash.demo");
    const viewing = await t.request("/api/auth/impersonation", {
      json: { userId: AVA, reason: "Helping with a lesson" },
      cookie: guide,
    });
    expect(viewing.status).toBeLessThan(300);
    const asAva = await t.request(`/api/content/lessons/${lesson.lessonId}`, { cookie: guide });
    expect(asAva.status).toBe(200);
    expect(await asAva.json()).toMatchObject({ mode: "student", canAnswer: false });
    const started = await t.request(`/api/content/lessons/${lesson.lessonId}/attempts`, {
      method: "POST",
      cookie: guide,
    });
    expect(started.status).toBe(403);
    await t.request("/api/auth/impersonation", { method: "DELETE", cookie: guide });
  });
});

describe("resources kept for later", () => {
  const keep = (who: string, resourceId: string, method: "PUT" | "DELETE" = "PUT") =>
    call(who, `/saved-resources/${resourceId}`, { method });
  const savedOf = (current: LessonView) =>
    Object.fromEntries(current.resources.map((resource) => [resource.title, resource.saved]));

  it("are marked in the student's lesson as they are kept and let go", async () => {
    const before = await view();
    expect(before.canSave).toBe(true);
    expect(savedOf(before)).toEqual({ "Read first": false, Practice: false, Watch: false });
    const [article, , video] = before.resources;

    expect((await keep("student", article?.id as string)).status).toBe(204);
    expect((await keep("student", video?.id as string)).status).toBe(204);
    expect(savedOf(await view())).toEqual({ "Read first": true, Practice: false, Watch: true });

    expect((await keep("student", article?.id as string, "DELETE")).status).toBe(204);
    expect(savedOf(await view())).toEqual({ "Read first": false, Practice: false, Watch: true });
    expect((await keep("student", video?.id as string, "DELETE")).status).toBe(204);
    expect(savedOf(await view())).toEqual({ "Read first": false, Practice: false, Watch: false });
  });

  it("are each student's own: another student's keeps do not show", async () => {
    // Jordan is a student of another Math class of the course.
    const [article, , video] = (await view()).resources;
    expect((await keep("jordan", article?.id as string)).status).toBe(204);
    expect((await keep("student", video?.id as string)).status).toBe(204);
    expect(savedOf(await view())).toEqual({ "Read first": false, Practice: false, Watch: true });
    expect(savedOf(await view("jordan"))).toEqual({ "Read first": true, Practice: false, Watch: false });
    expect((await keep("jordan", article?.id as string, "DELETE")).status).toBe(204);
    expect((await keep("student", video?.id as string, "DELETE")).status).toBe(204);
  });

  it("are kept by the student alone: staff preview and staff viewing as the student only look", async () => {
    const [article] = (await view()).resources;
    expect((await keep("student", article?.id as string)).status).toBe(204);

    const preview = await view("guide");
    expect(preview.canSave).toBe(false);
    expect(Object.values(savedOf(preview))).not.toContain(true);
    expect((await keep("guide", article?.id as string)).status).toBe(403);
    expect((await keep("admin", article?.id as string, "DELETE")).status).toBe(403);
    expect((await keep("parent", article?.id as string)).status).toBe(403);

    const guide = await t.signIn("guide@dash.demo");
    await t.request("/api/auth/impersonation", {
      json: { userId: AVA, reason: "Helping with a lesson" },
      cookie: guide,
    });
    const asAva = await t.request(`/api/content/lessons/${lesson.lessonId}`, { cookie: guide });
    const seen = (await asAva.json()) as LessonView;
    expect(seen.canSave).toBe(false);
    // The Guide sees what Ava keeps, and cannot change it.
    expect(savedOf(seen)["Read first"]).toBe(true);
    const letGo = await t.request(`/api/content/saved-resources/${article?.id}`, {
      method: "DELETE",
      cookie: guide,
    });
    expect(letGo.status).toBe(403);
    await t.request("/api/auth/impersonation", { method: "DELETE", cookie: guide });

    expect(savedOf(await view())["Read first"]).toBe(true);
    expect((await keep("student", article?.id as string, "DELETE")).status).toBe(204);
  });
});

describe("at the same moment", () => {
  it("two starts make one attempt, and two finishes one event and one award", async () => {
    const concurrent = await seedLesson(t, MAPLE_MATH, unitOf("maple-grove", "Math", 1), "At once");
    const starts = await Promise.all([
      start("student", concurrent.lessonId),
      start("student", concurrent.lessonId),
    ]);
    expect(new Set(starts.map((started) => started.body.id)).size).toBe(1);
    expect(starts.map((started) => started.status).sort()).toEqual([200, 201]);
    const attemptId = starts[0]?.body.id as string;
    expect(
      (await save(attemptId, "dash-lesson-even", { RESPONSE: "B" }, "student", concurrent.questionsId))
        .status,
    ).toBe(200);
    t.clock.advance(30_000);
    const finishes = await Promise.all([finish(attemptId, 20), finish(attemptId, 25)]);
    expect(finishes.map((finished) => finished.status)).toEqual([200, 200]);
    expect(finishes[0]?.body).toEqual(finishes[1]?.body);
    expect(await eventOf(attemptId)).toHaveLength(1);
    expect(await ledgerOf(attemptId)).toHaveLength(1);
    const [open] = await queryRows<{ count: number }>(
      t.db,
      sql`select count(*)::int as count from lesson_attempts where lesson_id = ${concurrent.lessonId}`,
    );
    expect(open?.count).toBe(1);
  });
});

describe("an item as the student receives it", () => {
  it("keeps the question and drops what gives the answer away", () => {
    const shown = withoutAnswers(CHOICE_ITEM);
    expect(shown).toContain("Which number is even?");
    expect(shown).toContain('qti-response-declaration identifier="RESPONSE"');
    expect(shown).not.toContain("qti-correct-response");
    expect(shown).not.toContain("Yes, 4 is even.");
    expect(shown).not.toContain("qti-response-processing");
  });
});

describe("XP held for review", () => {
  let held: TestApp;
  afterAll(() => held?.close());

  it("says the XP waits for approval instead of crediting it", async () => {
    held = await createTestApp({ env: { INGEST_MAX_AUTO_XP_PER_DAY: "1" } });
    await addTestItems(held.db, ADMIN, held.clock.now());
    const lessonId = await addLesson(held.db, MAPLE_MATH, unitOf("maple-grove", "Math", 0), "Held", 1);
    const [questions] = await queryRows<{ id: string }>(
      held.db,
      sql`insert into lesson_resources (lesson_id, kind, title, qti_items) values
          (${lessonId}, 'qti', 'One question', array['dash-lesson-even']) returning id::text`,
    );
    const cookie = await held.signIn("student@dash.demo");
    const request = async (path: string, init: { method?: string; json?: unknown } = {}) => {
      const response = await held.request(`/api/content${path}`, { ...init, cookie });
      return { status: response.status, body: await response.json() };
    };
    const { body: attempt } = await request(`/lessons/${lessonId}/attempts`, { method: "POST" });
    await request(`/attempts/${attempt.id}/responses`, {
      method: "PUT",
      json: { resourceId: questions?.id, itemIdentifier: "dash-lesson-even", response: { RESPONSE: "B" } },
    });
    held.clock.advance(60_000);
    const { status, body } = await request(`/attempts/${attempt.id}/finish`, { json: { activeSeconds: 40 } });
    expect(status).toBe(200);
    const result = body as AttemptResult;
    expect(result.attempt.xp?.status).toBe("held");
    expect(result.attempt.xp?.xp).toBeGreaterThan(0);
    expect(result.firstMastery).toBe(true);
    const eventId = `lesson-attempt:${attempt.id}`;
    const [stored] = await queryRows<{ credited: number; waiting: number }>(
      held.db,
      sql`select (select count(*)::int from activity_events where event_id = ${eventId}) as credited,
          (select count(*)::int from held_activity_events where event_id = ${eventId} and status = 'pending') as waiting`,
    );
    expect(stored).toEqual({ credited: 0, waiting: 1 });
  });
});

describe("a student's lesson data and privacy", () => {
  it("keeps answers in the student's export and removes them when the student is anonymised", async () => {
    const exported = await t.request(`/api/admin/privacy/students/${AVA}/export`, { cookie: cookies.admin });
    expect(exported.status).toBe(200);
    const file = path.join(tmpdir(), `dash-lesson-export-${randomUUID()}.zip`);
    await writeFile(file, Buffer.from(await exported.arrayBuffer()));
    const archive = await openZipUpload(file);
    const text = async (name: string) => {
      const entry = archive.files.find((candidate) => candidate.path === name);
      return entry ? Buffer.concat(await (await entry.open()).toArray()).toString("utf8") : "";
    };
    const [attempts, answers] = [await text("lesson-attempts.csv"), await text("lesson-answers.csv")];
    archive.close();
    await rm(file);
    expect(attempts).toContain("Even and odd,3,");
    expect(answers).toContain("Tell us about it");
    expect(answers).toContain("Seven, it is lucky.");
    const count = async () => {
      const [row] = await queryRows<{ attempts: number; answers: number }>(
        t.db,
        sql`select (select count(*)::int from lesson_attempts where student_sourced_id = ${AVA}) as attempts,
          (select count(*)::int from lesson_item_responses r join lesson_attempts a on a.id = r.attempt_id
            where a.student_sourced_id = ${AVA}) as answers`,
      );
      return row;
    };
    const before = await count();
    expect(before?.answers).toBeGreaterThan(0);
    // Run last: the student's record is anonymised by it.
    const anonymised = await t.request(`/api/admin/privacy/students/${AVA}/anonymise`, {
      json: { confirm: "Ava Johnson", reason: "The family asked for erasure" },
      cookie: cookies.admin,
    });
    expect(anonymised.status).toBe(200);
    expect(await count()).toEqual({ attempts: before?.attempts, answers: 0 });
  });
});
