import { Hono } from "hono";
import { z } from "zod";
import {
  adminAnnouncementsQuerySchema,
  announcementsQuerySchema,
  audienceChoicesQuerySchema,
  audienceQuerySchema,
  contactsQuerySchema,
  createAnnouncementSchema,
  inboxQuerySchema,
  MAX_PICTURE_BYTES,
  MAX_PICTURES_PER_MESSAGE,
  schoolSettingSchema,
  sendMessageSchema,
  threadQuerySchema,
} from "../../../shared/contracts/messaging";
import { currentActor, requireActiveRole } from "../../lib/auth";
import { limitBody } from "../../lib/body-limit";
import type { AppDeps, AppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { formatBytes } from "../../lib/uploads";
import { readJsonBody, readParams, readQuery } from "../../lib/validation";
import { fileResponse } from "../../platform/storage";
import {
  audienceChoices,
  audienceSize,
  cancelAnnouncement,
  createAnnouncement,
  listAnnouncements,
  markAnnouncementRead,
  receivedAnnouncements,
} from "./announcements";
import {
  inbox,
  inboxActor,
  listContacts,
  markConversationRead,
  readThread,
  unreadSummary,
} from "./conversations";
import { pictureOf, sendMessage } from "./messages";
import { messagingSettings, setStudentsMayWrite } from "./settings";

/**
 * Messages carry pictures in their JSON body, so sending takes more than the API's JSON limit:
 * app.ts leaves this path to the route, which allows the pictures and a little more.
 */
export const MESSAGE_SEND_PATH = "/api/messaging/messages";
const MAX_SEND_BODY_BYTES = MAX_PICTURES_PER_MESSAGE * Math.ceil((MAX_PICTURE_BYTES * 4) / 3) + 256 * 1024;

const ADMIN = ["administrator"] as const;
const idParam = z.object({ id: z.string().trim().min(1).max(200) });
const pictureParams = z.object({
  id: z.string().trim().min(1).max(200),
  index: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_PICTURES_PER_MESSAGE - 1),
});
const schoolParam = z.object({ schoolId: z.string().trim().min(1).max(200) });

/** Conversations, announcements and their rules: /api/messaging. */
export function messagingRoutes({ db, auth, live, storage, jobs, logger }: AppDeps) {
  const limitSendBody = limitBody({
    maxSize: MAX_SEND_BODY_BYTES,
    onError: () => {
      throw new AppError(
        "payload_too_large",
        message("messaging:pictures.requestTooLarge", {
          count: MAX_PICTURES_PER_MESSAGE,
          limit: formatBytes(MAX_PICTURE_BYTES),
        }),
      );
    },
  });
  /** After the caller read something: their other tabs and devices update their counts. */
  const readChanged = (userId: string) => live.publish("conversation-changed", [userId]);

  return new Hono<AppEnv>()
    .get("/contacts", async (c) => {
      const query = readQuery(c, contactsQuerySchema);
      return c.json(await listContacts(db, currentActor(c), query));
    })
    .get("/conversations", async (c) => {
      const { limit } = readQuery(c, inboxQuerySchema);
      return c.json(await inbox(db, currentActor(c), limit));
    })
    .get("/conversations/:id", async (c) => {
      const { id } = readParams(c, idParam);
      const { before } = readQuery(c, threadQuerySchema);
      return c.json(await readThread(db, currentActor(c), id, before));
    })
    .post("/conversations/:id/read", async (c) => {
      const { id } = readParams(c, idParam);
      const actor = currentActor(c);
      const { unread, changed } = await markConversationRead(db, actor, id, auth.now());
      if (changed) await readChanged(actor.user.sourcedId);
      return c.json({ unread });
    })
    .get("/unread", async (c) => c.json(await unreadSummary(db, currentActor(c))))
    .post("/messages", limitSendBody, async (c) => {
      const input = await readJsonBody(c, sendMessageSchema);
      const sent = await sendMessage({ db, storage, live, jobs }, currentActor(c), input, auth.now());
      return c.json(sent, 201);
    })
    .get("/messages/:id/pictures/:index", async (c) => {
      const { id, index } = readParams(c, pictureParams);
      const picture = await pictureOf(db, currentActor(c), id, index);
      const file = await storage.get(picture.storageKey);
      if (!file) throw new AppError("not_found", message("messaging:pictures.notFound"));
      return fileResponse(file, { fileName: picture.name });
    })
    .get("/announcements", async (c) => {
      const query = readQuery(c, announcementsQuerySchema);
      const actor = inboxActor(currentActor(c), message("messaging:actions.read"));
      return c.json(await receivedAnnouncements(db, actor, query));
    })
    .post("/announcements/:id/read", async (c) => {
      const { id } = readParams(c, idParam);
      const actor = inboxActor(currentActor(c), message("messaging:actions.read"));
      if (await markAnnouncementRead(db, actor, id, auth.now())) await readChanged(actor.user.sourcedId);
      return c.body(null, 204);
    })
    .get("/admin/audiences", async (c) => {
      requireActiveRole(c, ADMIN, message("messaging:actions.announce"));
      const { schoolId } = readQuery(c, audienceChoicesQuerySchema);
      return c.json(await audienceChoices(db, schoolId));
    })
    .get("/admin/audience-size", async (c) => {
      requireActiveRole(c, ADMIN, message("messaging:actions.announce"));
      return c.json(await audienceSize(db, readQuery(c, audienceQuerySchema)));
    })
    .get("/admin/announcements", async (c) => {
      requireActiveRole(c, ADMIN, message("messaging:actions.announce"));
      return c.json(await listAnnouncements(db, readQuery(c, adminAnnouncementsQuerySchema)));
    })
    .post("/admin/announcements", async (c) => {
      const actor = requireActiveRole(c, ADMIN, message("messaging:actions.announce"));
      const input = await readJsonBody(c, createAnnouncementSchema);
      return c.json(await createAnnouncement({ db, live, logger }, actor, input, auth.now()), 201);
    })
    .post("/admin/announcements/:id/cancel", async (c) => {
      const actor = requireActiveRole(c, ADMIN, message("messaging:actions.announce"));
      const { id } = readParams(c, idParam);
      return c.json(await cancelAnnouncement(db, actor, id, auth.now()));
    })
    .get("/admin/settings", async (c) => {
      requireActiveRole(c, ADMIN, message("messaging:actions.settings"));
      return c.json(await messagingSettings(db));
    })
    .put("/admin/settings/:schoolId", async (c) => {
      const actor = requireActiveRole(c, ADMIN, message("messaging:actions.settings"));
      const { schoolId } = readParams(c, schoolParam);
      const { studentsMayWrite } = await readJsonBody(c, schoolSettingSchema);
      return c.json(await setStudentsMayWrite(db, logger, actor, schoolId, studentsMayWrite, auth.now()));
    });
}
