import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerTime } from "../../../shared/contracts/clock";
import { dayBoundsOf } from "../../../shared/time-zone";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { SERVER_TIME_ZONE } from "./clock";

describe("the day an instant falls on in a timezone", () => {
  it("starts at the zone's midnight and ends at the next one", () => {
    expect(dayBoundsOf(new Date("2026-03-04T03:30:00Z"), "America/New_York")).toEqual({
      date: "2026-03-03",
      startsAt: "2026-03-03T05:00:00.000Z",
      endsAt: "2026-03-04T05:00:00.000Z",
      weekStart: "2026-03-01",
    });
    expect(dayBoundsOf(new Date("2026-03-04T03:30:00Z"), "Asia/Tokyo")).toMatchObject({
      date: "2026-03-04",
      startsAt: "2026-03-03T15:00:00.000Z",
      endsAt: "2026-03-04T15:00:00.000Z",
    });
  });

  it("is 23 or 25 hours long on the days clocks change", () => {
    const spring = dayBoundsOf(new Date("2026-03-08T12:00:00Z"), "America/New_York");
    expect(spring).toMatchObject({
      startsAt: "2026-03-08T05:00:00.000Z",
      endsAt: "2026-03-09T04:00:00.000Z",
    });
    const autumn = dayBoundsOf(new Date("2026-11-01T12:00:00Z"), "America/New_York");
    expect(autumn).toMatchObject({
      startsAt: "2026-11-01T04:00:00.000Z",
      endsAt: "2026-11-02T05:00:00.000Z",
    });
  });
});

let t: TestApp;
const cookies: Record<string, string> = {};
const AVA = demoId("student-ava");
const LEO = demoId("student-leo");

beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent", "proctor"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
});
afterAll(() => t.close());

async function time(who: string, query = "") {
  const response = await t.request(`/api/time${query}`, { cookie: cookies[who] });
  return { status: response.status, body: (await response.json()) as ServerTime };
}

describe("GET /api/time", () => {
  it("answers a student the server's clock and their own day", async () => {
    const { status, body } = await time("student");
    expect(status).toBe(200);
    expect(body.now).toBe(t.clock.now().toISOString());
    expect(body.server).toEqual({
      timeZone: SERVER_TIME_ZONE,
      day: dayBoundsOf(t.clock.now(), SERVER_TIME_ZONE),
    });
    expect(body.counted.student?.id).toBe(AVA);
    expect(body.counted.day).toEqual(dayBoundsOf(t.clock.now(), body.counted.timeZone));
  });

  it("answers staff and families the school's day, or a student's they reach", async () => {
    const school = await time("guide");
    expect(school.body.counted).toMatchObject({ timeZone: "America/New_York", student: null });
    expect((await time("guide", `?studentId=${AVA}`)).body.counted.student?.id).toBe(AVA);
    expect((await time("guide", `?studentId=${LEO}`)).status).toBe(404);
    expect((await time("parent", `?studentId=${LEO}`)).body.counted.student?.id).toBe(LEO);
    expect((await time("admin", `?studentId=${LEO}`)).status).toBe(200);
    expect((await time("student", `?studentId=${LEO}`)).status).toBe(404);
    expect((await time("proctor", `?studentId=${AVA}`)).status).toBe(403);
    expect((await time("proctor")).body.counted.student).toBeNull();
    expect((await t.request("/api/time")).status).toBe(401);
  });
});
