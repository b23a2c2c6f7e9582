import { type Context, Hono } from "hono";
import { z } from "zod";
import {
  markReadSchema,
  notificationListQuerySchema,
  outboxQuerySchema,
  PREFERENCES_ROLES,
  updatePreferencesSchema,
} from "../../../shared/contracts/notifications";
import { distinctRoles } from "../../../shared/roles";
import { currentActor, requireActiveRole } from "../../lib/auth";
import type { Actor, AppDeps, AppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { readJsonBody, readParams, readQuery } from "../../lib/validation";
import { listNotifications, markRead, unreadCount } from "./center";
import { outboxMail, outboxPage } from "./outbox";
import { preferencesOf, updatePreferences } from "./preferences";

const mailParam = z.object({ mailId: z.string().trim().min(1).max(100) });

/**
 * The bell and the preferences are the signed-in person's own, also while a Guide views Dash as
 * someone: then they are read-only, since nothing of the person viewed may change through them.
 */
function ownWriter(c: Context<AppEnv>): Actor {
  const actor = currentActor(c);
  if (actor.session.impersonation) throw new AppError("forbidden", message("notifications:errors.viewingAs"));
  return actor;
}

/** The person whose preferences a request reads or writes, in one of the roles that choose them. */
function preferencesOwner(actor: Actor) {
  return {
    userId: actor.realUser.sourcedId,
    roles: distinctRoles(actor.realUser.roles.map((entry) => entry.role)),
  };
}

export function notificationsRoutes({ db, auth, env }: AppDeps) {
  const preferencesAction = message("notifications:actions.preferences");
  return new Hono<AppEnv>()
    .get("/", async (c) => {
      const query = readQuery(c, notificationListQuerySchema);
      const page = { offset: query.offset, limit: query.limit, unreadOnly: query.unread === "true" };
      return c.json(await listNotifications(db, currentActor(c).realUser.sourcedId, page));
    })
    .get("/unread-count", async (c) =>
      c.json({ unreadCount: await unreadCount(db, currentActor(c).realUser.sourcedId) }),
    )
    .post("/read", async (c) => {
      const actor = ownWriter(c);
      const body = await readJsonBody(c, markReadSchema);
      return c.json(await markRead(db, actor.realUser.sourcedId, body, auth.now()));
    })
    .get("/preferences", async (c) => {
      const actor = requireActiveRole(c, PREFERENCES_ROLES, preferencesAction);
      return c.json(await preferencesOf(db, preferencesOwner(actor)));
    })
    .put("/preferences", async (c) => {
      requireActiveRole(c, PREFERENCES_ROLES, preferencesAction);
      const actor = ownWriter(c);
      const changes = await readJsonBody(c, updatePreferencesSchema);
      return c.json(await updatePreferences(db, preferencesOwner(actor), changes, auth.now()));
    })
    .get("/admin/outbox", async (c) => {
      requireActiveRole(c, ["administrator"], message("notifications:actions.outbox"));
      const query = readQuery(c, outboxQuerySchema);
      return c.json(await outboxPage(db, query));
    })
    .get("/admin/outbox/:mailId", async (c) => {
      requireActiveRole(c, ["administrator"], message("notifications:actions.outbox"));
      const { mailId } = readParams(c, mailParam);
      return c.json(await outboxMail(db, mailId, env.PUBLIC_URL));
    });
}
