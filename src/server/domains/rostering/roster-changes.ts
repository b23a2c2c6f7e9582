import { sql } from "drizzle-orm";
import type { RosterChange, RosterChangeAction } from "../../../shared/contracts/people";
import { type Database, queryRows } from "../../db/client";
import { rosterChanges } from "./schema";

/** A transaction or the database: audit rows are written inside the change they record. */
type Writer = Pick<Database, "insert">;

export interface RosterChangeEntry {
  actorSourcedId: string;
  action: RosterChangeAction;
  targetUserSourcedId?: string | null;
  orgSourcedId?: string | null;
  summary: string;
  details?: Record<string, unknown>;
  createdAt: Date;
}

export async function recordRosterChange(tx: Writer, entry: RosterChangeEntry): Promise<void> {
  await tx.insert(rosterChanges).values({
    actorSourcedId: entry.actorSourcedId,
    action: entry.action,
    targetUserSourcedId: entry.targetUserSourcedId ?? null,
    orgSourcedId: entry.orgSourcedId ?? null,
    summary: entry.summary,
    details: entry.details ?? null,
    createdAt: entry.createdAt,
  });
}

/** The latest changes, newest first; only those about one person when `userId` is given. */
export async function listRosterChanges(
  db: Database,
  page: { offset: number; limit: number; userId?: string },
): Promise<{ data: RosterChange[]; total: number }> {
  const rows = await queryRows<{
    id: string;
    action: RosterChangeAction;
    actorSourcedId: string;
    actorName: string | null;
    targetSourcedId: string | null;
    targetName: string | null;
    summary: string;
    createdAt: Date | string;
    total: number | string;
  }>(
    db,
    sql`select c.id, c.action, c.actor_sourced_id as "actorSourcedId", c.target_user_sourced_id as "targetSourcedId",
          actor.given_name || ' ' || actor.family_name as "actorName",
          target.given_name || ' ' || target.family_name as "targetName",
          c.summary, c.created_at as "createdAt", count(*) over () as total
        from roster_changes c
        left join users actor on actor.sourced_id = c.actor_sourced_id
        left join users target on target.sourced_id = c.target_user_sourced_id
        where ${page.userId ? sql`c.target_user_sourced_id = ${page.userId}` : sql`true`}
        order by c.created_at desc, c.seq desc
        limit ${page.limit} offset ${page.offset}`,
  );
  return {
    total: Number(rows[0]?.total ?? 0),
    data: rows.map((row) => ({
      id: row.id,
      action: row.action,
      actor: { sourcedId: row.actorSourcedId, name: row.actorName ?? row.actorSourcedId },
      target: row.targetSourcedId
        ? { sourcedId: row.targetSourcedId, name: row.targetName ?? row.targetSourcedId }
        : null,
      summary: row.summary,
      createdAt: new Date(row.createdAt).toISOString(),
    })),
  };
}
