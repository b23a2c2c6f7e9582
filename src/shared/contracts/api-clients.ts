import { z } from "zod";
import { invalid } from "../validation-messages";

/**
 * OAuth 2.0 clients of the OneRoster REST API (a student information system, an app that reads
 * the roster) and the scopes an administrator can grant them: the 1EdTech OneRoster 1.2 names.
 */

export const ONEROSTER_SCOPES = {
  core: "https://purl.imsglobal.org/spec/or/v1p2/scope/roster-core.readonly",
  full: "https://purl.imsglobal.org/spec/or/v1p2/scope/roster.readonly",
  demographics: "https://purl.imsglobal.org/spec/or/v1p2/scope/roster-demographics.readonly",
} as const;

export const ONEROSTER_SCOPE_LIST = [
  ONEROSTER_SCOPES.core,
  ONEROSTER_SCOPES.full,
  ONEROSTER_SCOPES.demographics,
] as const;
export type OneRosterScope = (typeof ONEROSTER_SCOPE_LIST)[number];

/** What each scope lets a client read, in words an administrator can judge. */
export const SCOPE_DESCRIPTIONS: Record<OneRosterScope, { label: string; description: string }> = {
  [ONEROSTER_SCOPES.core]: {
    label: "Roster, core",
    description:
      "Lists and single records of orgs, schools, people, classes, courses, enrollments and sessions.",
  },
  [ONEROSTER_SCOPES.full]: {
    label: "Roster, all reads",
    description:
      "Everything in core, plus the linked lists such as a class's students or a school's teachers.",
  },
  [ONEROSTER_SCOPES.demographics]: {
    label: "Demographics",
    description: "Birth dates, sex, race and ethnicity of people. Sensitive: grant only when needed.",
  },
};

/** The URL paths a client uses; the page shows them with the server's own address. */
export const OAUTH_TOKEN_PATH = "/oauth/token";
export const ONEROSTER_BASE_PATH = "/ims/oneroster/rostering/v1p2";

/** `POST /oauth/token`, form-encoded (RFC 6749 §4.4.2); the client authenticates with HTTP Basic or the two form fields. */
export const oauthTokenRequestSchema = z.object({
  grant_type: z.literal("client_credentials"),
  /** Space-separated; the client's granted scopes when absent. */
  scope: z.string().optional(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
});

/** RFC 6749 §5.1. */
export const oauthTokenSchema = z.object({
  access_token: z.string(),
  token_type: z.literal("Bearer"),
  /** Seconds from now. */
  expires_in: z.number(),
  scope: z.string(),
});
export type OAuthToken = z.infer<typeof oauthTokenSchema>;

export const OAUTH_ERRORS = [
  "invalid_request",
  "invalid_client",
  "unsupported_grant_type",
  "invalid_scope",
] as const;

/** RFC 6749 §5.2. */
export const oauthErrorSchema = z.object({
  error: z.enum(OAUTH_ERRORS),
  error_description: z.string(),
});
export type OAuthErrorBody = z.infer<typeof oauthErrorSchema>;

/** The path parameter of an API client: its UUID (anything else names nothing: 404). */
export const apiClientIdSchema = z.uuid();

export const API_CLIENT_SORTS = ["name", "clientId", "createdAt", "lastUsedAt"] as const;

export const apiClientListQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  sort: z.enum(API_CLIENT_SORTS).default("createdAt"),
  orderBy: z.enum(["asc", "desc"]).default("desc"),
  search: z.string().trim().max(200, invalid("searchTooLong")).default(""),
  filter: z.string().max(2000).optional(),
});

export const createApiClientSchema = z.object({
  name: z.string().trim().min(1, invalid("nameClient")).max(100, invalid("clientNameTooLong")),
  scopes: z
    .array(z.enum(ONEROSTER_SCOPE_LIST, invalid("chooseOneRosterScopes")))
    .min(1, invalid("chooseScope"))
    .transform((scopes) => [...new Set(scopes)]),
});

export const apiClientSchema = z.object({
  id: z.string(),
  name: z.string(),
  clientId: z.string(),
  scopes: z.array(z.string()),
  createdAt: z.string(),
  createdBy: z.object({ sourcedId: z.string(), name: z.string() }).nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiClient = z.infer<typeof apiClientSchema>;

export const apiClientListResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(apiClientSchema),
  total: z.number(),
  error: z.null(),
});

/** DELETE /api/admin/api-clients/:id: the client, revoked. */
export const apiClientResponseSchema = z.object({ success: z.literal(true), data: apiClientSchema });
export type ApiClientResponse = z.infer<typeof apiClientResponseSchema>;

export const createdApiClientResponseSchema = z.object({
  success: z.literal(true),
  data: apiClientSchema.extend({ clientSecret: z.string() }),
});
