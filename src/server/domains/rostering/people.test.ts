import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signIn("admin@dash.demo");
});
afterAll(() => t.close());

const DISTRICT = demoId("district");
const MAPLE = demoId("maple-grove");
const RIVERSIDE = demoId("riverside");
const PATEL = demoId("guide-patel");
const OKORO = demoId("guide-okoro");
const AVA = demoId("student-ava");
const LEO = demoId("student-leo");
const SAM = demoId("parent-sam");
const GRACE = demoId("guardian-grace");

const SPANISH = { "accept-language": "es" };

async function call(
  path: string,
  cookie: string,
  init: { method?: string; json?: unknown; headers?: Record<string, string> } = {},
) {
  const response = await t.request(path, { cookie, ...init });
  return { status: response.status, body: await response.json() };
}

const rolesUrl = (userId: string, role?: string, orgId?: string) =>
  `/api/admin/users/${userId}/roles${role ? `?${new URLSearchParams({ role, orgSourcedId: orgId ?? "" })}` : ""}`;

/** The roster rows of a person's roles, straight from the table. */
async function rosterRolesOf(userId: string) {
  return queryRows<{ role: string; roleType: string; orgSourcedId: string }>(
    t.db,
    sql`select role, role_type as "roleType", org_sourced_id as "orgSourcedId" from user_roles
        where user_sourced_id = ${userId} order by role_type, role, org_sourced_id`,
  );
}
async function primaryOrgOf(userId: string) {
  const [row] = await queryRows<{ primaryOrg: string | null; modified: Date | string }>(
    t.db,
    sql`select primary_org_sourced_id as "primaryOrg", date_last_modified as modified from users where sourced_id = ${userId}`,
  );
  return row;
}

describe("GET /api/admin/users", () => {
  it("finds people by name or email with their roles, orgs and primary role", async () => {
    const { status, body } = await call("/api/admin/users?search=PARENT@dash", admin);
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, total: 1, error: null });
    const sam = body.data[0];
    expect(sam).toMatchObject({
      sourcedId: SAM,
      email: "parent@dash.demo",
      primaryOrg: { sourcedId: MAPLE },
    });
    expect(
      sam.roles.map((r: { role: string; roleType: string; org: { name: string } }) => [
        r.role,
        r.roleType,
        r.org.name,
      ]),
    ).toEqual([
      ["parent", "primary", "Maple Grove School"],
      ["parent", "secondary", "Riverside School"],
    ]);
  });

  it("filters by role (one or several), pages and sorts", async () => {
    const guides = await call("/api/admin/users?role=teacher&limit=100", admin);
    expect(guides.body.total).toBe(9);
    const families = await call(
      "/api/admin/users?role=parent,guardian&limit=5&offset=5&sort=givenName",
      admin,
    );
    expect(families.body.data).toHaveLength(5);
    expect(families.body.total).toBeGreaterThan(150);
    const names = families.body.data.map((p: { givenName: string }) => p.givenName.toLowerCase());
    expect(names).toEqual([...names].sort());
    const filtered = await call(
      `/api/admin/users?filter=${encodeURIComponent("role='guardian' AND email~'dash.demo'")}`,
      admin,
    );
    expect(filtered.body.data.map((p: { email: string }) => p.email)).toContain("guardian@dash.demo");
    const bad = await call("/api/admin/users?role=wizard", admin);
    expect(bad.status).toBe(400);
  });

  it.each(["guide@dash.demo", "student@dash.demo", "parent@dash.demo"])("is refused to %s", async (email) => {
    const cookie = await t.signIn(email);
    expect((await call("/api/admin/users", cookie)).status).toBe(403);
    expect((await call(`/api/admin/users/${AVA}/relationships`, cookie)).status).toBe(403);
    expect((await call("/api/admin/roster-changes", cookie)).status).toBe(403);
  });
});

