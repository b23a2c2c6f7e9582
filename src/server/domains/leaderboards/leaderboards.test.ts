import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localDateOf, SCHOOL_TIME_ZONE, weekStartOf } from "../../../shared/time-zone";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { placeLeagues } from "./leagues";

let t: TestApp;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent", "guardian"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
  cookies.jordan = `${await t.signIn("multi@dash.demo")}; selectedUserRole=student`;
});
afterAll(() => t.close());

const AVA = demoId("student-ava");
const LEO = demoId("student-leo");
const JORDAN_EMAIL = "multi@dash.demo";

async function call(who: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await t.request(`/api/leaderboards${path}`, { ...init, cookie: cookies[who] });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const today = () => localDateOf(t.clock.now(), "America/New_York");

/** XP from a learning app of the test's own (`src`), so only what the test gives counts. */
async function giveXp(src: string, xpByStudent: Record<string, number>, date = today()) {
  for (const [studentId, xp] of Object.entries(xpByStudent))
    await t.db.execute(sql`insert into daily_student_metrics (student_sourced_id, local_date, subject, app_key, xp)
      values (${studentId}, ${date}::date, 'Math', ${src}, ${xp})
      on conflict (student_sourced_id, local_date, subject, app_key) do update set xp = daily_student_metrics.xp + excluded.xp`);
}

async function avasFirstClass() {
  const [row] = await queryRows<{ id: string }>(
    t.db,
    sql`select c.sourced_id as id from classes c join enrollments e on e.class_sourced_id = c.sourced_id
        where e.user_sourced_id = ${AVA} and e.role = 'student' and e.status = 'active' and c.status = 'active'
        order by c.title, c.sourced_id limit 1`,
  );
  const classmates = await queryRows<{ id: string }>(
    t.db,
    sql`select e.user_sourced_id as id from enrollments e
        where e.class_sourced_id = ${row?.id} and e.role = 'student' and e.status = 'active' and e.user_sourced_id <> ${AVA}
        order by e.user_sourced_id`,
  );
  return { classId: row?.id as string, classmates: classmates.map((classmate) => classmate.id) };
}

describe("a student's figures", () => {
  it("rank by the daily-goal streak the home shows, and by a week that adds up to the heatmap's week", async () => {
    const home = await t.request(`/api/students/${AVA}/home`, { cookie: cookies.student });
    const { summary } = ((await home.json()) as { data: { summary: { streak: number } } }).data;
    const streak = await call("student", "?scope=global&tf=streak");
    expect(streak.status).toBe(200);
    expect(streak.body.me).toMatchObject({ value: summary.streak, isMe: true });
    expect(streak.body.period).toBeNull();

    const week = await call("student", "?scope=global&tf=week");
    const heatmap = await t.request("/api/learning-metrics/analytics-xp-heatmap", {
      method: "POST",
      cookie: cookies.student,
      json: { userId: AVA, ...week.body.period },
    });
    const days = ((await heatmap.json()) as { data: { xpGained: number }[] }).data;
    expect(week.body.me.value).toBeCloseTo(
      days.reduce((total, day) => total + day.xpGained, 0),
      2,
    );
  });
});

describe("a leaderboard", () => {
  it("ranks a student's class by the period's XP, equal values sharing a rank", async () => {
    const { classId, classmates } = await avasFirstClass();
    const [first, second, third] = classmates as [string, string, string];
    const src = `test-${randomUUID()}`;
    await giveXp(src, { [first]: 50, [second]: 30, [third]: 30, [AVA]: 10 });
    await giveXp(src, { [first]: -5 }); // a correction counts

    const board = await call("student", `?tf=today&src=${src}`);
    expect(board.status).toBe(200);
    expect(board.body).toMatchObject({ scope: "class", tf: "today", page: 1, pageSize: 25 });
    expect(board.body.period).toEqual({ startDate: today(), endDate: today() });
    expect(board.body.total).toBe(classmates.length + 1);
    expect(
      board.body.rows.slice(0, 5).map((row: { rank: number; value: number }) => [row.rank, row.value]),
    ).toEqual([
      [1, 45],
      [2, 30],
      [2, 30],
      [4, 10],
      [5, 0],
    ]);
    // Peers by first name and last initial, without a link; Ava in full, as herself.
    const [top] = board.body.rows;
    expect(top.studentId).toBeNull();
    expect(top.displayName).toMatch(/^\S+ \S\.$/);
    expect(board.body.me).toMatchObject({
      rank: 4,
      value: 10,
      isMe: true,
      studentId: AVA,
      displayName: "Ava Johnson",
    });
    expect(board.body.rows[3]).toEqual(board.body.me);

    // Her Guide sees the same class in full.
    const asGuide = await call("guide", `?scope=class&cls=${classId}&tf=today&src=${src}`);
    expect(asGuide.status).toBe(200);
    expect(asGuide.body.rows[0]).toMatchObject({ rank: 1, studentId: first, value: 45 });
    expect(asGuide.body.rows[0].displayName).not.toMatch(/\.$/);
    expect(asGuide.body.me).toBeNull();
  });

  it("pages the rows and keeps the caller's own row in `me` on every page", async () => {
    const src = `test-${randomUUID()}`;
    await giveXp(src, { [AVA]: 1 });
    const first = await call("student", `?scope=global&tf=week&src=${src}`);
    expect(first.status).toBe(200);
    expect(first.body.total).toBeGreaterThan(25);
    expect(first.body.rows).toHaveLength(25);
    expect(first.body.rows[0]).toMatchObject({ rank: 1, value: 1, isMe: true });
    const last = Math.ceil(first.body.total / 25);
    const lastPage = await call("student", `?scope=global&tf=week&src=${src}&p=${last}`);
    expect(lastPage.body.rows).toHaveLength(first.body.total - (last - 1) * 25);
    expect(lastPage.body.rows.every((row: { isMe: boolean }) => !row.isMe)).toBe(true);
    expect(lastPage.body.me).toMatchObject({ rank: 1, isMe: true });
    const beyond = await call("student", `?scope=global&tf=week&src=${src}&p=${last + 1}`);
    expect(beyond.body.rows).toEqual([]);
    expect(beyond.body.total).toBe(first.body.total);
  });

  it("counts each period by the student's own days: today, the week from Sunday, the month, all time and a custom range", async () => {
    const src = `test-${randomUUID()}`;
    const day = today();
    const weekStart = weekStartOf(day);
    const monthStart = `${day.slice(0, 8)}01`;
    await giveXp(src, { [AVA]: 7 }, day);
    await giveXp(src, { [AVA]: 20 }, "2020-01-15");
    const value = async (query: string) => (await call("student", `?src=${src}&${query}`)).body.me.value;
    expect(await value("tf=today")).toBe(7);
    expect(await value("tf=week")).toBe(7);
    expect(await value("tf=month")).toBe(7);
    expect(await value("tf=all")).toBe(27);
    expect(await value("tf=custom&startDate=2020-01-01&endDate=2020-01-31")).toBe(20);
    expect((await call("student", `?tf=week&src=${src}`)).body.period).toEqual({
      startDate: weekStart,
      endDate: day,
    });
    expect((await call("student", `?tf=month&src=${src}`)).body.period).toEqual({
      startDate: monthStart,
      endDate: day,
    });
    expect((await call("student", `?tf=all&src=${src}`)).body.period).toBeNull();
  });

  it("refuses values outside the contract with a message naming the parameter", async () => {
    for (const [query, path] of [
      ["scope=planet", "scope"],
      ["tf=year", "tf"],
      ["p=0", "p"],
      ["p=two", "p"],
      ["p=999999999999", "p"],
      ["tf=custom", "startDate"],
      ["tf=custom&startDate=2026-02-30&endDate=2026-03-01", "startDate"],
      ["tf=custom&startDate=2026-03-02&endDate=2026-03-01", "endDate"],
    ]) {
      const refused = await call("student", `?${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.body.issues[0].path, query).toBe(path);
    }
  });
});

describe("who sees which leaderboard", () => {
  it("lets a family see their child's scopes and no one else's", async () => {
    const src = `test-${randomUUID()}`;
    await giveXp(src, { [AVA]: 12, [LEO]: 3 });
    const ava = await call("parent", `?child=${AVA}&scope=global&tf=today&src=${src}`);
    expect(ava.status).toBe(200);
    expect(ava.body.me).toMatchObject({ studentId: AVA, displayName: "Ava Johnson", value: 12, isMe: true });
    // Leo is the parent's child too: in full. Anyone else: rank, grade and value only.
    const leo = ava.body.rows.find((row: { studentId: string | null }) => row.studentId === LEO);
    expect(leo).toMatchObject({ displayName: "Leo Johnson", value: 3, isMe: false });
    const stranger = ava.body.rows.find((row: { studentId: string | null }) => row.studentId === null);
    expect(stranger).toMatchObject({ displayName: null, studentId: null });
    expect(typeof stranger.rank).toBe("number");

    expect((await call("parent", `?child=${await demoIdOf(JORDAN_EMAIL)}`)).status).toBe(403);
    expect((await call("guardian", `?child=${LEO}`)).status).toBe(403);
    expect((await call("student", `?child=${LEO}`)).status).toBe(403);
    expect((await call("guide", `?teacher=${demoId("guide-patel")}`)).status).toBe(403);
  });

  it("lets a student and a Guide into their own classes and schools only", async () => {
    const otherClass = await queryRows<{ id: string; school: string }>(
      t.db,
      sql`select c.sourced_id as id, c.school_sourced_id as school from classes c
          where c.sourced_id not in (select e.class_sourced_id from enrollments e
            where e.user_sourced_id in (${AVA}, ${demoId("guide-patel")}) and e.status = 'active')
          order by c.sourced_id limit 1`,
    );
    const foreign = otherClass[0] as { id: string; school: string };
    expect((await call("student", `?scope=class&cls=${foreign.id}`)).status).toBe(403);
    expect((await call("guide", `?scope=class&cls=${foreign.id}`)).status).toBe(403);
    expect((await call("admin", `?scope=class&cls=${foreign.id}`)).status).toBe(200);
    expect((await call("student", `?scope=school&school=not-a-school`)).status).toBe(403);
    expect((await call("student", "?scope=school")).status).toBe(200);
    expect((await call("admin", "?scope=school")).status).toBe(400);
  });
});

describe("hiding a student", () => {
  it("hides them from peers and other families, not from themself, their family or staff, and ranks close up", async () => {
    const src = `test-${randomUUID()}`;
    await giveXp(src, { [AVA]: 99 });
    const jordanId = await demoIdOf(JORDAN_EMAIL);
    await giveXp(src, { [jordanId]: 5 });
    const peersView = async () => (await call("jordan", `?scope=global&tf=today&src=${src}`)).body;

    expect((await peersView()).me).toMatchObject({ rank: 2, value: 5 });
    const hidden = await call("parent", `/opt-outs/${AVA}`, { method: "PUT", json: { hidden: true } });
    expect(hidden.status).toBe(200);
    expect(hidden.body).toEqual({ studentId: AVA, hidden: true, hiddenByFamily: true, hiddenByStaff: false });

    const peer = await peersView();
    expect(peer.me).toMatchObject({ rank: 1, value: 5 });
    expect(peer.rows.some((row: { value: number }) => row.value === 99)).toBe(false);
    expect((await call("student", `?scope=global&tf=today&src=${src}`)).body.me).toMatchObject({
      rank: 1,
      value: 99,
    });
    expect((await call("parent", `?child=${AVA}&scope=global&tf=today&src=${src}`)).body.me).toMatchObject({
      value: 99,
    });
    const staff = await call("admin", `?scope=global&tf=today&src=${src}`);
    expect(staff.body.rows[0]).toMatchObject({ studentId: AVA, value: 99 });

    // Staff hide her too; the family's lifting leaves the staff's in place.
    expect(
      (await call("guide", `/opt-outs/${AVA}`, { method: "PUT", json: { hidden: true } })).body.hiddenByStaff,
    ).toBe(true);
    const lifted = await call("parent", `/opt-outs/${AVA}`, { method: "PUT", json: { hidden: false } });
    expect(lifted.body).toMatchObject({ hidden: true, hiddenByFamily: false, hiddenByStaff: true });
    expect((await peersView()).me.rank).toBe(1);
    await call("admin", `/opt-outs/${AVA}`, { method: "PUT", json: { hidden: false } });
    expect((await peersView()).me.rank).toBe(2);
  });

  it("is for the student's family and staff only", async () => {
    expect(
      (await call("student", `/opt-outs/${AVA}`, { method: "PUT", json: { hidden: true } })).status,
    ).toBe(403);
    expect(
      (await call("guardian", `/opt-outs/${LEO}`, { method: "PUT", json: { hidden: true } })).status,
    ).toBe(404);
    expect(
      (await call("parent", `/opt-outs/${AVA}`, { method: "PUT", json: { hidden: "yes" } })).status,
    ).toBe(400);
    expect((await call("guardian", `/opt-outs/${AVA}`)).body).toMatchObject({
      studentId: AVA,
      hidden: false,
    });
  });
});

async function demoIdOf(email: string): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    t.db,
    sql`select sourced_id as id from users where email = ${email}`,
  );
  return row?.id as string;
}

describe("weekly leagues", () => {
  const W0 = "2025-03-02";
  const W1 = "2025-03-09";

  async function placementsOf(weekStart: string) {
    const rows = await queryRows<{ id: string; tier: string; league: number }>(
      t.db,
      sql`select student_sourced_id as id, tier, league from league_placements where week_start = ${weekStart}::date`,
    );
    return new Map(rows.map((row) => [row.id, row]));
  }

  it("move the top 7 of a league up and the bottom 5 down, start new students in bronze, and place a week once", async () => {
    const students = (
      await queryRows<{ id: string }>(
        t.db,
        sql`select u.sourced_id as id from users u join user_roles r on r.user_sourced_id = u.sourced_id
            where lower(r.role) = 'student' and u.status = 'active' order by u.sourced_id`,
      )
    ).map((row) => row.id);
    const league = students.slice(0, 15);
    const idle = students.slice(15, 18);
    for (const id of league)
      await t.db.execute(sql`insert into league_placements (student_sourced_id, week_start, tier, league)
        values (${id}, ${W0}::date, 'silver', 0)`);
    for (const id of idle)
      await t.db.execute(sql`insert into league_placements (student_sourced_id, week_start, tier, league)
        values (${id}, ${W0}::date, 'silver', 1)`);
    const src = `test-${randomUUID()}`;
    await giveXp(src, Object.fromEntries(league.map((id, index) => [id, 100 - index])), "2025-03-04");

    const everyone = students.length;
    expect(await placeLeagues(t.db, W1)).toBe(everyone);
    const placed = await placementsOf(W1);
    expect(league.slice(0, 7).map((id) => placed.get(id)?.tier)).toEqual(Array(7).fill("gold"));
    expect(league.slice(7, 10).map((id) => placed.get(id)?.tier)).toEqual(Array(3).fill("silver"));
    expect(league.slice(10).map((id) => placed.get(id)?.tier)).toEqual(Array(5).fill("bronze"));
    // A league where no one learned moves down, not up; a student never placed starts in bronze.
    expect(idle.map((id) => placed.get(id)?.tier)).toEqual(Array(3).fill("bronze"));
    expect(placed.get(students.at(-1) as string)?.tier).toBe("bronze");

    const sizes = new Map<string, number>();
    for (const row of placed.values())
      sizes.set(`${row.tier} ${row.league}`, (sizes.get(`${row.tier} ${row.league}`) ?? 0) + 1);
    expect(Math.max(...sizes.values())).toBeLessThanOrEqual(30);
    const bronzeLeagues = [...sizes.keys()].filter((key) => key.startsWith("bronze")).length;
    expect(bronzeLeagues).toBe(
      Math.ceil([...placed.values()].filter((row) => row.tier === "bronze").length / 30),
    );

    // Once a week, however often and however many processes run it.
    expect(await placeLeagues(t.db, W1)).toBe(0);
    const W2 = "2025-03-16";
    const [first, second] = await Promise.all([placeLeagues(t.db, W2), placeLeagues(t.db, W2)]);
    expect(first + second).toBe(everyone);
    expect((await placementsOf(W2)).size).toBe(everyone);
  });

  it("rank a student's league this week, for the student and their family, not for staff", async () => {
    const thisWeek = weekStartOf(localDateOf(t.clock.now(), SCHOOL_TIME_ZONE));
    // The demo placed last week's leagues and this week's.
    expect(await placeLeagues(t.db, thisWeek)).toBe(0);
    const [ava] = await queryRows<{ tier: string }>(
      t.db,
      sql`select tier from league_placements where student_sourced_id = ${AVA} and week_start = ${thisWeek}::date`,
    );
    const board = await call("student", "?scope=league&tf=week");
    expect(board.status).toBe(200);
    expect(board.body.league).toEqual({ tier: ava?.tier, weekStart: thisWeek, promoted: 7, demoted: 5 });
    expect(board.body.me).toMatchObject({ isMe: true, studentId: AVA });
    const mates = await queryRows<{ id: string }>(
      t.db,
      sql`select p.student_sourced_id as id from league_placements p join league_placements ava
          on ava.week_start = p.week_start and ava.tier = p.tier and ava.league = p.league
          where ava.student_sourced_id = ${AVA} and ava.week_start = ${thisWeek}::date`,
    );
    expect(mates.length).toBeLessThanOrEqual(30);
    expect(board.body.total).toBe(mates.length);
    expect((await call("parent", `?child=${AVA}&scope=league`)).body.league.tier).toBe(ava?.tier);
    expect((await call("guide", "?scope=league")).status).toBe(403);

    // A student placed in no league this week or last has none to see.
    await t.db.execute(sql`delete from league_placements where student_sourced_id = ${await demoIdOf(JORDAN_EMAIL)}
      and week_start >= ${thisWeek}::date - 7`);
    expect((await call("jordan", "?scope=league")).status).toBe(404);
  });
});
