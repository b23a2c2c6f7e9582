import { sql } from "drizzle-orm";
import type { ActivityFact } from "../../shared/contracts/activity";
import { addDays, isWeekday, localDateOf, timeZoneOffsetMs } from "../../shared/time-zone";
import { computeXp } from "../../shared/xp-rules";
import { type Database, queryRows } from "../db/client";
import { setMeta } from "../db/meta";
import { type IngestItem, ingestActivity } from "../domains/activity/ingest";
import { awardManualXpAs } from "../domains/activity/xp";
import { schoolHolidays, studentDailyGoals } from "../domains/goals/schema";
import { isStudent } from "../domains/rostering/queries";
import { DEMO_APPS, demoId } from "./demo-accounts";
import { demoSchoolYearDates, schoolYearOf, seededRandom } from "./demo-school";

/**
 * The demo school's learning activity: about 60 school days of sessions for every student in the
 * four demo apps, ending at the moment of seeding, plus the school calendar and daily XP goals.
 * Events go through `ingestActivity`, so XP, the ledger and the daily totals come from the real
 * engine. Deterministic: a student's day depends only on the student and the date.
 */

/** How many school days of activity, ending today. */
export const DEMO_SCHOOL_DAYS = 60;
const MAX_BATCH = 1000;
/** When the apps send a day's events: 17:00 in the student's timezone. */
const END_OF_DAY_MINUTE = 17 * 60;

/** The school's default daily XP goals per subject. */
export const DEMO_DAILY_GOALS = { Math: 30, Reading: 30, Language: 20, Science: 20 };
type Subject = keyof typeof DEMO_DAILY_GOALS;
const SUBJECTS = Object.keys(DEMO_DAILY_GOALS) as Subject[];

/** Students with their own goals, by demo key. */
const PERSONAL_GOALS: { key: string; goals: Partial<Record<Subject, number>> }[] = [
  { key: "student-leo", goals: { Math: 40 } },
  { key: "student-maple-grove-5", goals: { Reading: 20, Language: 15 } },
  { key: "student-riverside-10", goals: { Science: 25 } },
];

const APP_OF_SUBJECT: Record<Subject, string> = {
  Math: demoId(`app-${DEMO_APPS[0].key}`),
  Reading: demoId(`app-${DEMO_APPS[1].key}`),
  Language: demoId(`app-${DEMO_APPS[2].key}`),
  Science: demoId(`app-${DEMO_APPS[3].key}`),
};

/** Activities per subject for the younger (K–4) and older (5–8) students. */
const CATALOG: Record<Subject, { lower: string[]; upper: string[] }> = {
  Math: {
    lower: [
      "Counting to 100",
      "Addition within 20",
      "Subtraction with regrouping",
      "Place value: tens and ones",
      "Multiplication facts 2–5",
      "Multiplication facts 6–9",
      "Equivalent fractions",
      "Fractions on a number line",
      "Telling time to the minute",
      "Area of rectangles",
    ],
    upper: [
      "Ratios and rates",
      "Dividing fractions",
      "Integers on the number line",
      "One-step equations",
      "Two-step equations",
      "Percent problems",
      "Volume of prisms",
      "Linear functions",
      "Pythagorean theorem",
      "Scientific notation",
    ],
  },
  Reading: {
    lower: [
      "Short vowel sounds",
      "Sight words set 4",
      "Story sequencing",
      "Main idea and details",
      "Character feelings",
      "Fables and morals",
      "Nonfiction text features",
      "Reading fluency: animals",
    ],
    upper: [
      "Theme and summary",
      "Point of view",
      "Citing text evidence",
      "Comparing two texts",
      "Figurative language",
      "Argument and claims",
      "Poetry: structure and meaning",
      "Informational text structure",
    ],
  },
  Language: {
    lower: [
      "Capital letters",
      "Nouns and verbs",
      "Punctuating sentences",
      "Plural nouns",
      "Adjectives",
      "Commas in a series",
      "Spelling: long vowels",
      "Contractions",
    ],
    upper: [
      "Pronoun agreement",
      "Commas and clauses",
      "Verb tenses",
      "Sentence variety",
      "Greek and Latin roots",
      "Active and passive voice",
      "Vocabulary in context",
      "Editing a paragraph",
    ],
  },
  Science: {
    lower: [
      "Living and non-living things",
      "Plant life cycles",
      "Weather and seasons",
      "States of matter",
      "Pushes and pulls",
      "Animal habitats",
      "The water cycle",
      "Rocks and soil",
    ],
    upper: [
      "Cells and organelles",
      "Ecosystems and energy",
      "Chemical reactions",
      "Forces and motion",
      "Plate tectonics",
      "Waves and sound",
      "The solar system",
      "Genetics and heredity",
    ],
  },
};