describe("changing roles", () => {
  it("adds a role at an org in OneRoster form and logs who did it", async () => {
    const response = await call(rolesUrl(OKORO), admin, {
      method: "POST",
      json: { role: "administrator", orgSourcedId: RIVERSIDE },
    });
    expect(response.status).toBe(201);
    expect(await rosterRolesOf(OKORO)).toEqual([
      { role: "teacher", roleType: "primary", orgSourcedId: MAPLE },
      // OneRoster 1.2 has no plain administrator: at a school it is a site administrator.
      { role: "siteAdministrator", roleType: "secondary", orgSourcedId: RIVERSIDE },
    ]);
    expect(response.body.data.roles.map((r: { role: string }) => r.role)).toEqual([
      "teacher",
      "administrator",
    ]);
    const modified = await primaryOrgOf(OKORO);
    expect(Date.parse(String(modified?.modified))).toBeGreaterThan(Date.now() - 60_000);
    const log = await call(`/api/admin/roster-changes?userId=${OKORO}`, admin);
    expect(log.body.data[0]).toMatchObject({
      action: "role.add",
      actor: { sourcedId: demoId("admin"), name: "Alex Morgan" },
      target: { sourcedId: OKORO, name: "Daniel Okoro" },
      summary: "Added Administrator at Riverside School to Daniel Okoro",
    });
    const spanish = await call(`/api/admin/roster-changes?userId=${OKORO}`, admin, { headers: SPANISH });
    expect(spanish.body.data[0]).toMatchObject({
      action: "role.add",
      summary: "Se agregó el rol de administrador en Riverside School a Daniel Okoro",
    });
  });

  it("refuses a role the person already holds, an unknown org, person or role", async () => {
    const twice = await call(rolesUrl(PATEL), admin, {
      method: "POST",
      json: { role: "teacher", orgSourcedId: MAPLE },
    });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe("Maya Patel is already Guide at Maple Grove School");
    const twiceInSpanish = await call(rolesUrl(PATEL), admin, {
      method: "POST",
      json: { role: "teacher", orgSourcedId: MAPLE },
      headers: SPANISH,
    });
    expect(twiceInSpanish.status).toBe(409);
    expect(twiceInSpanish.body.message).toBe("Maya Patel ya tiene el rol de Guía en Maple Grove School");
    const noOrg = await call(rolesUrl(PATEL), admin, {
      method: "POST",
      json: { role: "proctor", orgSourcedId: "nope" },
    });
    expect(noOrg.status).toBe(400);
    const noUser = await call(rolesUrl("nobody"), admin, {
      method: "POST",
      json: { role: "proctor", orgSourcedId: MAPLE },
    });
    expect(noUser.status).toBe(404);
    expect(noUser.body.message).toBe("No active person has this id");
    const noUserInSpanish = await call(rolesUrl("nobody"), admin, {
      method: "POST",
      json: { role: "proctor", orgSourcedId: MAPLE },
      headers: SPANISH,
    });
    expect(noUserInSpanish.status).toBe(404);
    expect(noUserInSpanish.body.message).toBe("Ninguna persona activa tiene este id");
    const badRole = await call(rolesUrl(PATEL), admin, {
      method: "POST",
      json: { role: "aide", orgSourcedId: MAPLE },
    });
    expect(badRole.status).toBe(400);
    expect(badRole.body.issues[0].path).toBe("role");
  });

  it("makes a role primary: exactly one primary role, and the primary org follows", async () => {
    const response = await call(`/api/admin/users/${SAM}/primary-role`, admin, {
      method: "PUT",
      json: { role: "parent", orgSourcedId: RIVERSIDE },
    });
    expect(response.status).toBe(200);
    expect(await rosterRolesOf(SAM)).toEqual([
      { role: "parent", roleType: "primary", orgSourcedId: RIVERSIDE },
      { role: "parent", roleType: "secondary", orgSourcedId: MAPLE },
    ]);
    expect((await primaryOrgOf(SAM))?.primaryOrg).toBe(RIVERSIDE);
    const missing = await call(`/api/admin/users/${SAM}/primary-role`, admin, {
      method: "PUT",
      json: { role: "teacher", orgSourcedId: RIVERSIDE },
    });
    expect(missing.status).toBe(404);
  });

  it("adds a role as primary on request, demoting the old one", async () => {
    await call(rolesUrl(GRACE), admin, {
      method: "POST",
      json: { role: "proctor", orgSourcedId: MAPLE, isPrimary: true },
    });
    expect(await rosterRolesOf(GRACE)).toEqual([
      { role: "proctor", roleType: "primary", orgSourcedId: MAPLE },
      { role: "guardian", roleType: "secondary", orgSourcedId: MAPLE },
    ]);
  });

  it("removes a role; when it was the primary one the next role takes over", async () => {
    const removed = await call(rolesUrl(GRACE, "proctor", MAPLE), admin, { method: "DELETE" });
    expect(removed.status).toBe(200);
    expect(await rosterRolesOf(GRACE)).toEqual([
      { role: "guardian", roleType: "primary", orgSourcedId: MAPLE },
    ]);
    const log = await call(`/api/admin/roster-changes?userId=${GRACE}&limit=1`, admin);
    expect(log.body.data[0].summary).toBe(
      "Removed Proctor at Maple Grove School from Grace Miller; Guardian at Maple Grove School is now the primary role",
    );
    const spanish = await call(`/api/admin/roster-changes?userId=${GRACE}&limit=1`, admin, {
      headers: SPANISH,
    });
    expect(spanish.body.data[0].summary).toBe(
      "Se quitó el rol de supervisor de exámenes en Maple Grove School a Grace Miller; ahora el rol principal es el de tutor legal en Maple Grove School",
    );
    const again = await call(rolesUrl(GRACE, "proctor", MAPLE), admin, { method: "DELETE" });
    expect(again.status).toBe(404);
  });

  it("leaves a person without roles without a primary org", async () => {
    const multi = demoId("multi");
    await call(rolesUrl(multi, "student", MAPLE), admin, { method: "DELETE" });
    await call(rolesUrl(multi, "teacher", MAPLE), admin, { method: "DELETE" });
    expect(await rosterRolesOf(multi)).toEqual([]);
    expect((await primaryOrgOf(multi))?.primaryOrg).toBeNull();
    const back = await call(rolesUrl(multi), admin, {
      method: "POST",
      json: { role: "teacher", orgSourcedId: MAPLE },
    });
    expect(back.body.data.roles).toMatchObject([{ role: "teacher", roleType: "primary" }]);
    expect((await primaryOrgOf(multi))?.primaryOrg).toBe(MAPLE);
  });

  it("stops an administrator removing their own last administrator role", async () => {
    const own = await call(rolesUrl(demoId("admin"), "administrator", DISTRICT), admin, { method: "DELETE" });
    expect(own.status).toBe(409);
    expect(own.body.message).toMatch(/cannot remove your own last administrator role/);
    expect(await rosterRolesOf(demoId("admin"))).toHaveLength(1);

    // With a second administrator role, the first may go.
    await call(rolesUrl(demoId("admin")), admin, {
      method: "POST",
      json: { role: "administrator", orgSourcedId: MAPLE },
    });
    const first = await call(rolesUrl(demoId("admin"), "administrator", DISTRICT), admin, {
      method: "DELETE",
    });
    expect(first.status).toBe(200);
    expect(await rosterRolesOf(demoId("admin"))).toEqual([
      { role: "siteAdministrator", roleType: "primary", orgSourcedId: MAPLE },
    ]);
    const last = await call(rolesUrl(demoId("admin"), "administrator", MAPLE), admin, { method: "DELETE" });
    expect(last.status).toBe(409);
  });

  it("is refused to a Guide, and nothing changes", async () => {
    const guide = await t.signIn("guide@dash.demo");
    const add = await call(rolesUrl(PATEL), guide, {
      method: "POST",
      json: { role: "administrator", orgSourcedId: MAPLE },
    });
    expect(add.status).toBe(403);
    const remove = await call(rolesUrl(AVA, "student", MAPLE), guide, { method: "DELETE" });
    expect(remove.status).toBe(403);
    const primary = await call(`/api/admin/users/${SAM}/primary-role`, guide, {
      method: "PUT",
      json: { role: "parent", orgSourcedId: MAPLE },
    });
    expect(primary.status).toBe(403);
    expect(await rosterRolesOf(PATEL)).toEqual([
      { role: "teacher", roleType: "primary", orgSourcedId: MAPLE },
    ]);
  });

  it("refuses an administrator who is viewing Dash as a Guide", async () => {
    const viewer = await t.signIn("admin@dash.demo");
    const start = await call("/api/auth/impersonation", viewer, {
      method: "POST",
      json: { userId: PATEL, reason: "Checking the Guide's view" },
    });
    expect(start.status).toBe(200);
    const add = await call(rolesUrl(PATEL), viewer, {
      method: "POST",
      json: { role: "proctor", orgSourcedId: MAPLE },
    });
    expect(add.status).toBe(403);
  });
});

