import { z } from "zod";
import packageJson from "../../../../package.json" with { type: "json" };
import {
  OAUTH_TOKEN_PATH,
  ONEROSTER_BASE_PATH,
  ONEROSTER_SCOPE_LIST,
  SCOPE_DESCRIPTIONS,
} from "../../../shared/contracts/api-clients";
import type {
  ApiDocument,
  ApiOperation,
  ApiParameter,
  ApiSecurityScheme,
  JsonSchema,
} from "../../../shared/contracts/api-docs";
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TEST_EVENT,
  type WebhookDeliveredType,
  webhookEventDataSchemas,
  webhookPayloadSchema,
} from "../../../shared/contracts/webhooks";
import { SESSION_COOKIE } from "../../lib/auth";
import { DELIVERY_BACKOFF_MS, DELIVERY_MAX_BACKOFF_MS, DELIVERY_TIMEOUT_MS } from "../webhooks/delivery";
import { DELIVERY_MAX_ATTEMPTS } from "../webhooks/emit";
import {
  DOCUMENTED_OPERATIONS,
  type DocumentedOperation,
  requestComponents,
  responseComponents,
  type SecuritySchemeName,
} from "./operations";

/**
 * Builds the OpenAPI 3.1 document from the documented operations' zod schemas with zod's own
 * JSON Schema conversion: requests as zod reads them (`io: "input"`), answers as the handlers
 * write them (`io: "output"`, so an answer with a field the contract lacks fails the API tests).
 */

const COMPONENT_PATH = "#/components/schemas/";
const refTo = (name: string) => ({ $ref: `${COMPONENT_PATH}${name}` });
const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join("");

type Registry = z.core.$ZodRegistry<{ id: string }>;

/** The component name of a schema, registering it under `name` the first time it is met. */
function nameIn(registry: Registry, schema: z.ZodType, name: string): string {
  const known = registry.get(schema)?.id;
  if (known) return known;
  registry.add(schema, { id: name });
  return name;
}

function convert(registry: Registry, io: "input" | "output"): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    io,
    uri: (id) => `${COMPONENT_PATH}${id}`,
    // Caliper events and webhook payloads kept as they are have no shape to say.
    unrepresentable: "any",
  }) as { schemas: Record<string, JsonSchema> };
  // Each component is part of the one document: no dialect or id of its own.
  return Object.fromEntries(
    Object.entries(schemas).map(([name, { $schema: _dialect, $id: _id, ...schema }]) => [name, schema]),
  );
}

/** An object schema's properties as parameters of one kind. */
function parametersOf(
  schema: z.ZodType,
  where: "path" | "query",
  descriptions: Readonly<Record<string, string>> = {},
): ApiParameter[] {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", io: "input", unrepresentable: "any" });
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(json.required ?? []);
  return Object.entries(properties).map(([name, { description, ...property }]) => {
    const said = descriptions[name] ?? description;
    return {
      name,
      in: where,
      required: where === "path" || required.has(name),
      ...(typeof said === "string" ? { description: said } : {}),
      schema: property,
    };
  });
}

const jsonContent = (schemaName: string, mediaType = "application/json") => ({
  [mediaType]: { schema: refTo(schemaName) },
});

const PAYLOAD_DESCRIPTIONS: Record<WebhookDeliveredType, string> = {
  "xp.awarded":
    "XP was credited to students (or, by hand, taken back): one event per ingested batch, approved held event or manual award, listing each award.",
  "goal.met":
    "A student's daily subject goal (their own, else the school's) was reached: told once per student, day and subject, the moment the day's XP first reaches the goal.",
  "redemption.requested": "A student asked for a reward from the store.",
  "redemption.approved": "A reward request was approved by the student's family or the school's staff.",
  "incident.confirmed":
    "A reviewer confirmed a focus incident: it counts as a strike, and may have locked the dashboard.",
  "lockout.changed":
    "A student's dashboard was locked (`locked: true`, by the strike that did it) or unlocked (`locked: false`, by staff or on appeal).",
  "roster.imported":
    "A OneRoster CSV set was imported: per file, how many records were created, updated, deleted or unchanged.",
  [WEBHOOK_TEST_EVENT]:
    'Sent only by the monitor\'s "Send a test event", to one subscription, whatever it subscribed to.',
};

const hours = (ms: number) => `${ms / 3_600_000} hours`;

const DELIVERY_TEXT = `Dash POSTs the event as JSON to the subscription's URL with \`Content-Type: application/json\` and the headers below, waits at most ${DELIVERY_TIMEOUT_MS / 1000} s and follows no redirect. A 2xx answer ends the delivery; anything else is retried after ${DELIVERY_BACKOFF_MS / 1000} s × 2^(attempt − 1) (at most ${hours(DELIVERY_MAX_BACKOFF_MS)} apart), up to ${DELIVERY_MAX_ATTEMPTS} attempts, then the delivery is failed; administrators can replay it from the webhook monitor or the API. Delivery is at least once: deduplicate by \`X-Dash-Delivery\` (or by the body's \`id\`, the same for every delivery and replay of one event).

To verify a delivery, compute the HMAC-SHA256 of the raw request body (the bytes received, before parsing) with the subscription's secret as the key, hex-encode it, and compare \`sha256=<hex>\` with \`X-Dash-Signature\` in constant time; refuse the request when they differ.`;

