import { createHash } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import { type AnalyticsEvent, MAX_LINKED_IDS } from "../../../shared/contracts/analytics";
import { activeOrganizationIds } from "../../../shared/roles";
import { localDateOf, SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import type { Database } from "../../db/client";
import { batched } from "../../lib/batched";
import type { Actor } from "../../lib/context";
import { analyticsEvents } from "./schema";

/** A browser's event time is held within this much before its arrival (and never after it). */
const HELD_WITHIN_MS = 5 * 60_000;

/** Who sent a batch: a signed-in person's session, or nobody (the sign-in page). */
export interface EventSender {
  userId: string | null;
  role: string | null;
  schoolId: string | null;
  /** A hash of the session, never the session's own token or its lookup hash. */
  sessionKey: string | null;
  /** While someone views Dash as another person: their visit is not the person's own activity. */
  viewingAs: boolean;
}

export function analyticsSessionKey(tokenHash: string): string {
  return createHash("sha256").update(`analytics:${tokenHash}`).digest("base64url");
}

/**
 * The sender of a request. While viewing as someone, the person viewed and the role used: the
 * events describe which pages were used as whom, not which member of staff looked.
 */
export function senderOf(actor: Actor | null): EventSender {
  if (!actor) return { userId: null, role: null, schoolId: null, sessionKey: null, viewingAs: false };
  const [activeSchool] = activeOrganizationIds(actor.user.roles, actor.activeRole);
  return {
    userId: actor.user.sourcedId,
    role: actor.activeRole,
    schoolId: activeSchool ?? actor.user.primaryOrg?.sourcedId ?? null,
    sessionKey: analyticsSessionKey(actor.session.tokenHash),
    viewingAs: actor.session.impersonation !== null && actor.session.impersonation !== undefined,
  };
}

/** A student's parents and guardians, or a parent's or guardian's children: a sample of ten at most. */
function linkedIdsOf(userId: string, role: string | null): SQL | null {
  if (role === "student")
    return sql`(select coalesce(array_agg(l.id), '{}') from (select a.agent_sourced_id as id from user_agents a
      where a.user_sourced_id = ${userId} order by 1 limit ${MAX_LINKED_IDS}) l)`;
  if (role === "parent" || role === "guardian")
    return sql`(select coalesce(array_agg(l.id), '{}') from (select a.user_sourced_id as id from user_agents a
      where a.agent_sourced_id = ${userId} order by 1 limit ${MAX_LINKED_IDS}) l)`;
  return null;
}

/**
 * Whether an event is kept: sign-ins and daily activity only for a person acting as themself
 * (signed out there is nobody to count, and a member of staff viewing as a student does not make
 * the student active).
 */
function isRecorded(event: AnalyticsEvent, sender: EventSender): boolean {
  if (event.type === "login" || event.type === "daily_active")
    return sender.userId !== null && !sender.viewingAs;
  return true;
}

/** The rows a batch of events makes, with its times held and its once-rules applied. */
function rowsOf(events: readonly AnalyticsEvent[], sender: EventSender, now: Date) {
  return events
    .filter((event) => isRecorded(event, sender))
    .map((event) => {
      const sent = Date.parse(event.at);
      const occurredAt = new Date(Math.min(now.getTime(), Math.max(sent, now.getTime() - HELD_WITHIN_MS)));
      const isException = event.type === "exception";
      return {
        type: event.type,
        path: event.path,
        occurredAt,
        receivedAt: now,
        day: localDateOf(occurredAt, SCHOOL_TIME_ZONE),
        userSourcedId: sender.userId,
        role: sender.role,
        schoolSourcedId: sender.schoolId,
        linkedIds: event.type === "login" && sender.userId ? linkedIdsOf(sender.userId, sender.role) : null,
        sessionKey: sender.sessionKey,
        message: isException ? (event.message ?? "") : null,
        stack: isException ? (event.stack ?? null) : null,
      };
    });
}

/** Requests whose rows go in one insert: 40 batches of 50 events stay well under PostgreSQL's 65,535 parameters. */
const MAX_BATCHES_PER_INSERT = 40;

/**
 * The collector's store: each request's batch is written before it is answered (an event answered
 * 202 is stored), and batches that arrive together go in one multi-row insert. A sign-in counts
 * once per session and daily activity once per person and day: the unique indexes keep the
 * first, and the rest of each batch is stored.
 */
export function createEventRecorder(db: Database) {
  const insert = batched(
    async (batches: ReturnType<typeof rowsOf>[]) => {
      const rows = batches.flat();
      if (rows.length > 0) await db.insert(analyticsEvents).values(rows).onConflictDoNothing();
      return batches.map(() => undefined);
    },
    { maxCalls: MAX_BATCHES_PER_INSERT },
  );
  return async (events: readonly AnalyticsEvent[], sender: EventSender, now: Date): Promise<void> => {
    const rows = rowsOf(events, sender, now);
    if (rows.length > 0) await insert(rows);
  };
}
