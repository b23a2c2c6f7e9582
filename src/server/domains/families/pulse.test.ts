import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LearningMetrics } from "../../../shared/contracts/activity";
import type { PulseResponse } from "../../../shared/contracts/families";
import type { StudentGoals } from "../../../shared/contracts/goals";
import type { LedgerEntry } from "../../../shared/contracts/rewards";
import {
  addDays,
  daysBetween,
  isWeekday,
  localDateOf,
  timeZoneOffsetMs,
  weekStartOf,
} from "../../../shared/time-zone";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { zipFilesOf } from "../../test/zip-files";
import { forgetHomeSummaries } from "../activity/home-summaries";
import { postEntries } from "../rewards/ledger";
import { PULSE_JOB } from "./jobs";
import { deliverWeeklyPulses } from "./pulse-delivery";
import { buildPulses } from "./pulse-figures";

let t: TestApp;
const cookies: Record<string, string> = {};

const AVA = demoId("student-ava");
const LEO = demoId("student-leo");
const SAM = demoId("parent-sam");
const GRACE = demoId("guardian-grace");
const MAYA = demoId("guide-patel");
/** Ava counts her days in New York, Leo (for these tests) in Auckland: most instants fall on different days. */
const ZONES: Record<string, string> = { [AVA]: "America/New_York", [LEO]: "Pacific/Auckland" };
const zoneOf = (childId: string): string => ZONES[childId] ?? "America/New_York";

beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent", "guardian", "proctor"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
  await t.db.execute(sql`update users set timezone = ${zoneOf(LEO)} where sourced_id = ${LEO}`);
});
afterAll(() => t.close());

