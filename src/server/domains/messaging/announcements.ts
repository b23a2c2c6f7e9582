import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type {
  AdminAnnouncement,
  AdminAnnouncementPage,
  AdminAnnouncementsQuery,
  AnnouncementsQuery,
  Audience,
  AudienceChoices,
  AudienceSize,
  createAnnouncementSchema,
  ReceivedAnnouncementPage,
} from "../../../shared/contracts/messaging";
import type { Language } from "../../../shared/languages";
import { type Database, isoInstant, queryJsonRows, queryRows, uuidEquals } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message, translate } from "../../lib/i18n";
import type { Logger } from "../../lib/logger";
import { invalidFields } from "../../lib/validation";
import { appUrl, buttonHtml, emailHtml, escapeHtml } from "../../platform/email/layout";
import type { LiveHub } from "../../platform/live/hub";
import { notify } from "../notifications/notify";
import { grantsRole, nameOf } from "../rostering/queries";
import { studentIdsOfClass, studentIdsUnder } from "../rostering/scope";
import { cleanMessageHtml, hasText, htmlToText } from "./text";

/** How far into the future an announcement may be set. */
const MAX_SCHEDULE_DAYS = 366;
/** An announcement set a little in the past (a slow form, a clock apart) is sent now. */
const SCHEDULE_SKEW_MS = 5 * 60_000;
/** Due announcements the sending job takes at a time. */
const DUE_BATCH = 20;
/** Where an announcement opens: the recipient's messages page, which lists them. */
const ANNOUNCEMENTS_LINK = "/app/messages";

// ---------------------------------------------------------------------------------------------
// Audiences.

/** An organisation and every organisation below it. */
function orgAndBelow(orgId: string): SQL {
  return sql`with recursive below (id) as (
      select o.sourced_id from orgs o where o.sourced_id = ${orgId}
      union select o.sourced_id from orgs o join below b on o.parent_sourced_id = b.id)
    select id from below`;
}

/** Guides and administrators of the organisation or one below it. */
function staffUnder(orgId: string): SQL {
  return sql`select r.user_sourced_id from user_roles r where r.org_sourced_id in (${orgAndBelow(orgId)})
    and (${grantsRole(sql`r.role`, "teacher")} or ${grantsRole(sql`r.role`, "administrator")})`;
}

const agentsOf = (students: SQL) =>
  sql`select a.agent_sourced_id from user_agents a where a.user_sourced_id in (${students})`;

/** Everyone an audience names, as a sub-query of ids (accounts that are not active are left out by the caller). */
function audienceIds(audience: Audience): SQL {
  switch (audience.kind) {
    case "school": {
      const students = studentIdsUnder(sql`select ${audience.orgId}::text`);
      return sql`${students} union ${agentsOf(students)} union ${staffUnder(audience.orgId)}`;
    }
    case "grade": {
      const students = sql`select g.sourced_id from users g
        where g.sourced_id in (${studentIdsUnder(sql`select ${audience.orgId}::text`)}) and ${audience.grade} = any(g.grades)`;
      return sql`${students} union ${agentsOf(students)}`;
    }
    case "class":
      return sql`${studentIdsOfClass(audience.classId)} union select e.user_sourced_id from enrollments e
        where e.class_sourced_id = ${audience.classId} and e.role = 'teacher' and e.status = 'active'`;
    case "class_parents":
      return agentsOf(studentIdsOfClass(audience.classId));
    case "staff":
      return staffUnder(audience.orgId);
  }
}

/** The active accounts an audience reaches. */
export function recipientsOf(audience: Audience): SQL {
  return sql`select u.sourced_id from users u
    where u.sourced_id in (${audienceIds(audience)}) and u.status = 'active' and u.enabled_user`;
}

/** The audience's school or class must exist: a 400 naming the field otherwise. */
async function checkAudience(db: Database, audience: Audience): Promise<void> {
  const isClass = audience.kind === "class" || audience.kind === "class_parents";
  const [found] = await queryRows<{ exists: boolean }>(
    db,
    isClass
      ? sql`select exists (select 1 from classes where sourced_id = ${audience.classId}) as exists`
      : sql`select exists (select 1 from orgs where sourced_id = ${audience.orgId}) as exists`,
  );
  if (found?.exists) return;
  throw invalidFields([
    isClass
      ? { path: "audience.classId", message: message("messaging:audience.noClass") }
      : { path: "audience.orgId", message: message("messaging:audience.noSchool") },
  ]);
}

