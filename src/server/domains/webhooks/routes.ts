import { Hono } from "hono";
import { z } from "zod";
import {
  ingestRequestsQuerySchema,
  type WebhookTestResult,
  webhookDeliveriesQuerySchema,
  webhookIdParamsSchema,
  webhookReplayRequestSchema,
  webhookSubscriptionChangesSchema,
  webhookSubscriptionInputSchema,
  type webhookSubscriptionListSchema,
  type webhookSubscriptionResponseSchema,
} from "../../../shared/contracts/webhooks";
import { requireActiveRole } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { readJsonBody, readParams, readQuery } from "../../lib/validation";
import { emitTestEvent } from "./emit";
import { listDeliveries, listIngestRequests, replayDeliveries, replayDelivery } from "./monitor";
import {
  assertSubscriptionExists,
  createSubscription,
  listSubscriptions,
  removeSubscription,
  updateSubscription,
} from "./subscriptions";

const MANAGERS = ["administrator"] as const;
/** The spec's webhook-monitor guard: administrators, and teachers who only look. */
const VIEWERS = ["administrator", "teacher"] as const;

type SubscriptionList = z.infer<typeof webhookSubscriptionListSchema>;
type SubscriptionResponse = z.infer<typeof webhookSubscriptionResponseSchema>;

/** Ids are UUIDs: anything else names nothing, so it is a 404 rather than a database error. */
function uuidOr404(id: string, said: "subscriptionNotFound" | "deliveryNotFound"): string {
  if (!z.uuid().safeParse(id).success) throw new AppError("not_found", message(`webhooks:${said}`));
  return id;
}

/**
 * `/api/admin/webhooks…` and `/api/admin/ingest-requests`: subscriptions (administrators), the
 * deliveries and the ingestion log (administrators and, read-only, teachers), replays.
 */
export function webhookRoutes({ db, auth, secretBox }: AppDeps) {
  const manage = message("webhooks:actions.manage");
  const see = message("webhooks:actions.see");
  return new Hono<AppEnv>()
    .get("/webhooks", async (c) => {
      requireActiveRole(c, VIEWERS, see);
      return c.json({ data: await listSubscriptions(db, secretBox, auth.now()) } satisfies SubscriptionList);
    })
    .post("/webhooks", async (c) => {
      const actor = requireActiveRole(c, MANAGERS, manage);
      const input = await readJsonBody(c, webhookSubscriptionInputSchema);
      const created = await createSubscription(db, secretBox, actor.realUser.sourcedId, input, auth.now());
      return c.json({ data: created } satisfies SubscriptionResponse, 201);
    })
    .get("/webhooks/deliveries", async (c) => {
      const actor = requireActiveRole(c, VIEWERS, see);
      const page = await listDeliveries(db, readQuery(c, webhookDeliveriesQuerySchema));
      // A payload may name students outside a Guide's classes: only administrators read them.
      if (actor.activeRole !== "administrator")
        page.data = page.data.map((delivery) => ({ ...delivery, payload: null }));
      return c.json(page);
    })
    .post("/webhooks/deliveries/replay", async (c) => {
      const actor = requireActiveRole(c, MANAGERS, manage);
      const request = await readJsonBody(c, webhookReplayRequestSchema);
      return c.json(await replayDeliveries(db, actor.realUser.sourcedId, request, auth.now()), 201);
    })
    .post("/webhooks/deliveries/:id/replay", async (c) => {
      const actor = requireActiveRole(c, MANAGERS, manage);
      const id = uuidOr404(readParams(c, webhookIdParamsSchema).id, "deliveryNotFound");
      return c.json(await replayDelivery(db, actor.realUser.sourcedId, id, auth.now()), 201);
    })
    .patch("/webhooks/:id", async (c) => {
      const actor = requireActiveRole(c, MANAGERS, manage);
      // The body first: an empty change is a 400 whichever subscription it names.
      const changes = await readJsonBody(c, webhookSubscriptionChangesSchema);
      const id = uuidOr404(readParams(c, webhookIdParamsSchema).id, "subscriptionNotFound");
      return c.json({
        data: await updateSubscription(db, secretBox, actor.realUser.sourcedId, id, changes, auth.now()),
      } satisfies SubscriptionResponse);
    })
    .delete("/webhooks/:id", async (c) => {
      const actor = requireActiveRole(c, MANAGERS, manage);
      const id = uuidOr404(readParams(c, webhookIdParamsSchema).id, "subscriptionNotFound");
      await removeSubscription(db, actor.realUser.sourcedId, id, auth.now());
      return c.body(null, 204);
    })
    .post("/webhooks/:id/test", async (c) => {
      const actor = requireActiveRole(c, MANAGERS, manage);
      const id = uuidOr404(readParams(c, webhookIdParamsSchema).id, "subscriptionNotFound");
      await assertSubscriptionExists(db, id);
      const deliveryId = await emitTestEvent(db, id, actor.realUser.sourcedId, auth.now());
      return c.json({ deliveryId } satisfies WebhookTestResult, 201);
    })
    .get("/ingest-requests", async (c) => {
      requireActiveRole(c, VIEWERS, see);
      return c.json(await listIngestRequests(db, readQuery(c, ingestRequestsQuerySchema)));
    });
}
