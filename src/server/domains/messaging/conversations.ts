import { type SQL, sql } from "drizzle-orm";
import type {
  ContactList,
  ContactRelation,
  ContactsQuery,
  ConversationMember,
  ConversationSummary,
  Inbox,
  ReadResult,
  Thread,
  ThreadMessage,
  UnreadSummary,
  WritingRefusal,
} from "../../../shared/contracts/messaging";
import { THREAD_PAGE_SIZE } from "../../../shared/contracts/messaging";
import { dashRoleOf, distinctRoles } from "../../../shared/roles";
import { type Database, isoInstant, queryJsonRows, queryRows, uuidEquals } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { type Message, message } from "../../lib/i18n";
import { nameOf } from "../rostering/queries";
import { studentIdsInReach } from "../rostering/scope";
import { contactRows, conversationVisibleTo, mayWriteTo, studentsAllowedToWrite } from "./reach";
import { previewOf } from "./text";

/** The roles with an inbox: everyone who messages, and students, who read announcements there. */
export const INBOX_ROLES = ["student", "teacher", "parent", "guardian", "administrator"] as const;

/** The caller, who must have an inbox in their active role. */
export function inboxActor(actor: Actor, action: Message): Actor {
  if (!actor.activeRole || !(INBOX_ROLES as readonly string[]).includes(actor.activeRole))
    throw new AppError("forbidden", message("common:roleForbids", { action }));
  return actor;
}

interface MemberRow {
  id: string;
  name: string;
  roles: string[];
  children: string[];
}

const memberOf = (row: MemberRow): ConversationMember => ({
  id: row.id,
  name: row.name,
  roles: distinctRoles(row.roles.flatMap((role) => dashRoleOf(role) ?? [])),
  children: row.children,
});

/**
 * The other members of the conversation in `conversationId`, as JSON: names, roles, and the
 * children of a parent or guardian that the caller may see.
 */
function othersJson(actor: Actor, conversationId: SQL): SQL {
  const reach = studentIdsInReach(actor);
  const children = reach
    ? sql`(select coalesce(json_agg(${nameOf(sql`k.user_sourced_id`)} order by ${nameOf(sql`k.user_sourced_id`)}), '[]'::json)
        from user_agents k where k.agent_sourced_id = o.user_sourced_id and k.user_sourced_id in (${reach}))`
    : sql`'[]'::json`;
  return sql`(select coalesce(json_agg(json_build_object(
      'id', o.user_sourced_id, 'name', ${nameOf(sql`o.user_sourced_id`)},
      'roles', (select coalesce(json_agg(distinct r.role), '[]'::json) from user_roles r where r.user_sourced_id = o.user_sourced_id),
      'children', ${children}) order by ${nameOf(sql`o.user_sourced_id`)}), '[]'::json)
    from conversation_members o where o.conversation_id = ${conversationId} and o.user_sourced_id <> ${actor.user.sourcedId})`;
}

/** Messages of others after the member `me` last read (the table alias `me` of conversation_members). */
const unreadOfMe = (self: string) => sql`(select count(*)::int from messages u
  where u.conversation_id = me.conversation_id and u.author_sourced_id <> ${self}
    and u.created_at > coalesce(me.last_read_at, '-infinity'::timestamptz))`;

/** Why the caller, in their active role, may not write to someone they cannot reach. */
function refusalOfRole(actor: Actor): WritingRefusal {
  switch (actor.activeRole) {
    case "parent":
    case "guardian":
      return "family";
    case "teacher":
      return "guide";
    case "administrator":
      return "administrator";
    case "student":
      return "student";
    default:
      return "role";
  }
}

/** A refusal as the sentence of a 403. */
export function refusalMessage(refusal: WritingRefusal, actor: Actor): Message {
  if (refusal === "role")
    return message("common:roleForbids", { action: message("messaging:actions.write") });
  return message(`messaging:refusals.${refusal}`, {
    name: `${actor.user.givenName} ${actor.user.familyName}`,
  });
}

/** The refusal to write to someone the caller cannot reach, as the 403 says it. */
export function refusalFor(actor: Actor): Message {
  return refusalMessage(refusalOfRole(actor), actor);
}