/** How many people an audience reaches now. */
export async function audienceSize(db: Database, audience: Audience): Promise<AudienceSize> {
  await checkAudience(db, audience);
  const [row] = await queryRows<{ recipients: number }>(
    db,
    sql`select count(*)::int as recipients from (${recipientsOf(audience)}) r`,
  );
  return { recipients: row?.recipients ?? 0 };
}

/** The districts and schools (with their students' grades) and a school's classes, that an announcement can go to. */
export async function audienceChoices(db: Database, schoolId: string | undefined): Promise<AudienceChoices> {
  const [organisations, classes] = await Promise.all([
    queryJsonRows<AudienceChoices["organisations"][number]>(
      db,
      sql`select chosen.sourced_id as id, chosen.name, chosen.type,
          (select coalesce(json_agg(g.grade order by g.grade), '[]'::json) from (
            select distinct unnest(u.grades) as grade from users u
            where u.sourced_id in (${studentIdsUnder(sql`select chosen.sourced_id`)}) and u.status = 'active') g) as grades
        from orgs chosen where chosen.type in ('district', 'school') and chosen.status = 'active'
        order by chosen.type = 'school', chosen.name, chosen.sourced_id`,
    ),
    schoolId
      ? queryJsonRows<AudienceChoices["classes"][number]>(
          db,
          sql`select k.sourced_id as id, k.title, k.school_sourced_id as "schoolId" from classes k
            where k.status = 'active' and k.school_sourced_id = ${schoolId} order by k.title, k.sourced_id`,
        )
      : [],
  ]);
  return { organisations, classes };
}

// ---------------------------------------------------------------------------------------------
// Writing, scheduling and sending.

const ANNOUNCEMENT_COLUMNS = sql`a.id, a.title, a.body_html as "bodyHtml",
  a.audience || jsonb_build_object(
    'orgName', (select o.name from orgs o where o.sourced_id = a.audience ->> 'orgId'),
    'className', (select k.title from classes k where k.sourced_id = a.audience ->> 'classId')) as audience,
  case when a.cancelled_at is not null then 'cancelled' when a.sent_at is not null then 'sent' else 'scheduled' end as status,
  ${isoInstant(sql`a.scheduled_for`)} as "scheduledFor", ${isoInstant(sql`a.sent_at`)} as "sentAt",
  ${nameOf(sql`a.created_by`)} as "createdBy", ${isoInstant(sql`a.created_at`)} as "createdAt",
  ${nameOf(sql`a.cancelled_by`)} as "cancelledBy", ${isoInstant(sql`a.cancelled_at`)} as "cancelledAt",
  a.recipient_count as recipients,
  (select count(*)::int from announcement_recipients r where r.announcement_id = a.id and r.read_at is not null) as read`;

async function announcementById(db: Database, id: string): Promise<AdminAnnouncement> {
  const [row] = await queryJsonRows<AdminAnnouncement>(
    db,
    sql`select ${ANNOUNCEMENT_COLUMNS} from announcements a where ${uuidEquals(sql`a.id`, id)}`,
  );
  if (!row) throw new AppError("not_found", message("messaging:announcementNotFound"));
  return row;
}

/**
 * Writes an announcement for an audience, to go now (`scheduledFor` null) or at a later time. One
 * to go now is sent before the answer; should that fail, the sending job sends it within a minute.
 */
export async function createAnnouncement(
  deps: { db: Database; live: Pick<LiveHub, "publish">; logger: Logger },
  actor: Actor,
  input: z.output<typeof createAnnouncementSchema>,
  now: Date,
): Promise<AdminAnnouncement> {
  const { db } = deps;
  const bodyHtml = cleanMessageHtml(input.bodyHtml);
  if (!hasText(bodyHtml))
    throw invalidFields([{ path: "bodyHtml", message: message("messaging:emptyAnnouncement") }]);
  await checkAudience(db, input.audience);
  let scheduledFor = now;
  if (input.scheduledFor) {
    const at = new Date(input.scheduledFor);
    if (at.getTime() < now.getTime() - SCHEDULE_SKEW_MS)
      throw invalidFields([{ path: "scheduledFor", message: message("messaging:schedule.past") }]);
    if (at.getTime() > now.getTime() + MAX_SCHEDULE_DAYS * 86_400_000)
      throw invalidFields([
        { path: "scheduledFor", message: message("messaging:schedule.tooFar", { days: MAX_SCHEDULE_DAYS }) },
      ]);
    if (at > now) scheduledFor = at;
  }
  // send_email stays true: each person's own choice for announcements decides whether they get the email.
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`insert into announcements (title, body_html, audience, send_email, scheduled_for, created_by, created_at)
      values (${input.title}, ${bodyHtml}, ${JSON.stringify(input.audience)}::jsonb, true,
        ${scheduledFor.toISOString()}::timestamptz, ${actor.realUser.sourcedId}, ${now.toISOString()}::timestamptz)
      returning id`,
  );
  const id = row?.id as string;
  if (scheduledFor <= now) {
    try {
      await sendAnnouncement(deps, id, now);
    } catch (error) {
      // Left due: the sending job tries again within a minute, and the list shows it as scheduled.
      deps.logger.warn("announcement not sent at once", { id, error: String(error) });
    }
  }
  return announcementById(db, id);
}

