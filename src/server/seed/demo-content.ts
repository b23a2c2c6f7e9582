import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { addDays, localDateOf, SCHOOL_TIME_ZONE, timeZoneOffsetMs } from "../../shared/time-zone";
import { type Database, queryRows } from "../db/client";
import { ingestActivity } from "../domains/activity/ingest";
import {
  DASH_LESSONS_APP_ID,
  ensureDashLessonsApp,
  lessonAttemptEventId,
} from "../domains/content/lesson-app";
import { attemptSeed, isCorrect } from "../domains/content/lesson-items";
import { itemsOf, type LessonItem, lessonResources } from "../domains/content/lessons";
import { correctResponsesOf } from "../domains/content/qti/answers";
import { saveQtiDocuments, setQtiPublic } from "../domains/content/qti/bank";
import { readQtiDocument } from "../domains/content/qti/qti-document";
import { instantiateTemplate, scoreItem } from "../domains/content/qti/scoring";
import { lessonAttempts, lessonItemResponses } from "../domains/content/schema";
import { sanitizeHtml } from "../lib/sanitize-html";
import { demoId } from "./demo-accounts";
import { schoolDaysUntil } from "./demo-activity";

/**
 * A syllabus built in Dash: two units about the ocean, with four lessons, added to Maple Grove's
 * Science K–04 course after its rostered units. Their QTI items (the project's own, in
 * demo-content/) use eleven kinds of interaction around a shared reading passage; the Guide Maya
 * Patel has assigned two lessons to her Science group, and some of her students have taken them
 * (their XP went through the XP engine like any app's).
 */

const ADMIN = demoId("admin");
const MAYA = demoId("guide-patel");
const AVA = demoId("student-ava");
const COURSE = demoId("course-maple-grove-Science");
const CLASS = demoId("class-maple-grove-guide-patel-Science");
/** The course's rostered units have sortOrder 1 to 3 (and one without): these come after them. */
const FIRST_SORT_ORDER = 4;
const CONTENT_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "demo-content");

type Resource =
  | { kind: "article"; title: string; html: string }
  | { kind: "qti"; title: string; items: string[] }
  | { kind: "app"; title: string };

interface Lesson {
  key: string;
  title: string;
  expectedXp: number;
  description: string;
  resources: Resource[];
}

const UNITS: { key: string; title: string; lessons: Lesson[] }[] = [
  {
    key: "life",
    title: "Life in the ocean",
    lessons: [
      {
        key: "octopus",
        title: "Meet the octopus",
        expectedXp: 12,
        description: "<p>Read about one of the cleverest animals in the sea, then answer four questions.</p>",
        resources: [
          {
            kind: "article",
            title: "Before you read",
            html: "<h2>Eight arms, no bones</h2><p>As you read <strong>The Clever Octopus</strong>, look for <em>two</em> ways an octopus stays safe.</p>",
          },
          {
            kind: "qti",
            title: "The Clever Octopus",
            items: [
              "ocean-octopus-arms",
              "ocean-octopus-escape",
              "ocean-octopus-word",
              "ocean-octopus-suckers",
            ],
          },
        ],
      },
      {
        key: "food",
        title: "Ocean food chains",
        expectedXp: 10,
        description: "<p>Who eats whom in the sea? Build a food chain from plankton to sharks.</p>",
        resources: [
          {
            kind: "article",
            title: "Producers and consumers",
            html: "<p>A <strong>producer</strong> makes its own food from sunlight, like seaweed. A <strong>consumer</strong> eats other living things.</p><ul><li>Plankton are tiny producers.</li><li>Fish, seals and sharks are consumers.</li></ul>",
          },
          {
            kind: "qti",
            title: "Food chain check",
            items: ["ocean-food-match", "ocean-food-chain", "ocean-food-gaps"],
          },
        ],
      },
    ],
  },
  {
    key: "measure",
    title: "Measuring the ocean",
    lessons: [
      {
        key: "how-much",
        title: "How much ocean?",
        expectedXp: 10,
        description: "<p>Use fractions and percents to describe how much of Earth is ocean.</p>",
        resources: [
          {
            kind: "qti",
            title: "Ocean numbers",
            items: ["ocean-depth-slider", "ocean-depth-fraction", "ocean-depth-zones"],
          },
        ],
      },
      {
        key: "deep",
        title: "The deep, dark ocean",
        expectedXp: 8,
        description: "<p>Find out why sunlight cannot reach the bottom of the sea.</p>",
        resources: [
          {
            kind: "article",
            title: "Into the midnight zone",
            html: '<p>Sunlight fades as it goes down through the water. Below about <span style="font-weight: bold">1,000 metres</span> it is completely dark: this is the <em>midnight zone</em>.</p>',
          },
          { kind: "qti", title: "Explain it", items: ["ocean-depth-explain"] },
          { kind: "app", title: "Practise in your Science app" },
        ],
      },
    ],
  },
];

