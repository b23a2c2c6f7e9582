import { z } from "zod";
import {
  activityBatchSchema,
  activityFactSchema,
  caliperEnvelopeSchema,
  ingestResultSchema,
  MAX_EVENTS_PER_REQUEST,
} from "../../../shared/contracts/activity";
import {
  apiClientIdSchema,
  apiClientListQuerySchema,
  apiClientListResponseSchema,
  apiClientResponseSchema,
  apiClientSchema,
  createApiClientSchema,
  createdApiClientResponseSchema,
  OAUTH_TOKEN_PATH,
  oauthErrorSchema,
  oauthTokenRequestSchema,
  oauthTokenSchema,
} from "../../../shared/contracts/api-clients";
import { healthSchema } from "../../../shared/contracts/config";
import { apiErrorSchema } from "../../../shared/contracts/errors";
import {
  incidentBatchSchema,
  incidentInputSchema,
  incidentIntakeResultSchema,
  incidentRecordSchema,
  MAX_INCIDENTS_PER_REQUEST,
  MAX_INTAKE_BODY_BYTES,
  MAX_SCREENSHOT_BYTES,
} from "../../../shared/contracts/integrity";
import { leaderboardQuerySchema, leaderboardSchema } from "../../../shared/contracts/leaderboards";
import {
  accountSchema,
  itemListQuerySchema,
  itemListSchema,
  ledgerEntrySchema,
  ledgerListSchema,
  ledgerQuerySchema,
  rewardStudentParamsSchema,
  studentBalanceListSchema,
  studentBalanceQuerySchema,
  studentLedgerQuerySchema,
} from "../../../shared/contracts/rewards";
import {
  ingestRequestPageSchema,
  ingestRequestsQuerySchema,
  MAX_REPLAY_IDS,
  WEBHOOK_PAGE_SIZE,
  webhookDeliveriesQuerySchema,
  webhookDeliveryPageSchema,
  webhookDeliverySchema,
  webhookIdParamsSchema,
  webhookReplayRequestSchema,
  webhookReplayResultSchema,
  webhookSubscriptionChangesSchema,
  webhookSubscriptionInputSchema,
  webhookSubscriptionListSchema,
  webhookSubscriptionResponseSchema,
  webhookSubscriptionSchema,
  webhookTestResultSchema,
} from "../../../shared/contracts/webhooks";

/**
 * The `/api` operations other systems call, each with the very zod schemas its handler reads and
 * answers with: the document (document.ts) is generated from this list, the API tests check every
 * answer against it, and a test checks that each operation is a registered route.
 */

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/** The security schemes of the document's `components.securitySchemes`. */
export type SecuritySchemeName = "session" | "learningAppKey" | "agentKey" | "clientBasic";

export interface DocumentedResponse {
  description: string;
  /** The answer's body; none for an empty answer (204). */
  schema?: z.ZodType;
}

export interface DocumentedOperation {
  method: HttpMethod;
  /** In OpenAPI form: `{id}` for a path parameter. */
  path: string;
  tag: string;
  operationId: string;
  summary: string;
  /** Who may call it, what it does, idempotency and limits. */
  description: string;
  /** Any one of these authenticates the call; empty for a public operation. */
  security: readonly SecuritySchemeName[];
  params?: z.ZodObject;
  /** What each path parameter names. */
  paramDescriptions?: Readonly<Record<string, string>>;
  query?: z.ZodType;
  body?: {
    schema: z.ZodType;
    mediaType?: "application/json" | "application/x-www-form-urlencoded";
    /**
     * An array the handler takes as `unknown` items and judges one by one (a bad item is reported,
     * not refused): the schema each item is judged with, documented in its place.
     */
    items?: { of: z.ZodType; property: string; schema: z.ZodType };
  };
  /** The successful answers by status. */
  responses: Readonly<Record<number, DocumentedResponse>>;
  /** The error answers by status and when each is given; their body is `ApiError` unless `errorSchema` says. */
  errors: Readonly<Record<number, string>>;
  errorSchema?: z.ZodType;
}

/**
 * Schemas shared between operations (or worth a name of their own for integrators), by their
 * component name. Requests and answers are separate: a schema reads differently as input (defaults
 * optional, coerced strings) and as output.
 */
