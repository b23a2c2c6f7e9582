import { z } from "zod";
import { invalid } from "../validation-messages";

/**
 * Outgoing webhooks: administrators subscribe a URL to some of Dash's events; each delivery is a
 * POST of `{ id, type, occurredAt, data }` signed with the subscription's secret
 * (`X-Dash-Signature: sha256=<hex HMAC-SHA256 of the body>`). See docs/decisions/026-webhooks.md.
 */
export const WEBHOOK_EVENT_TYPES = [
  "xp.awarded",
  "goal.met",
  "redemption.requested",
  "redemption.approved",
  "incident.confirmed",
  "lockout.changed",
  "roster.imported",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent only by the monitor's "send a test event", to one subscription, whatever it subscribed to. */
export const WEBHOOK_TEST_EVENT = "webhook.test";
export type WebhookDeliveredType = WebhookEventType | typeof WEBHOOK_TEST_EVENT;

export const WEBHOOK_DELIVERY_STATES = ["queued", "delivering", "succeeded", "failed"] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

export const WEBHOOK_SECRET_MIN_LENGTH = 16;
export const WEBHOOK_SECRET_MAX_LENGTH = 200;
/** The last characters of a secret the monitor shows, so an administrator can tell secrets apart. */
export const WEBHOOK_SECRET_HINT_LENGTH = 4;

/** An http(s) address without a user name or password in it (those would be stored in plain text). */
export const webhookUrlSchema = z
  .string()
  .trim()
  .max(2000, invalid("webhookUrl"))
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && !url.username && !url.password;
    } catch {
      return false;
    }
  }, invalid("webhookUrl"));

const eventsSchema = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { message: invalid("webhookEvent") }))
  .min(1, invalid("webhookEventsRequired"))
  .transform((events) => [...new Set(events)]);

const secretSchema = z
  .string()
  .min(WEBHOOK_SECRET_MIN_LENGTH, invalid("webhookSecretLength"))
  .max(WEBHOOK_SECRET_MAX_LENGTH, invalid("webhookSecretLength"));

const descriptionSchema = z.string().trim().max(200).nullable();

/** POST /api/admin/webhooks. */
export const webhookSubscriptionInputSchema = z.object({
  url: webhookUrlSchema,
  events: eventsSchema,
  secret: secretSchema,
  description: descriptionSchema.optional(),
});
export type WebhookSubscriptionInput = z.input<typeof webhookSubscriptionInputSchema>;

/** PATCH /api/admin/webhooks/:id: what changes; a new secret replaces the old one. */
export const webhookSubscriptionChangesSchema = z
  .object({
    url: webhookUrlSchema.optional(),
    events: eventsSchema.optional(),
    secret: secretSchema.optional(),
    description: descriptionSchema.optional(),
    isActive: z.boolean().optional(),
  })
  .refine((changes) => Object.values(changes).some((value) => value !== undefined), {
    message: invalid("nothingToChange"),
  });
export type WebhookSubscriptionChanges = z.input<typeof webhookSubscriptionChangesSchema>;

/** A subscription as answered: never its secret, only the secret's last characters. */
export const webhookSubscriptionSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  isActive: z.boolean(),
  secretHint: z.string(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  updatedAt: z.string().nullable(),
  /** Deliveries of the last 24 hours by outcome. */
  recent: z.object({ succeeded: z.number(), failed: z.number(), pending: z.number() }),
});
export type WebhookSubscription = z.infer<typeof webhookSubscriptionSchema>;

const isoInstant = z.iso.datetime({ offset: true, message: invalid("filterDateTime") });
const pageSchema = z.coerce.number().int().min(1).max(10_000).default(1);

/** GET /api/admin/webhooks/deliveries. */
export const webhookDeliveriesQuerySchema = z.object({
  subscriptionId: z.uuid().optional(),
  event: z.enum([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT]).optional(),
  state: z.enum(WEBHOOK_DELIVERY_STATES).optional(),
  from: isoInstant.optional(),
  to: isoInstant.optional(),
  page: pageSchema,
});
export type WebhookDeliveriesQuery = z.input<typeof webhookDeliveriesQuerySchema>;