interface StudentRow {
  sourcedId: string;
  identifier: string | null;
  timezone: string;
  grades: string[] | null;
}

interface Profile {
  id: string;
  key: string;
  timezone: string;
  band: "lower" | "upper";
  /** The share of days the student meets every goal, from about 0.15 to 0.97. */
  diligence: number;
  goals: Record<Subject, number>;
}

/** FNV-1a: a number from a string, to seed each student's day on its own. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const between = (rand: () => number, min: number, max: number) => min + rand() * (max - min);
const intBetween = (rand: () => number, min: number, max: number) => Math.floor(between(rand, min, max + 1));

// --- The school calendar ----------------------------------------------------------------------

const dateOf = (year: number, month: number, day: number) =>
  `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;

/** The `n`th (1-based) weekday (0 = Sunday) of a month; n = -1 is the last. */
function nthWeekday(year: number, month: number, weekday: number, n: number): string {
  if (n < 0) {
    const last = new Date(Date.UTC(year, month, 0, 12));
    last.setUTCDate(last.getUTCDate() - ((last.getUTCDay() - weekday + 7) % 7));
    return last.toISOString().slice(0, 10);
  }
  const first = new Date(Date.UTC(year, month - 1, 1, 12));
  return addDays(dateOf(year, month, 1), ((weekday - first.getUTCDay() + 7) % 7) + (n - 1) * 7);
}

/** Weekdays strictly between two dates. */
function weekdaysBetween(after: string, before: string): string[] {
  const days: string[] = [];
  for (let date = addDays(after, 1); date < before; date = addDays(date, 1))
    if (isWeekday(date)) days.push(date);
  return days;
}

/** The district's days off in the school year that starts in August of `startYear`. */
function holidaysOf(startYear: number): { date: string; name: string }[] {
  const year = demoSchoolYearDates(startYear);
  const next = startYear + 1;
  const thanksgiving = nthWeekday(startYear, 11, 4, 4);
  const [, , q3, q4] = year.quarters;
  return [
    { date: nthWeekday(startYear, 9, 1, 1), name: "Labor Day" },
    { date: nthWeekday(startYear, 10, 5, 1), name: "Teacher planning day" },
    { date: nthWeekday(startYear, 10, 1, 2), name: "Indigenous Peoples' Day" },
    { date: dateOf(startYear, 11, 11), name: "Veterans Day" },
    ...[-1, 0, 1].map((offset) => ({ date: addDays(thanksgiving, offset), name: "Thanksgiving break" })),
    ...weekdaysBetween(year.fall.end, year.spring.start).map((date) => ({ date, name: "Winter break" })),
    { date: nthWeekday(next, 1, 1, 3), name: "Martin Luther King Jr. Day" },
    { date: nthWeekday(next, 2, 5, 1), name: "Teacher planning day" },
    { date: nthWeekday(next, 2, 1, 3), name: "Presidents' Day" },
    ...weekdaysBetween(q3.end, q4.start).map((date) => ({ date, name: "Spring break" })),
    { date: nthWeekday(next, 5, 1, -1), name: "Memorial Day" },
  ].filter((holiday) => isWeekday(holiday.date));
}

/**
 * The last `count` school days up to `lastDate`: weekdays inside a term and not a holiday. Early
 * in the school year the days reach back into the previous spring, never into the summer.
 */
export function schoolDaysUntil(lastDate: string, count: number) {
  const holidays = new Map<string, string>();
  const startYearOf = (date: string) => schoolYearOf(new Date(`${date}T12:00:00Z`)).startYear;
  const inTerm = (date: string) => {
    const { fall, spring } = demoSchoolYearDates(startYearOf(date));
    return (date >= fall.start && date <= fall.end) || (date >= spring.start && date <= spring.end);
  };
  const lastYear = startYearOf(lastDate);
  for (const startYear of [lastYear - 1, lastYear])
    for (const holiday of holidaysOf(startYear)) holidays.set(holiday.date, holiday.name);
  const days: string[] = [];
  for (let date = lastDate; days.length < count; date = addDays(date, -1))
    if (isWeekday(date) && inTerm(date) && !holidays.has(date)) days.push(date);
  days.reverse();
  const first = days[0] ?? lastDate;
  const inRange = [...holidays]
    .filter(([date]) => date >= first && date <= lastDate)
    .map(([date, name]) => ({ date, name }));
  return { days, holidays: inRange };
}

// --- Times in the student's timezone -------------------------------------------------------------

