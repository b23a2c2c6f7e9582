import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StudentSummary } from "../../../shared/contracts/activity";
import type { StudentMapResults } from "../../../shared/contracts/assessment";
import type { ChildOverview, ChildProgress } from "../../../shared/contracts/families";
import { addDays, isWeekday, localDateOf, weekStartOf } from "../../../shared/time-zone";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";

/**
 * The parent pages' APIs: every child of a family as a card, and one child's progress over weeks
 * and terms. Only a family's own children are answered (a guardian's wards; a Guide viewing Dash
 * as a parent, the children they also teach); the figures are the daily totals, added up.
 */

let t: TestApp;
const cookies: Record<string, string> = {};
const AVA = demoId("student-ava"); // Maya Patel's student at Maple Grove
const LEO = demoId("student-leo"); // Ava's brother at Riverside
const SAM = demoId("parent-sam");
const PATEL = demoId("guide-patel");
/** A child of the demo parent made here, with no activity but what the tests write. */
const FAY = "family-test-fay";
let strangerId: string;

beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent", "guardian", "proctor"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
  const [stranger] = await queryRows<{ id: string }>(
    t.db,
    sql`select r.user_sourced_id as id from user_roles r where lower(r.role) = 'student'
      and r.user_sourced_id not in (select user_sourced_id from user_agents where agent_sourced_id = ${SAM})
      order by r.user_sourced_id limit 1`,
  );
  strangerId = stranger?.id as string;
});
afterAll(() => t.close());

async function get<Body>(who: string, path: string): Promise<{ status: number; body: Body }> {
  const response = await t.request(path, { cookie: cookies[who] });
  return { status: response.status, body: (await response.json()) as Body };
}

const children = (who: string) =>
  get<{ success: boolean; data: ChildOverview[] }>(who, "/api/families/children");
const progress = (who: string, childId: string, query = "") =>
  get<ChildProgress>(who, `/api/families/children/${encodeURIComponent(childId)}/progress${query}`);

describe("a family's children", () => {
  it("gives a parent a card per child: school, Guides, today, the week, goals, Alphas, MAP and standing", async () => {
    const { status, body } = await children("parent");
    expect(status).toBe(200);
    expect(body.data.map((child) => child.sourcedId).sort()).toEqual([AVA, LEO].sort());
    const ava = body.data.find((child) => child.sourcedId === AVA) as ChildOverview;
    const leo = body.data.find((child) => child.sourcedId === LEO) as ChildOverview;
    expect(ava.school?.name).toBe("Maple Grove School");
    expect(leo.school?.name).toBe("Riverside School");
    expect(ava.guides.map((guide) => guide.sourcedId)).toContain(PATEL);
    expect(ava.guides.map((guide) => guide.name)).toContain("Maya Patel");

    // Today and this week are the home's own summaries.
    const home = await get<{ data: StudentSummary[] }>("parent", "/api/parent/children/summary");
    for (const child of body.data) {
      const { sourcedId, givenName, familyName, grades, timezone, ...summary } = home.body.data.find(
        (entry) => entry.sourcedId === child.sourcedId,
      ) as StudentSummary;
      expect(child.summary).toEqual(summary);
      expect([child.givenName, child.familyName, child.grades, child.timezone]).toEqual([
        givenName,
        familyName,
        grades,
        timezone,
      ]);
    }

    // Alphas are the account's.
    for (const child of body.data) {
      const account = await get<{ studentId: string; balance: number; held: number; available: number }>(
        "parent",
        `/api/rewards/students/${child.sourcedId}/account`,
      );
      const { studentId: _id, ...figures } = account.body;
      expect(child.alphas).toMatchObject(figures);
    }

    // The latest MAP test of each subject, as the MAP page shows it.
    const map = await get<StudentMapResults>("parent", `/api/assessment/map/students/${AVA}`);
    expect(map.body.subjects.length).toBeGreaterThan(0);
    expect(ava.map.map((test) => test.subject).sort()).toEqual(
      map.body.subjects.map((subject) => subject.subject).sort(),
    );
    for (const subject of map.body.subjects) {
      const latest = subject.tests.at(-1);
      expect(ava.map.find((test) => test.subject === subject.subject)).toEqual({
        subject: subject.subject,
        termName: latest?.termName,
        testDate: latest?.testDate,
        rit: latest?.rit,
        percentile: latest?.percentile,
      });
    }

    // The weekly goal is the goals page's.
    const goals = await get<{ weekly: { value: number; target: number } }>(
      "parent",
      `/api/goals?studentId=${AVA}`,
    );
    expect(ava.goals.weekly.value).toBe(goals.body.weekly.value);
    expect(ava.goals.weekly.target).toBe(goals.body.weekly.target);

    // Strikes and lockout as the integrity pages count them, never the code.
    const standing = await get<{ activeStrikes: number; isLocked: boolean; threshold: number }>(
      "parent",
      `/api/integrity/students/${AVA}`,
    );
    expect(ava.standing).toMatchObject({
      activeStrikes: standing.body.activeStrikes,
      isLocked: standing.body.isLocked,
      threshold: standing.body.threshold,
    });
    expect(JSON.stringify(body)).not.toMatch(/lockoutCode|"code"/);
  });

  it("gives a guardian their ward only", async () => {
    const { status, body } = await children("guardian");
    expect(status).toBe(200);
    expect(body.data.map((child) => child.sourcedId)).toEqual([AVA]);
  });

  it("is refused to every role but parents and guardians", async () => {
    for (const who of ["student", "guide", "proctor", "admin"]) {
      const { status, body } = await children(who);
      expect(status, who).toBe(403);
      expect((body as unknown as { message: string }).message).toMatch(/^Your role does not allow you to/);
    }
  });
});