describe("role changes and signed-in sessions", () => {
  it("apply at the person's next request", async () => {
    const hughes = demoId("guide-hughes");
    // Rachel Hughes has no password in the demo: give her one to sign in.
    await t.db.execute(sql`insert into user_credentials (user_sourced_id, password_hash)
      select ${hughes}, password_hash from user_credentials where user_sourced_id = ${PATEL}`);
    const cookie = await t.signIn("rachel.hughes@staff.dash.demo");
    expect((await call("/api/auth/me", cookie)).body.availableRoles).toEqual(["teacher"]);
    expect((await call("/api/guide/students", cookie)).status).toBe(200);

    await call(rolesUrl(hughes), admin, {
      method: "POST",
      json: { role: "administrator", orgSourcedId: DISTRICT },
    });
    const promoted = await call("/api/auth/me", cookie);
    expect(promoted.body.availableRoles).toEqual(["administrator", "teacher"]);
    expect(promoted.body.selectedRole).toBe("administrator");

    await call(rolesUrl(hughes, "teacher", MAPLE), admin, { method: "DELETE" });
    await call(rolesUrl(hughes, "administrator", DISTRICT), admin, { method: "DELETE" });
    const demoted = await call("/api/auth/me", cookie);
    expect(demoted.body.availableRoles).toEqual([]);
    expect((await call("/api/guide/students", cookie)).status).toBe(403);
  });
});