async function call(who: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await t.request(`/api${path}`, { ...init, cookie: cookies[who] ?? who });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const pulse = async (who: string, childId: string, week?: string) =>
  call(who, `/families/pulse?childId=${childId}${week ? `&week=${week}` : ""}`);

const todayOf = (childId: string) => localDateOf(t.clock.now(), zoneOf(childId));
const currentWeekOf = (childId: string) => weekStartOf(todayOf(childId));

/** The instant a day starts in a timezone. */
function startOfDay(date: string, timeZone: string): Date {
  const guess = Date.parse(`${date}T00:00:00Z`);
  const first = guess - timeZoneOffsetMs(new Date(guess), timeZone);
  return new Date(guess - timeZoneOffsetMs(new Date(first), timeZone));
}

/**
 * Fixed daily totals from the Sunday before last to today: every weekday's Math meets its goal,
 * Reading on every other day, Science now and then, Vocabulary (no goal) on some days; Math
 * comes from two apps on some days; a Saturday of Math.
 */
async function fixDailyTotals(childId: string) {
  const from = addDays(currentWeekOf(childId), -7);
  await t.db.execute(
    sql`delete from daily_student_metrics where student_sourced_id = ${childId} and local_date >= ${from}::date`,
  );
  const rows: { day: string; subject: string; app: string; xp: number; units: number }[] = [];
  for (let day = from; day <= todayOf(childId); day = addDays(day, 1)) {
    const i = daysBetween(from, day);
    if (!isWeekday(day)) {
      if (new Date(`${day}T12:00:00Z`).getUTCDay() === 6)
        rows.push({ day, subject: "Math", app: "app-a", xp: 12, units: 0 });
      continue;
    }
    rows.push({ day, subject: "Math", app: "app-a", xp: 30 + (i % 3) * 5, units: i % 3 });
    if (i % 4 === 1) rows.push({ day, subject: "Math", app: "manual", xp: 5.25, units: 0 });
    rows.push({ day, subject: "Reading", app: "app-b", xp: i % 2 === 0 ? 32 : 18, units: 1 });
    rows.push({ day, subject: "Language", app: "app-c", xp: 20 + (i % 2), units: 0 });
    rows.push({ day, subject: "Science", app: "app-d", xp: i % 4 === 0 ? 25 : 10.5, units: i % 2 });
    if (i % 5 === 0) rows.push({ day, subject: "Vocabulary", app: "app-e", xp: 7.5, units: 1 });
  }
  await t.db.execute(sql`insert into daily_student_metrics (student_sourced_id, local_date, subject, app_key, xp,
      mastered_units, events)
    select ${childId}, r.day::date, r.subject, r.app, r.xp, r.units, 1
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(day text, subject text, app text, xp numeric, units int)`);
  return rows;
}

/** What the learning metrics page shows of a week: XP per subject and mastered units. */
async function metricsOfWeek(childId: string, week: string) {
  const { status, body } = await call(
    "parent",
    `/learning-metrics?view=weekly&groupBy=subject&studentId=${childId}&startDate=${week}&endDate=${addDays(week, 6)}`,
  );
  expect(status).toBe(200);
  const rows = (body.data as LearningMetrics).rows.filter((row) => row.period === week);
  const xp: Record<string, number> = {};
  for (const row of rows) xp[row.group] = (xp[row.group] ?? 0) + row.xp;
  return { xp, masteredUnits: rows.reduce((total, row) => total + row.masteredUnits, 0) };
}

/** The Alphas ledger as the family's rewards page lists it, within the child's week. */
async function alphasOfWeek(childId: string, week: string) {
  const { body } = await call("parent", `/rewards/students/${childId}/ledger?limit=500`);
  const zone = zoneOf(childId);
  const [from, to] = [startOfDay(week, zone).getTime(), startOfDay(addDays(week, 7), zone).getTime()];
  const entries = (body.data as LedgerEntry[]).filter((entry) => {
    const at = Date.parse(entry.createdAt);
    return at >= from && at < to && !["hold", "release", "transfer"].includes(entry.kind);
  });
  return {
    earned: entries.filter((entry) => entry.amount > 0).reduce((sum, entry) => sum + entry.amount, 0),
    spent: entries.filter((entry) => entry.amount < 0).reduce((sum, entry) => sum - entry.amount, 0),
  };
}

/** Monday to Friday of a week, less the holidays of the child's schools and their district. */
async function schoolDaysOf(childId: string, week: string): Promise<number> {
  const [row] = await queryRows<{ holidays: number }>(
    t.db,
    sql`select count(distinct h.date)::int as holidays from school_holidays h
        where h.date between ${week}::date and ${addDays(week, 6)}::date and extract(isodow from h.date) < 6
          and h.org_sourced_id in (select r.org_sourced_id from user_roles r where r.user_sourced_id = ${childId}
            union select o.parent_sourced_id from user_roles r join orgs o on o.sourced_id = r.org_sourced_id
            where r.user_sourced_id = ${childId})`,
  );
  return 5 - (row?.holidays ?? 0);
}

describe("a child's weekly pulse", () => {
  const fixed: Record<string, Awaited<ReturnType<typeof fixDailyTotals>>> = {};

  beforeAll(async () => {
    for (const childId of [AVA, LEO]) fixed[childId] = await fixDailyTotals(childId);
    await forgetHomeSummaries(t.db);
    // Alphas of Leo's last week, around its first instant in Auckland (still the week before in New York).
    const lastWeek = addDays(currentWeekOf(LEO), -7);
    const weekStarts = startOfDay(lastWeek, zoneOf(LEO));
    const minutes = (count: number) => new Date(weekStarts.getTime() + count * 60_000);
    await postEntries(t.db, {
      studentId: LEO,
      actorId: null,
      at: minutes(0),
      entries: [
        {
          account: "spending",
          amount: 7,
          kind: "award",
          reason: "Before the week",
          idempotencyKey: "pulse-test-before",
          createdAt: minutes(-30),
        },
        {
          account: "spending",
          amount: 40,
          kind: "award",
          reason: "First thing",
          idempotencyKey: "pulse-test-first",
          createdAt: minutes(30),
        },
        {
          account: "spending",
          amount: -10,
          kind: "transfer",
          reason: "To savings",
          idempotencyKey: "pulse-test-move",
          createdAt: minutes(60),
        },
        {
          account: "savings",
          amount: 10,
          kind: "transfer",
          reason: "To savings",
          idempotencyKey: "pulse-test-move#2",
          createdAt: minutes(60),
        },
        {
          account: "spending",
          amount: -5,
          kind: "parent_debit",
          reason: "Screen time",
          idempotencyKey: "pulse-test-debit",
          createdAt: minutes(24 * 60),
        },
      ],
    });
    // A MAP test in Ava's last week, and a new level in Science this week.
    await t.db.execute(sql`insert into map_results (student_sourced_id, nwea_student_id, term_name, season, school_year,
        subject, test_key, test_date, rit, percentile, content_hash, imported_at)
      values (${AVA}, 'pulse-test', 'Winter 2025-2026', 'Winter', 2025, 'Reading', 'Growth: Reading',
        ${addDays(currentWeekOf(AVA), -4)}::date, 207, 64, 'pulse-test', now())`);
    const placed = await call("admin", `/assessment/placements/${AVA}/level`, {
      json: { subject: "Science", grade: 4, reason: "Ready for grade 4 science" },
    });
    expect(placed.status).toBe(200);
    // The level change is dated by the database's clock: the test's clock catches up with it.
    t.clock.advance(Math.max(0, Date.now() - t.clock.now().getTime()) + 1_000);
    // The demo built last week's pulses before these figures were written: build them again, as the job would.
    for (const childId of [AVA, LEO])
      await buildPulses(t.db, [childId], addDays(currentWeekOf(childId), -7), t.clock.now());
  });

  for (const [label, childId] of [
    ["in New York", AVA],
    ["in Auckland", LEO],
  ] as const) {
    it(`equals what the child's other pages show, ${label}, this week and last`, async () => {
      const goals = (await call("parent", `/goals?studentId=${childId}`)).body as StudentGoals;
      const dailyGoal = Object.fromEntries(goals.daily.map((subject) => [subject.subject, subject.goal]));
      for (const week of [currentWeekOf(childId), addDays(currentWeekOf(childId), -7)]) {
        const { status, body } = await pulse("parent", childId, week);
        expect(status, week).toBe(200);
        const answer = body as PulseResponse;
        const figures = answer.figures;
        expect(answer.week).toBe(week);
        expect(figures.timeZone).toBe(zoneOf(childId));
        expect(figures.through).toBe(week === currentWeekOf(childId) ? todayOf(childId) : addDays(week, 6));

        const metrics = await metricsOfWeek(childId, week);
        for (const subject of figures.subjects) {
          expect(subject.xp, subject.subject).toBeCloseTo(metrics.xp[subject.subject] ?? 0, 2);
          expect(subject.dailyGoal, subject.subject).toBe(dailyGoal[subject.subject] ?? null);
          // Days met, from the fixed totals (apps added up).
          const perDay = new Map<string, number>();
          for (const row of fixed[childId] ?? [])
            if (row.subject === subject.subject && row.day >= week && row.day <= figures.through)
              perDay.set(row.day, (perDay.get(row.day) ?? 0) + row.xp);
          const met = [...perDay.values()].filter(
            (xp) => subject.dailyGoal !== null && xp >= subject.dailyGoal,
          );
          expect(subject.daysMet, subject.subject).toBe(met.length);
        }
        expect(figures.subjects.map((subject) => subject.subject)).toEqual(
          expect.arrayContaining(Object.keys(metrics.xp)),
        );
        expect(
          figures.subjects.find((subject) => subject.subject === "Vocabulary")?.dailyGoal ?? null,
        ).toBeNull();
        expect(figures.xp).toBeCloseTo(
          Object.values(metrics.xp).reduce((total, xp) => total + xp, 0),
          2,
        );
        expect(figures.masteredUnits).toBe(metrics.masteredUnits);
        expect(figures.alphas).toEqual(await alphasOfWeek(childId, week));
        expect(figures.schoolDays).toBe(await schoolDaysOf(childId, week));
      }
    });
  }

  it("counts the streak, strikes and lockout as the child's home and integrity pages do this week", async () => {
    for (const childId of [AVA, LEO]) {
      const { figures } = (await pulse("parent", childId)).body as PulseResponse;
      const goals = (await call("parent", `/goals?studentId=${childId}`)).body as StudentGoals;
      expect(figures.streak, childId).toBe(goals.streak);
      const integrity = (await call("parent", `/integrity/students/${childId}`)).body;
      expect(figures.integrity.activeStrikes, childId).toBe(integrity.activeStrikes);
      expect(figures.integrity.isLocked, childId).toBe(integrity.isLocked);
    }
  });

  it("counts Alphas in the child's own days: an award just before their Sunday belongs to the week before", async () => {
    const week = addDays(currentWeekOf(LEO), -7);
    const { figures } = (await pulse("parent", LEO, week)).body as PulseResponse;
    const before = (await pulse("parent", LEO, addDays(week, -7))).body as PulseResponse;
    expect(figures.alphas.earned).toBeGreaterThanOrEqual(40);
    expect(figures.alphas.spent).toBeGreaterThanOrEqual(5);
    expect(before.figures.alphas.earned).toBeGreaterThanOrEqual(7);
  });

  it("tells of MAP tests and new levels in the week they happened", async () => {
    const last = (await pulse("parent", AVA, addDays(currentWeekOf(AVA), -7))).body as PulseResponse;
    expect(last.figures.news).toContainEqual({
      kind: "map",
      subject: "Reading",
      termName: "Winter 2025-2026",
      date: addDays(currentWeekOf(AVA), -4),
      rit: 207,
      percentile: 64,
    });
    const now = (await pulse("parent", AVA)).body as PulseResponse;
    expect(now.figures.news).toContainEqual(
      expect.objectContaining({ kind: "placement", subject: "Science", toGrade: 4, date: todayOf(AVA) }),
    );
  });

  it("answers the latest week without one, the weeks with a pulse, and a key for the week's bonus", async () => {
    const { status, body } = await pulse("parent", AVA);
    expect(status).toBe(200);
    const answer = body as PulseResponse;
    expect(answer).toMatchObject({
      child: { sourcedId: AVA, givenName: "Ava", familyName: "Johnson" },
      week: currentWeekOf(AVA),
      isCurrentWeek: true,
      canReward: true,
      canWriteNote: false,
      rewardKey: `pulse:${AVA}:${currentWeekOf(AVA)}`,
    });
    expect(answer.weeks[0]).toBe(currentWeekOf(AVA));
    // The demo's four weeks before this one.
    expect(answer.weeks).toEqual(
      expect.arrayContaining([1, 2, 3, 4].map((weeks) => addDays(currentWeekOf(AVA), -7 * weeks))),
    );
    // Any day names its week.
    expect(((await pulse("parent", AVA, addDays(currentWeekOf(AVA), -5))).body as PulseResponse).week).toBe(
      addDays(currentWeekOf(AVA), -7),
    );
  });

  it("keeps a finished week as it was built", async () => {
    const week = addDays(currentWeekOf(AVA), -7);
    const first = (await pulse("parent", AVA, week)).body as PulseResponse;
    await t.db.execute(sql`update daily_student_metrics set xp = xp + 100
      where student_sourced_id = ${AVA} and local_date = ${addDays(week, 2)}::date and subject = 'Math'`);
    const again = (await pulse("parent", AVA, week)).body as PulseResponse;
    expect(again.figures).toEqual(first.figures);
    expect(again.builtAt).toBe(first.builtAt);
  });
});

describe("who reads a pulse", () => {
  it("lets the family, the child's Guides and administrators read it", async () => {
    for (const [who, childId] of [
      ["parent", LEO],
      ["guardian", AVA],
      ["guide", AVA],
      ["admin", LEO],
    ] as const) {
      const { status, body } = await pulse(who, childId);
      expect(status, `${who} ${childId}`).toBe(200);
      expect((body as PulseResponse).canWriteNote).toBe(who === "guide");
      expect((body as PulseResponse).canReward).toBe(who === "parent" || who === "guardian");
    }
  });

  it("refuses other roles, and answers 404 for a child outside the caller's reach", async () => {
    for (const who of ["student", "proctor"]) expect((await pulse(who, AVA)).status, who).toBe(403);
    const [other] = await queryRows<{ id: string }>(
      t.db,
      sql`select r.user_sourced_id as id from user_roles r where r.role = 'student'
          and r.user_sourced_id not in (${AVA}, ${LEO}) order by r.user_sourced_id limit 1`,
    );
    const outside = [
      ["parent", other?.id as string],
      ["guardian", LEO],
      ["guide", LEO],
      ["admin", "no-such-child"],
    ] as const;
    for (const [who, childId] of outside) {
      const { status, body } = await pulse(who, childId);
      expect(status, `${who} ${childId}`).toBe(404);
      expect(body.message).toBe("We could not find this child among the students you can see");
    }
  });

  it("bounds a Guide viewing Dash as a parent by the Guide's own students", async () => {
    const viewing = await t.signIn("guide@dash.demo");
    const started = await t.request("/api/auth/impersonation", {
      cookie: viewing,
      json: { userId: SAM, reason: "Showing Sam the weekly pulse" },
    });
    expect(started.status).toBe(200);
    expect((await pulse(viewing, AVA)).status).toBe(200);
    expect((await pulse(viewing, LEO)).status).toBe(404);
  });

  it("refuses bad input with a clear 400, and a week to come with a 404", async () => {
    expect((await call("parent", "/families/pulse")).status).toBe(400);
    const badDay = await pulse("parent", AVA, "2026-02-30");
    expect(badDay.status).toBe(400);
    expect(badDay.body.message).toContain("must be a real yyyy-MM-dd date");
    const later = await pulse("parent", AVA, addDays(currentWeekOf(AVA), 7));
    expect(later.status).toBe(404);
    expect(later.body.message).toBe("That week has not started yet");
    const before = await pulse("parent", AVA, "2001-01-01");
    expect(before.status).toBe(404);
    expect(before.body.message).toBe("There is no weekly pulse for that week");
  });
});

describe("the Guide's note", () => {
  const note = (who: string, json: unknown) => call(who, "/families/pulse/note", { method: "PUT", json });

  it("lets the child's Guide write this week's note in plain text, and the family read it", async () => {
    const week = currentWeekOf(AVA);
    const saved = await note("guide", {
      childId: AVA,
      week: addDays(week, 3),
      note: "  Ava led her group\u0007 this week.\r\n\r\n\r\n\r\nProud of her!  ",
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      text: "Ava led her group this week.\n\nProud of her!",
      authorName: "Maya Patel",
    });
    const read = (await pulse("parent", AVA)).body as PulseResponse;
    expect(read.note).toEqual(saved.body);
    const again = await note("guide", { childId: AVA, week, note: "Ava led her group this week." });
    expect(again.status).toBe(200);
    const [row] = await queryRows<{ note: string; author: string; count: number }>(
      t.db,
      sql`select note, author_sourced_id as author, (select count(*)::int from pulse_notes
          where student_sourced_id = ${AVA} and week_start = ${week}::date) as count
        from pulse_notes where student_sourced_id = ${AVA} and week_start = ${week}::date`,
    );
    expect(row).toEqual({ note: "Ava led her group this week.", author: MAYA, count: 1 });
    // Both wordings stay in the note's history, in the order they were saved.
    const history = await queryRows<{ note: string; author: string }>(
      t.db,
      sql`select note, author_sourced_id as author from pulse_note_changes
        where student_sourced_id = ${AVA} and week_start = ${week}::date order by id`,
    );
    expect(history).toEqual([
      { note: "Ava led her group this week.\n\nProud of her!", author: MAYA },
      { note: "Ava led her group this week.", author: MAYA },
    ]);
  });

  it("refuses other roles, children outside the Guide's students, weeks to come and bad notes", async () => {
    const week = currentWeekOf(AVA);
    for (const who of ["parent", "admin", "student"])
      expect((await note(who, { childId: AVA, week, note: "A fine week" })).status, who).toBe(403);
    expect((await note("guide", { childId: LEO, week, note: "A fine week" })).status).toBe(404);
    const later = await note("guide", { childId: AVA, week: addDays(week, 7), note: "A fine week" });
    expect(later.status).toBe(400);
    expect(later.body.message).toBe(
      "A weekly note can be written for this week or an earlier one, not a week to come",
    );
    const short = await note("guide", { childId: AVA, week, note: " \u0001\u0002 " });
    expect(short.status).toBe(400);
    expect(short.body.message).toContain("Write a note of at least 3 characters");
    expect((await note("guide", { childId: AVA, week, note: "x".repeat(1001) })).status).toBe(400);
    expect((await note("guide", { childId: AVA, note: "No week" })).status).toBe(400);
  });
});

describe("the one-click weekly bonus", () => {
  it("gives once per child and week however often it is clicked, and the school's yearly limit applies", async () => {
    const current = (await pulse("parent", LEO)).body as PulseResponse;
    expect(current.reward).toBeNull();
    const give = (rewardKey: string, kind = "parent_bonus") =>
      call("parent", "/rewards/grants", {
        json: { studentId: LEO, kind, reason: "Weekly bonus from the pulse", idempotencyKey: rewardKey },
      });
    const first = await give(current.rewardKey);
    const second = await give(current.rewardKey);
    expect(first.status).toBe(201);
    expect(second.body.entryIds).toEqual(first.body.entryIds);
    expect(second.body.account.balance).toBe(first.body.account.balance);
    const after = (await pulse("parent", LEO)).body as PulseResponse;
    expect(after.reward).toMatchObject({ kind: "parent_bonus", amount: 30 });

    // The limit reached: last week's bonus is refused in words.
    const { given } = (await call("parent", `/rewards/students/${LEO}/bonuses`)).body;
    const settings = (await call("admin", "/rewards/settings")).body;
    const changed = await call("admin", "/rewards/settings", {
      method: "PUT",
      json: { ...settings, parents: { ...settings.parents, bonusesPerSchoolYear: given } },
    });
    expect(changed.status).toBe(200);
    const lastWeek = (await pulse("parent", LEO, addDays(current.week, -7))).body as PulseResponse;
    const refused = await give(lastWeek.rewardKey);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("limit_reached");
    expect(((await pulse("parent", LEO, lastWeek.week)).body as PulseResponse).reward).toBeNull();
    // A debit is no bonus: it is still given.
    expect((await give(lastWeek.rewardKey, "parent_debit")).status).toBe(201);
    expect(((await pulse("parent", LEO, lastWeek.week)).body as PulseResponse).reward).toMatchObject({
      kind: "parent_debit",
      amount: 50,
    });
  });
});

/** The most recent Friday, 15:30 in New York, before now. */
function lastFridayAfternoon(): Date {
  for (let day = localDateOf(t.clock.now(), "America/New_York"); ; day = addDays(day, -1)) {
    const at = new Date(startOfDay(day, "America/New_York").getTime() + 15.5 * 3_600_000);
    if (new Date(`${day}T12:00:00Z`).getUTCDay() === 5 && at <= t.clock.now()) return at;
  }
}

describe("the weekly job", () => {
  const told = async (userId: string, week: string) => {
    const [row] = await queryRows<{
      notifications: number;
      mails: number;
      text: string | null;
      subject: string | null;
    }>(
      t.db,
      sql`select (select count(*)::int from notifications where user_sourced_id = ${userId} and type = 'pulse.ready'
            and dedupe_key = ${`pulse:${week}`}) as notifications,
          (select count(*)::int from email_outbox where recipient_sourced_id = ${userId} and category = 'pulse.ready'
            and text_body like ${`%week=${week}%`}) as mails,
          (select text_body from email_outbox where recipient_sourced_id = ${userId} and category = 'pulse.ready'
            and text_body like ${`%week=${week}%`} limit 1) as text,
          (select subject from email_outbox where recipient_sourced_id = ${userId} and category = 'pulse.ready'
            and text_body like ${`%week=${week}%`} limit 1) as subject`,
    );
    return row;
  };

  it("is scheduled", () => {
    expect(t.jobs.isScheduled(PULSE_JOB)).toBe(true);
  });

  it("builds each due family's pulses, tells each family once with the digest, and tells no one twice", async () => {
    // Before any run: the demo's own pulse notifications and mails go.
    await t.db.execute(sql`delete from notifications where type = 'pulse.ready'`);
    await t.db.execute(sql`delete from email_outbox where category = 'pulse.ready'`);
    await t.db.execute(sql`delete from pulse_deliveries`);
    // Grace reads hers on Saturdays, in Spanish.
    await t.db.execute(sql`insert into user_preferences (user_sourced_id, digest_day) values (${GRACE}, 6)`);
    await t.db.execute(sql`update users set preferred_language = 'es' where sourced_id = ${GRACE}`);
    const friday = lastFridayAfternoon();
    const first = await deliverWeeklyPulses({ db: t.db, live: t.live }, friday);
    const week = weekStartOf(localDateOf(friday, "America/New_York"));
    expect(first.week).toBe(week);
    expect(first.families).toBeGreaterThan(100);
    // Every family but those whose parent cannot sign in (notify tells only active, enabled accounts).
    expect(first.told).toBeGreaterThan(first.families - 5);

    const [built] = await queryRows<{ count: number; families: number; grace: number }>(
      t.db,
      sql`select (select count(*)::int from weekly_pulses where week_start = ${week}::date
            and student_sourced_id in (${AVA}, ${LEO}) and built_at = ${friday.toISOString()}::timestamptz) as count,
          (select count(*)::int from pulse_deliveries where week_start = ${week}::date) as families,
          (select count(*)::int from pulse_deliveries where week_start = ${week}::date and parent_sourced_id = ${GRACE}) as grace`,
    );
    expect(built).toEqual({ count: 2, families: first.families, grace: 0 });

    const sam = await told(SAM, week);
    expect(sam).toMatchObject({ notifications: 1, mails: 1 });
    expect(sam?.subject).toMatch(/^Weekly pulse for Ava and Leo: /);
    const ava = (
      await queryRows<{ figures: PulseResponse["figures"] }>(
        t.db,
        sql`select figures from weekly_pulses where student_sourced_id = ${AVA} and week_start = ${week}::date`,
      )
    )[0]?.figures;
    const xp = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 }).format(ava?.xp ?? -1);
    expect(sam?.text).toContain(`XP this week: ${xp} XP`);
    expect(sam?.text).toContain(`Streak: `);
    expect(sam?.text).toContain(`/app/child/${AVA}/?week=${week}`);
    const [notification] = await queryRows<{ link: string; params: Record<string, string> }>(
      t.db,
      sql`select link, params from notifications where user_sourced_id = ${SAM} and type = 'pulse.ready'`,
    );
    expect(notification).toMatchObject({
      link: `/app/child/${AVA}/?week=${week}`,
      params: { studentId: AVA, childName: "Ava and Leo", week },
    });

    // Again: everyone was told.
    const second = await deliverWeeklyPulses({ db: t.db, live: t.live }, friday);
    expect(second).toMatchObject({ week, families: 0, told: 0 });
    // A run that stopped after telling, before recording: the family is not told twice.
    await t.db.execute(sql`delete from pulse_deliveries where parent_sourced_id = ${SAM}`);
    const resumed = await deliverWeeklyPulses({ db: t.db, live: t.live }, friday);
    expect(resumed).toMatchObject({ families: 1, told: 0 });
    expect(await told(SAM, week)).toMatchObject({ notifications: 1, mails: 1 });

    // Saturday is Grace's day: the same week, in Spanish.
    const saturday = new Date(friday.getTime() + 24 * 3_600_000);
    const hers = await deliverWeeklyPulses({ db: t.db, live: t.live }, saturday);
    expect(hers).toMatchObject({ week, families: 1, told: 1 });
    const grace = await told(GRACE, week);
    expect(grace).toMatchObject({ notifications: 1, mails: 1 });
    expect(grace?.subject).toMatch(/^Pulso semanal de Ava: /);
    expect(grace?.text).toContain("XP esta semana:");
  });
});

