import { type Context, Hono } from "hono";
import {
  type ApiClientResponse,
  apiClientIdSchema,
  apiClientListQuerySchema,
  createApiClientSchema,
  type OAuthErrorBody,
  type OAuthToken,
  oauthTokenRequestSchema,
} from "../../../shared/contracts/api-clients";
import { clientIp, requireActiveRole } from "../../lib/auth";
import { limitBody } from "../../lib/body-limit";
import type { AppDeps, AppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { assertStorableText, readJsonBody, readQuery } from "../../lib/validation";
import { createFailureThrottle, retryAfterText } from "../auth/failure-throttle";
import { createApiClient, issueAccessToken, listApiClients, OAuthError, revokeApiClient } from "./clients";

const TOKEN_REQUEST_MAX_BYTES = 16 * 1024;
const FORM_TYPE = "application/x-www-form-urlencoded";

/** RFC 6749 §2.3.1: the id and secret are form-encoded before they are joined and base64-encoded. */
function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replaceAll("+", " "));
  } catch {
    return value;
  }
}

function basicCredentials(header: string | undefined): { clientId: string; clientSecret: string } | null {
  const encoded = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "")?.[1];
  if (!encoded) return null;
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  return {
    clientId: formDecode(decoded.slice(0, colon)),
    clientSecret: formDecode(decoded.slice(colon + 1)),
  };
}

function oauthFailure(c: Context<AppEnv>, error: OAuthError) {
  if (error.status === 401) c.header("WWW-Authenticate", 'Basic realm="Dash"');
  return c.json(
    { error: error.error, error_description: error.description } satisfies OAuthErrorBody,
    error.status,
  );
}

// Failed client authentications allowed per client id in a throttle window: a system with a
// mistyped secret retries a few times; a guesser is stopped long before it gets anywhere.
const MAX_FAILURES_PER_CLIENT = 10;

/** `POST /oauth/token`: the OAuth 2.0 client-credentials grant (RFC 6749 §4.4). */
export function oauthRoutes({ db, env, auth }: AppDeps) {
  const throttle = createFailureThrottle(db, {
    windowMs: env.LOGIN_THROTTLE_MINUTES * 60_000,
    now: auth.now,
  });

  /** Issues a token when the client may still try: a failed authentication keeps its count. */
  async function issueThrottled(c: Context<AppEnv>, request: Parameters<typeof issueAccessToken>[1]) {
    const reservation = await throttle.reserve([
      { key: `oauth-client:${request.clientId}`, limit: MAX_FAILURES_PER_CLIENT },
      { key: `oauth-ip:${clientIp(c, env.TRUST_PROXY)}`, limit: env.LOGIN_MAX_FAILURES_PER_IP },
    ]);
    if (!reservation.allowed) {
      c.header("Retry-After", String(reservation.retryAfterSeconds));
      throw new OAuthError(
        "invalid_client",
        `Too many failed client authentications. ${retryAfterText(reservation.retryAfterSeconds)}`,
        429,
      );
    }
    try {
      const token = await issueAccessToken(db, request, auth.now());
      await throttle.giveBack(reservation.keys);
      return token;
    } catch (error) {
      if (!(error instanceof OAuthError && error.error === "invalid_client"))
        await throttle.giveBack(reservation.keys);
      throw error;
    }
  }

  return new Hono<AppEnv>()
    .use(
      "/token",
      limitBody({
        maxSize: TOKEN_REQUEST_MAX_BYTES,
        onError: (c) =>
          c.json(
            {
              error: "invalid_request",
              error_description: "The request is too large",
            } satisfies OAuthErrorBody,
            413,
          ),
      }),
    )
    .post("/token", async (c) => {
      // Token answers must never be cached (RFC 6749 §5.1).
      c.header("Cache-Control", "no-store");
      c.header("Pragma", "no-cache");
      const basic = basicCredentials(c.req.header("authorization"));
      try {
        const contentType = c.req.header("content-type")?.split(";")[0]?.trim().toLowerCase();
        if (contentType !== FORM_TYPE) {
          throw new OAuthError("invalid_request", `Send the parameters as ${FORM_TYPE}`);
        }
        const form = new URLSearchParams(await c.req.text());
        assertStorableText(Object.fromEntries(form));
        if (basic) assertStorableText(basic);
        for (const name of ["grant_type", "client_id", "client_secret", "scope"]) {
          if (form.getAll(name).length > 1) throw new OAuthError("invalid_request", `${name} is given twice`);
        }
        if (!form.get("grant_type")) throw new OAuthError("invalid_request", "grant_type is missing");
        // The form is read by the schema the API description documents (unknown fields ignored).
        const parsed = oauthTokenRequestSchema.safeParse(Object.fromEntries(form));
        if (!parsed.success) {
          if (parsed.error.issues.some((issue) => issue.path[0] === "grant_type"))
            throw new OAuthError("unsupported_grant_type", "Only grant_type=client_credentials is supported");
          throw new OAuthError(
            "invalid_request",
            parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "),
          );
        }
        const { client_id: formId, client_secret: formSecret, scope } = parsed.data;
        if (basic && formSecret !== undefined) {
          throw new OAuthError(
            "invalid_request",
            "Authenticate the client one way: HTTP Basic or form fields",
          );
        }
        const credentials =
          basic ??
          (formId !== undefined && formSecret !== undefined
            ? { clientId: formId, clientSecret: formSecret }
            : null);
        if (!credentials) {
          throw new OAuthError(
            "invalid_client",
            "Authenticate the client with HTTP Basic or client_id and client_secret",
          );
        }
        const token = await issueThrottled(c, { ...credentials, scope });
        return c.json({
          access_token: token.accessToken,
          token_type: "Bearer",
          expires_in: token.expiresIn,
          scope: token.scopes.join(" "),
        } satisfies OAuthToken);
      } catch (error) {
        if (error instanceof OAuthError) return oauthFailure(c, error);
        throw error;
      }
    });
}

const ADMIN = ["administrator"] as const;

/** `/api/admin/api-clients`: administrators register, list and revoke OneRoster API clients. */
export function apiClientRoutes({ db, auth }: AppDeps) {
  return new Hono<AppEnv>()
    .get("/", async (c) => {
      requireActiveRole(c, ADMIN, message("oauth:actions.manageClients"));
      // A filter that cannot be read is a FilterError: a 400 with its message.
      const query = readQuery(c, apiClientListQuerySchema);
      return c.json({ success: true, ...(await listApiClients(db, query)), error: null });
    })
    .post("/", async (c) => {
      const actor = requireActiveRole(c, ADMIN, message("oauth:actions.manageClients"));
      const input = await readJsonBody(c, createApiClientSchema);
      const created = await createApiClient(db, { ...input, createdBy: actor.realUser.sourcedId });
      return c.json({ success: true, data: created }, 201);
    })
    .delete("/:id", async (c) => {
      requireActiveRole(c, ADMIN, message("oauth:actions.manageClients"));
      const id = apiClientIdSchema.safeParse(c.req.param("id"));
      if (!id.success) throw new AppError("not_found", message("oauth:clients.notFound"));
      return c.json({
        success: true,
        data: await revokeApiClient(db, id.data, auth.now()),
      } satisfies ApiClientResponse);
    });
}
