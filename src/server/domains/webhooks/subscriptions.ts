import { randomUUID } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  WEBHOOK_SECRET_HINT_LENGTH,
  type WebhookSubscription,
  type webhookSubscriptionChangesSchema,
  type webhookSubscriptionInputSchema,
} from "../../../shared/contracts/webhooks";
import { type Database, isoInstant, queryJsonRows, queryRows, uuidEquals } from "../../db/client";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import type { SecretBox } from "../../lib/secret-box";
import { secretContextOf } from "./delivery";

type Input = z.output<typeof webhookSubscriptionInputSchema>;
type Changes = z.output<typeof webhookSubscriptionChangesSchema>;

const DAY_MS = 86_400_000;

const notFound = () => new AppError("not_found", message("webhooks:subscriptionNotFound"));

/** The last characters of a secret, for the monitor to tell secrets apart; the rest is never shown. */
function hintOf(secretBox: SecretBox, id: string, envelope: string): string {
  try {
    return `…${secretBox.decryptSecret(envelope, secretContextOf(id)).slice(-WEBHOOK_SECRET_HINT_LENGTH)}`;
  } catch {
    return "?";
  }
}

type Row = Omit<WebhookSubscription, "secretHint"> & { envelope: string };

function readSubscriptions(db: Database, where: SQL, now: Date): Promise<Row[]> {
  return queryJsonRows<Row>(
    db,
    sql`select s.id, s.url, s.events, s.description, s.is_active as "isActive", s.secret_envelope as envelope,
        ${isoInstant(sql`s.created_at`)} as "createdAt", s.created_by as "createdBy",
        ${isoInstant(sql`s.updated_at`)} as "updatedAt",
        json_build_object('succeeded', coalesce(r.succeeded, 0), 'failed', coalesce(r.failed, 0),
          'pending', coalesce(r.pending, 0)) as recent
      from webhook_subscriptions s
      left join lateral (
        select count(*) filter (where d.state = 'succeeded')::int as succeeded,
          count(*) filter (where d.state = 'failed')::int as failed,
          count(*) filter (where d.state in ('queued', 'delivering'))::int as pending
        from webhook_deliveries d
        where d.subscription_id = s.id and d.created_at >= ${new Date(now.getTime() - DAY_MS)}) r on true
      where s.removed_at is null and ${where}
      order by s.created_at, s.id`,
  );
}

/** The subscriptions not removed, newest last, with their last day's deliveries counted. */
export async function listSubscriptions(
  db: Database,
  secretBox: SecretBox,
  now: Date,
): Promise<WebhookSubscription[]> {
  const rows = await readSubscriptions(db, sql`true`, now);
  return rows.map(({ envelope, ...row }) => ({ ...row, secretHint: hintOf(secretBox, row.id, envelope) }));
}

async function getSubscription(db: Database, secretBox: SecretBox, id: string, now: Date) {
  const [row] = await readSubscriptions(db, uuidEquals(sql`s.id`, id), now);
  if (!row) throw notFound();
  const { envelope, ...rest } = row;
  return { ...rest, secretHint: hintOf(secretBox, row.id, envelope) };
}

export async function createSubscription(
  db: Database,
  secretBox: SecretBox,
  actorId: string,
  input: Input,
  now: Date,
): Promise<WebhookSubscription> {
  const id = randomUUID();
  await db.execute(
    sql`insert into webhook_subscriptions (id, url, events, secret_envelope, description, created_by, created_at)
        values (${id}::uuid, ${input.url}, ${sql.param(input.events)}::text[],
          ${secretBox.encryptSecret(input.secret, secretContextOf(id))}, ${input.description ?? null},
          ${actorId}, ${now})`,
  );
  return getSubscription(db, secretBox, id, now);
}

export async function updateSubscription(
  db: Database,
  secretBox: SecretBox,
  actorId: string,
  id: string,
  changes: Changes,
  now: Date,
): Promise<WebhookSubscription> {
  const set: SQL[] = [sql`updated_by = ${actorId}`, sql`updated_at = ${now}`];
  if (changes.url !== undefined) set.push(sql`url = ${changes.url}`);
  if (changes.events !== undefined) set.push(sql`events = ${sql.param(changes.events)}::text[]`);
  if (changes.secret !== undefined)
    set.push(sql`secret_envelope = ${secretBox.encryptSecret(changes.secret, secretContextOf(id))}`);
  if (changes.description !== undefined) set.push(sql`description = ${changes.description}`);
  if (changes.isActive !== undefined) set.push(sql`is_active = ${changes.isActive}`);
  const updated = await queryRows<{ id: string }>(
    db,
    sql`update webhook_subscriptions set ${sql.join(set, sql`, `)}
        where ${uuidEquals(sql`id`, id)} and removed_at is null returning id`,
  );
  if (updated.length === 0) throw notFound();
  return getSubscription(db, secretBox, id, now);
}

/**
 * Removes a subscription: its row and deliveries stay (the monitor keeps their meaning), its
 * waiting deliveries fail at once, and it hears of nothing more. One transaction.
 */
export async function removeSubscription(
  db: Database,
  actorId: string,
  id: string,
  now: Date,
): Promise<void> {
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const removed = await queryRows<{ id: string }>(
      tx,
      sql`update webhook_subscriptions set removed_at = ${now}, removed_by = ${actorId}, is_active = false
          where ${uuidEquals(sql`id`, id)} and removed_at is null returning id`,
    );
    if (removed.length === 0) throw notFound();
    await tx.execute(
      sql`update webhook_deliveries set state = 'failed', finished_at = ${now}, locked_by = null,
            last_error = ${"The subscription was removed"}
          where subscription_id = ${id}::uuid and state = 'queued'`,
    );
  });
}

/** Whether a subscription exists (not removed), for the test event. */
export async function assertSubscriptionExists(db: Database, id: string): Promise<void> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`select id from webhook_subscriptions where ${uuidEquals(sql`id`, id)} and removed_at is null`,
  );
  if (!row) throw notFound();
}