const lessonId = (key: string) => demoId(`lesson-ocean-${key}`);

/** 2 pm of a school day at the school. */
function afternoonOf(date: string): Date {
  const asUtc = new Date(`${date}T14:00:00Z`);
  return new Date(asUtc.getTime() - timeZoneOffsetMs(asUtc, SCHOOL_TIME_ZONE));
}

/** Imports the demo items and the passage as an author would, and marks them public for embeds. */
async function importDemoItems(db: Database, now: Date): Promise<void> {
  const records = readdirSync(CONTENT_DIR)
    .filter((name) => name.endsWith(".xml"))
    .sort()
    .map((name) => readQtiDocument(readFileSync(path.join(CONTENT_DIR, name), "utf8")));
  await db.transaction((tx) =>
    saveQtiDocuments(tx as unknown as Database, records, ADMIN, now, "demo-content"),
  );
  for (const record of records)
    if (record.kind === "item") await setQtiPublic(db, "item", record.identifier, true, ADMIN, now);
}

async function seedLessons(db: Database, now: Date, scienceAppId: string | null): Promise<void> {
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const stamp = now.toISOString();
    for (const [unitIndex, unit] of UNITS.entries()) {
      const unitId = demoId(`unit-ocean-${unit.key}`);
      await tx.execute(
        sql`insert into course_components (sourced_id, status, date_last_modified, course_sourced_id, title, sort_order)
          values (${unitId}, 'active', ${stamp}, ${COURSE}, ${unit.title}, ${FIRST_SORT_ORDER + unitIndex})`,
      );
      for (const [lessonIndex, lesson] of unit.lessons.entries()) {
        const id = lessonId(lesson.key);
        await tx.execute(
          sql`insert into course_components (sourced_id, status, date_last_modified, course_sourced_id, parent_component_sourced_id, title, sort_order)
            values (${id}, 'active', ${stamp}, ${COURSE}, ${unitId}, ${lesson.title}, ${lessonIndex + 1})`,
        );
        await tx.execute(
          sql`insert into lessons (component_sourced_id, expected_xp, mastery_percent, description_html, updated_by, updated_at)
            values (${id}, ${lesson.expectedXp}, 80, ${sanitizeHtml(lesson.description)}, ${ADMIN}, ${stamp})`,
        );
        for (const [resourceIndex, resource] of lesson.resources.entries()) {
          if (resource.kind === "app" && !scienceAppId) continue;
          await tx.execute(
            sql`insert into lesson_resources (lesson_id, kind, title, sort_order, qti_items, article_html, app_id, created_by, created_at, updated_by, updated_at)
              values (${id}, ${resource.kind}, ${resource.title}, ${resourceIndex + 1},
                ${resource.kind === "qti" ? `{${resource.items.join(",")}}` : "{}"}::text[],
                ${resource.kind === "article" ? sanitizeHtml(resource.html) : null},
                ${resource.kind === "app" ? scienceAppId : null}, ${ADMIN}, ${stamp}, ${ADMIN}, ${stamp})`,
          );
        }
      }
    }

    const today = localDateOf(now, SCHOOL_TIME_ZONE);
    const assign = (lesson: string, dueDate: string, daysAgo: number, note: string) =>
      tx.execute(
        sql`insert into learning_assignments (target_kind, target_id, assignee_kind, assignee_id, due_date, note, assigned_by, assigned_at)
          values ('lesson', ${lessonId(lesson)}, 'class', ${CLASS}, ${dueDate}, ${note}, ${MAYA},
            ${new Date(now.getTime() - daysAgo * 86_400_000).toISOString()})`,
      );
    await assign("octopus", addDays(today, -2), 9, "Read the passage carefully before you answer.");
    await assign("food", addDays(today, 4), 2, "Finish before our aquarium visit.");
  });
}

/**
 * The answers of a finished attempt: the right ones to its first `wanted` items that score
 * themselves, the others left unanswered, so its result shows what the student gave.
 */