/** The announcement in an email, in one language: its title, its text, and a link to Dash. */
function announcementEmail(title: string, bodyHtml: string, senderName: string, language: Language) {
  const from = translate(message("messaging:email.from", { senderName }), language);
  const open = translate(message("messaging:email.open"), language);
  const url = appUrl(ANNOUNCEMENTS_LINK);
  return {
    subject: title,
    text: `${title}\n\n${htmlToText(bodyHtml)}\n\n${from}\n\n${open}: ${url}\n`,
    html: emailHtml({
      language,
      title,
      bodyHtml: `<h1 style="margin:0 0 16px;font-size:22px">${escapeHtml(title)}</h1>\n${bodyHtml}\n<p style="margin:16px 0 0;color:#52525b">${escapeHtml(from)}</p>\n${buttonHtml(open, url)}`,
    }),
  };
}

/**
 * Sends one announcement, once: it is claimed (due, not sent, not cancelled), its recipients are
 * resolved and recorded, and they are told (in the app and by email), all in one transaction, so a
 * failure leaves it due for the next run and a second run sends nothing. Answers whether it sent.
 */
export async function sendAnnouncement(
  deps: { db: Database; live: Pick<LiveHub, "publish"> },
  id: string,
  now: Date,
): Promise<boolean> {
  const toPublish: Parameters<LiveHub["publish"]>[] = [];
  const recipients = await deps.db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [claimed] = await queryRows<{
      title: string;
      body_html: string;
      audience: Audience;
      sender: string;
    }>(
      tx,
      sql`update announcements a set sent_at = ${now.toISOString()}::timestamptz
        where ${uuidEquals(sql`a.id`, id)} and a.sent_at is null and a.cancelled_at is null
          and a.scheduled_for <= ${now.toISOString()}::timestamptz
        returning a.title, a.body_html, a.audience, ${nameOf(sql`a.created_by`)} as sender`,
    );
    if (!claimed) return null;
    const reached = await queryRows<{ user_sourced_id: string }>(
      tx,
      sql`insert into announcement_recipients (announcement_id, user_sourced_id, delivered_at)
        select ${id}::uuid, r.sourced_id, ${now.toISOString()}::timestamptz from (${recipientsOf(claimed.audience)}) r
        on conflict do nothing returning user_sourced_id`,
    );
    const userIds = reached.map((row) => row.user_sourced_id);
    await tx.execute(
      sql`update announcements set recipient_count = ${userIds.length} where id = ${id}::uuid`,
    );
    // Told inside the transaction; their open pages hear of it once it is committed.
    await notify(
      { db: tx, live: { publish: async (...args) => void toPublish.push(args) } },
      {
        userIds,
        type: "announcement.published",
        params: { title: claimed.title, senderName: claimed.sender ?? "" },
        link: ANNOUNCEMENTS_LINK,
        dedupeKey: `announcement:${id}`,
        email: (language) =>
          announcementEmail(claimed.title, claimed.body_html, claimed.sender ?? "", language),
      },
    );
    return userIds;
  });
  if (!recipients) return false;
  for (const args of toPublish) await deps.live.publish(...args);
  // Their inbox lists announcements: it refreshes as a conversation's change does.
  await deps.live.publish("conversation-changed", recipients);
  return true;
}

/** Sends every announcement that is due; answers how many were sent. */
export async function sendDueAnnouncements(
  deps: { db: Database; live: Pick<LiveHub, "publish"> },
  now: Date,
): Promise<number> {
  let sent = 0;
  for (;;) {
    const due = await queryRows<{ id: string }>(
      deps.db,
      sql`select id from announcements where sent_at is null and cancelled_at is null
        and scheduled_for <= ${now.toISOString()}::timestamptz order by scheduled_for, id limit ${DUE_BATCH}`,
    );
    let sentNow = 0;
    for (const { id } of due) if (await sendAnnouncement(deps, id, now)) sentNow++;
    sent += sentNow;
    if (due.length < DUE_BATCH || sentNow === 0) return sent;
  }
}

