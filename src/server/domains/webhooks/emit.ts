import { createHash, randomUUID } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import type {
  WebhookDeliveredType,
  WebhookEventData,
  WebhookEventType,
} from "../../../shared/contracts/webhooks";
import { type Database, queryRows } from "../../db/client";

/** Attempts of a delivery, the first included, before it is failed (about 2 hours of retries). */
export const DELIVERY_MAX_ATTEMPTS = 8;

/**
 * Told, in this process, when deliveries were queued, so the delivery job runs soon (set by the
 * webhooks' jobs; see jobs.ts). It must not wait on the database: an event is emitted inside the
 * transaction of its change, and on the embedded database a query outside that transaction waits
 * for it to end.
 */
let wakeDelivery: ((at: Date) => void) | null = null;

export function onDeliveriesQueued(listener: ((at: Date) => void) | null): void {
  wakeDelivery = listener;
}

/** Wakes the delivery job for deliveries queued at `at`. */
export function deliveriesQueued(at: Date): void {
  wakeDelivery?.(at);
}

/** The event id of an event that has a natural key: emitting it again queues nothing new. */
export function eventIdOf(type: string, key: string): string {
  const hex = createHash("sha256").update(`${type}\u0000${key}`).digest("hex");
  // Shaped as a version 4 UUID so it passes every uuid check (the variant and version bits set).
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${((Number.parseInt(hex[16] as string, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export interface EmitOptions {
  /** When it happened (default: now). */
  at?: Date;
  /** A natural key (a redemption's id and step): the same key is one event, queued once per subscription. */
  key?: string;
}

/**
 * Queues one delivery of an event for each active subscription to its type, in one statement
 * (nothing is written when no one subscribed). Call it inside the transaction of the change, so
 * the event exists exactly when the change does.
 */
export async function emitWebhookEvent<Type extends WebhookEventType>(
  db: Database,
  type: Type,
  data: WebhookEventData<Type>,
  options: EmitOptions = {},
): Promise<number> {
  const eventId = options.key ? eventIdOf(type, options.key) : randomUUID();
  const events = sql`select ${eventId}::uuid as event_id, ${JSON.stringify(data)}::jsonb as data`;
  return queueDeliveries(db, type, events, options.at ?? new Date());
}

/**
 * Queues several events of one type, made by `events`, a query of `event_id uuid, data jsonb`
 * rows shaped as the type's `WebhookEventData`; it runs only when someone subscribed to the type.
 */
export async function emitWebhookEvents(db: Database, type: WebhookEventType, events: SQL, at = new Date()) {
  return queueDeliveries(db, type, events, at);
}

/** Sends a test event to one subscription, whatever it subscribed to. */
export async function emitTestEvent(
  db: Database,
  subscriptionId: string,
  requestedBy: string,
  at = new Date(),
): Promise<string | null> {
  const eventId = randomUUID();
  const data: WebhookEventData<"webhook.test"> = {
    message: "A test event sent from Dash's webhook monitor",
  };
  const payload = payloadOf("webhook.test", eventId, at, data);
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`insert into webhook_deliveries (subscription_id, event_type, event_id, payload, max_attempts,
          next_attempt_at, created_at, requested_by)
        select s.id, 'webhook.test', ${eventId}::uuid, ${JSON.stringify(payload)}::jsonb, ${DELIVERY_MAX_ATTEMPTS},
          ${at}, ${at}, ${requestedBy}
        from webhook_subscriptions s where s.id = ${subscriptionId}::uuid and s.removed_at is null
        returning id`,
  );
  if (row) deliveriesQueued(at);
  return row?.id ?? null;
}

function payloadOf(type: WebhookDeliveredType, id: string, at: Date, data: Record<string, unknown>) {
  return { id, type, occurredAt: at.toISOString(), data };
}

async function queueDeliveries(db: Database, type: WebhookEventType, events: SQL, at: Date): Promise<number> {
  const occurredAt = at.toISOString();
  const [queued] = await queryRows<{ count: number }>(
    db,
    sql`with subscribed as (
          select id from webhook_subscriptions
          where is_active and removed_at is null and ${type} = any(events)),
        events as (
          select e.event_id, e.data from (${events}) e where exists (select 1 from subscribed)),
        queued as (
          insert into webhook_deliveries (subscription_id, event_type, event_id, payload, max_attempts,
            next_attempt_at, created_at)
          select s.id, ${type}, e.event_id,
            jsonb_build_object('id', e.event_id, 'type', ${type}::text, 'occurredAt', ${occurredAt}::text, 'data', e.data),
            ${DELIVERY_MAX_ATTEMPTS}, ${at}, ${at}
          from subscribed s cross join events e
          on conflict (subscription_id, event_id) where replay_of is null do nothing
          returning 1)
        select count(*)::int as count from queued`,
  );
  const count = Number(queued?.count ?? 0);
  if (count > 0) deliveriesQueued(at);
  return count;
}