describe("parents and guardians", () => {
  const link = (json: unknown, cookie = admin) =>
    call("/api/admin/relationships", cookie, { method: "POST", json });
  const unlink = (studentSourcedId: string, agentSourcedId: string, cookie = admin) =>
    call(`/api/admin/relationships?${new URLSearchParams({ studentSourcedId, agentSourcedId })}`, cookie, {
      method: "DELETE",
    });

  it("shows a student's parents and guardians, and a parent's children", async () => {
    const ava = await call(`/api/admin/users/${AVA}/relationships`, admin);
    expect(ava.status).toBe(200);
    expect(ava.body.data.person.sourcedId).toBe(AVA);
    expect(
      ava.body.data.agents.map((p: { sourcedId: string; roles: string[] }) => [p.sourcedId, p.roles]),
    ).toEqual([
      [SAM, ["parent"]],
      [GRACE, ["guardian"]],
    ]);
    expect(ava.body.data.children).toEqual([]);
    const sam = await call(`/api/admin/users/${SAM}/relationships`, admin);
    expect(sam.body.data.children.map((p: { givenName: string }) => p.givenName)).toEqual(["Ava", "Leo"]);
  });

  it("links a guardian to a student: the guardian then sees the child", async () => {
    const response = await link({ studentSourcedId: LEO, agentSourcedId: GRACE });
    expect(response.status).toBe(201);
    expect(response.body.data.agents.map((p: { sourcedId: string }) => p.sourcedId)).toContain(GRACE);
    const grace = await t.signIn("guardian@dash.demo");
    const children = await call("/api/parent/children", grace);
    expect(children.body.data.map((c: { givenName: string }) => c.givenName).sort()).toEqual(["Ava", "Leo"]);
    const log = await call("/api/admin/roster-changes?limit=1", admin);
    expect(log.body.data[0]).toMatchObject({
      action: "agent.link",
      target: { sourcedId: LEO },
      summary: "Linked Grace Miller (guardian) to Leo Johnson",
    });
    const spanish = await call("/api/admin/roster-changes?limit=1", admin, { headers: SPANISH });
    expect(spanish.body.data[0].summary).toBe("Se vinculó a Grace Miller (tutor legal) con Leo Johnson");
    expect((await link({ studentSourcedId: LEO, agentSourcedId: GRACE })).status).toBe(409);
  });

  it("unlinks: the guardian no longer sees the child", async () => {
    const response = await unlink(LEO, GRACE);
    expect(response.status).toBe(200);
    expect(response.body.data.agents.map((p: { sourcedId: string }) => p.sourcedId)).not.toContain(GRACE);
    const grace = await t.signIn("guardian@dash.demo");
    const children = await call("/api/parent/children", grace);
    expect(children.body.data.map((c: { givenName: string }) => c.givenName)).toEqual(["Ava"]);
    expect((await call("/api/admin/roster-changes?limit=1", admin)).body.data[0].summary).toBe(
      "Unlinked Grace Miller from Leo Johnson",
    );
    const again = await unlink(LEO, GRACE);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe("Grace Miller is not linked to Leo Johnson");
  });

  it("links only a parent or guardian to a student", async () => {
    const notAgent = await link({ studentSourcedId: AVA, agentSourcedId: PATEL });
    expect(notAgent.status).toBe(400);
    expect(notAgent.body.message).toMatch(/Maya Patel is not a parent or guardian/);
    const notStudent = await link({ studentSourcedId: PATEL, agentSourcedId: GRACE });
    expect(notStudent.status).toBe(400);
    expect(notStudent.body.message).toBe("Maya Patel is not a student");
    const self = await link({ studentSourcedId: AVA, agentSourcedId: AVA });
    expect(self.status).toBe(400);
    const missing = await link({ studentSourcedId: AVA });
    expect(missing.status).toBe(400);
    expect(missing.body.issues[0].path).toBe("agentSourcedId");
  });

  it("is refused to a Guide", async () => {
    const guide = await t.signIn("guide@dash.demo");
    expect((await link({ studentSourcedId: LEO, agentSourcedId: GRACE }, guide)).status).toBe(403);
    expect((await unlink(AVA, SAM, guide)).status).toBe(403);
    const [row] = await queryRows(
      t.db,
      sql`select 1 from user_agents where user_sourced_id = ${AVA} and agent_sourced_id = ${SAM}`,
    );
    expect(row).toBeDefined();
  });
});