function answersOf(items: LessonItem[], attemptId: string, wanted: number, answeredAt: Date) {
  const answers: (typeof lessonItemResponses.$inferInsert)[] = [];
  for (const item of items) {
    if (answers.length === wanted) break;
    const shown = instantiateTemplate(item.rawXml, attemptSeed(attemptId, item.identifier));
    const response = correctResponsesOf(shown);
    const scored = scoreItem(shown, response);
    if (!isCorrect(scored)) continue;
    answers.push({
      attemptId,
      resourceId: item.resourceId,
      itemIdentifier: item.identifier,
      response,
      score: scored.score,
      maxScore: scored.maxScore,
      answeredAt,
    });
  }
  return answers;
}

/**
 * Finished attempts for most of the class on the first lesson and some on the second, and one of
 * Ava's still open on the third; each finished one is reported to the XP engine.
 */
async function seedAttempts(db: Database, now: Date): Promise<void> {
  const students = await queryRows<{ id: string }>(
    db,
    sql`select user_sourced_id as id from enrollments where class_sourced_id = ${CLASS} and role = 'student' and status = 'active'
      order by user_sourced_id`,
  );
  // On school days before the last two, so the demo's own activity still ends the record.
  const schoolDays = schoolDaysUntil(localDateOf(now, SCHOOL_TIME_ZONE), 12).days;
  const [octopus, food] = [UNITS[0]?.lessons[0], UNITS[0]?.lessons[1]] as [Lesson, Lesson];
  const itemsOfLesson = new Map<Lesson, LessonItem[]>();
  for (const lesson of [octopus, food])
    itemsOfLesson.set(lesson, itemsOf(await lessonResources(db, lessonId(lesson.key))));
  const facts: { fact: unknown }[] = [];
  const attempts: (typeof lessonAttempts.$inferInsert)[] = [];
  const answers: (typeof lessonItemResponses.$inferInsert)[] = [];
  for (const [index, { id: student }] of students.entries()) {
    const runs: { lesson: Lesson; schoolDaysAgo: number }[] = [];
    if (student === AVA || index % 4 !== 3) runs.push({ lesson: octopus, schoolDaysAgo: 4 + (index % 5) });
    if (student === AVA || index % 3 === 0) runs.push({ lesson: food, schoolDaysAgo: 2 + (index % 2) });
    for (const run of runs) {
      const items = itemsOfLesson.get(run.lesson) ?? [];
      const total = items.length;
      const finishedAt = afternoonOf(schoolDays.at(-1 - run.schoolDaysAgo) as string);
      const startedAt = new Date(finishedAt.getTime() - 9 * 60_000);
      const attemptId = demoId(`lesson-attempt-${run.lesson.key}-${student}`);
      const wanted = student === AVA ? total : Math.max(1, total - (index % 3));
      const given = answersOf(items, attemptId, wanted, finishedAt);
      answers.push(...given);
      const correct = given.length;
      const score = Math.round((correct / total) * 10000) / 100;
      const eventId = lessonAttemptEventId(attemptId);
      const mastered = score >= 80;
      attempts.push({
        id: attemptId,
        lessonId: lessonId(run.lesson.key),
        studentSourcedId: student,
        attemptNumber: 1,
        startedAt,
        finishedAt,
        scorePercent: score,
        correctItems: correct,
        totalItems: total,
        mastered,
        activeSeconds: 540,
        activityEventId: eventId,
      });
      facts.push({
        fact: {
          eventId,
          studentId: student,
          occurredAt: finishedAt.toISOString(),
          subject: "Science",
          activityId: lessonId(run.lesson.key),
          activityName: run.lesson.title,
          expectedXp: run.lesson.expectedXp,
          totalQuestions: total,
          correctQuestions: correct,
          masteredUnits: mastered ? 1 : 0,
          scorePercent: score,
          activeSeconds: 540,
        },
      });
    }
  }
  // Ava's attempt at "How much ocean?" is still open.
  attempts.push({
    lessonId: lessonId("how-much"),
    studentSourcedId: AVA,
    attemptNumber: 1,
    startedAt: new Date(now.getTime() - 20 * 60_000),
  });
  await db.insert(lessonAttempts).values(attempts);
  if (answers.length) await db.insert(lessonItemResponses).values(answers);
  await ensureDashLessonsApp(db);
  await ingestActivity(db, DASH_LESSONS_APP_ID, facts, now);
}

export async function seedDemoContent(db: Database, today: Date): Promise<void> {
  await importDemoItems(db, today);
  const [scienceApp] = await queryRows<{ id: string }>(
    db,
    sql`select id::text from learning_apps where kind = 'learning' and is_active and 'Science' = any(subjects)
      and id <> ${DASH_LESSONS_APP_ID}::uuid order by name limit 1`,
  );
  await seedLessons(db, today, scienceApp?.id ?? null);
  await seedAttempts(db, today);
}
