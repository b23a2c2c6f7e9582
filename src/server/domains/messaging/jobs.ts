import { sql } from "drizzle-orm";
import { type Database, isoInstant, queryRows } from "../../db/client";
import { message } from "../../lib/i18n";
import type { JobRunner } from "../../platform/jobs/runner";
import type { LiveHub } from "../../platform/live/hub";
import type { FileStorage } from "../../platform/storage";
import type { DomainJobDeps } from "../../server-jobs";
import { notifyEach } from "../notifications/notify";
import { nameOf } from "../rostering/queries";
import { sendDueAnnouncements } from "./announcements";
import { MESSAGE_NOTIFY_JOB } from "./messages";

/** Messages whose pictures are deleted per round. */
const PICTURE_BATCH = 200;

/**
 * Tells the members of a message's conversation who have not read it (they are not looking at it),
 * once per stretch of unread messages: the key names the time they last read, so the next message
 * they miss after reading tells them again, and those before it do not.
 */
export async function notifyUnreadMembers(
  deps: { db: Database; live: Pick<LiveHub, "publish"> },
  messageId: string,
): Promise<number> {
  const members = await queryRows<{
    conversation_id: string;
    sender: string;
    user_id: string;
    last_read_at: string | null;
  }>(
    deps.db,
    sql`select m.conversation_id, ${nameOf(sql`m.author_sourced_id`)} as sender, o.user_sourced_id as user_id,
        ${isoInstant(sql`o.last_read_at`)} as last_read_at
      from messages m join conversation_members o on o.conversation_id = m.conversation_id
      where m.id = ${messageId}::uuid and o.user_sourced_id <> m.author_sourced_id
        and coalesce(o.last_read_at, '-infinity'::timestamptz) < m.created_at`,
  );
  return notifyEach(
    deps,
    "message.received",
    members.map((member) => ({
      userId: member.user_id,
      params: { senderName: member.sender ?? "" },
      link: `/app/messages?conversation=${member.conversation_id}`,
      dedupeKey: `message:${member.conversation_id}:${member.last_read_at ?? "never"}`,
    })),
  );
}

/**
 * Deletes the pictures of messages whose author's personal data was removed (anonymising keeps the
 * message, without its words, and leaves its files to this job, which the storage can undo nothing
 * of inside a transaction). A file already gone counts as deleted. Answers the messages cleared.
 */
export async function deletePicturesOfRemovedAuthors(db: Database, storage: FileStorage): Promise<number> {
  let cleared = 0;
  for (;;) {
    const due = await queryRows<{ id: string; keys: string[] }>(
      db,
      sql`select m.id, (select coalesce(array_agg(p ->> 'storageKey'), '{}') from jsonb_array_elements(m.attachments) p) as keys
        from messages m
        where m.attachments <> '[]'::jsonb
          and m.author_sourced_id in (select a.student_sourced_id from student_anonymisations a)
        limit ${PICTURE_BATCH}`,
    );
    if (due.length === 0) return cleared;
    await Promise.all(due.flatMap((row) => row.keys.map((key) => storage.delete(key))));
    await db.execute(sql`update messages set attachments = '[]'::jsonb
      where id in (select jsonb_array_elements_text(${JSON.stringify(due.map((row) => row.id))}::jsonb)::uuid)`);
    cleared += due.length;
  }
}

export function defineMessagingJobs(runner: JobRunner, deps: DomainJobDeps): void {
  const { db, live, storage, logger, now } = deps;

  runner.define("messaging.announcements", {
    description: message("messaging:jobs.announcements"),
    timeoutMs: 15 * 60_000,
    handler: async () => {
      const sent = await sendDueAnnouncements({ db, live }, now());
      if (sent > 0) logger.info("scheduled announcements sent", { sent });
    },
  });
  runner.schedule("messaging.announcements", { everyMs: 60_000 });

  runner.define(MESSAGE_NOTIFY_JOB, {
    description: message("messaging:jobs.notify"),
    handler: async ({ payload }) => {
      const messageId = (payload as { messageId?: unknown }).messageId;
      if (typeof messageId === "string") await notifyUnreadMembers({ db, live }, messageId);
    },
  });

  runner.define("messaging.pictures", {
    description: message("messaging:jobs.pictures"),
    timeoutMs: 60 * 60_000,
    handler: async () => {
      const cleared = await deletePicturesOfRemovedAuthors(db, storage);
      if (cleared > 0) logger.info("pictures of removed messages deleted", { messages: cleared });
    },
  });
  runner.schedule("messaging.pictures", { dailyAt: "03:15", timeZone: "UTC" });
}