describe("the log of roster changes", () => {
  /** Writes a change as an older Dash did (English text only) or as one rewritten since it was written. */
  async function logged(summary: string, summaryMessage: unknown = null) {
    const [row] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into roster_changes (actor_sourced_id, action, target_user_sourced_id, summary, summary_message, created_at)
          values (${demoId("admin")}, 'agent.link', ${SAM}, ${summary}, ${summaryMessage === null ? null : JSON.stringify(summaryMessage)}::jsonb, now())
          returning id`,
    );
    return row?.id;
  }
  const summaryOf = async (id: string | undefined, headers?: Record<string, string>) => {
    const log = await call(`/api/admin/roster-changes?userId=${SAM}&limit=100`, admin, { headers });
    return (log.body.data as { id: string; summary: string }[]).find((change) => change.id === id)?.summary;
  };

  it("answers a change written before summaries were messages with its English text", async () => {
    const id = await logged("Linked Sam Johnson (parent) to Ava Johnson");
    expect(await summaryOf(id)).toBe("Linked Sam Johnson (parent) to Ava Johnson");
    expect(await summaryOf(id, SPANISH)).toBe("Linked Sam Johnson (parent) to Ava Johnson");
  });

  it("translates a change's message, and keeps a text rewritten since as it now reads", async () => {
    const said = {
      key: "rostering:changes.agentLinked",
      values: { agent: "Sam Johnson", kind: "parent", student: "Ava Johnson" },
    };
    const id = await logged("Linked Sam Johnson (parent) to Ava Johnson", said);
    expect(await summaryOf(id)).toBe("Linked Sam Johnson (parent) to Ava Johnson");
    expect(await summaryOf(id, SPANISH)).toBe("Se vinculó a Sam Johnson (padre o madre) con Ava Johnson");
    // Anonymising the student rewrote the names in the text: the message must not bring them back.
    const rewritten = await logged("Linked Sam Johnson (parent) to Student 4821", said);
    expect(await summaryOf(rewritten, SPANISH)).toBe("Linked Sam Johnson (parent) to Student 4821");
  });

  it("tells a Guide, in their language, that the log is not theirs to read", async () => {
    const guide = await t.signIn("guide@dash.demo");
    const refused = await call("/api/admin/roster-changes", guide, { headers: SPANISH });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Su rol no le permite leer el registro de cambios de la lista");
  });
});
