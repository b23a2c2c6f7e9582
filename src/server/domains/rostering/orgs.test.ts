import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";

let t: TestApp;
let admin: string;
let guide: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signIn("admin@dash.demo");
  guide = await t.signIn("guide@dash.demo");
});
afterAll(() => t.close());

const DISTRICT = demoId("district");
const MAPLE = demoId("maple-grove");
const RIVERSIDE = demoId("riverside");

const SPANISH = { "accept-language": "es" };

async function call(
  path: string,
  cookie: string,
  init: { method?: string; json?: unknown; headers?: Record<string, string> } = {},
) {
  const response = await t.request(path, { cookie, ...init });
  return { status: response.status, body: await response.json() };
}

/** Students of a school counted straight from the roster, to check the API's numbers against. */
async function studentsAt(orgId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.db,
    sql`select count(distinct user_sourced_id)::int as n from user_roles where org_sourced_id = ${orgId} and role = 'student'`,
  );
  return row?.n ?? 0;
}

describe("GET /api/admin/orgs", () => {
  it("lists the district and its schools with their numbers for an administrator", async () => {
    const { status, body } = await call("/api/admin/orgs", admin);
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, total: 3, error: null, canEdit: true });
    const byId = new Map(body.data.map((org: { sourcedId: string }) => [org.sourcedId, org]));
    const maple = byId.get(MAPLE);
    expect(maple).toMatchObject({
      name: "Maple Grove School",
      type: "school",
      identifier: "MGS",
      parent: { sourcedId: DISTRICT, name: "Dash Demo District" },
    });
    const mapleStudents = await studentsAt(MAPLE);
    const riversideStudents = await studentsAt(RIVERSIDE);
    // Four Guides of groups plus Jordan Lee, who co-teaches; sixteen classes per school.
    expect(maple).toMatchObject({ counts: { students: mapleStudents, guides: 5, classes: 16, schools: 0 } });
    expect(byId.get(DISTRICT)).toMatchObject({
      parent: null,
      counts: { students: mapleStudents + riversideStudents, guides: 9, classes: 32, schools: 2 },
    });
  });

  it("searches by name or identifier, sorts and pages", async () => {
    expect(
      (await call("/api/admin/orgs?search=rvs", admin)).body.data.map((o: { name: string }) => o.name),
    ).toEqual(["Riverside School"]);
    const desc = await call("/api/admin/orgs?sort=name&orderBy=desc&limit=1&offset=1", admin);
    expect(desc.body.total).toBe(3);
    expect(desc.body.data.map((o: { name: string }) => o.name)).toEqual(["Maple Grove School"]);
  });

  it("takes a OneRoster filter and explains a bad one", async () => {
    const schools = await call(`/api/admin/orgs?filter=${encodeURIComponent("type='school'")}`, admin);
    expect(schools.body.total).toBe(2);
    const unknown = await call(`/api/admin/orgs?filter=${encodeURIComponent("colour='red'")}`, admin);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/unknown field: colour/);
    const broken = await call(`/api/admin/orgs?filter=${encodeURIComponent("name='x")}`, admin);
    expect(broken.status).toBe(400);
    const badSort = await call("/api/admin/orgs?sort=colour", admin);
    expect(badSort.status).toBe(400);
    expect(badSort.body.issues[0].path).toBe("sort");
  });

  it("shows a Guide only their own school, read-only", async () => {
    const { status, body } = await call("/api/admin/orgs", guide);
    expect(status).toBe(200);
    expect(body.canEdit).toBe(false);
    expect(body.data.map((org: { sourcedId: string }) => org.sourcedId)).toEqual([MAPLE]);
  });

  it.each(["student@dash.demo", "parent@dash.demo", "proctor@dash.demo"])(
    "is refused to %s",
    async (email) => {
      const cookie = await t.signIn(email);
      expect((await call("/api/admin/orgs", cookie)).status).toBe(403);
      expect((await call(`/api/admin/orgs/${MAPLE}`, cookie)).status).toBe(403);
    },
  );

  it("needs a session", async () => {
    expect((await t.request("/api/admin/orgs")).status).toBe(401);
  });
});

