import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = async (path: string, cookie: string) => {
  const response = await t.request(path, { cookie });
  return { status: response.status, body: await response.json() };
};
const names = (people: { givenName: string; familyName: string }[]) =>
  people.map((p) => `${p.givenName} ${p.familyName}`);

describe("people one may view as", () => {
  it("are anyone but oneself for an administrator, found by name or email", async () => {
    const cookie = await t.signIn("admin@dash.demo");
    const byName = await get("/api/users/viewable?search=ava%20john", cookie);
    expect(byName.status).toBe(200);
    expect(names(byName.body.data)).toEqual(["Ava Johnson"]);
    expect(byName.body.data[0]).toMatchObject({
      email: "student@dash.demo",
      roles: ["student"],
      grades: ["03"],
    });
    const byEmail = await get("/api/users/viewable?search=PARENT@dash", cookie);
    expect(names(byEmail.body.data)).toEqual(["Sam Johnson"]);
    const everyone = await get("/api/users/viewable?limit=100", cookie);
    expect(everyone.body.total).toBeGreaterThan(300);
    expect(everyone.body.data.some((p: { sourcedId: string }) => p.sourcedId === demoId("admin"))).toBe(
      false,
    );
  });

  it("are a Guide's own students and their families only", async () => {
    const cookie = await t.signIn("guide@dash.demo");
    const all = await get("/api/users/viewable?limit=100", cookie);
    expect(all.status).toBe(200);
    const ids = all.body.data.map((p: { sourcedId: string }) => p.sourcedId);
    expect(ids).toContain(demoId("student-ava"));
    expect(ids).toContain(demoId("parent-sam"));
    expect(ids).toContain(demoId("guardian-grace"));
    expect(ids).not.toContain(demoId("student-leo"));
    expect(ids).not.toContain(demoId("admin"));
    const roles = new Set(all.body.data.flatMap((p: { roles: string[] }) => p.roles));
    expect([...roles].sort()).toEqual(["guardian", "parent", "student"]);
    expect((await get("/api/users/viewable?search=leo%20johnson", cookie)).body.data).toEqual([]);
  });

  it("are grouped for a Guide: each student with their family, found by either's name", async () => {
    const cookie = await t.signIn("guide@dash.demo");
    const all = await get("/api/users/viewable/students?limit=100", cookie);
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(all.body.data.length);
    const ava = all.body.data.find((s: { sourcedId: string }) => s.sourcedId === demoId("student-ava"));
    expect(names(ava.families)).toEqual(["Sam Johnson", "Grace Miller"]);
    expect(ava.families.map((f: { roles: string[] }) => f.roles)).toEqual([["parent"], ["guardian"]]);
    const ids = all.body.data.map((s: { sourcedId: string }) => s.sourcedId);
    expect(ids).not.toContain(demoId("student-leo"));
    // Every student is one of the flat list's, and every family member too.
    const flat = await get("/api/users/viewable?limit=100", cookie);
    const flatIds = new Set(flat.body.data.map((p: { sourcedId: string }) => p.sourcedId));
    for (const student of all.body.data) {
      expect(flatIds.has(student.sourcedId)).toBe(true);
      for (const member of student.families) expect(flatIds.has(member.sourcedId)).toBe(true);
    }
    // A family member's name finds their child; another Guide's student's family finds nothing.
    expect(names((await get("/api/users/viewable/students?search=grace%20mil", cookie)).body.data)).toEqual([
      "Ava Johnson",
    ]);
    expect((await get("/api/users/viewable/students?search=leo%20johnson", cookie)).body.total).toBe(0);
    const second = await get("/api/users/viewable/students?limit=1&offset=1", cookie);
    expect(second.body.data[0].sourcedId).toBe(all.body.data[1].sourcedId);
    for (const email of ["admin@dash.demo", "student@dash.demo", "parent@dash.demo"])
      expect((await get("/api/users/viewable/students", await t.signIn(email))).status).toBe(403);
  });

  it("treat % and _ in a search as plain characters", async () => {
    const cookie = await t.signIn("admin@dash.demo");
    expect((await get("/api/users/viewable?search=%25", cookie)).body.total).toBe(0);
    expect((await get("/api/users/viewable?search=_", cookie)).body.total).toBe(0);
  });

  it.each(["student@dash.demo", "parent@dash.demo", "proctor@dash.demo"])(
    "are refused to %s",
    async (email) => {
      const cookie = await t.signIn(email);
      expect((await get("/api/users/viewable", cookie)).status).toBe(403);
    },
  );

  it("rejects a bad limit with 400", async () => {
    const cookie = await t.signIn("admin@dash.demo");
    const response = await get("/api/users/viewable?limit=5000", cookie);
    expect(response.status).toBe(400);
    expect(response.body.issues[0].path).toBe("limit");
  });
});

describe("GET /api/parent/children", () => {
  it("lists a parent's own children", async () => {
    const cookie = await t.signIn("parent@dash.demo");
    const response = await get("/api/parent/children", cookie);
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.error).toBeNull();
    expect(names(response.body.data)).toEqual(["Ava Johnson", "Leo Johnson"]);
  });

  it("lists a guardian's children", async () => {
    const cookie = await t.signIn("guardian@dash.demo");
    expect(names((await get("/api/parent/children", cookie)).body.data)).toEqual(["Ava Johnson"]);
  });

  it("follows the impersonated parent", async () => {
    const cookie = await t.signIn("guide@dash.demo");
    await t.request("/api/auth/impersonation", {
      json: { userId: demoId("guardian-grace"), reason: "Family meeting" },
      cookie,
    });
    expect(names((await get("/api/parent/children", cookie)).body.data)).toEqual(["Ava Johnson"]);
  });

  it.each(["student@dash.demo", "guide@dash.demo", "admin@dash.demo"])("is refused to %s", async (email) => {
    const cookie = await t.signIn(email);
    expect((await get("/api/parent/children", cookie)).status).toBe(403);
  });
});

describe("GET /api/config", () => {
  it("is public and names the support page and the class-leaderboard organisation", async () => {
    const response = await t.request("/api/config");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      supportUrl: "https://support.dash.school",
      classLeaderboardOrgId: demoId("maple-grove"),
      impersonationMinutes: 60,
    });
  });
});