/**
 * 00:00 of a local date as an instant, with the offset of that day's daytime: adding minutes gives
 * the times of the school day (daylight saving changes at night, on a Sunday).
 */
function localMidnight(date: string, timeZone: string): number {
  const noon = Date.parse(`${date}T12:00:00Z`);
  return Date.parse(`${date}T00:00:00Z`) - timeZoneOffsetMs(new Date(noon), timeZone);
}

// --- A student's day -------------------------------------------------------------------------------

interface PlannedActivity {
  subject: Subject;
  activityId: string;
  activityName: string;
  expectedXp: number;
  totalQuestions: number;
  correctQuestions: number;
  masteredUnits: number;
  activeSeconds: number;
  inactiveSeconds: number;
  wasteSeconds: number;
  antiPatternSeconds: number;
  attempt: number;
  xp: number;
}

type Quality = "any" | "passing" | "perfect";

function xpOf(activity: Omit<PlannedActivity, "xp">): number {
  return computeXp({ ...activity, baseXp: activity.expectedXp }).xp;
}

/** One activity as an app would report it; quality "passing" or "perfect" rules out a failed one. */
function makeActivity(
  rand: () => number,
  student: Profile,
  subject: Subject,
  options: { expectedXp?: number; quality?: Quality; attempt?: number; of?: PlannedActivity } = {},
): PlannedActivity {
  const catalog = CATALOG[subject][student.band];
  const name = options.of?.activityName ?? (catalog[Math.floor(rand() * catalog.length)] as string);
  const quality = options.quality ?? "any";
  const slack = 1 - student.diligence;
  const expectedXp = options.expectedXp ?? options.of?.expectedXp ?? intBetween(rand, 10, 25);
  const totalQuestions = options.of?.totalQuestions ?? intBetween(rand, 5, 20);
  const isLow = quality === "any" && rand() < 0.055 + slack * 0.16;
  const isPerfect = quality === "perfect" || (!isLow && rand() < 0.3 + student.diligence * 0.25);
  const passingFloor = Math.ceil(totalQuestions * 0.8);
  let correctQuestions: number;
  if (isPerfect) correctQuestions = totalQuestions;
  else if (isLow)
    correctQuestions = Math.min(passingFloor - 1, Math.floor(totalQuestions * between(rand, 0.35, 0.78)));
  else
    correctQuestions = Math.max(
      passingFloor,
      Math.min(totalQuestions - 1, Math.round(totalQuestions * between(rand, 0.84, 0.98))),
    );
  // Rushed, failed work often comes with gaming the app: clicking through for answers.
  const isGaming = isLow && rand() < 0.03 + slack * 0.15;
  const activeSeconds =
    Math.round((expectedXp * 60 * between(rand, isLow ? 0.4 : 0.85, isLow ? 0.8 : 1.2)) / 5) * 5;
  const wasteSeconds = quality !== "perfect" && rand() < 0.1 + slack * 0.3 ? intBetween(rand, 6, 48) * 5 : 0;
  const activity = {
    subject,
    activityId: `${subject.toLowerCase()}-${student.band}-${catalog.indexOf(name) + 1}`,
    activityName: name,
    expectedXp,
    totalQuestions,
    correctQuestions,
    masteredUnits: correctQuestions / totalQuestions >= 0.9 && rand() < 0.4 ? 1 : 0,
    activeSeconds,
    inactiveSeconds: rand() < 0.5 ? intBetween(rand, 1, 24) * 5 : 0,
    wasteSeconds,
    antiPatternSeconds: isGaming ? intBetween(rand, 12, 90) * 5 : 0,
    attempt: options.attempt ?? 1,
  };
  return { ...activity, xp: xpOf(activity) };
}

/** A subject's activities for the day: enough XP for the goal when `meets`, less (or nothing) when not. */
function planSubject(
  rand: () => number,
  student: Profile,
  subject: Subject,
  meets: boolean,
): PlannedActivity[] {
  const goal = student.goals[subject];
  const total = (list: PlannedActivity[]) => list.reduce((sum, activity) => sum + activity.xp, 0);
  const withRetry = (activity: PlannedActivity) => {
    // A failed activity is usually tried again straight away.
    if (activity.xp > 0 || rand() < 0.2) return [activity];
    return [activity, makeActivity(rand, student, subject, { of: activity, attempt: 2, quality: "passing" })];
  };
  if (!meets) {
    if (rand() < 0.35) return [];
    let first = makeActivity(rand, student, subject);
    if (first.xp >= goal)
      first = makeActivity(rand, student, subject, { expectedXp: Math.floor((goal - 1) / 1.25) });
    return [first];
  }
  const plan = withRetry(makeActivity(rand, student, subject));
  let guard = 0;
  while (total(plan) < goal && guard++ < 4) {
    const need = goal - total(plan);
    const expectedXp = Math.min(25, Math.max(10, Math.ceil(need) + intBetween(rand, 0, 5)));
    // Topping up after two activities means the student is set on reaching the goal: no slips.
    const quality: Quality = plan.length >= 2 ? "perfect" : need > 20 ? "passing" : "any";
    plan.push(...withRetry(makeActivity(rand, student, subject, { expectedXp, quality })));
  }
  return plan;
}

