import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_XP_RULES } from "../../../shared/xp-rules";
import { DEMO_APP_KEY, demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const SETTINGS = "/api/admin/learning-settings";
const AVA = demoId("student-ava");

const ingestPerfectFirstAttempt = async (eventId: string) => {
  const response = await t.request("/api/ingest/activity", {
    headers: { authorization: `Bearer ${DEMO_APP_KEY}` },
    json: {
      events: [
        {
          eventId,
          studentId: AVA,
          occurredAt: new Date(t.clock.now().getTime() - 600_000).toISOString(),
          subject: "Math",
          expectedXp: 20,
          totalQuestions: 10,
          correctQuestions: 10,
          activeSeconds: 1200,
        },
      ],
    },
  });
  return (await response.json()).accepted[0].xp as number;
};

describe("the school's XP rules and daily goals", () => {
  it("start at the defaults and change what new activity earns, not what was earned", async () => {
    const admin = await t.signIn("admin@dash.demo");
    const before = await (await t.request(SETTINGS, { cookie: admin })).json();
    expect(before.data.xpRules).toEqual(DEFAULT_XP_RULES);
    expect(before.data.dailyGoals.Math).toBeGreaterThan(0);

    expect(await ingestPerfectFirstAttempt("settings-before")).toBe(25);
    const saved = await t.request(SETTINGS, {
      method: "PUT",
      cookie: admin,
      json: {
        xpRules: { ...DEFAULT_XP_RULES, firstAttemptPerfect: 1.5 },
        dailyGoals: { Math: 45, Reading: 30 },
      },
    });
    expect(saved.status).toBe(200);
    expect(await ingestPerfectFirstAttempt("settings-after")).toBe(30);

    // The new goals are the ones students are measured against.
    const student = await t.signIn("student@dash.demo");
    const home = await (await t.request(`/api/students/${AVA}/home`, { cookie: student })).json();
    const math = home.data.summary.subjects.find((entry: { subject: string }) => entry.subject === "Math");
    expect(math.goal).toBe(45);
    const after = await (await t.request(SETTINGS, { cookie: admin })).json();
    expect(after.data).toEqual({
      xpRules: { ...DEFAULT_XP_RULES, firstAttemptPerfect: 1.5 },
      dailyGoals: { Math: 45, Reading: 30 },
    });
  });

  it("refuses impossible values with the problems named, and changes nothing", async () => {
    const admin = await t.signIn("admin@dash.demo");
    const before = await (await t.request(SETTINGS, { cookie: admin })).json();
    const response = await t.request(SETTINGS, {
      method: "PUT",
      cookie: admin,
      json: { xpRules: { ...DEFAULT_XP_RULES, accuracyFloor: 80 }, dailyGoals: { Math: -5 } },
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.message).toContain("xpRules.accuracyFloor");
    expect(body.message).toContain("dailyGoals.Math");
    expect((await (await t.request(SETTINGS, { cookie: admin })).json()).data).toEqual(before.data);
  });

  it("are for administrators only", async () => {
    for (const email of ["guide@dash.demo", "student@dash.demo", "parent@dash.demo"]) {
      const cookie = await t.signIn(email);
      expect((await t.request(SETTINGS, { cookie })).status).toBe(403);
      const put = await t.request(SETTINGS, {
        method: "PUT",
        cookie,
        json: { xpRules: DEFAULT_XP_RULES, dailyGoals: { Math: 1 } },
      });
      expect(put.status).toBe(403);
    }
    expect((await t.request(SETTINGS)).status).toBe(401);
  });
});
