import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import type { ImpersonationAuditAction, ImpersonationViewerRole } from "../../../shared/contracts/auth";
import { users } from "../rostering/schema";

/** Password hashes live apart from the roster so roster imports never touch them. */
export const userCredentials = pgTable("user_credentials", {
  userSourcedId: text("user_sourced_id")
    .primaryKey()
    .references(() => users.sourcedId, { onDelete: "cascade" }),
  passwordHash: text("password_hash").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Server-side sessions. The cookie carries a random token; only its SHA-256 is stored. */
export const sessions = pgTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userSourcedId: text("user_sourced_id")
      .notNull()
      .references(() => users.sourcedId, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    // While an administrator or Guide views Dash as someone else: whom, why, until when.
    impersonatedUserSourcedId: text("impersonated_user_sourced_id").references(() => users.sourcedId, {
      onDelete: "set null",
    }),
    impersonationReason: text("impersonation_reason"),
    impersonationStartedAt: timestamp("impersonation_started_at", { withTimezone: true }),
    impersonationExpiresAt: timestamp("impersonation_expires_at", { withTimezone: true }),
    // The role the viewer acted in: a Guide's reach bounds what they see while viewing as someone.
    impersonationViewerRole: text("impersonation_viewer_role").$type<ImpersonationViewerRole>(),
  },
  (table) => [
    index("sessions_user_idx").on(table.userSourcedId),
    index("sessions_expires_idx").on(table.expiresAt),
  ],
);

/**
 * Failed sign-in counters, one row per key (`account:<email>` or `ip:<address>`) and window.
 * Kept in the database so every app process sees the same counts.
 */
export const loginFailures = pgTable("login_failures", {
  throttleKey: text("throttle_key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every start and end of an impersonation, and every refused attempt: who, as whom, when, why and
 * from where. Append-only.
 */
export const impersonationAudit = pgTable(
  "impersonation_audit",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    actorSourcedId: text("actor_sourced_id").notNull(),
    targetSourcedId: text("target_sourced_id").notNull(),
    action: text("action").$type<ImpersonationAuditAction>().notNull(),
    reason: text("reason"),
    // Why an attempt was refused.
    detail: text("detail"),
    ipAddress: text("ip_address"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("impersonation_audit_created_idx").on(table.createdAt),
    index("impersonation_audit_actor_idx").on(table.actorSourcedId),
  ],
);

/**
 * One-time links to choose a new password, issued by an administrator. Only the SHA-256 of the
 * token is kept (like API keys); a token works once, until it expires or a newer one replaces it.
 */
export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userSourcedId: text("user_sourced_id")
      .notNull()
      .references(() => users.sourcedId, { onDelete: "cascade" }),
    issuedBySourcedId: text("issued_by_sourced_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** When the link set a password; a used token never works again. */
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (table) => [index("password_reset_tokens_user_idx").on(table.userSourcedId)],
);
