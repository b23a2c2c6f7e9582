import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { IncidentAction, ReviewStatus } from "../../../shared/contracts/integrity";
import { learningApps } from "../activity/schema";
import { users } from "../rostering/schema";

/**
 * Focus incidents as the monitoring agent reported them, and where their review stands. The agent's
 * own id for an incident (`client_id`) is unique per agent, so a resend stores nothing new. The
 * screenshot lives in file storage under `screenshot_key` until the retention job deletes it.
 */
export const integrityIncidents = pgTable(
  "integrity_incidents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    studentSourcedId: text("student_sourced_id")
      .notNull()
      .references(() => users.sourcedId, { onDelete: "cascade" }),
    agentId: uuid("agent_id")
      .notNull()
      .references(() => learningApps.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    incidentType: text("incident_type").notNull(),
    confidenceScore: numeric("confidence_score", { precision: 4, scale: 3, mode: "number" }).notNull(),
    appName: text("app_name"),
    detectedText: text("detected_text").notNull(),
    sessionId: text("session_id"),
    /** When the agent saw it. */
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    screenshotKey: text("screenshot_key"),
    evidenceDeletedAt: timestamp("evidence_deleted_at", { withTimezone: true }),
    reviewStatus: text("review_status").$type<ReviewStatus>().notNull().default("pending"),
    /** The last time someone decided, escalated or appealed it. */
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    /** When it became a strike, and when that strike stops counting. */
    struckAt: timestamp("struck_at", { withTimezone: true }),
    strikeExpiresAt: timestamp("strike_expires_at", { withTimezone: true }),
    cumulativeStrikes: integer("cumulative_strikes"),
    lockoutId: uuid("lockout_id"),
    voidedXp: numeric("voided_xp", { precision: 12, scale: 2, mode: "number" }).notNull().default(0),
  },
  (table) => [
    uniqueIndex("integrity_incidents_client_idx").on(table.agentId, table.clientId),
    index("integrity_incidents_student_idx").on(table.studentSourcedId, table.occurredAt),
    // The review queue: the open incidents, oldest first; with the student, so the queue's total
    // is counted from the index alone.
    index("integrity_incidents_open_idx")
      .on(table.occurredAt, table.studentSourcedId)
      .where(sql`${table.reviewStatus} in ('pending', 'awaiting_second', 'escalated', 'appealed')`),
    index("integrity_incidents_session_idx")
      .on(table.studentSourcedId, table.sessionId)
      .where(sql`${table.sessionId} is not null`),
    // The retention job's screenshots still kept, oldest first.
    index("integrity_incidents_evidence_idx")
      .on(table.receivedAt)
      .where(sql`${table.screenshotKey} is not null`),
  ],
);

/**
 * What people did to an incident: every confirm, dismiss, escalate and appeal with its note, in
 * order. Append-only: the incident's history, and the audit of who decided what and why.
 */
export const integrityDecisions = pgTable(
  "integrity_decisions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    incidentId: uuid("incident_id")
      .notNull()
      .references(() => integrityIncidents.id, { onDelete: "cascade" }),
    /** The decision's place in the incident's history: 1, 2, 3… (taken under the incident's row lock). */
    step: integer("step").notNull(),
    action: text("action").$type<IncidentAction>().notNull(),
    note: text("note").notNull(),
    actorSourcedId: text("actor_sourced_id").notNull(),
    /** The role they acted in. */
    actorRole: text("actor_role").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("integrity_decisions_incident_idx").on(table.incidentId, table.step)],
);

/**
 * Dashboard lockouts, open until someone unlocks them: at most one open per student. Kept after
 * unlocking, with who unlocked, why and how, as the lockout's audit.
 */
export const integrityLockouts = pgTable(
  "integrity_lockouts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    studentSourcedId: text("student_sourced_id")
      .notNull()
      .references(() => users.sourcedId, { onDelete: "cascade" }),
    code: text("code").notNull(),
    lockedAt: timestamp("locked_at", { withTimezone: true }).notNull(),
    /** The strike that reached the threshold. */
    incidentId: uuid("incident_id"),
    unlockedAt: timestamp("unlocked_at", { withTimezone: true }),
    unlockedBySourcedId: text("unlocked_by_sourced_id"),
    unlockNote: text("unlock_note"),
    /** `staff` (a Guide or an administrator), `appeal` (a strike removed) or `lockout_off` (the school turned lockout off). */
    unlockReason: text("unlock_reason").$type<"staff" | "appeal" | "lockout_off">(),
    unlockedWithCode: boolean("unlocked_with_code"),
  },
  (table) => [
    uniqueIndex("integrity_lockouts_open_idx")
      .on(table.studentSourcedId)
      .where(sql`${table.unlockedAt} is null`),
    index("integrity_lockouts_student_idx").on(table.studentSourcedId, table.lockedAt),
  ],
);
