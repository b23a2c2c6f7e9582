import { sql } from "drizzle-orm";
import type { z } from "zod";
import {
  MAX_PICTURE_BYTES,
  PICTURE_KINDS,
  type SentMessage,
  type sendMessageSchema,
} from "../../../shared/contracts/messaging";
import { type Database, queryRows, uuidEquals } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { formatBytes } from "../../lib/uploads";
import { invalidFields } from "../../lib/validation";
import type { JobRunner } from "../../platform/jobs/runner";
import type { LiveHub } from "../../platform/live/hub";
import type { FileStorage } from "../../platform/storage";
import { KINDS, SNIFF_BYTES } from "../../platform/storage/content";
import {
  assertMayWrite,
  conversationNotFound,
  MESSAGE_COLUMNS,
  refusalFor,
  refusalToWrite,
  toThreadMessage,
} from "./conversations";
import { conversationVisibleTo, mayWriteTo } from "./reach";
import { cleanMessageHtml, hasText } from "./text";

/** The job that tells members who have not read a message by the time it runs. */
export const MESSAGE_NOTIFY_JOB = "messaging.notify";
/** Long enough for an open conversation to mark the message read: only people not looking are told. */
export const MESSAGE_NOTIFY_DELAY_MS = 30_000;
/** The storage folder of messages' pictures. */
const PICTURE_FOLDER = "messages";

export interface MessagingDeps {
  db: Database;
  storage: FileStorage;
  live: Pick<LiveHub, "publish">;
  jobs: Pick<JobRunner, "enqueue">;
}

type PictureKind = (typeof PICTURE_KINDS)[number];

interface DecodedPicture {
  name: string;
  kind: PictureKind;
  bytes: Buffer;
}

/** A picture as a message keeps it (messages.attachments). */
interface StoredPicture {
  storageKey: string;
  name: string;
  contentType: string;
  bytes: number;
}

/** The kind of picture the bytes are, told by their first bytes; null when they are none of the kinds taken. */
export function pictureKindOf(bytes: Uint8Array): PictureKind | null {
  const head = bytes.subarray(0, SNIFF_BYTES);
  return PICTURE_KINDS.find((kind) => KINDS[kind].signature?.(head)) ?? null;
}

/** Decodes a picture and tells its kind by its bytes: whatever its name or declared type says. */
function decodePicture(upload: { name: string; data: string }): DecodedPicture {
  const bytes = Buffer.from(upload.data, "base64");
  if (bytes.length === 0)
    throw new AppError("bad_request", message("messaging:pictures.empty", { name: upload.name }));
  if (bytes.length > MAX_PICTURE_BYTES)
    throw new AppError(
      "payload_too_large",
      message("messaging:pictures.tooLarge", { name: upload.name, limit: formatBytes(MAX_PICTURE_BYTES) }),
    );
  const kind = pictureKindOf(bytes);
  if (!kind)
    throw new AppError(
      "unsupported_media_type",
      message("messaging:pictures.notAPicture", { name: upload.name }),
    );
  return { name: upload.name, kind, bytes };
}

async function storePictures(storage: FileStorage, pictures: DecodedPicture[]): Promise<StoredPicture[]> {
  const stored: StoredPicture[] = [];
  try {
    for (const picture of pictures) {
      const put = await storage.put(picture.bytes, {
        folder: PICTURE_FOLDER,
        contentType: KINDS[picture.kind].contentType,
        accept: PICTURE_KINDS,
        maxBytes: MAX_PICTURE_BYTES,
      });
      stored.push({ storageKey: put.key, name: picture.name, contentType: put.contentType, bytes: put.size });
    }
    return stored;
  } catch (error) {
    await forgetPictures(storage, stored);
    throw error;
  }
}

async function forgetPictures(storage: FileStorage, pictures: StoredPicture[]): Promise<void> {
  await Promise.all(pictures.map((picture) => storage.delete(picture.storageKey).catch(() => {})));
}

/**
 * The direct conversation of the caller and the recipient, begun when they have none. Two sends
 * at once to the same person begin one conversation: the pair is locked for the transaction.
 */