const DELIVERY_HEADERS: ApiParameter[] = [
  {
    name: "X-Dash-Signature",
    in: "header",
    required: true,
    description: "`sha256=` and the hex HMAC-SHA256 of the raw body with the subscription's secret.",
    schema: { type: "string", pattern: "^sha256=[0-9a-f]{64}$" },
  },
  {
    name: "X-Dash-Delivery",
    in: "header",
    required: true,
    description: "The delivery's id: the same on every retry of it, a new one for a replay.",
    schema: { type: "string", format: "uuid" },
  },
  {
    name: "X-Dash-Event",
    in: "header",
    required: true,
    description: "The event's type, as in the body's `type`.",
    schema: { type: "string" },
  },
];

const SECURITY_SCHEMES: Record<SecuritySchemeName | "oneRosterOAuth", ApiSecurityScheme> = {
  session: {
    type: "apiKey",
    in: "cookie",
    name: SESSION_COOKIE,
    description:
      "A person's session, set by signing in to Dash (`POST /api/auth/login`). What the call may do follows the person's active role (the `selectedUserRole` cookie) and their relationship to the data. State-changing calls must come from Dash's own origin and send `Content-Type: application/json`.",
  },
  learningAppKey: {
    type: "http",
    scheme: "bearer",
    description:
      "A learning app's key (`Authorization: Bearer <key>`), made by an administrator on the Credentials page (Learning apps) and shown once. Revoking it refuses the app's next request.",
  },
  agentKey: {
    type: "http",
    scheme: "bearer",
    description:
      "The monitoring agent's key (`Authorization: Bearer <key>`): a key of an app of the agent kind, made by an administrator on the Credentials page (Learning apps).",
  },
  clientBasic: {
    type: "http",
    scheme: "basic",
    description:
      "An API client's id and secret (HTTP Basic, each form-encoded first as RFC 6749 §2.3.1 says), or `client_id` and `client_secret` in the form instead.",
  },
  oneRosterOAuth: {
    type: "oauth2",
    description: `OAuth 2.0 client credentials for the OneRoster 1.2 REST API under \`${ONEROSTER_BASE_PATH}\`: get a token from \`${OAUTH_TOKEN_PATH}\` and send it as \`Authorization: Bearer <token>\`.`,
    flows: {
      clientCredentials: {
        tokenUrl: OAUTH_TOKEN_PATH,
        scopes: Object.fromEntries(
          ONEROSTER_SCOPE_LIST.map((scope) => [
            scope,
            `${SCOPE_DESCRIPTIONS[scope].label}: ${SCOPE_DESCRIPTIONS[scope].description}`,
          ]),
        ),
      },
    },
  },
};

const TAGS = [
  { name: "Health", description: "Whether the server is up, for load balancers and monitors." },
  { name: "Ingestion", description: "Learning apps report students' activity with their key." },
  { name: "Integrity", description: "The monitoring agent reports focus incidents with its key." },
  {
    name: "Webhooks",
    description:
      "Subscriptions to Dash's events, their deliveries and replays, and the log of incoming ingestion requests. The events themselves are under `webhooks`.",
  },
  { name: "Rewards", description: "Alphas: students' balances, ledgers and the store's items." },
  { name: "Leaderboards", description: "Standings of the students a caller may compare." },
  { name: "OAuth", description: "Access tokens for the OneRoster REST API." },
  { name: "API clients", description: "The systems allowed to get OAuth tokens, and their scopes." },
];