/** Whether a student's school keeps student messages off (for the sentence that says so). */
async function studentMayWrite(db: Database, actor: Actor): Promise<boolean> {
  const [row] = await queryRows<{ allowed: boolean }>(
    db,
    sql`select exists (${studentsAllowedToWrite(sql`select ${actor.user.sourcedId}::text`)}) as allowed`,
  );
  return Boolean(row?.allowed);
}

/** Why the caller cannot write at all right now, or null: viewing as someone, or a student whose school keeps it off. */
async function writingBlocked(db: Database, actor: Actor): Promise<WritingRefusal | null> {
  if (actor.session.impersonation) return "viewingAs";
  if (actor.activeRole === "student" && !(await studentMayWrite(db, actor))) return "studentsOff";
  return null;
}

/** The caller may send: signed in as themself, in a role that writes. A refusal is a 403 with its sentence. */
export async function assertMayWrite(db: Database, actor: Actor): Promise<void> {
  inboxActor(actor, message("messaging:actions.write"));
  const blocked = await writingBlocked(db, actor);
  if (blocked) throw new AppError("forbidden", refusalMessage(blocked, actor));
}

/** The caller's conversations, the latest first, with unread counts. */
export async function inbox(db: Database, actor: Actor, limit: number): Promise<Inbox> {
  inboxActor(actor, message("messaging:actions.read"));
  const self = actor.user.sourcedId;
  const visible = conversationVisibleTo(actor, sql`me.conversation_id`);
  const contacts = contactRows(actor);
  const [rows, [counts], blocked] = await Promise.all([
    queryJsonRows<{
      id: string;
      others: MemberRow[];
      last: { authorName: string; authorId: string; html: string; pictures: number; at: string } | null;
      unread: number;
    }>(
      db,
      sql`select me.conversation_id as id, ${othersJson(actor, sql`me.conversation_id`)} as others,
          (select json_build_object('authorName', ${nameOf(sql`m.author_sourced_id`)}, 'authorId', m.author_sourced_id,
              'html', left(m.body_html, 2000), 'pictures', jsonb_array_length(m.attachments), 'at', ${isoInstant(sql`m.created_at`)})
            from messages m where m.conversation_id = me.conversation_id order by m.created_at desc, m.id desc limit 1) as last,
          ${unreadOfMe(self)} as unread
        from conversation_members me join conversations c on c.id = me.conversation_id
        where me.user_sourced_id = ${self} and ${visible}
        order by c.last_message_at desc, c.id
        limit ${limit}`,
    ),
    queryRows<{ total: number; unread: number; has_contacts: boolean }>(
      db,
      sql`select count(*)::int as total, coalesce(sum(${unreadOfMe(self)}), 0)::int as unread,
          ${contacts ? sql`exists (select 1 from (${contacts}) c)` : sql`false`} as has_contacts
        from conversation_members me where me.user_sourced_id = ${self} and ${visible}`,
    ),
    writingBlocked(db, actor),
  ]);
  const conversations: ConversationSummary[] = rows.map((row) => ({
    id: row.id,
    others: row.others.map(memberOf),
    lastMessage: row.last && {
      authorName: row.last.authorName,
      isMine: row.last.authorId === self,
      preview: previewOf(row.last.html),
      pictures: row.last.pictures,
      at: row.last.at,
    },
    unread: row.unread,
  }));
  const refusal = blocked ?? (counts?.has_contacts ? null : "noContacts");
  return {
    conversations,
    total: counts?.total ?? 0,
    unreadMessages: counts?.unread ?? 0,
    canStart: refusal === null,
    startRefusal: refusal,
  };
}

/** Unread messages and announcements, for the messages icon. */
export async function unreadSummary(db: Database, actor: Actor): Promise<UnreadSummary> {
  inboxActor(actor, message("messaging:actions.read"));
  const self = actor.user.sourcedId;
  const [row] = await queryRows<{ unread: number }>(
    db,
    sql`select (select coalesce(sum(${unreadOfMe(self)}), 0) from conversation_members me
          where me.user_sourced_id = ${self} and ${conversationVisibleTo(actor, sql`me.conversation_id`)})::int
      + (select count(*) from announcement_recipients a where a.user_sourced_id = ${self} and a.read_at is null)::int as unread`,
  );
  return { unread: row?.unread ?? 0 };
}