export const webhookDeliverySchema = z.object({
  id: z.string(),
  subscriptionId: z.string(),
  url: z.string(),
  eventType: z.string(),
  eventId: z.string(),
  state: z.enum(WEBHOOK_DELIVERY_STATES),
  attempts: z.number(),
  maxAttempts: z.number(),
  nextAttemptAt: z.string().nullable(),
  lastStatusCode: z.number().nullable(),
  lastError: z.string().nullable(),
  lastDurationMs: z.number().nullable(),
  lastAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  replayOf: z.string().nullable(),
  requestedBy: z.string().nullable(),
  /** The body sent, exactly as signed. */
  payload: z.unknown(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const WEBHOOK_PAGE_SIZE = 50;

export const webhookDeliveryPageSchema = z.object({
  data: z.array(webhookDeliverySchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type WebhookDeliveryPage = z.infer<typeof webhookDeliveryPageSchema>;

export const MAX_REPLAY_IDS = 500;

/** POST /api/admin/webhooks/deliveries/replay: the listed deliveries, or every one a filter matches. */
export const webhookReplayRequestSchema = z.union([
  z.object({ ids: z.array(z.uuid()).min(1).max(MAX_REPLAY_IDS) }),
  z.object({
    filter: webhookDeliveriesQuerySchema.omit({ page: true }).extend({
      state: z.enum(WEBHOOK_DELIVERY_STATES).default("failed"),
    }),
  }),
]);
export type WebhookReplayRequest = z.input<typeof webhookReplayRequestSchema>;

export const webhookReplayResultSchema = z.object({ replayed: z.number(), ids: z.array(z.string()) });
export type WebhookReplayResult = z.infer<typeof webhookReplayResultSchema>;

/** The body every delivery carries. */
export const webhookPayloadSchema = z.object({
  id: z.string(),
  type: z.string(),
  occurredAt: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;

const lockoutChangeSchema = { studentId: z.string(), lockoutId: z.string() };

/**
 * Each event's `data`, as the code that emits it builds it (`emitWebhookEvent` takes these types).
 * Payloads carry ids, never names or emails. Fields are described with `describe()`, so the API
 * document (/api/openapi.json) says it too.
 */
export const webhookEventDataSchemas = {
  "xp.awarded": z.object({
    source: z.enum(["activity", "review", "manual"]),
    appId: z
      .string()
      .nullable()
      .describe("The learning app whose activity earned it; null for XP given or taken by hand."),
    awards: z.array(
      z.object({
        studentId: z.string(),
        eventId: z.string().nullable().describe("The learning app's event id; null for XP given by hand."),
        subject: z.string(),
        date: z.string().describe("The student's own day the XP counts for, yyyy-MM-dd."),
        xp: z.number().describe("Negative when XP was taken back by hand."),
      }),
    ),
  }),
  "goal.met": z.object({
    studentId: z.string(),
    date: z.string(),
    subject: z.string(),
    goalXp: z.number(),
    dayXp: z.number().describe("The day's XP in the subject once the goal was reached."),
  }),
  "redemption.requested": z.object({
    redemptionId: z.string(),
    studentId: z.string(),
    itemId: z.string(),
    price: z.number(),
    approverKind: z
      .enum(["family", "staff"])
      .describe("Who approves it: the student's family or the school's staff."),
  }),
  "redemption.approved": z.object({
    redemptionId: z.string(),
    studentId: z.string(),
    itemId: z.string(),
    price: z.number(),
    approvedBy: z.string().nullable().describe("The sourcedId of the person who approved it."),
  }),
  "incident.confirmed": z.object({
    incidentId: z.string(),
    studentId: z.string(),
    activeStrikes: z.number(),
    lockoutId: z.string().nullable().describe("The lockout this strike started, if it started one."),
  }),
  "lockout.changed": z.union([
    z.object({ ...lockoutChangeSchema, locked: z.literal(true), incidentId: z.string() }),
    z.object({ ...lockoutChangeSchema, locked: z.literal(false), reason: z.enum(["staff", "appeal"]) }),
  ]),
  "roster.imported": z.object({
    version: z.enum(["1.1", "1.2"]).nullable().describe("The OneRoster version of the imported CSV set."),
    files: z.array(
      z.object({
        file: z.string(),
        created: z.number(),
        updated: z.number(),
        deleted: z.number(),
        unchanged: z.number(),
      }),
    ),
  }),
  [WEBHOOK_TEST_EVENT]: z.object({ message: z.string() }),
} satisfies Record<WebhookDeliveredType, z.ZodType<Record<string, unknown>>>;
export type WebhookEventData<Type extends WebhookDeliveredType> = z.input<
  (typeof webhookEventDataSchemas)[Type]
>;

/** The path parameter of a subscription or a delivery. */
export const webhookIdParamsSchema = z.object({ id: z.string() });

/** GET /api/admin/webhooks. */
export const webhookSubscriptionListSchema = z.object({ data: z.array(webhookSubscriptionSchema) });

/** POST and PATCH /api/admin/webhooks…: the subscription as it is now. */
export const webhookSubscriptionResponseSchema = z.object({ data: webhookSubscriptionSchema });

/** POST /api/admin/webhooks/:id/test: the test delivery queued. */
export const webhookTestResultSchema = z.object({ deliveryId: z.string().nullable() });
export type WebhookTestResult = z.infer<typeof webhookTestResultSchema>;

/** GET /api/admin/ingest-requests: the log of what learning apps posted. */
export const ingestRequestsQuerySchema = z.object({
  appId: z.uuid().optional(),
  from: isoInstant.optional(),
  to: isoInstant.optional(),
  page: pageSchema,
});
export type IngestRequestsQuery = z.input<typeof ingestRequestsQuerySchema>;

export const ingestRequestSchema = z.object({
  id: z.string(),
  appId: z.string(),
  appName: z.string().nullable(),
  endpoint: z.string(),
  receivedAt: z.string(),
  statusCode: z.number(),
  accepted: z.number(),
  duplicates: z.number(),
  rejected: z.number(),
  reasons: z.record(z.string(), z.number()),
  durationMs: z.number(),
});
export type IngestRequest = z.infer<typeof ingestRequestSchema>;

export const ingestRequestPageSchema = z.object({
  data: z.array(ingestRequestSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  /** Per app over the filtered period. */
  totals: z.array(
    z.object({
      appId: z.string(),
      appName: z.string().nullable(),
      requests: z.number(),
      accepted: z.number(),
      duplicates: z.number(),
      rejected: z.number(),
    }),
  ),
});
export type IngestRequestPage = z.infer<typeof ingestRequestPageSchema>;
