import { randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  type ApiClient,
  type apiClientListQuerySchema,
  type OAuthErrorBody,
  ONEROSTER_SCOPE_LIST,
} from "../../../shared/contracts/api-clients";
import { type Database, isoInstant, queryRows } from "../../db/client";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { hashSecret, newSecret } from "../../lib/secrets";
import { containsPattern, type FilterFields, filterToSql } from "../rostering/filter";
import { apiClients, oauthAccessTokens } from "./schema";

/** How long an access token lives: short, as clients fetch a new one whenever they need it. */
export const ACCESS_TOKEN_SECONDS = 3600;

// Writing "last used" at most once a minute keeps a busy client from turning reads into writes.
const LAST_USED_RESOLUTION_MS = 60_000;

/** The RFC 6749 error of a refused token request, with its HTTP status. */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorBody["error"],
    readonly description: string,
    /** 429 when the client is paused after too many failed authentications. */
    readonly throttledStatus?: 429,
  ) {
    super(description);
    this.name = "OAuthError";
  }

  get status(): 400 | 401 | 429 {
    if (this.throttledStatus) return this.throttledStatus;
    return this.error === "invalid_client" ? 401 : 400;
  }
}

interface ApiClientRow {
  id: string;
  name: string;
  clientId: string;
  scopes: string[];
  createdAt: string;
  createdBySourcedId: string | null;
  createdByName: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  total?: number | string;
}

const clientColumns = sql`c.id, c.name, c.client_id as "clientId", c.scopes,
  ${isoInstant(sql`c.created_at`)} as "createdAt", ${isoInstant(sql`c.last_used_at`)} as "lastUsedAt",
  ${isoInstant(sql`c.revoked_at`)} as "revokedAt", c.created_by as "createdBySourcedId",
  case when u.sourced_id is not null then u.given_name || ' ' || u.family_name end as "createdByName"`;

function toApiClient(row: ApiClientRow): ApiClient {
  return {
    id: row.id,
    name: row.name,
    clientId: row.clientId,
    scopes: row.scopes,
    createdAt: row.createdAt,
    createdBy:
      row.createdBySourcedId && row.createdByName
        ? { sourcedId: row.createdBySourcedId, name: row.createdByName }
        : null,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  };
}

const LIST_FILTER_FIELDS: FilterFields = {
  name: { column: sql`c.name`, kind: "text" },
  clientId: { column: sql`c.client_id`, kind: "text" },
  scopes: { column: sql`c.scopes`, kind: "textArray" },
  createdAt: { column: sql`c.created_at`, kind: "timestamp" },
  lastUsedAt: { column: sql`c.last_used_at`, kind: "timestamp" },
  revokedAt: { column: sql`c.revoked_at`, kind: "timestamp" },
  status: {
    build: (operator, value) => {
      if (operator !== "=" && operator !== "!=") return sql`false`;
      const isRevoked = value.toLowerCase() === "revoked";
      return isRevoked === (operator === "=") ? sql`c.revoked_at is not null` : sql`c.revoked_at is null`;
    },
  },
};

const LIST_SORTS = {
  name: sql`lower(c.name)`,
  clientId: sql`c.client_id`,
  createdAt: sql`c.created_at`,
  lastUsedAt: sql`c.last_used_at`,
} as const;

export async function listApiClients(db: Database, query: z.output<typeof apiClientListQuerySchema>) {
  const pattern = containsPattern(query.search);
  const direction = query.orderBy === "asc" ? sql`asc nulls first` : sql`desc nulls last`;
  const rows = await queryRows<ApiClientRow>(
    db,
    sql`select ${clientColumns}, count(*) over () as total
        from api_clients c left join users u on u.sourced_id = c.created_by
        where ${filterToSql(query.filter, LIST_FILTER_FIELDS)}
          and (${query.search} = '' or c.name ilike ${pattern} or c.client_id ilike ${pattern})
        order by ${LIST_SORTS[query.sort]} ${direction}, c.id
        limit ${query.limit} offset ${query.offset}`,
  );
  return { total: Number(rows[0]?.total ?? 0), data: rows.map(toApiClient) };
}

async function findApiClient(db: Database, id: string): Promise<ApiClient> {
  const [row] = await queryRows<ApiClientRow>(
    db,
    sql`select ${clientColumns} from api_clients c left join users u on u.sourced_id = c.created_by
        where c.id = ${id}`,
  );
  if (!row) throw new AppError("not_found", message("oauth:clients.notFound"));
  return toApiClient(row);
}

/** A client id that says what it is and cannot be guessed from another one. */
function newClientId(): string {
  return `dash-${randomBytes(8).toString("hex")}`;
}

