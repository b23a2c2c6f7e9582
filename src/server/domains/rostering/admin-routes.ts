import { type Context, Hono } from "hono";
import {
  guardianSearchQuerySchema,
  onboardingClassesQuerySchema,
  onboardingRequestSchema,
} from "../../../shared/contracts/onboarding";
import {
  addRoleSchema,
  createSchoolSchema,
  guardianLinkDecisionSchema,
  guardianLinkRequestParamsSchema,
  orgClassesQuerySchema,
  orgListQuerySchema,
  orgPeopleQuerySchema,
  relationshipSchema,
  roleAtOrgSchema,
  rosterChangesQuerySchema,
  updateOrgSchema,
  userListQuerySchema,
} from "../../../shared/contracts/people";
import { requireActiveRole } from "../../lib/auth";
import type { Actor, AppDeps, AppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { readJsonBody, readParams, readQuery, requestLanguage } from "../../lib/validation";
import { findGuardians, onboardingClasses, onboardingSchools, onboardStudent } from "./onboarding";
import { createOrgNumbers } from "./org-numbers";
import {
  createSchool,
  findOrgClasses,
  findOrgPeople,
  findOrgs,
  getOrgDetail,
  getOrgSummary,
  getOrgTree,
  updateOrg,
} from "./orgs";
import {
  addRole,
  decideGuardianLinkRequest,
  findManagedUsers,
  getManagedUser,
  getRelationships,
  linkAgent,
  listGuardianLinkRequests,
  makeRolePrimary,
  removeRole,
  unlinkAgent,
} from "./people";
import { listRosterChanges } from "./roster-changes";

const STAFF = ["administrator", "teacher"] as const;
const ADMIN = ["administrator"] as const;

/** Onboarding creates accounts and links families: never while viewing Dash as someone else. */
function onboarder(c: Context<AppEnv>): Actor {
  const actor = requireActiveRole(c, STAFF, message("rostering:actions.onboardStudents"));
  if (actor.session.impersonation)
    throw new AppError("forbidden", message("rostering:onboarding.stopViewingAs"));
  return actor;
}

/**
 * `/api/admin/…` of the roster: organisations (administrators and Guides, Guides read-only and
 * limited to their own), people's roles and parent links (administrators), onboarding
 * (administrators and Guides) and the log of these changes.
 */
export function rosterAdminRoutes({ db, auth, bus }: AppDeps) {
  const numbers = createOrgNumbers(db, auth.now, bus);
  const list = <Item>(result: { data: Item[]; total: number }) => ({
    success: true as const,
    ...result,
    error: null,
  });

  return (
    new Hono<AppEnv>()
      // ------------------------------------------------------------ organisations
      .get("/orgs", async (c) => {
        const actor = requireActiveRole(c, STAFF, message("rostering:actions.seeOrganizations"));
        const query = readQuery(c, orgListQuerySchema);
        return c.json({
          ...list(await findOrgs(db, numbers, actor, query)),
          canEdit: actor.activeRole === "administrator",
        });
      })
      .post("/orgs", async (c) => {
        const actor = requireActiveRole(c, ADMIN, message("rostering:actions.addSchools"));
        const input = await readJsonBody(c, createSchoolSchema);
        const org = await createSchool(db, numbers, actor, input, auth.now());
        return c.json({ success: true, data: org }, 201);
      })
      .get("/orgs/:orgId", async (c) => {
        const actor = requireActiveRole(c, STAFF, message("rostering:actions.seeOrganizations"));
        const data = await getOrgDetail(db, numbers, actor, c.req.param("orgId"));
        return c.json({ success: true, data, canEdit: actor.activeRole === "administrator" });
      })
      .patch("/orgs/:orgId", async (c) => {
        const actor = requireActiveRole(c, ADMIN, message("rostering:actions.editOrganizations"));
        const input = await readJsonBody(c, updateOrgSchema);
        const org = await updateOrg(db, numbers, actor, c.req.param("orgId"), input, auth.now());
        // Organisation names are part of every signed-in profile.
        await auth.forgetEveryone();
        return c.json({ success: true, data: org });
      })
      .get("/orgs/:orgId/tree", async (c) => {
        const actor = requireActiveRole(c, STAFF, message("rostering:actions.seeOrganizations"));
        return c.json({ success: true, data: await getOrgTree(db, numbers, actor, c.req.param("orgId")) });
      })
      .get("/orgs/:orgId/summary", async (c) => {
        const actor = requireActiveRole(c, STAFF, message("rostering:actions.seeOrganizations"));
        return c.json({ success: true, data: await getOrgSummary(db, numbers, actor, c.req.param("orgId")) });
      })
      .get("/orgs/:orgId/classes", async (c) => {
        const actor = requireActiveRole(c, STAFF, message("rostering:actions.seeOrganizations"));
        const query = readQuery(c, orgClassesQuerySchema);
        return c.json(list(await findOrgClasses(db, actor, c.req.param("orgId"), query)));
      })
      .get("/orgs/:orgId/people", async (c) => {
        const actor = requireActiveRole(c, STAFF, message("rostering:actions.seeOrganizations"));
        const query = readQuery(c, orgPeopleQuerySchema);
        return c.json(list(await findOrgPeople(db, actor, c.req.param("orgId"), query)));
      })

      // ------------------------------------------------------------ people and roles
      .get("/users", async (c) => {
        requireActiveRole(c, ADMIN, message("rostering:actions.manageRoles"));
        return c.json(list(await findManagedUsers(db, readQuery(c, userListQuerySchema))));
      })
      .get("/users/:userId", async (c) => {
        requireActiveRole(c, ADMIN, message("rostering:actions.manageRoles"));
        return c.json({ success: true, data: await getManagedUser(db, c.req.param("userId")) });
      })
      .post("/users/:userId/roles", async (c) => {
        const actor = requireActiveRole(c, ADMIN, message("rostering:actions.changeRoles"));
        const input = await readJsonBody(c, addRoleSchema);
        const userId = c.req.param("userId");
        const user = await addRole(db, actor, userId, input, auth.now());
        await auth.forgetUser(userId);
        numbers.forget();
        return c.json({ success: true, data: user }, 201);
      })
      .delete("/users/:userId/roles", async (c) => {
        const actor = requireActiveRole(c, ADMIN, message("rostering:actions.changeRoles"));
        const input = readQuery(c, roleAtOrgSchema);
        const userId = c.req.param("userId");
        const user = await removeRole(db, actor, userId, input, auth.now());
        await auth.forgetUser(userId);
        numbers.forget();
        return c.json({ success: true, data: user });
      })
      .put("/users/:userId/primary-role", async (c) => {
        const actor = requireActiveRole(c, ADMIN, message("rostering:actions.changeRoles"));
        const input = await readJsonBody(c, roleAtOrgSchema);
        const userId = c.req.param("userId");
        const user = await makeRolePrimary(db, actor, userId, input, auth.now());
        await auth.forgetUser(userId);
        return c.json({ success: true, data: user });
      })

      // ------------------------------------------------------------ parents and guardians
      .get("/users/:userId/relationships", async (c) => {
        requireActiveRole(c, ADMIN, message("rostering:actions.manageLinks"));
        return c.json({ success: true, data: await getRelationships(db, c.req.param("userId")) });
      })
      .post("/relationships", async (c) => {
        const actor = requireActiveRole(c, ADMIN, message("rostering:actions.manageLinks"));
        const input = await readJsonBody(c, relationshipSchema);
        await linkAgent(db, actor, input, auth.now());
        return c.json({ success: true, data: await getRelationships(db, input.studentSourcedId) }, 201);
      })
      .delete("/relationships", async (c) => {
        const actor = requireActiveRole(c, ADMIN, message("rostering:actions.manageLinks"));
        const input = readQuery(c, relationshipSchema);
        await unlinkAgent(db, actor, input, auth.now());
        // Whoever viewed Dash as that parent through the link loses it at the next request.
        await auth.forgetEveryone();
        return c.json({ success: true, data: await getRelationships(db, input.studentSourcedId) });
      })

      .get("/guardian-link-requests", async (c) => {
        requireActiveRole(c, ADMIN, message("rostering:actions.decideLinks"));
        return c.json({ success: true, data: await listGuardianLinkRequests(db) });
      })
      .post("/guardian-link-requests/:requestId", async (c) => {
        const actor = requireActiveRole(c, ADMIN, message("rostering:actions.decideLinks"));
        const { requestId } = readParams(c, guardianLinkRequestParamsSchema);
        const { decision } = await readJsonBody(c, guardianLinkDecisionSchema);
        await decideGuardianLinkRequest(db, actor, requestId, decision, auth.now());
        return c.json({ success: true, data: await listGuardianLinkRequests(db) });
      })

      // ------------------------------------------------------------ the log
      .get("/roster-changes", async (c) => {
        requireActiveRole(c, ADMIN, message("rostering:actions.readChanges"));
        const page = readQuery(c, rosterChangesQuerySchema);
        return c.json(list(await listRosterChanges(db, page, requestLanguage(c))));
      })

      // ------------------------------------------------------------ onboarding
      .get("/onboarding/schools", async (c) => {
        const actor = onboarder(c);
        return c.json({ success: true, data: await onboardingSchools(db, actor) });
      })
      .get("/onboarding/classes", async (c) => {
        const actor = onboarder(c);
        const query = readQuery(c, onboardingClassesQuerySchema);
        return c.json({ success: true, data: await onboardingClasses(db, actor, query) });
      })
      .get("/onboarding/guardians", async (c) => {
        const actor = onboarder(c);
        const query = readQuery(c, guardianSearchQuerySchema);
        return c.json({ success: true, ...(await findGuardians(db, actor, query)) });
      })
      .post("/onboarding", async (c) => {
        const actor = onboarder(c);
        const input = await readJsonBody(c, onboardingRequestSchema);
        // The answer holds new passwords: no cache may keep it.
        c.header("Cache-Control", "no-store");
        const result = await onboardStudent(db, actor, input, auth.now());
        numbers.forget();
        return c.json({ success: true, data: result }, 201);
      })
  );
}
