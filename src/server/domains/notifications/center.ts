import { sql } from "drizzle-orm";
import type {
  MarkReadBody,
  MarkReadResult,
  NotificationItem,
  NotificationList,
  NotificationListQuery,
} from "../../../shared/contracts/notifications";
import { NOTIFICATION_TYPES } from "../../../shared/contracts/notifications";
import { type Database, isoInstant, queryJsonRows, queryRows } from "../../db/client";

/** Only the types this version knows: a row of a type since removed is not shown. */
const KNOWN_TYPES = sql.join(
  NOTIFICATION_TYPES.map((type) => sql`${type}`),
  sql`, `,
);

/** A person's notifications, newest first, a page at a time, with how many are unread. */
export async function listNotifications(
  db: Database,
  userId: string,
  page: Required<Pick<NotificationListQuery, "offset" | "limit">> & { unreadOnly: boolean },
): Promise<NotificationList> {
  const unreadOnly = page.unreadOnly ? sql`and n.read_at is null` : sql``;
  const [items, [counts]] = await Promise.all([
    queryJsonRows<NotificationItem>(
      db,
      sql`select n.id, n.type, n.params, n.link, ${isoInstant(sql`n.created_at`)} as "createdAt",
            ${isoInstant(sql`n.read_at`)} as "readAt"
          from notifications n
          where n.user_sourced_id = ${userId} and n.type in (${KNOWN_TYPES}) ${unreadOnly}
          order by n.created_at desc, n.id desc
          offset ${page.offset} limit ${page.limit}`,
    ),
    queryRows<{ total: number; unread: number }>(
      db,
      sql`select count(*)::int as total, (count(*) filter (where n.read_at is null))::int as unread
          from notifications n
          where n.user_sourced_id = ${userId} and n.type in (${KNOWN_TYPES}) ${unreadOnly}`,
    ),
  ]);
  const unreadCount = page.unreadOnly ? (counts?.total ?? 0) : (counts?.unread ?? 0);
  return { items, total: counts?.total ?? 0, unreadCount };
}

export async function unreadCount(db: Database, userId: string): Promise<number> {
  const [row] = await queryRows<{ unread: number }>(
    db,
    sql`select count(*)::int as unread from notifications n
        where n.user_sourced_id = ${userId} and n.read_at is null and n.type in (${KNOWN_TYPES})`,
  );
  return row?.unread ?? 0;
}

/** Marks some of a person's notifications read (others' ids are ignored), or all of them. */
export async function markRead(
  db: Database,
  userId: string,
  body: MarkReadBody,
  now: Date,
): Promise<MarkReadResult> {
  const which =
    "all" in body
      ? sql``
      : sql`and n.id in (select (jsonb_array_elements_text(${JSON.stringify(body.ids)}::jsonb))::uuid)`;
  const marked = await queryRows<{ id: string }>(
    db,
    sql`update notifications n set read_at = ${now.toISOString()}::timestamptz
        where n.user_sourced_id = ${userId} and n.read_at is null ${which}
        returning n.id`,
  );
  return { marked: marked.length, unreadCount: await unreadCount(db, userId) };
}