/** Registers a client and returns its secret: the only time anyone sees it. */
export async function createApiClient(
  db: Database,
  input: { name: string; scopes: string[]; createdBy: string | null },
  credentials = { clientId: newClientId(), clientSecret: newSecret("dash_cs", 32) },
) {
  const [created] = await db
    .insert(apiClients)
    .values({
      name: input.name,
      scopes: input.scopes,
      createdBy: input.createdBy,
      clientId: credentials.clientId,
      secretHash: hashSecret(credentials.clientSecret),
    })
    .returning({ id: apiClients.id });
  if (!created) throw new Error("the API client was not saved");
  return { ...(await findApiClient(db, created.id)), clientSecret: credentials.clientSecret };
}

/** Revokes a client: its tokens stop working at once, and it can get no new ones. */
export async function revokeApiClient(db: Database, id: string, now: Date): Promise<ApiClient> {
  return db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(apiClients)
      .set({ revokedAt: now })
      .where(and(eq(apiClients.id, id), isNull(apiClients.revokedAt)))
      .returning({ id: apiClients.id });
    if (!revoked) throw new AppError("not_found", message("oauth:clients.noActiveClient"));
    await tx.delete(oauthAccessTokens).where(eq(oauthAccessTokens.apiClientId, id));
    return findApiClient(tx as unknown as Database, id);
  });
}

function sameSecret(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashSecret(secret), "hex");
  const stored = Buffer.from(storedHash, "hex");
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** The scopes a token asks for: all of the client's when none are named, else a subset of them. */
export function grantedScopes(requested: string | undefined, allowed: readonly string[]): string[] {
  const names = (requested ?? "").split(" ").filter(Boolean);
  if (names.length === 0) return [...allowed];
  const refused = names.filter((name) => !allowed.includes(name));
  if (refused.length > 0) {
    const known = refused.filter((name) => (ONEROSTER_SCOPE_LIST as readonly string[]).includes(name));
    throw new OAuthError(
      "invalid_scope",
      known.length === refused.length
        ? `This client may not use the scope ${refused.join(", ")}`
        : `Unknown scope ${refused.join(", ")}`,
    );
  }
  return [...new Set(names)];
}

/** Client-credentials grant: checks the client and its secret, then issues a bearer token. */
export async function issueAccessToken(
  db: Database,
  request: { clientId: string; clientSecret: string; scope: string | undefined },
  now: Date,
) {
  const [client] = await db.select().from(apiClients).where(eq(apiClients.clientId, request.clientId));
  if (!client || client.revokedAt || !sameSecret(request.clientSecret, client.secretHash)) {
    throw new OAuthError("invalid_client", "Unknown client, wrong secret or revoked client");
  }
  const scopes = grantedScopes(request.scope, client.scopes);
  const token = newSecret("dash_at", 32);
  await db.transaction(async (tx) => {
    // Expired tokens of this client are of no use to anyone: clear them as new ones are made.
    await tx
      .delete(oauthAccessTokens)
      .where(and(eq(oauthAccessTokens.apiClientId, client.id), lt(oauthAccessTokens.expiresAt, now)));
    await tx.insert(oauthAccessTokens).values({
      tokenHash: hashSecret(token),
      apiClientId: client.id,
      scopes,
      createdAt: now,
      expiresAt: new Date(now.getTime() + ACCESS_TOKEN_SECONDS * 1000),
    });
    await tx.update(apiClients).set({ lastUsedAt: now }).where(eq(apiClients.id, client.id));
  });
  return { accessToken: token, expiresIn: ACCESS_TOKEN_SECONDS, scopes };
}

export interface TokenHolder {
  apiClientId: string;
  scopes: string[];
}

/** The client and scopes of a live token, or null when it is unknown, expired or its client revoked. */
export async function authenticateAccessToken(
  db: Database,
  token: string,
  now: Date,
): Promise<TokenHolder | null> {
  const [row] = await queryRows<{
    apiClientId: string;
    scopes: string[];
    isLive: boolean;
    needsTouch: boolean;
  }>(
    db,
    sql`select t.api_client_id as "apiClientId", t.scopes,
          (t.expires_at > ${now.toISOString()}::timestamptz and c.revoked_at is null) as "isLive",
          (c.last_used_at is null or c.last_used_at < ${new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString()}::timestamptz) as "needsTouch"
        from oauth_access_tokens t join api_clients c on c.id = t.api_client_id
        where t.token_hash = ${hashSecret(token)}`,
  );
  if (!row?.isLive) return null;
  if (row.needsTouch) {
    await db.update(apiClients).set({ lastUsedAt: now }).where(eq(apiClients.id, row.apiClientId));
  }
  return { apiClientId: row.apiClientId, scopes: row.scopes };
}
