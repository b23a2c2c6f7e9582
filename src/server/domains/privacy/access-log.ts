import { type SQL, sql } from "drizzle-orm";
import type { AccessLogEntry, AccessLogQuery, SensitiveAccessKind } from "../../../shared/contracts/privacy";
import { type Database, queryRows } from "../../db/client";
import { sensitiveAccessLog } from "./schema";

/** A transaction or the database: an entry is written inside the work it records when there is one. */
type Writer = Pick<Database, "insert">;

export interface SensitiveAccess {
  /** Whose rights were used (the person viewed as, while viewing Dash as someone else). */
  actorId: string;
  /** Who signed in. */
  realActorId: string;
  /** The person whose data was reached, when there is one. */
  personId: string | null;
  kind: SensitiveAccessKind;
  /** What was reached, in words and without names. */
  detail?: string | null;
  at?: Date;
}

/** The one way every domain records an access to sensitive data. */
export async function recordSensitiveAccess(db: Writer, entry: SensitiveAccess): Promise<void> {
  await db.insert(sensitiveAccessLog).values({
    actorSourcedId: entry.actorId,
    realActorSourcedId: entry.realActorId,
    personSourcedId: entry.personId,
    kind: entry.kind,
    detail: entry.detail ?? null,
    ...(entry.at && { createdAt: entry.at }),
  });
}

/** The log, newest first, about one person when `personId` is given. */
export async function listSensitiveAccess(
  db: Database,
  query: AccessLogQuery,
): Promise<{ data: AccessLogEntry[]; total: number }> {
  const about: SQL = query.personId ? sql`l.person_sourced_id = ${query.personId}` : sql`true`;
  const rows = await queryRows<{
    id: string;
    kind: SensitiveAccessKind;
    actorId: string;
    actorName: string | null;
    realActorId: string;
    realActorName: string | null;
    personId: string | null;
    personName: string | null;
    detail: string | null;
    createdAt: Date | string;
    total: number | string;
  }>(
    db,
    sql`select l.id, l.kind, l.detail, l.created_at as "createdAt",
          l.actor_sourced_id as "actorId", actor.given_name || ' ' || actor.family_name as "actorName",
          l.real_actor_sourced_id as "realActorId", real.given_name || ' ' || real.family_name as "realActorName",
          l.person_sourced_id as "personId", person.given_name || ' ' || person.family_name as "personName",
          count(*) over () as total
        from sensitive_access_log l
        left join users actor on actor.sourced_id = l.actor_sourced_id
        left join users real on real.sourced_id = l.real_actor_sourced_id
        left join users person on person.sourced_id = l.person_sourced_id
        where ${about}
        order by l.created_at desc, l.seq desc
        limit ${query.limit} offset ${query.offset}`,
  );
  return {
    total: Number(rows[0]?.total ?? 0),
    data: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      actor: { sourcedId: row.actorId, name: row.actorName ?? row.actorId },
      realActor:
        row.realActorId === row.actorId
          ? null
          : { sourcedId: row.realActorId, name: row.realActorName ?? row.realActorId },
      person: row.personId ? { sourcedId: row.personId, name: row.personName ?? row.personId } : null,
      detail: row.detail,
      createdAt: new Date(row.createdAt).toISOString(),
    })),
  };
}