export const requestComponents: Readonly<Record<string, z.ZodType>> = {
  ActivityFact: activityFactSchema,
  ActivityBatch: activityBatchSchema,
  CaliperEnvelope: caliperEnvelopeSchema,
  IncidentInput: incidentInputSchema,
  IncidentBatch: incidentBatchSchema,
  WebhookSubscriptionInput: webhookSubscriptionInputSchema,
  WebhookSubscriptionChanges: webhookSubscriptionChangesSchema,
  WebhookReplayRequest: webhookReplayRequestSchema,
  CreateApiClient: createApiClientSchema,
  OAuthTokenRequest: oauthTokenRequestSchema,
};

export const responseComponents: Readonly<Record<string, z.ZodType>> = {
  ApiError: apiErrorSchema,
  Health: healthSchema,
  IngestResult: ingestResultSchema,
  IncidentRecord: incidentRecordSchema,
  IncidentIntakeResult: incidentIntakeResultSchema,
  WebhookSubscription: webhookSubscriptionSchema,
  WebhookSubscriptionList: webhookSubscriptionListSchema,
  WebhookSubscriptionResponse: webhookSubscriptionResponseSchema,
  WebhookDelivery: webhookDeliverySchema,
  WebhookDeliveryPage: webhookDeliveryPageSchema,
  WebhookReplayResult: webhookReplayResultSchema,
  WebhookTestResult: webhookTestResultSchema,
  IngestRequestPage: ingestRequestPageSchema,
  RewardAccount: accountSchema,
  StudentBalanceList: studentBalanceListSchema,
  LedgerEntry: ledgerEntrySchema,
  LedgerList: ledgerListSchema,
  RewardItemList: itemListSchema,
  Leaderboard: leaderboardSchema,
  ApiClient: apiClientSchema,
  ApiClientList: apiClientListResponseSchema,
  ApiClientResponse: apiClientResponseSchema,
  CreatedApiClient: createdApiClientResponseSchema,
  OAuthToken: oauthTokenSchema,
  OAuthError: oauthErrorSchema,
};

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

// The JSON API's own limit on a request body (app.ts); larger uploads have limits of their own.
const JSON_BODY_LIMIT = "1 MB";

const SESSION = ["session"] as const;

/** The errors every call with a session may meet. */
const SESSION_ERRORS = {
  401: "No session, or it has ended: sign in again.",
  403: "The active role may not do this, or the caller is a student whose dashboard is locked.",
} as const;

const WRITE_ERRORS = {
  400: "The body is not JSON or does not match the schema; `issues` names each field's problem.",
  413: `The body is larger than ${JSON_BODY_LIMIT}.`,
  415: "A state-changing request must send `Content-Type: application/json`.",
} as const;

const INGEST_ERRORS = {
  400: "The body is not JSON, or the envelope does not match the schema (too few or too many events). A bad event alone does not refuse the batch: it is listed under `rejected`.",
  401: "No `Authorization: Bearer <key>` header, or the key is unknown or revoked.",
  403: "The app is switched off, or the key is a monitoring agent's.",
  413: `The body is larger than ${JSON_BODY_LIMIT}.`,
  415: "The body must be sent as `Content-Type: application/json`.",
} as const;

const ingestDescription = (what: string) =>
  `${what} Called by a learning app with one of its keys (\`Authorization: Bearer <key>\`, made by an administrator on the Credentials page); no session or cookie. At most ${MAX_EVENTS_PER_REQUEST} events and ${JSON_BODY_LIMIT} per request. Each event is judged on its own and the answer lists every event by its index: \`accepted\` (credited, with its XP), \`held\` (stored, but past the XP a student-day may earn without review: credited when a person approves), \`duplicates\` (an \`eventId\` this app sent before: nothing is credited again, so resending a whole batch after a timeout is safe) and \`rejected\` (with the reason). Every request of a known app is kept in the ingestion log that administrators and Guides see on the webhook monitor.`;

const WEBHOOK_ID = "The subscription's id.";
const DELIVERY_ID = "The delivery's id.";

const WEBHOOK_MANAGERS = "Administrators only.";
const WEBHOOK_VIEWERS = "Administrators, and Guides (teachers) read-only.";