interface DayPlan {
  /** Whether each subject's goal is to be met; absent means the student's usual odds. */
  meets?: Partial<Record<Subject, boolean>>;
}

/** A student's school day: activities in school hours, in the student's timezone, as ingest items. */
function studentDay(
  student: Profile,
  date: string,
  dayPlan: DayPlan,
): { appId: string; fact: ActivityFact }[] {
  const rand = seededRandom(hashOf(`${student.key}|${date}`));
  const forced = dayPlan.meets;
  const slack = 1 - student.diligence;
  if (!forced && rand() < 0.015 + slack * 0.05) return []; // absent
  // On a good day every goal is met; on another day some are, by luck and effort.
  const isGoodDay = rand() < student.diligence;
  const order = [...SUBJECTS];
  for (let index = order.length - 1; index > 0; index--) {
    const other = Math.floor(rand() * (index + 1));
    [order[index], order[other]] = [order[other] as Subject, order[index] as Subject];
  }
  const midnight = localMidnight(date, student.timezone);
  let minute = 8 * 60 + 30 + intBetween(rand, 0, 30);
  const facts: { appId: string; fact: ActivityFact }[] = [];
  for (const subject of order) {
    const meets = forced?.[subject] ?? (isGoodDay || rand() < student.diligence * 0.6);
    const plan = planSubject(rand, student, subject, meets);
    plan.forEach((activity, index) => {
      minute += (activity.activeSeconds + activity.inactiveSeconds + activity.wasteSeconds) / 60;
      if (minute > END_OF_DAY_MINUTE - 30) return; // the bus leaves
      const occurredAt = new Date(midnight + Math.round(minute * 60) * 1000);
      facts.push({
        appId: APP_OF_SUBJECT[subject],
        fact: {
          eventId: `demo-${student.key}-${date}-${subject}-${index + 1}`,
          studentId: student.id,
          occurredAt: occurredAt.toISOString(),
          subject,
          activityId: activity.activityId,
          activityName: activity.activityName,
          expectedXp: activity.expectedXp,
          totalQuestions: activity.totalQuestions,
          correctQuestions: activity.correctQuestions,
          masteredUnits: activity.masteredUnits,
          activeSeconds: activity.activeSeconds,
          inactiveSeconds: activity.inactiveSeconds,
          wasteSeconds: activity.wasteSeconds,
          antiPatternSeconds: activity.antiPatternSeconds,
          attempt: activity.attempt,
        },
      });
      minute += intBetween(rand, 3, 25); // a lesson with the Guide, a break, another app
      // Lunch and recess.
      if (minute >= 11 * 60 + 45 && minute < 12 * 60 + 30) minute = 12 * 60 + 30 + intBetween(rand, 0, 10);
    });
  }
  return facts;
}

/** Ava's recent days: every goal met on the last five school days, one subject missed the day before. */
function avaPlan(days: string[], today: string): Map<string, DayPlan> {
  const plans = new Map<string, DayPlan>();
  const allMet = Object.fromEntries(SUBJECTS.map((subject) => [subject, true]));
  const past = days.filter((date) => date < today);
  for (const date of past.slice(-5)) plans.set(date, { meets: allMet });
  const missed = past.at(-6);
  if (missed) plans.set(missed, { meets: { ...allMet, Science: false } });
  if (days.at(-1) === today) plans.set(today, { meets: allMet });
  return plans;
}

function profileOf(row: StudentRow): Profile {
  const key = row.identifier ?? row.sourcedId;
  const rand = seededRandom(hashOf(`profile|${key}`));
  // A spread of habits: a third reliable, half in between, the rest rarely at their goals.
  const roll = rand();
  let diligence =
    roll < 0.33
      ? between(rand, 0.85, 0.97)
      : roll < 0.83
        ? between(rand, 0.45, 0.85)
        : between(rand, 0.15, 0.45);
  if (key === "student-ava") diligence = 0.8;
  const grade = row.grades?.[0] ?? "03";
  const own = PERSONAL_GOALS.find((entry) => entry.key === key)?.goals ?? {};
  return {
    id: row.sourcedId,
    key,
    timezone: row.timezone,
    band: grade === "KG" || Number(grade) <= 4 ? "lower" : "upper",
    diligence,
    goals: { ...DEMO_DAILY_GOALS, ...own },
  };
}

