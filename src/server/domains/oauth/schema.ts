import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "../rostering/schema";

/**
 * OAuth 2.0 clients (client-credentials grant) of the OneRoster REST API, registered by an
 * administrator. The secret is shown once; only its SHA-256 is kept.
 */
export const apiClients = pgTable(
  "api_clients",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    clientId: text("client_id").notNull(),
    secretHash: text("secret_hash").notNull(),
    scopes: text("scopes").array().notNull(),
    createdBy: text("created_by").references(() => users.sourcedId, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (table) => [uniqueIndex("api_clients_client_id_idx").on(table.clientId)],
);

/**
 * Short-lived bearer tokens issued to API clients, kept in the database so every app process
 * accepts them. Only the token's SHA-256 is stored.
 */
export const oauthAccessTokens = pgTable(
  "oauth_access_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    apiClientId: uuid("api_client_id")
      .notNull()
      .references(() => apiClients.id, { onDelete: "cascade" }),
    scopes: text("scopes").array().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    index("oauth_access_tokens_client_idx").on(table.apiClientId),
    index("oauth_access_tokens_expires_idx").on(table.expiresAt),
  ],
);