const INFO_DESCRIPTION = `The parts of Dash's HTTP API that other systems call: learning apps report activity, the monitoring agent reports incidents, administrators manage webhooks and API clients, and signed-in tools read rewards and leaderboards. Dash also sends webhooks (see \`webhooks\`).

**Authentication.** Each operation names its scheme: a learning app's or the agent's bearer key, a person's session cookie, or an API client's credentials at the token endpoint.

**Errors.** Every error answer of \`/api\` is JSON \`{ code, message }\`; a 400 about the input adds \`issues\` (\`[{ path, message }]\`, one per field), a 429 or 503 may add \`retryAfterSeconds\`. Messages follow \`Accept-Language\` (English or Spanish). The token endpoint answers RFC 6749 errors \`{ error, error_description }\`.

**OneRoster 1.2.** Rostering data is served under \`${ONEROSTER_BASE_PATH}\` as 1EdTech's OneRoster 1.2 REST binding describes it (read-only; filter, sort, fields, limit and offset as the standard says), with OAuth 2.0 client-credentials tokens from \`${OAUTH_TOKEN_PATH}\` and the scopes ${ONEROSTER_SCOPE_LIST.map((scope) => `\`${scope}\``).join(", ")}. It is not repeated here: see the external documentation.`;

function operationOf(
  operation: DocumentedOperation,
  names: { body?: string; responses: Record<number, string | undefined>; error: string },
): ApiOperation {
  const parameters = [
    ...(operation.params ? parametersOf(operation.params, "path", operation.paramDescriptions) : []),
    ...(operation.query ? parametersOf(operation.query, "query") : []),
  ];
  const responses: ApiOperation["responses"] = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    const name = names.responses[Number(status)];
    responses[status] = {
      description: response.description,
      ...(name ? { content: jsonContent(name) } : {}),
    };
  }
  for (const [status, description] of Object.entries(operation.errors))
    responses[status] = { description, content: jsonContent(names.error) };
  responses.default = {
    description:
      "Any other error, such as 500 (with the request id to quote) or 503 while the server is busy.",
    content: jsonContent(names.error),
  };
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    description: operation.description,
    security: operation.security.map((scheme) => ({ [scheme]: [] })),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.body && names.body
      ? { requestBody: { required: true, content: jsonContent(names.body, operation.body.mediaType) } }
      : {}),
    responses,
  };
}

const WEBHOOK_TYPES: readonly WebhookDeliveredType[] = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT];

/** A delivered event's body: the common envelope with its type and its own `data`. */
const eventBodySchemaOf = (type: WebhookDeliveredType): z.ZodType =>
  webhookPayloadSchema.extend({ type: z.literal(type), data: webhookEventDataSchemas[type] });

export function buildApiDocument(): ApiDocument {
  const requests: Registry = z.registry<{ id: string }>();
  const answers: Registry = z.registry<{ id: string }>();
  for (const [name, schema] of Object.entries(requestComponents)) nameIn(requests, schema, name);
  for (const [name, schema] of Object.entries(responseComponents)) nameIn(answers, schema, name);
  const eventNames = Object.fromEntries(
    WEBHOOK_TYPES.map((type) => [type, nameIn(answers, eventBodySchemaOf(type), `${pascal(type)}Event`)]),
  );
  const errorName = nameIn(answers, responseComponents.ApiError as z.ZodType, "ApiError");
  const named = DOCUMENTED_OPERATIONS.map((operation) => {
    const base = pascal(operation.operationId);
    return {
      operation,
      body: operation.body && nameIn(requests, operation.body.schema, `${base}Request`),
      responses: Object.fromEntries(
        Object.entries(operation.responses).map(([status, response]) => [
          Number(status),
          response.schema && nameIn(answers, response.schema, `${base}${status}`),
        ]),
      ),
      error: operation.errorSchema ? nameIn(answers, operation.errorSchema, `${base}Error`) : errorName,
    };
  });

  const requestSchemas = convert(requests, "input");
  const answerSchemas = convert(answers, "output");
  const clash = Object.keys(requestSchemas).find((name) => name in answerSchemas);
  if (clash) throw new Error(`the component ${clash} is both a request and an answer: name them apart`);
  // Items the handler takes as unknown and judges one by one are documented with the schema they are judged by.
  for (const { operation } of named) {
    const items = operation.body?.items;
    if (!items) continue;
    const ownerName = requests.get(items.of)?.id;
    const itemName = requests.get(items.schema)?.id;
    if (!ownerName || !itemName)
      throw new Error(
        `${operation.operationId}: name the batch's and its items' schemas in requestComponents`,
      );
    const owner = requestSchemas[ownerName] as { properties: Record<string, JsonSchema> };
    (owner.properties[items.property] as JsonSchema).items = refTo(itemName);
  }

  const paths: ApiDocument["paths"] = {};
  for (const { operation, ...names } of named) {
    paths[operation.path] ??= {};
    (paths[operation.path] as Record<string, ApiOperation>)[operation.method] = operationOf(operation, names);
  }
  const webhooks: ApiDocument["webhooks"] = Object.fromEntries(
    WEBHOOK_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook${pascal(type)}`,
          tags: ["Webhooks"],
          summary: type,
          description: `${PAYLOAD_DESCRIPTIONS[type]}\n\n${DELIVERY_TEXT}`,
          security: [],
          parameters: DELIVERY_HEADERS,
          requestBody: { required: true, content: jsonContent(eventNames[type] as string) },
          responses: {
            "2XX": { description: "Received: the delivery succeeded." },
            default: {
              description: `Any other answer, no answer within ${DELIVERY_TIMEOUT_MS / 1000} s, or a redirect: the delivery is retried.`,
            },
          },
        },
      },
    ]),
  );

  return {
    openapi: "3.1.0",
    info: { title: "Dash API", version: packageJson.version, description: INFO_DESCRIPTION },
    externalDocs: {
      description: `OneRoster 1.2 (the REST API under ${ONEROSTER_BASE_PATH})`,
      url: "https://www.imsglobal.org/spec/oneroster/v1p2",
    },
    servers: [{ url: "/", description: "This Dash server" }],
    tags: TAGS,
    paths,
    webhooks,
    components: {
      schemas: { ...requestSchemas, ...answerSchemas },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

let built: ApiDocument | undefined;

/** The document, built once per process (the contracts do not change while it runs). */
export function apiDocument(): ApiDocument {
  built ??= buildApiDocument();
  return built;
}