export const DOCUMENTED_OPERATIONS: readonly DocumentedOperation[] = [
  {
    method: "get",
    path: "/api/health",
    tag: "Health",
    operationId: "getHealth",
    summary: "Whether the server reaches its database",
    description:
      "Public, for load balancers and uptime monitors: 200 while the server reaches its database, 503 when it does not. It says which kind of database it runs on and nothing else.",
    security: [],
    responses: {
      200: { description: "The server and its database answer.", schema: healthSchema },
      503: { description: "The database does not answer.", schema: healthSchema },
    },
    errors: {},
  },
  {
    method: "post",
    path: "/api/ingest/activity",
    tag: "Ingestion",
    operationId: "ingestActivity",
    summary: "Report learning activity in Dash's JSON form",
    description: ingestDescription(
      "A learning app reports what students did: who (`studentId` or `email`), when, the subject, questions, time and XP.",
    ),
    security: ["learningAppKey"],
    body: {
      schema: activityBatchSchema,
      items: { of: activityBatchSchema, property: "events", schema: activityFactSchema },
    },
    responses: { 200: { description: "How each event was taken.", schema: ingestResultSchema } },
    errors: INGEST_ERRORS,
  },
  {
    method: "post",
    path: "/api/ingest/caliper",
    tag: "Ingestion",
    operationId: "ingestCaliper",
    summary: "Report learning activity as Caliper 1.2 events",
    description: ingestDescription(
      "A learning app reports activity as a Caliper 1.2 envelope: `data` holds Caliper events (assessment, assignable, tool-use events and the activity-metrics and time-spent shapes), read into the same facts as `/api/ingest/activity`; an event that cannot be read is rejected with the reason.",
    ),
    security: ["learningAppKey"],
    body: { schema: caliperEnvelopeSchema },
    responses: { 200: { description: "How each event was taken.", schema: ingestResultSchema } },
    errors: INGEST_ERRORS,
  },
  {
    method: "post",
    path: "/api/integrity/incidents",
    tag: "Integrity",
    operationId: "reportIncidents",
    summary: "Report focus incidents from the monitoring agent",
    description: `Called by the monitoring agent with its own key (\`Authorization: Bearer <key>\` of an app of the agent kind); no session. Send one incident (answered 201 with its record), or \`{ "incidents": [...] }\` with at most ${MAX_INCIDENTS_PER_REQUEST} (answered 200 with the records stored and the ones refused, each judged on its own). The agent's \`client_id\` makes a report idempotent: sending it again answers the record stored first and stores nothing new. A screenshot is a PNG or JPEG in base64 (a \`data:\` URL is taken too), at most ${megabytes(MAX_SCREENSHOT_BYTES)} once decoded; the whole request at most ${megabytes(MAX_INTAKE_BODY_BYTES)}. Staff review the incident in Dash; a confirmed one is told to webhook subscribers as \`incident.confirmed\`.`,
    security: ["agentKey"],
    body: {
      schema: z.union([incidentInputSchema, incidentBatchSchema]),
      items: { of: incidentBatchSchema, property: "incidents", schema: incidentInputSchema },
    },
    responses: {
      200: {
        description: "A batch: the records stored and the incidents refused.",
        schema: incidentIntakeResultSchema,
      },
      201: { description: "One incident: its record.", schema: incidentRecordSchema },
    },
    errors: {
      400: "The body is not JSON, a single incident does not match the schema, its student is unknown, or the batch is empty or too long.",
      401: "No `Authorization: Bearer <key>` header, or the key is unknown or revoked.",
      403: "The app is switched off, or the key is a learning app's.",
      413: `The body is larger than ${megabytes(MAX_INTAKE_BODY_BYTES)}.`,
      415: "The body must be sent as `Content-Type: application/json`.",
    },
  },
  {
    method: "get",
    path: "/api/admin/webhooks",
    tag: "Webhooks",
    operationId: "listWebhookSubscriptions",
    summary: "List the webhook subscriptions",
    description: `${WEBHOOK_VIEWERS} Every subscription with its events, whether it is active, the last characters of its secret (never the secret) and its deliveries of the last 24 hours by outcome.`,
    security: SESSION,
    responses: { 200: { description: "The subscriptions.", schema: webhookSubscriptionListSchema } },
    errors: SESSION_ERRORS,
  },
  {
    method: "post",
    path: "/api/admin/webhooks",
    tag: "Webhooks",
    operationId: "createWebhookSubscription",
    summary: "Subscribe a URL to events",
    description: `${WEBHOOK_MANAGERS} Dash will POST each chosen event to the URL (http or https, without a user name or password), signed with the secret (kept encrypted; it is never answered back). See the document's \`webhooks\` for the bodies and how to verify them.`,
    security: SESSION,
    body: { schema: webhookSubscriptionInputSchema },
    responses: { 201: { description: "The new subscription.", schema: webhookSubscriptionResponseSchema } },
    errors: { ...SESSION_ERRORS, ...WRITE_ERRORS },
  },
  {
    method: "patch",
    path: "/api/admin/webhooks/{id}",
    tag: "Webhooks",
    operationId: "updateWebhookSubscription",
    summary: "Change a subscription",
    description: `${WEBHOOK_MANAGERS} Change the URL, the events, the description, pause or resume it (\`isActive\`), or replace the secret. A paused subscription keeps its deliveries queued until it is active again.`,
    security: SESSION,
    params: webhookIdParamsSchema,
    paramDescriptions: { id: WEBHOOK_ID },
    body: { schema: webhookSubscriptionChangesSchema },
    responses: {
      200: { description: "The subscription as it is now.", schema: webhookSubscriptionResponseSchema },
    },
    errors: { ...SESSION_ERRORS, ...WRITE_ERRORS, 404: "No such subscription." },
  },
  {
    method: "delete",
    path: "/api/admin/webhooks/{id}",
    tag: "Webhooks",
    operationId: "removeWebhookSubscription",
    summary: "Remove a subscription",
    description: `${WEBHOOK_MANAGERS} The subscription receives nothing more; its past deliveries stay on the monitor and its queued ones fail.`,
    security: SESSION,
    params: webhookIdParamsSchema,
    paramDescriptions: { id: WEBHOOK_ID },
    responses: { 204: { description: "Removed." } },
    errors: { ...SESSION_ERRORS, 404: "No such subscription." },
  },
  {
    method: "post",
    path: "/api/admin/webhooks/{id}/test",
    tag: "Webhooks",
    operationId: "sendWebhookTestEvent",
    summary: "Send a test event to a subscription",
    description: `${WEBHOOK_MANAGERS} Queues one \`webhook.test\` delivery to this subscription, whatever events it subscribed to.`,
    security: SESSION,
    params: webhookIdParamsSchema,
    paramDescriptions: { id: WEBHOOK_ID },
    responses: { 201: { description: "The test delivery queued.", schema: webhookTestResultSchema } },
    errors: { ...SESSION_ERRORS, 404: "No such subscription." },
  },
  {
    method: "get",
    path: "/api/admin/webhooks/deliveries",
    tag: "Webhooks",
    operationId: "listWebhookDeliveries",
    summary: "List deliveries",
    description: `${WEBHOOK_VIEWERS} Every delivery, newest first, ${WEBHOOK_PAGE_SIZE} a page, filtered by subscription, event, state and time: status, attempts, the last response code and error. Only administrators get the payloads (\`payload\` is null for a Guide: it may name students outside their classes).`,
    security: SESSION,
    query: webhookDeliveriesQuerySchema,
    responses: { 200: { description: "A page of deliveries.", schema: webhookDeliveryPageSchema } },
    errors: { ...SESSION_ERRORS, 400: "A filter cannot be read." },
  },
  {
    method: "post",
    path: "/api/admin/webhooks/deliveries/{id}/replay",
    tag: "Webhooks",
    operationId: "replayWebhookDelivery",
    summary: "Replay one delivery",
    description: `${WEBHOOK_MANAGERS} Queues a new delivery of the same event with the same body (and event \`id\`), its own delivery id and attempts, and who asked. A delivery still queued or being sent is not replayed.`,
    security: SESSION,
    params: webhookIdParamsSchema,
    paramDescriptions: { id: DELIVERY_ID },
    responses: { 201: { description: "The replay queued.", schema: webhookReplayResultSchema } },
    errors: {
      ...SESSION_ERRORS,
      404: "No such delivery.",
      409: "The delivery is still queued or being sent, or its subscription was removed.",
    },
  },
  {
    method: "post",
    path: "/api/admin/webhooks/deliveries/replay",
    tag: "Webhooks",
    operationId: "replayWebhookDeliveries",
    summary: "Replay many deliveries",
    description: `${WEBHOOK_MANAGERS} Replays the listed deliveries (\`ids\`, at most ${MAX_REPLAY_IDS}), or every delivery a filter matches (failed ones unless the filter names a state). Deliveries still queued or being sent, and those of removed subscriptions, are left out.`,
    security: SESSION,
    body: { schema: webhookReplayRequestSchema },
    responses: { 201: { description: "The replays queued.", schema: webhookReplayResultSchema } },
    errors: { ...SESSION_ERRORS, ...WRITE_ERRORS },
  },
  {
    method: "get",
    path: "/api/admin/ingest-requests",
    tag: "Webhooks",
    operationId: "listIngestRequests",
    summary: "The log of learning apps' ingestion requests",
    description: `${WEBHOOK_VIEWERS} One row per request a known learning app made to \`/api/ingest/activity\` or \`/api/ingest/caliper\`, newest first: accepted, duplicates, rejected with the reasons counted, status and duration; with each app's totals over the filtered period.`,
    security: SESSION,
    query: ingestRequestsQuerySchema,
    responses: { 200: { description: "A page of the log.", schema: ingestRequestPageSchema } },
    errors: { ...SESSION_ERRORS, 400: "A filter cannot be read." },
  },
  {
    method: "get",
    path: "/api/rewards/students",
    tag: "Rewards",
    operationId: "listStudentBalances",
    summary: "Students' Alphas balances",
    description:
      "Any signed-in role that has students in reach: a Guide their students, a parent or guardian their children, an administrator everyone. Balances (held for pending redemptions, available, savings) and open redemptions, by name, searchable and paged.",
    security: SESSION,
    query: studentBalanceQuerySchema,
    responses: { 200: { description: "A page of balances.", schema: studentBalanceListSchema } },
    errors: { ...SESSION_ERRORS, 400: "A query parameter cannot be read." },
  },
  {
    method: "get",
    path: "/api/rewards/students/{studentId}/account",
    tag: "Rewards",
    operationId: "getStudentAccount",
    summary: "One student's Alphas account",
    description: "Whoever may see the student (the student, their family, their Guides, administrators).",
    security: SESSION,
    params: rewardStudentParamsSchema,
    paramDescriptions: { studentId: "The student's sourcedId." },
    responses: { 200: { description: "The account's totals.", schema: accountSchema } },
    errors: { ...SESSION_ERRORS, 400: "The student id cannot be read." },
  },
  {
    method: "get",
    path: "/api/rewards/students/{studentId}/ledger",
    tag: "Rewards",
    operationId: "getStudentLedger",
    summary: "One student's ledger",
    description:
      "Whoever may see the student. Every movement of Alphas (earned, spent, held, saved, granted, reversed), newest first, paged.",
    security: SESSION,
    params: rewardStudentParamsSchema,
    paramDescriptions: { studentId: "The student's sourcedId." },
    query: studentLedgerQuerySchema,
    responses: { 200: { description: "A page of the ledger.", schema: ledgerListSchema } },
    errors: { ...SESSION_ERRORS, 400: "A parameter cannot be read." },
  },
  {
    method: "get",
    path: "/api/rewards/ledger",
    tag: "Rewards",
    operationId: "listLedger",
    summary: "The whole ledger",
    description:
      "Administrators only. Every ledger entry of the school, filtered by student, kind and days, paged. `/api/rewards/ledger.csv` with the same filters downloads it as CSV.",
    security: SESSION,
    query: ledgerQuerySchema,
    responses: { 200: { description: "A page of the ledger.", schema: ledgerListSchema } },
    errors: { ...SESSION_ERRORS, 400: "A filter cannot be read." },
  },
  {
    method: "get",
    path: "/api/rewards/items",
    tag: "Rewards",
    operationId: "listRewardItems",
    summary: "The store's items",
    description:
      "Any signed-in role: a student sees what they may buy, a parent or guardian what their children may (one child's with `childId`), staff the school's items, administrators all of them (retired ones too with `includeInactive=true`).",
    security: SESSION,
    query: itemListQuerySchema,
    responses: { 200: { description: "The items.", schema: itemListSchema } },
    errors: { ...SESSION_ERRORS, 400: "A query parameter cannot be read." },
  },
  {
    method: "get",
    path: "/api/leaderboards",
    tag: "Leaderboards",
    operationId: "getLeaderboard",
    summary: "A leaderboard",
    description:
      "Any signed-in role; the standings are limited to the students the caller may compare (a student's own class, school or league; a Guide's students; a family's children's groups). Students who opted out are hidden from others. Filter by scope, timeframe (a custom one needs `startDate` and `endDate`), class, school, Guide, app, subject and grade; 25 rows a page.",
    security: SESSION,
    query: leaderboardQuerySchema,
    responses: { 200: { description: "The standings.", schema: leaderboardSchema } },
    errors: {
      ...SESSION_ERRORS,
      400: "A query parameter cannot be read, or an administrator asked for a school board without naming the school.",
      403: "The active role may not see this scope, or a filter names a class, school or child outside the caller's reach.",
      404: "The caller has no class, school or league of the scope asked for.",
    },
  },
  {
    method: "post",
    path: OAUTH_TOKEN_PATH,
    tag: "OAuth",
    operationId: "issueAccessToken",
    summary: "Get an access token (OAuth 2.0 client credentials)",
    description:
      "For systems registered as API clients (administrators make them on the Credentials page). RFC 6749 §4.4: send `grant_type=client_credentials` form-encoded, authenticating with HTTP Basic (client id and secret) or with `client_id` and `client_secret` in the form, not both; `scope` (space-separated) narrows the token to some of the client's scopes. The token goes as `Authorization: Bearer <token>` to the OneRoster 1.2 REST API. Failed client authentications are counted per client and per address: past the limit the answer is 429 with `Retry-After`. Answers are never cached.",
    security: ["clientBasic"],
    body: { schema: oauthTokenRequestSchema, mediaType: "application/x-www-form-urlencoded" },
    responses: { 200: { description: "The token.", schema: oauthTokenSchema } },
    errors: {
      400: "`invalid_request` (not form-encoded, a parameter missing or given twice), `unsupported_grant_type` or `invalid_scope`; text that cannot be stored is refused as an `ApiError`.",
      401: "`invalid_client`: the client is unknown, revoked or its secret is wrong (with `WWW-Authenticate: Basic`).",
      413: "The request is larger than 16 KB.",
      429: "Too many failed client authentications: try again after `Retry-After` seconds.",
    },
    errorSchema: z.union([oauthErrorSchema, apiErrorSchema]),
  },
  {
    method: "get",
    path: "/api/admin/api-clients",
    tag: "API clients",
    operationId: "listApiClients",
    summary: "List the OAuth API clients",
    description:
      "Administrators only. The registered clients of the OneRoster REST API with their scopes and last use, searchable, sortable and paged (`filter` takes a OneRoster-style filter).",
    security: SESSION,
    query: apiClientListQuerySchema,
    responses: { 200: { description: "A page of clients.", schema: apiClientListResponseSchema } },
    errors: { ...SESSION_ERRORS, 400: "A query parameter or the filter cannot be read." },
  },
  {
    method: "post",
    path: "/api/admin/api-clients",
    tag: "API clients",
    operationId: "createApiClient",
    summary: "Register an API client",
    description:
      "Administrators only. Makes a client id and secret with the chosen OneRoster scopes. The secret is answered this once and kept only as a hash.",
    security: SESSION,
    body: { schema: createApiClientSchema },
    responses: {
      201: { description: "The client with its secret.", schema: createdApiClientResponseSchema },
    },
    errors: { ...SESSION_ERRORS, ...WRITE_ERRORS },
  },
  {
    method: "delete",
    path: "/api/admin/api-clients/{id}",
    tag: "API clients",
    operationId: "revokeApiClient",
    summary: "Revoke an API client",
    description:
      "Administrators only. The client's tokens stop working at once and it cannot get new ones; the record stays, marked revoked.",
    security: SESSION,
    params: z.object({ id: apiClientIdSchema }),
    paramDescriptions: { id: "The client's id (not its OAuth client id)." },
    responses: { 200: { description: "The revoked client.", schema: apiClientResponseSchema } },
    errors: { ...SESSION_ERRORS, 404: "No such client." },
  },
];