/** The people the caller may write to, those matching `search`, the closest relations first. */
export async function listContacts(db: Database, actor: Actor, query: ContactsQuery): Promise<ContactList> {
  inboxActor(actor, message("messaging:actions.write"));
  const rows = contactRows(actor);
  if (!rows) return { contacts: [] };
  const self = actor.user.sourcedId;
  const search = query.search ? `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const found = await queryJsonRows<{
    id: string;
    name: string;
    relations: { relation: ContactRelation; about: string | null }[];
    conversationId: string | null;
  }>(
    db,
    sql`select u.sourced_id as id, ${nameOf(sql`u.sourced_id`)} as name,
        json_agg(distinct jsonb_build_object('relation', c.relation,
          'about', coalesce(${nameOf(sql`c.about`)}, (select o.name from orgs o where o.sourced_id = c.about)))) as relations,
        (select me.conversation_id from conversation_members me
          join conversation_members them on them.conversation_id = me.conversation_id and them.user_sourced_id = u.sourced_id
          where me.user_sourced_id = ${self}
            and (select count(*) from conversation_members n where n.conversation_id = me.conversation_id) = 2
          limit 1) as "conversationId",
        min(case c.relation when 'guide' then 0 when 'office' then 1 when 'family' then 2 when 'student' then 3 else 4 end) as closeness
      from (${rows}) c join users u on u.sourced_id = c.id
      where u.status = 'active' and u.enabled_user
        ${
          search
            ? sql`and (${nameOf(sql`u.sourced_id`)} ilike ${search} or u.email ilike ${search}
          or (c.about is not null and ${nameOf(sql`c.about`)} ilike ${search}))`
            : sql``
        }
      group by u.sourced_id
      order by closeness, name, u.sourced_id
      limit ${query.limit}`,
  );
  return {
    contacts: found.map(({ id, name, relations, conversationId }) => ({
      id,
      name,
      relations: relations.sort(
        (a, b) => a.relation.localeCompare(b.relation) || (a.about ?? "").localeCompare(b.about ?? ""),
      ),
      conversationId,
    })),
  };
}

interface StoredPicture {
  storageKey: string;
  name: string;
  contentType: string;
  bytes: number;
}

interface MessageRow {
  id: string;
  authorId: string;
  authorName: string;
  bodyHtml: string;
  attachments: StoredPicture[];
  createdAt: string;
}

/** The columns of a message as a thread shows it (alias `m`). */
export const MESSAGE_COLUMNS = sql`m.id, m.author_sourced_id as "authorId", ${nameOf(sql`m.author_sourced_id`)} as "authorName",
  m.body_html as "bodyHtml", m.attachments, ${isoInstant(sql`m.created_at`)} as "createdAt"`;

export function toThreadMessage(row: MessageRow, self: string): ThreadMessage {
  return {
    id: row.id,
    authorId: row.authorId,
    authorName: row.authorName,
    isMine: row.authorId === self,
    bodyHtml: row.bodyHtml,
    pictures: row.attachments.map((picture, index) => ({
      index,
      name: picture.name,
      contentType: picture.contentType,
      bytes: picture.bytes,
      url: `/api/messaging/messages/${row.id}/pictures/${index}`,
    })),
    createdAt: row.createdAt,
  };
}

export const conversationNotFound = () =>
  new AppError("not_found", message("messaging:conversationNotFound"));

/** A conversation the caller is in: its newest messages (or those before a message), and whether they may write. */
export async function readThread(
  db: Database,
  actor: Actor,
  conversationId: string,
  before: string | undefined,
): Promise<Thread> {
  inboxActor(actor, message("messaging:actions.read"));
  const self = actor.user.sourcedId;
  const conversation = uuidEquals(sql`c.id`, conversationId);
  const [found] = await queryJsonRows<{
    id: string;
    others: MemberRow[];
    lastReadAt: string | null;
    refused: number;
  }>(
    db,
    sql`select c.id, ${othersJson(actor, sql`c.id`)} as others,
        (select ${isoInstant(sql`me.last_read_at`)} from conversation_members me
          where me.conversation_id = c.id and me.user_sourced_id = ${self}) as "lastReadAt",
        (select count(*)::int from conversation_members o where o.conversation_id = c.id
          and o.user_sourced_id <> ${self} and not ${mayWriteTo(actor, sql`o.user_sourced_id`)}) as refused
      from conversations c where ${conversation} and ${conversationVisibleTo(actor, sql`c.id`)}`,
  );
  if (!found) throw conversationNotFound();
  const older = before ? uuidEquals(sql`b.id`, before) : null;
  const rows = await queryJsonRows<MessageRow>(
    db,
    sql`select ${MESSAGE_COLUMNS} from messages m
      where m.conversation_id = ${found.id}::uuid
        ${older ? sql`and (m.created_at, m.id) < (select b.created_at, b.id from messages b where ${older} and b.conversation_id = ${found.id}::uuid)` : sql``}
      order by m.created_at desc, m.id desc limit ${THREAD_PAGE_SIZE + 1}`,
  );
  const blocked = await writingBlocked(db, actor);
  const refusal = blocked ?? (found.refused > 0 ? refusalOfRole(actor) : null);
  return {
    id: found.id,
    others: found.others.map(memberOf),
    messages: rows
      .slice(0, THREAD_PAGE_SIZE)
      .reverse()
      .map((row) => toThreadMessage(row, self)),
    hasOlder: rows.length > THREAD_PAGE_SIZE,
    lastReadAt: found.lastReadAt,
    canWrite: refusal === null,
    writingRefusal: refusal,
  };
}

/**
 * Marks a conversation read up to now (and past its latest message). Viewing Dash as someone reads
 * without marking: their unread messages stay theirs. Answers the caller's unread count after it.
 */
export async function markConversationRead(
  db: Database,
  actor: Actor,
  conversationId: string,
  now: Date,
): Promise<ReadResult & { changed: boolean }> {
  inboxActor(actor, message("messaging:actions.read"));
  const self = actor.user.sourcedId;
  const visible = conversationVisibleTo(actor, sql`me.conversation_id`);
  const [row] = await queryRows<{ found: boolean; changed: boolean }>(
    db,
    actor.session.impersonation
      ? sql`select true as found, false as changed from conversation_members me
          where ${uuidEquals(sql`me.conversation_id`, conversationId)} and me.user_sourced_id = ${self} and ${visible}`
      : sql`with marked as (
            update conversation_members me set last_read_at = greatest(${now.toISOString()}::timestamptz,
              (select max(m.created_at) from messages m where m.conversation_id = me.conversation_id))
            where ${uuidEquals(sql`me.conversation_id`, conversationId)} and me.user_sourced_id = ${self}
              and ${unreadOfMe(self)} > 0
            returning 1)
          select true as found, exists (select 1 from marked) as changed from conversation_members me
          where ${uuidEquals(sql`me.conversation_id`, conversationId)} and me.user_sourced_id = ${self}`,
  );
  if (!row?.found) throw conversationNotFound();
  const { unread } = await unreadSummary(db, actor);
  return { unread, changed: row.changed };
}

/** Why the caller may not write to this person, or null when they may; a 404 for no such active account. */
export async function refusalToWrite(
  db: Database,
  actor: Actor,
  recipientId: string,
): Promise<Message | null> {
  const [row] = await queryRows<{ exists: boolean; allowed: boolean }>(
    db,
    sql`select exists (select 1 from users u where u.sourced_id = ${recipientId} and u.status = 'active' and u.enabled_user) as exists,
        ${mayWriteTo(actor, sql`${recipientId}::text`)} as allowed`,
  );
  if (!row?.exists) throw new AppError("not_found", message("messaging:recipientNotFound"));
  return row.allowed ? null : refusalFor(actor);
}