describe("a child's progress", () => {
  it("refuses another family's child, an unknown child and a guardian's non-ward as not found", async () => {
    for (const [who, childId] of [
      ["parent", strangerId],
      ["parent", "no-such-child"],
      ["guardian", LEO],
      ["guardian", strangerId],
    ] as const) {
      const { status, body } = await progress(who, childId);
      expect(status, `${who} ${childId}`).toBe(404);
      expect((body as unknown as { message: string }).message).toBe(
        "We could not find this child among yours, or they no longer have an account",
      );
    }
    expect((await progress("parent", AVA)).status).toBe(200);
    expect((await progress("guardian", AVA)).status).toBe(200);
  });

  it("is refused to other roles, even for a student they teach", async () => {
    for (const who of ["student", "guide", "admin"]) expect((await progress(who, AVA)).status, who).toBe(403);
  });

  it("says what is wrong with the number of weeks", async () => {
    for (const weeks of ["2", "60", "1.5", "many"]) {
      const { status, body } = await progress("parent", AVA, `?weeks=${weeks}`);
      expect(status, weeks).toBe(400);
      expect((body as unknown as { issues: { path: string }[] }).issues[0]?.path).toBe("weeks");
    }
    const { body } = await progress("parent", AVA, "?weeks=4");
    expect(body.weeks).toHaveLength(4);
  });

  it("adds up each week from the daily totals, in the child's own days", async () => {
    const { status, body } = await progress("parent", AVA);
    expect(status).toBe(200);
    expect(body.weeks).toHaveLength(12);
    const today = localDateOf(t.clock.now(), body.child.timezone);
    expect(body.child.today).toBe(today);
    expect(body.weeks.at(-1)?.weekStart).toBe(weekStartOf(today));
    const from = body.weeks[0]?.weekStart as string;
    const rows = await queryRows<{
      weekStart: string;
      subject: string;
      xp: number;
      active: number;
      units: number;
    }>(
      t.db,
      sql`select to_char(local_date - extract(dow from local_date)::int, 'YYYY-MM-DD') as "weekStart", subject,
          sum(xp)::float8 as xp, sum(active_seconds)::int as active, sum(mastered_units)::int as units
        from daily_student_metrics where student_sourced_id = ${AVA} and local_date between ${from}::date and ${today}::date
        group by 1, 2`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const week of body.weeks) {
      const ofWeek = rows.filter((row) => row.weekStart === week.weekStart);
      expect(week.xp).toBeCloseTo(
        ofWeek.reduce((total, row) => total + row.xp, 0),
        2,
      );
      expect(week.activeSeconds).toBe(ofWeek.reduce((total, row) => total + row.active, 0));
      expect(week.masteredUnits).toBe(ofWeek.reduce((total, row) => total + row.units, 0));
      for (const row of ofWeek) {
        const subject = week.subjects.find((entry) => entry.subject === row.subject);
        expect(subject?.xp).toBeCloseTo(row.xp, 2);
        expect(subject?.activeSeconds).toBe(row.active);
      }
    }
  });
});