// --- Seeding -------------------------------------------------------------------------------------

/**
 * Seeds the activity of every active student, ending at `today` (an instant: nothing after it).
 * `only` limits it to some students, for tests: each student's data is the same either way.
 */
export async function seedDemoActivity(
  db: Database,
  today: Date,
  options: { only?: string[] } = {},
): Promise<void> {
  const rows = await queryRows<StudentRow>(
    db,
    sql`select u.sourced_id as "sourcedId", u.identifier, u.timezone, u.grades from users u
        where u.status = 'active'
          and ${isStudent(sql`u.sourced_id`)}
          and ${options.only ? (options.only.length ? sql`u.sourced_id in ${options.only}` : sql`false`) : sql`true`}
        order by u.sourced_id`,
  );
  const students = rows.map(profileOf);

  await setMeta(db, "daily_xp_goals", DEMO_DAILY_GOALS);
  const overrides = students.flatMap((student) =>
    Object.entries(PERSONAL_GOALS.find((entry) => entry.key === student.key)?.goals ?? {}).map(
      ([subject, dailyXp]) => ({ studentSourcedId: student.id, subject, dailyXp }),
    ),
  );
  if (overrides.length) await db.insert(studentDailyGoals).values(overrides).onConflictDoNothing();

  // The calendar follows the students' own today; the district's holidays are those in the range.
  const calendars = new Map<string, ReturnType<typeof schoolDaysUntil> & { today: string }>();
  for (const timezone of new Set(students.map((student) => student.timezone))) {
    const localToday = localDateOf(today, timezone);
    calendars.set(timezone, { ...schoolDaysUntil(localToday, DEMO_SCHOOL_DAYS), today: localToday });
  }
  const holidays = new Map<string, string>();
  for (const calendar of calendars.values())
    for (const holiday of calendar.holidays) holidays.set(holiday.date, holiday.name);
  if (holidays.size)
    await db
      .insert(schoolHolidays)
      .values([...holidays].map(([date, name]) => ({ orgSourcedId: demoId("district"), date, name })))
      .onConflictDoNothing();

  // Per app and day, as an app would send them at the end of the school day (today: now).
  const batches = new Map<string, { appId: string; items: IngestItem[]; receivedAt: Date }>();
  for (const student of students) {
    const calendar = calendars.get(student.timezone);
    if (!calendar) continue;
    const plans = student.key === "student-ava" ? avaPlan(calendar.days, calendar.today) : new Map();
    for (const date of calendar.days) {
      for (const { appId, fact } of studentDay(student, date, plans.get(date) ?? {})) {
        if (Date.parse(fact.occurredAt) > today.getTime()) continue;
        const key = `${date}|${student.timezone}|${appId}`;
        let batch = batches.get(key);
        if (!batch) {
          const endOfDay = localMidnight(date, student.timezone) + END_OF_DAY_MINUTE * 60_000;
          batch = { appId, items: [], receivedAt: new Date(Math.min(today.getTime(), endOfDay)) };
          batches.set(key, batch);
        }
        batch.items.push({ fact });
      }
    }
  }
  for (const key of [...batches.keys()].sort()) {
    const { appId, items, receivedAt } = batches.get(key) as NonNullable<ReturnType<typeof batches.get>>;
    for (let start = 0; start < items.length; start += MAX_BATCH) {
      const result = await ingestActivity(db, appId, items.slice(start, start + MAX_BATCH), receivedAt);
      if (result.rejected.length)
        throw new Error(`demo activity was rejected: ${JSON.stringify(result.rejected.slice(0, 3))}`);
    }
  }

  // Maya Patel thanks Ava for helping a classmate, three school days ago.
  const ava = students.find((student) => student.key === "student-ava");
  const avaDays = ava ? calendars.get(ava.timezone) : undefined;
  const awardDay = avaDays?.days.filter((date) => date < avaDays.today).at(-3);
  if (ava && awardDay)
    await awardManualXpAs(
      db,
      demoId("guide-patel"),
      {
        studentId: ava.id,
        amount: 15,
        subject: "Math",
        reason: "Helped a classmate with fractions",
        idempotencyKey: `demo-helped-classmate-${awardDay}`,
      },
      new Date(localMidnight(awardDay, ava.timezone) + (14 * 60 + 40) * 60_000),
    );
}