describe("one organisation", () => {
  it("has its children and the way up", async () => {
    const district = await call(`/api/admin/orgs/${DISTRICT}`, admin);
    expect(district.status).toBe(200);
    expect(district.body.data.ancestors).toEqual([]);
    expect(district.body.data.children.map((o: { name: string }) => o.name)).toEqual([
      "Maple Grove School",
      "Riverside School",
    ]);
    const school = await call(`/api/admin/orgs/${RIVERSIDE}`, admin);
    expect(school.body.data.ancestors).toEqual([
      { sourcedId: DISTRICT, name: "Dash Demo District", type: "district" },
    ]);
  });

  it("is 404 when unknown, for everyone", async () => {
    const response = await call("/api/admin/orgs/no-such-org", admin);
    expect(response.status).toBe(404);
    expect(response.body.message).toBe("No organization has the id no-such-org");
    expect((await call("/api/admin/orgs/no-such-org/tree", guide)).status).toBe(404);
  });

  it("is 403 for a Guide outside their school, on every view of it", async () => {
    for (const view of ["", "/tree", "/summary", "/classes", "/people"]) {
      const response = await call(`/api/admin/orgs/${RIVERSIDE}${view}`, guide);
      expect(response.status, view).toBe(403);
      expect(response.body.message).toMatch(/only see the organizations they teach at/);
    }
    expect((await call(`/api/admin/orgs/${DISTRICT}/people`, guide)).status).toBe(403);
  });

  it("is readable by a Guide at their own school, without the district above it", async () => {
    const response = await call(`/api/admin/orgs/${MAPLE}`, guide);
    expect(response.status).toBe(200);
    expect(response.body.canEdit).toBe(false);
    expect(response.body.data.ancestors).toEqual([]);
  });
});

describe("GET /api/admin/orgs/:orgId/tree", () => {
  it("nests schools under the district and classes under the schools, with counts", async () => {
    const { status, body } = await call(`/api/admin/orgs/${DISTRICT}/tree`, admin);
    expect(status).toBe(200);
    const root = body.data;
    expect(root).toMatchObject({
      kind: "org",
      name: "Dash Demo District",
      counts: { guides: 9, classes: 32 },
    });
    expect(root.children.map((node: { name: string }) => node.name)).toEqual([
      "Maple Grove School",
      "Riverside School",
    ]);
    const maple = root.children[0];
    expect(maple.children).toHaveLength(16);
    const math = maple.children.find((node: { name: string }) => node.name === "Math · Patel group");
    expect(math).toMatchObject({ kind: "class", type: "class", children: [] });
    // Maya Patel's group: a quarter of the school's 75 generated students, plus Ava.
    expect(math.counts).toEqual({ students: 20, guides: 1, classes: 0 });
  });
});

describe("GET /api/admin/orgs/:orgId/summary", () => {
  it("counts students per grade in school order, and families", async () => {
    const { body } = await call(`/api/admin/orgs/${MAPLE}/summary`, admin);
    expect(body.data.org).toEqual({ sourcedId: MAPLE, name: "Maple Grove School", type: "school" });
    const grades = body.data.studentsPerGrade.map((entry: { grade: string }) => entry.grade);
    expect(grades).toEqual(["KG", "01", "02", "03", "04", ""]);
    const perGrade = body.data.studentsPerGrade.reduce(
      (sum: number, entry: { students: number }) => sum + entry.students,
      0,
    );
    expect(perGrade).toBe(body.data.totals.students);
    // Jordan Lee is a student without a grade.
    expect(body.data.studentsPerGrade.at(-1)).toEqual({ grade: "", students: 1 });
    expect(body.data.totals.families).toBeGreaterThan(75);
  });
});

describe("GET /api/admin/orgs/:orgId/classes", () => {
  it("lists classes with their Guides and students, searchable and filterable", async () => {
    const { body } = await call(`/api/admin/orgs/${DISTRICT}/classes?search=patel`, admin);
    expect(body.total).toBe(4);
    const science = body.data.find((entry: { title: string }) => entry.title === "Science · Patel group");
    expect(science.guides.map((g: { name: string }) => g.name)).toEqual(["Jordan Lee", "Maya Patel"]);
    expect(science.school).toEqual({ sourcedId: MAPLE, name: "Maple Grove School" });
    const math = await call(
      `/api/admin/orgs/${RIVERSIDE}/classes?filter=${encodeURIComponent("subjects='Math'")}&sort=students&orderBy=desc`,
      admin,
    );
    expect(math.body.total).toBe(4);
    const counts = math.body.data.map((entry: { students: number }) => entry.students);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });
});