async function directConversation(
  tx: Database,
  self: string,
  recipientId: string,
  now: Date,
): Promise<string> {
  const pair = [self, recipientId].sort().join("|");
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`messaging:${pair}`}))`);
  const [existing] = await queryRows<{ id: string }>(
    tx,
    sql`select me.conversation_id as id from conversation_members me
      join conversation_members them on them.conversation_id = me.conversation_id and them.user_sourced_id = ${recipientId}
      where me.user_sourced_id = ${self}
        and (select count(*) from conversation_members n where n.conversation_id = me.conversation_id) = 2
      order by me.joined_at limit 1`,
  );
  if (existing) return existing.id;
  const [started] = await queryRows<{ id: string }>(
    tx,
    sql`with started as (insert into conversations (created_by, created_at, last_message_at)
          values (${self}, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz) returning id),
        joined as (insert into conversation_members (conversation_id, user_sourced_id, joined_at)
          select started.id, member, ${now.toISOString()}::timestamptz from started,
            (values (${self}::text), (${recipientId}::text)) members (member) returning 1)
      select id from started where (select count(*) from joined) = 2`,
  );
  return started?.id as string;
}

interface InsertedMessage {
  id: string;
  conversationId: string;
  authorId: string;
  authorName: string;
  bodyHtml: string;
  attachments: StoredPicture[];
  createdAt: string;
  memberIds: string[];
}

/**
 * Stores the message when the caller is in the conversation and may still write to everyone else
 * in it, in the one statement that checks it: the conversation's latest time and the author's
 * reading move with it. Each message is later than the one before, even within a millisecond.
 */
async function insertMessage(
  db: Database,
  actor: Actor,
  conversationId: string,
  bodyHtml: string,
  pictures: StoredPicture[],
  now: Date,
): Promise<InsertedMessage | undefined> {
  const self = actor.user.sourcedId;
  const at = sql`${now.toISOString()}::timestamptz`;
  // A statement that writes in its WITH must stand at the top: its rows come as they are, not as JSON.
  const [row] = await queryRows<InsertedMessage>(
    db,
    sql`with sent as (
          insert into messages (conversation_id, author_sourced_id, body_html, attachments, created_at)
          select c.id, ${self}, ${bodyHtml}, ${JSON.stringify(pictures)}::jsonb,
            greatest(${at}, coalesce((select max(x.created_at) from messages x where x.conversation_id = c.id)
              + interval '1 millisecond', ${at}))
          from conversations c
          where ${uuidEquals(sql`c.id`, conversationId)}
            and exists (select 1 from conversation_members me where me.conversation_id = c.id and me.user_sourced_id = ${self})
            and not exists (select 1 from conversation_members o where o.conversation_id = c.id
              and o.user_sourced_id <> ${self} and not ${mayWriteTo(actor, sql`o.user_sourced_id`)})
          returning *),
        latest as (update conversations c set last_message_at = s.created_at from sent s where c.id = s.conversation_id returning 1),
        read as (update conversation_members me set last_read_at = s.created_at from sent s
          where me.conversation_id = s.conversation_id and me.user_sourced_id = ${self} returning 1)
      select ${MESSAGE_COLUMNS}, m.conversation_id as "conversationId",
        (select json_agg(n.user_sourced_id) from conversation_members n where n.conversation_id = m.conversation_id) as "memberIds"
      from sent m`,
  );
  return row;
}

/**
 * Sends a message: to a conversation the caller is in, or to a person they may write to (their
 * conversation, begun when there is none). Text is sanitised; pictures are told by their bytes
 * and kept in the file storage. Everyone in the conversation sees it at once on their open pages;
 * those who have not read it a little later are told (MESSAGE_NOTIFY_JOB).
 */
export async function sendMessage(
  deps: MessagingDeps,
  actor: Actor,
  input: z.output<typeof sendMessageSchema>,
  now: Date,
): Promise<SentMessage> {
  const { db, storage } = deps;
  await assertMayWrite(db, actor);
  const bodyHtml = cleanMessageHtml(input.bodyHtml);
  const hasWords = hasText(bodyHtml);
  if (!hasWords && input.pictures.length === 0)
    throw invalidFields([{ path: "bodyHtml", message: message("messaging:emptyMessage") }]);
  const decoded = input.pictures.map(decodePicture);
  const self = actor.user.sourcedId;

  const recipientId = input.recipientId;
  if (recipientId) {
    if (recipientId === self)
      throw invalidFields([{ path: "recipientId", message: message("messaging:notToYourself") }]);
    const refusal = await refusalToWrite(db, actor, recipientId);
    if (refusal) throw new AppError("forbidden", refusal);
  }

  const pictures = await storePictures(storage, decoded);
  let sent: InsertedMessage | undefined;
  try {
    sent = recipientId
      ? await db.transaction(async (transaction) => {
          const tx = transaction as unknown as Database;
          const conversationId = await directConversation(tx, self, recipientId, now);
          return insertMessage(tx, actor, conversationId, hasWords ? bodyHtml : "", pictures, now);
        })
      : await insertMessage(
          db,
          actor,
          input.conversationId as string,
          hasWords ? bodyHtml : "",
          pictures,
          now,
        );
    if (!sent)
      throw recipientId
        ? new AppError("forbidden", refusalFor(actor))
        : await whyNotSent(db, actor, input.conversationId as string);
  } catch (error) {
    await forgetPictures(storage, pictures);
    throw error;
  }

  const { conversationId } = sent;
  await deps.live.publish("conversation-changed", sent.memberIds, { conversationId });
  await deps.jobs.enqueue(
    MESSAGE_NOTIFY_JOB,
    { messageId: sent.id },
    { key: sent.id, runAt: new Date(now.getTime() + MESSAGE_NOTIFY_DELAY_MS) },
  );
  return { conversationId, message: toThreadMessage(sent, self) };
}

/** A conversation the caller is not in is not found; one they are in, but may no longer write in, refused. */
async function whyNotSent(db: Database, actor: Actor, conversationId: string): Promise<AppError> {
  const [row] = await queryRows<{ member: boolean }>(
    db,
    sql`select ${conversationVisibleTo(actor, sql`c.id`)} as member
      from conversations c where ${uuidEquals(sql`c.id`, conversationId)}`,
  );
  return row?.member ? new AppError("forbidden", refusalFor(actor)) : conversationNotFound();
}

/** A picture of a message the caller may read: where it is kept and its name; a 404 otherwise. */
export async function pictureOf(
  db: Database,
  actor: Actor,
  messageId: string,
  index: number,
): Promise<{ storageKey: string; name: string }> {
  const [row] = await queryRows<{ picture: StoredPicture | null }>(
    db,
    sql`select m.attachments -> ${index}::int as picture from messages m
      where ${uuidEquals(sql`m.id`, messageId)} and ${conversationVisibleTo(actor, sql`m.conversation_id`)}`,
  );
  if (!row?.picture) throw new AppError("not_found", message("messaging:pictures.notFound"));
  return { storageKey: row.picture.storageKey, name: row.picture.name };
}
