import { sql } from "drizzle-orm";
import type { RosterChange, RosterChangeAction } from "../../../shared/contracts/people";
import { DEFAULT_LANGUAGE, type Language } from "../../../shared/languages";
import { type Database, queryRows } from "../../db/client";
import { type Message, translate } from "../../lib/i18n";
import { rosterChanges } from "./schema";

/** A transaction or the database: audit rows are written inside the change they record. */
type Writer = Pick<Database, "insert">;

export interface RosterChangeEntry {
  actorSourcedId: string;
  action: RosterChangeAction;
  targetUserSourcedId?: string | null;
  orgSourcedId?: string | null;
  /** What was done, as a catalogue message said in the reader's language (or a text as it is). */
  summary: string | Message;
  details?: Record<string, unknown>;
  createdAt: Date;
}

/**
 * A summary said in `language`. A list among its values (the names of several people) is joined
 * as the language lists things; in English as summaries always have been: "A and B and C".
 */
export function sayChange(said: string | Message, language: Language): string {
  if (typeof said === "string" || !said.values) return translate(said, language);
  const values = Object.fromEntries(
    Object.entries(said.values).map(([name, value]) => [
      name,
      Array.isArray(value) ? listIn(value.map(String), language) : value,
    ]),
  );
  return translate({ key: said.key, values }, language);
}

function listIn(items: string[], language: Language): string {
  if (language === DEFAULT_LANGUAGE) return items.join(" and ");
  return new Intl.ListFormat(language, { type: "conjunction" }).format(items);
}

export async function recordRosterChange(tx: Writer, entry: RosterChangeEntry): Promise<void> {
  await tx.insert(rosterChanges).values({
    actorSourcedId: entry.actorSourcedId,
    action: entry.action,
    targetUserSourcedId: entry.targetUserSourcedId ?? null,
    orgSourcedId: entry.orgSourcedId ?? null,
    summary: sayChange(entry.summary, DEFAULT_LANGUAGE),
    summaryMessage: typeof entry.summary === "string" ? null : entry.summary,
    details: entry.details ?? null,
    createdAt: entry.createdAt,
  });
}

/**
 * A change's summary in `language`: its stored message, translated. A row written before messages
 * were stored answers its English text; so does one whose English text no longer reads as its
 * message does (rewritten since, as anonymising a student rewrites names), which must not be undone.
 */
export function summaryIn(
  row: { summary: string; summaryMessage: Message | null },
  language: Language,
): string {
  const said = row.summaryMessage;
  if (!said || language === DEFAULT_LANGUAGE || sayChange(said, DEFAULT_LANGUAGE) !== row.summary)
    return row.summary;
  return sayChange(said, language);
}

/** The latest changes, newest first, said in `language`; only those about one person when `userId` is given. */
export async function listRosterChanges(
  db: Database,
  page: { offset: number; limit: number; userId?: string },
  language: Language = DEFAULT_LANGUAGE,
): Promise<{ data: RosterChange[]; total: number }> {
  const rows = await queryRows<{
    id: string;
    action: RosterChangeAction;
    actorSourcedId: string;
    actorName: string | null;
    targetSourcedId: string | null;
    targetName: string | null;
    summary: string;
    summaryMessage: Message | null;
    createdAt: Date | string;
    total: number | string;
  }>(
    db,
    sql`select c.id, c.action, c.actor_sourced_id as "actorSourcedId", c.target_user_sourced_id as "targetSourcedId",
          actor.given_name || ' ' || actor.family_name as "actorName",
          target.given_name || ' ' || target.family_name as "targetName",
          c.summary, c.summary_message as "summaryMessage", c.created_at as "createdAt", count(*) over () as total
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
      summary: summaryIn(row, language),
      createdAt: new Date(row.createdAt).toISOString(),
    })),
  };
}