describe("privacy", () => {
  it("exports a child's pulses, notes and deliveries; anonymising scrubs the notes and keeps the figures", async () => {
    const week = currentWeekOf(AVA);
    const written = await call("guide", "/families/pulse/note", {
      method: "PUT",
      json: { childId: AVA, week, note: "Ava Johnson led the reading circle." },
    });
    expect(written.status).toBe(200);
    const pulses = async () =>
      (
        await queryRows<{ count: number }>(
          t.db,
          sql`select count(*)::int as count from weekly_pulses where student_sourced_id = ${AVA}`,
        )
      )[0]?.count;
    const kept = await pulses();

    const exported = await t.request(`/api/admin/privacy/students/${AVA}/export`, { cookie: cookies.admin });
    expect(exported.status).toBe(200);
    const files = await zipFilesOf(exported);
    expect(files["weekly-pulses.csv"]?.trim().split("\n")).toHaveLength((kept ?? 0) + 1);
    expect(files["weekly-pulse-notes.csv"]).toContain("Ava Johnson led the reading circle.");
    expect(files["weekly-pulse-note-history.csv"]).toContain("Ava Johnson led the reading circle.");
    expect(files["weekly-pulse-deliveries.csv"]).toContain("Sam Johnson");

    const anonymised = await t.request(`/api/admin/privacy/students/${AVA}/anonymise`, {
      cookie: cookies.admin,
      json: { confirm: "Ava Johnson", reason: "The family asked for erasure" },
    });
    expect(anonymised.status).toBe(200);
    const [note] = await queryRows<{ note: string }>(
      t.db,
      sql`select note from pulse_notes where student_sourced_id = ${AVA} and week_start = ${week}::date`,
    );
    expect(note?.note).toMatch(/^Former student \d{4} led the reading circle\.$/);
    const [saved] = await queryRows<{ note: string }>(
      t.db,
      sql`select note from pulse_note_changes where student_sourced_id = ${AVA} and week_start = ${week}::date
        order by id desc limit 1`,
    );
    expect(saved?.note).toMatch(/^Former student \d{4} led the reading circle\.$/);
    expect(await pulses()).toBe(kept);
  });
});