describe("figures on fixed data", () => {
  /** Fay's own daily goals: Math and Reading as here, every other subject of the school's 10 XP. */
  const OWN_GOALS: Record<string, number> = { Math: 30, Reading: 20 };
  const OTHER_GOAL = 10;
  let others: string[];
  let today: string;
  let lastWeek: string;
  let holidays: Set<string>;
  let termId: string;

  beforeAll(async () => {
    const school = demoId("maple-grove");
    await t.db.execute(sql`insert into users (sourced_id, given_name, family_name, grades, primary_org_sourced_id)
      values (${FAY}, 'Fay', 'Johnson', '{02}', ${school})`);
    await t.db.execute(sql`insert into user_roles (user_sourced_id, role, role_type, org_sourced_id)
      values (${FAY}, 'student', 'primary', ${school})`);
    await t.db.execute(
      sql`insert into user_agents (user_sourced_id, agent_sourced_id) values (${FAY}, ${SAM})`,
    );
    // Her own goal for every subject the school sets one for, so no school setting changes the figures.
    const [meta] = await queryRows<{ value: Record<string, number> | null }>(
      t.db,
      sql`select value from app_meta where key = 'daily_xp_goals'`,
    );
    const subjects = Object.keys(meta?.value ?? { Math: 30, Reading: 30, Language: 20, Science: 20 });
    others = subjects.filter((subject) => !(subject in OWN_GOALS));
    for (const subject of new Set([...subjects, ...Object.keys(OWN_GOALS)]))
      await t.db.execute(sql`insert into student_daily_goals (student_sourced_id, subject, daily_xp)
        values (${FAY}, ${subject}, ${OWN_GOALS[subject] ?? OTHER_GOAL})`);
    // In a class of Maya Patel's, whose class goal her own weekly goal overrides.
    const [klass] = await queryRows<{ id: string; term: string }>(
      t.db,
      sql`select c.sourced_id as id, c.term_sourced_ids[1] as term from classes c
        where c.sourced_id = ${demoId("class-maple-grove-guide-patel-Math")}`,
    );
    termId = klass?.term as string;
    await t.db.execute(sql`insert into enrollments (sourced_id, user_sourced_id, class_sourced_id, school_sourced_id, role)
      values ('family-test-enrollment', ${FAY}, ${klass?.id}, ${school}, 'student')`);
    today = localDateOf(t.clock.now(), "America/New_York");
    await t.db.execute(sql`insert into goals (kind, student_sourced_id, target, starts_on, set_by_sourced_id, set_by_role)
      values ('weekly_xp', ${FAY}, 260, ${today}::date, ${PATEL}, 'teacher')`);
    lastWeek = addDays(weekStartOf(today), -7);
    holidays = new Set(
      (
        await queryRows<{ date: string }>(
          t.db,
          sql`select to_char(date, 'YYYY-MM-DD') as date from school_holidays where org_sourced_id = ${demoId("district")}`,
        )
      ).map((row) => row.date),
    );
  });

  /** Writes a day's totals of one subject and app for Fay. */
  async function learn(date: string, subject: string, app: string, xp: number, activeSeconds = 0, units = 0) {
    await t.db.execute(sql`insert into daily_student_metrics
        (student_sourced_id, local_date, subject, app_key, xp, active_seconds, mastered_units)
      values (${FAY}, ${date}::date, ${subject}, ${app}, ${xp}, ${activeSeconds}, ${units})`);
  }

  const schoolDaysBetween = (from: string, to: string) => {
    let count = 0;
    for (let date = from; date <= to; date = addDays(date, 1))
      if (isWeekday(date) && !holidays.has(date)) count++;
    return count;
  };

  it("counts XP, time, mastered units and the days each goal and every goal was met", async () => {
    const monday = addDays(lastWeek, 1);
    const tuesday = addDays(lastWeek, 2);
    const wednesday = addDays(lastWeek, 3);
    const saturday = addDays(lastWeek, 6);
    /** The days every goal is met, with the XP the other subjects add to them. */
    const completeDays = [monday, wednesday, saturday];
    // Monday: every goal met exactly, from one app.
    await learn(monday, "Math", "app-a", 30, 900, 2);
    await learn(monday, "Reading", "app-a", 20, 600, 1);
    // Tuesday: Math only, and a subject without a goal.
    await learn(tuesday, "Math", "app-a", 45.5, 1200);
    await learn(tuesday, "Art", "app-a", 15, 300);
    // Wednesday: every goal met by two apps together.
    await learn(wednesday, "Math", "app-a", 10, 300);
    await learn(wednesday, "Math", "app-b", 20.25, 400, 1);
    await learn(wednesday, "Reading", "app-b", 20, 500);
    // Saturday: every goal met, on a day without school.
    await learn(saturday, "Math", "app-a", 31, 100);
    await learn(saturday, "Reading", "app-a", 25, 100);
    for (const date of completeDays)
      for (const subject of others) await learn(date, subject, "app-a", OTHER_GOAL, 60);

    const { status, body } = await progress("parent", FAY, "?weeks=4");
    expect(status).toBe(200);
    expect(body.dailyGoals).toEqual(
      expect.arrayContaining([
        { subject: "Math", goal: 30 },
        { subject: "Reading", goal: 20 },
        ...others.map((subject) => ({ subject, goal: OTHER_GOAL })),
      ]),
    );
    expect(body.dailyGoals).toHaveLength(2 + others.length);
    expect(body.weeklyGoal).toBe(260);
    const othersXp = others.length * OTHER_GOAL * completeDays.length;
    const othersSeconds = others.length * 60 * completeDays.length;
    const week = body.weeks.find((entry) => entry.weekStart === lastWeek);
    expect(week).toMatchObject({
      weekStart: lastWeek,
      xp: 216.75 + othersXp,
      activeSeconds: 4400 + othersSeconds,
      masteredUnits: 4,
      goalDaysMet: 3,
      schoolDays: schoolDaysBetween(lastWeek, addDays(lastWeek, 6)),
    });
    const subjectsOf = new Map(week?.subjects.map((entry) => [entry.subject, entry]));
    expect(subjectsOf.get("Math")).toEqual({
      subject: "Math",
      xp: 136.75,
      activeSeconds: 2900,
      masteredUnits: 3,
      goalDays: 4,
    });
    expect(subjectsOf.get("Reading")).toEqual({
      subject: "Reading",
      xp: 65,
      activeSeconds: 1200,
      masteredUnits: 1,
      goalDays: 3,
    });
    for (const subject of others)
      expect(subjectsOf.get(subject)).toEqual({
        subject,
        xp: OTHER_GOAL * completeDays.length,
        activeSeconds: 60 * completeDays.length,
        masteredUnits: 0,
        goalDays: completeDays.length,
      });
    // A subject without a goal comes after those with one.
    expect(week?.subjects.at(-1)).toEqual({
      subject: "Art",
      xp: 15,
      activeSeconds: 300,
      masteredUnits: 0,
      goalDays: null,
    });
    // The other weeks had no learning; this week's school days stop at today.
    for (const other of body.weeks.filter((entry) => entry.weekStart !== lastWeek)) {
      expect(other.xp).toBe(0);
      expect(other.goalDaysMet).toBe(0);
    }
    expect(body.weeks.at(-1)?.weekStart).toBe(weekStartOf(today));
    expect(body.weeks.at(-1)?.schoolDays).toBe(schoolDaysBetween(weekStartOf(today), today));

    // The term of her class adds up the same days, those inside it up to today.
    const [term] = await queryRows<{ start: string; end: string; title: string }>(
      t.db,
      sql`select to_char(start_date, 'YYYY-MM-DD') as start, to_char(end_date, 'YYYY-MM-DD') as end, title
        from academic_sessions where sourced_id = ${termId}`,
    );
    const shown = body.terms.find((entry) => entry.sourcedId === termId);
    if (!term || term.start > today) {
      expect(shown).toBeUndefined();
      return;
    }
    const xpOf: Record<string, number> = {
      [monday]: 50 + others.length * OTHER_GOAL,
      [tuesday]: 60.5,
      [wednesday]: 50.25 + others.length * OTHER_GOAL,
      [saturday]: 56 + others.length * OTHER_GOAL,
    };
    const inTerm = Object.keys(xpOf).filter((date) => date >= term.start && date <= term.end);
    expect(shown).toMatchObject({
      title: term.title,
      startDate: term.start,
      endDate: term.end,
      isCurrent: term.end >= today,
      xp: inTerm.reduce((total, date) => total + (xpOf[date] ?? 0), 0),
      goalDaysMet: inTerm.filter((date) => completeDays.includes(date)).length,
      schoolDays: schoolDaysBetween(term.start, term.end < today ? term.end : today),
    });
  });

  it("shows Fay on her family's page, and her figures to no one else", async () => {
    const { body } = await children("parent");
    const fay = body.data.find((child) => child.sourcedId === FAY);
    expect(fay?.school?.name).toBe("Maple Grove School");
    expect(fay?.guides.map((guide) => guide.sourcedId)).toEqual([PATEL]);
    expect(fay?.goals.weekly.target).toBe(260);
    expect(fay?.map).toEqual([]);
    expect(fay?.standing).toMatchObject({ activeStrikes: 0, isLocked: false });
    expect(fay?.alphas).toEqual({ balance: 0, held: 0, available: 0, savings: 0, pendingRequests: 0 });
    expect((await progress("guardian", FAY)).status).toBe(404);
  });
});

describe("a Guide viewing Dash as a parent", () => {
  it("sees only the children they teach themself", async () => {
    const guide = await t.signIn("guide@dash.demo");
    const started = await t.request("/api/auth/impersonation", {
      json: { userId: SAM, reason: "Checking a family's view" },
      cookie: guide,
    });
    expect(started.status).toBe(200);
    const listed = await t.request("/api/families/children", { cookie: guide });
    expect(listed.status).toBe(200);
    const ids = ((await listed.json()) as { data: ChildOverview[] }).data.map((child) => child.sourcedId);
    expect(ids).toContain(AVA);
    expect(ids).not.toContain(LEO);
    expect((await t.request(`/api/families/children/${AVA}/progress`, { cookie: guide })).status).toBe(200);
    expect((await t.request(`/api/families/children/${LEO}/progress`, { cookie: guide })).status).toBe(404);
    expect((await t.request(`/api/families/children/${PATEL}/progress`, { cookie: guide })).status).toBe(404);
  });
});