describe("GET /api/admin/orgs/:orgId/people", () => {
  it("pages the people of an organisation by role, with the roles they hold there", async () => {
    const guides = await call(`/api/admin/orgs/${MAPLE}/people?role=teacher`, admin);
    expect(guides.body.total).toBe(5);
    const jordan = guides.body.data.find((p: { email: string }) => p.email === "multi@dash.demo");
    expect(jordan.roles).toEqual(["teacher", "student"]);
    const page = await call(`/api/admin/orgs/${DISTRICT}/people?role=student&limit=10&offset=10`, admin);
    expect(page.body.data).toHaveLength(10);
    expect(page.body.total).toBe((await studentsAt(MAPLE)) + (await studentsAt(RIVERSIDE)));
    const sam = await call(`/api/admin/orgs/${RIVERSIDE}/people?search=sam%20johnson`, guide);
    expect(sam.status).toBe(403);
    const ava = await call(`/api/admin/orgs/${MAPLE}/people?search=ava%20johnson`, guide);
    expect(ava.body.data.map((p: { email: string }) => p.email)).toEqual(["student@dash.demo"]);
    const badRole = await call(`/api/admin/orgs/${MAPLE}/people?role=wizard`, admin);
    expect(badRole.status).toBe(400);
  });
});

describe("changing organisations", () => {
  it("lets an administrator rename an org and change its identifier, logged", async () => {
    const response = await call(`/api/admin/orgs/${RIVERSIDE}`, admin, {
      method: "PATCH",
      json: { name: "Riverside Academy", identifier: "RVA" },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ name: "Riverside Academy", identifier: "RVA" });
    expect(Date.parse(response.body.data.dateLastModified)).toBeGreaterThan(Date.now() - 60_000);
    const log = await call("/api/admin/roster-changes", admin);
    expect(log.body.data[0]).toMatchObject({
      action: "org.update",
      actor: { name: "Alex Morgan" },
      summary:
        "Renamed Riverside School to Riverside Academy; changed the identifier of Riverside Academy from RVS to RVA",
    });
    const spanish = await call("/api/admin/roster-changes", admin, { headers: SPANISH });
    expect(spanish.body.data[0].summary).toBe(
      "Se cambió el nombre de Riverside School a Riverside Academy; se cambió el identificador de Riverside Academy de RVS a RVA",
    );
    // Signed-in profiles show the new name at once.
    const parent = await t.signIn("parent@dash.demo");
    const me = await call("/api/auth/me", parent);
    expect(me.body.user.roles.map((r: { org: { name: string } }) => r.org.name)).toContain(
      "Riverside Academy",
    );
  });

  it("sets a school's default language, which its people get unless they or their browser choose", async () => {
    const set = await call(`/api/admin/orgs/${MAPLE}`, admin, {
      method: "PATCH",
      json: { defaultLanguage: "es" },
    });
    expect(set.status).toBe(200);
    expect(set.body.data.defaultLanguage).toBe("es");
    const student = await t.signIn("student@dash.demo");
    expect((await call("/api/auth/me", student)).body.language).toEqual({ own: null, school: "es" });
    const log = await call("/api/admin/roster-changes", admin);
    expect(log.body.data[0].summary).toBe("Maple Grove School’s default language is now Spanish");
    const spanish = await call("/api/admin/roster-changes", admin, { headers: SPANISH });
    expect(spanish.body.data[0].summary).toBe(
      "El idioma predeterminado de Maple Grove School ahora es el español",
    );
    expect(
      (await call(`/api/admin/orgs/${MAPLE}`, admin, { method: "PATCH", json: { defaultLanguage: "fr" } }))
        .status,
    ).toBe(400);
    expect(
      (await call(`/api/admin/orgs/${MAPLE}`, guide, { method: "PATCH", json: { defaultLanguage: "en" } }))
        .status,
    ).toBe(403);
    const cleared = await call(`/api/admin/orgs/${MAPLE}`, admin, {
      method: "PATCH",
      json: { defaultLanguage: null },
    });
    expect(cleared.body.data.defaultLanguage).toBeNull();
    expect((await call("/api/auth/me", student)).body.language).toEqual({ own: null, school: null });
  });

  it("refuses an identifier another org has, an empty change and bad values", async () => {
    const taken = await call(`/api/admin/orgs/${RIVERSIDE}`, admin, {
      method: "PATCH",
      json: { identifier: "mgs" },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe("Maple Grove School already has the identifier mgs");
    const takenInSpanish = await call(`/api/admin/orgs/${RIVERSIDE}`, admin, {
      method: "PATCH",
      json: { identifier: "mgs" },
      headers: SPANISH,
    });
    expect(takenInSpanish.body.message).toBe("Maple Grove School ya tiene el identificador mgs");
    const empty = await call(`/api/admin/orgs/${RIVERSIDE}`, admin, { method: "PATCH", json: {} });
    expect(empty.status).toBe(400);
    const short = await call(`/api/admin/orgs/${RIVERSIDE}`, admin, { method: "PATCH", json: { name: " " } });
    expect(short.status).toBe(400);
    expect(short.body.issues[0]).toMatchObject({ path: "name" });
    const unknown = await call("/api/admin/orgs/nope", admin, { method: "PATCH", json: { name: "Nope" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("No organization has the id nope");
    const unknownInSpanish = await call("/api/admin/orgs/nope", admin, {
      method: "PATCH",
      json: { name: "Nope" },
      headers: SPANISH,
    });
    expect(unknownInSpanish.body.message).toBe("Ninguna organización tiene el id nope");
  });

  it("logs a cleared identifier as none, in either language", async () => {
    const cleared = await call(`/api/admin/orgs/${RIVERSIDE}`, admin, {
      method: "PATCH",
      json: { identifier: null },
    });
    expect(cleared.status).toBe(200);
    const [english, spanish] = await Promise.all([
      call("/api/admin/roster-changes?limit=1", admin),
      call("/api/admin/roster-changes?limit=1", admin, { headers: SPANISH }),
    ]);
    expect(english.body.data[0].summary).toBe("Changed the identifier of Riverside Academy from RVA to none");
    expect(spanish.body.data[0].summary).toBe(
      "Se cambió el identificador de Riverside Academy de RVA a ninguno",
    );
    await call(`/api/admin/orgs/${RIVERSIDE}`, admin, { method: "PATCH", json: { identifier: "RVA" } });
  });

  it("adds a school under the district, and refuses one under a school or with a twin name", async () => {
    const created = await call("/api/admin/orgs", admin, {
      method: "POST",
      json: { parentSourcedId: DISTRICT, name: "Hilltop School", identifier: "HTS" },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: "Hilltop School",
      type: "school",
      identifier: "HTS",
      parent: { sourcedId: DISTRICT },
      counts: { students: 0, guides: 0, classes: 0, schools: 0 },
    });
    const twin = await call("/api/admin/orgs", admin, {
      method: "POST",
      json: { parentSourcedId: DISTRICT, name: "hilltop school" },
    });
    expect(twin.status).toBe(409);
    const underSchool = await call("/api/admin/orgs", admin, {
      method: "POST",
      json: { parentSourcedId: MAPLE, name: "Annex" },
    });
    expect(underSchool.status).toBe(400);
    expect(underSchool.body.message).toMatch(/cannot be added under Maple Grove School/);
    const tree = await call(`/api/admin/orgs/${DISTRICT}/tree`, admin);
    expect(tree.body.data.children.map((node: { name: string }) => node.name)).toContain("Hilltop School");
  });

  it("is refused to Guides", async () => {
    const rename = await call(`/api/admin/orgs/${MAPLE}`, guide, { method: "PATCH", json: { name: "Mine" } });
    expect(rename.status).toBe(403);
    const add = await call("/api/admin/orgs", guide, {
      method: "POST",
      json: { parentSourcedId: DISTRICT, name: "Guide School" },
    });
    expect(add.status).toBe(403);
    const [maple] = await queryRows<{ name: string }>(
      t.db,
      sql`select name from orgs where sourced_id = ${MAPLE}`,
    );
    expect(maple?.name).toBe("Maple Grove School");
  });
});

describe("organisation numbers", () => {
  const studentsOf = async (orgId: string) =>
    (await call(`/api/admin/orgs/${orgId}/summary`, admin)).body.data.totals.students as number;

  it("follow changes made through Dash at once, and other changes within 30 seconds", async () => {
    const before = await studentsOf(MAPLE);
    // A change made outside Dash's pages (an import, a script) shows once the numbers are recounted.
    await t.db.execute(
      sql`insert into users (sourced_id, given_name, family_name, grades) values ('imported-1', 'Ida', 'Imported', '{02}')`,
    );
    await t.db.execute(
      sql`insert into user_roles (user_sourced_id, role, role_type, org_sourced_id) values ('imported-1', 'Student', 'primary', ${MAPLE})`,
    );
    expect(await studentsOf(MAPLE)).toBe(before);
    t.clock.advance(30_001);
    expect(await studentsOf(MAPLE)).toBe(before + 1);
    const grades = (await call(`/api/admin/orgs/${DISTRICT}/summary`, admin)).body.data.studentsPerGrade;
    expect(grades.find((entry: { grade: string }) => entry.grade === "02").students).toBeGreaterThan(0);

    // A role given on the Roles page counts at once.
    const added = await call(`/api/admin/users/${demoId("proctor")}/roles`, admin, {
      method: "POST",
      json: { role: "student", orgSourcedId: MAPLE },
    });
    expect(added.status).toBe(201);
    expect(await studentsOf(MAPLE)).toBe(before + 2);
    expect(await studentsOf(DISTRICT)).toBe(before + 2 + (await studentsAt(RIVERSIDE)));
  });
});