/** Cancels a scheduled announcement; one already sent or cancelled is a conflict. */
export async function cancelAnnouncement(
  db: Database,
  actor: Actor,
  id: string,
  now: Date,
): Promise<AdminAnnouncement> {
  const [cancelled] = await queryRows<{ id: string }>(
    db,
    sql`update announcements set cancelled_at = ${now.toISOString()}::timestamptz, cancelled_by = ${actor.realUser.sourcedId}
      where ${uuidEquals(sql`id`, id)} and sent_at is null and cancelled_at is null returning id`,
  );
  const announcement = await announcementById(db, id);
  if (!cancelled)
    throw new AppError(
      "conflict",
      message(announcement.status === "sent" ? "messaging:alreadySent" : "messaging:alreadyCancelled"),
    );
  return announcement;
}

/** Announcements of a status, newest first (scheduled ones soonest first), with how far each reached. */
export async function listAnnouncements(
  db: Database,
  query: AdminAnnouncementsQuery,
): Promise<AdminAnnouncementPage> {
  const where =
    query.status === "scheduled"
      ? sql`a.sent_at is null and a.cancelled_at is null`
      : query.status === "sent"
        ? sql`a.sent_at is not null`
        : sql`a.cancelled_at is not null`;
  const order =
    query.status === "scheduled"
      ? sql`a.scheduled_for, a.id`
      : query.status === "sent"
        ? sql`a.sent_at desc, a.id`
        : sql`a.cancelled_at desc, a.id`;
  const [items, [count]] = await Promise.all([
    queryJsonRows<AdminAnnouncement>(
      db,
      sql`select ${ANNOUNCEMENT_COLUMNS} from announcements a where ${where} order by ${order} limit ${query.limit} offset ${query.offset}`,
    ),
    queryRows<{ total: number }>(db, sql`select count(*)::int as total from announcements a where ${where}`),
  ]);
  return {
    items,
    total: count?.total ?? 0,
  };
}

// ---------------------------------------------------------------------------------------------
// Reading them.

/** The announcements that reached the caller, newest first. */
export async function receivedAnnouncements(
  db: Database,
  actor: Actor,
  query: AnnouncementsQuery,
): Promise<ReceivedAnnouncementPage> {
  const self = actor.user.sourcedId;
  const [items, [count]] = await Promise.all([
    queryJsonRows<ReceivedAnnouncementPage["items"][number]>(
      db,
      sql`select a.id, a.title, a.body_html as "bodyHtml", ${nameOf(sql`a.created_by`)} as "senderName",
          ${isoInstant(sql`a.sent_at`)} as "sentAt", ${isoInstant(sql`r.read_at`)} as "readAt"
        from announcement_recipients r join announcements a on a.id = r.announcement_id
        where r.user_sourced_id = ${self}
        order by a.sent_at desc, a.id limit ${query.limit} offset ${query.offset}`,
    ),
    queryRows<{ total: number; unread: number }>(
      db,
      sql`select count(*)::int as total, count(*) filter (where r.read_at is null)::int as unread
        from announcement_recipients r where r.user_sourced_id = ${self}`,
    ),
  ]);
  return { items, total: count?.total ?? 0, unread: count?.unread ?? 0 };
}

/**
 * Marks an announcement the caller received as read (once: the first time counts). Viewing Dash as
 * someone reads without marking. A 404 for one that did not reach them.
 */
export async function markAnnouncementRead(
  db: Database,
  actor: Actor,
  id: string,
  now: Date,
): Promise<boolean> {
  const [row] = await queryRows<{ changed: boolean }>(
    db,
    actor.session.impersonation
      ? sql`select false as changed from announcement_recipients r
          where ${uuidEquals(sql`r.announcement_id`, id)} and r.user_sourced_id = ${actor.user.sourcedId}`
      : sql`with marked as (update announcement_recipients r set read_at = ${now.toISOString()}::timestamptz
            where ${uuidEquals(sql`r.announcement_id`, id)} and r.user_sourced_id = ${actor.user.sourcedId}
              and r.read_at is null returning 1)
          select exists (select 1 from marked) as changed from announcement_recipients r
          where ${uuidEquals(sql`r.announcement_id`, id)} and r.user_sourced_id = ${actor.user.sourcedId}`,
  );
  if (!row) throw new AppError("not_found", message("messaging:announcementNotFound"));
  return row.changed;
}
