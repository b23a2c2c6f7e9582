import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  type IngestRequestPage,
  type ingestRequestsQuerySchema,
  WEBHOOK_PAGE_SIZE,
  type WebhookDeliveryPage,
  type WebhookReplayResult,
  type webhookDeliveriesQuerySchema,
  type webhookReplayRequestSchema,
} from "../../../shared/contracts/webhooks";
import { type Database, isoInstant, queryJsonRows, queryRows } from "../../db/client";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { deliveriesQueued } from "./emit";

type DeliveriesQuery = z.output<typeof webhookDeliveriesQuerySchema>;
type ReplayRequest = z.output<typeof webhookReplayRequestSchema>;
type IngestQuery = z.output<typeof ingestRequestsQuerySchema>;

/** The filters of the monitor's deliveries table (and of a bulk replay), as one condition. */
function deliveryFilter(filter: Omit<DeliveriesQuery, "page">): SQL {
  const conditions: SQL[] = [sql`true`];
  if (filter.subscriptionId) conditions.push(sql`d.subscription_id = ${filter.subscriptionId}::uuid`);
  if (filter.event) conditions.push(sql`d.event_type = ${filter.event}`);
  if (filter.state) conditions.push(sql`d.state = ${filter.state}`);
  if (filter.from) conditions.push(sql`d.created_at >= ${filter.from}::timestamptz`);
  if (filter.to) conditions.push(sql`d.created_at < ${filter.to}::timestamptz`);
  return sql.join(conditions, sql` and `);
}

/** A page of deliveries, newest first, with what was sent and how each attempt ended. */
export async function listDeliveries(db: Database, query: DeliveriesQuery): Promise<WebhookDeliveryPage> {
  const where = deliveryFilter(query);
  const [rows, [count]] = await Promise.all([
    queryJsonRows<WebhookDeliveryPage["data"][number]>(
      db,
      sql`select d.id, d.subscription_id as "subscriptionId", s.url, d.event_type as "eventType",
          d.event_id as "eventId", d.state, d.attempts, d.max_attempts as "maxAttempts",
          case when d.state in ('queued', 'delivering') then ${isoInstant(sql`d.next_attempt_at`)} end as "nextAttemptAt",
          d.last_status_code as "lastStatusCode", d.last_error as "lastError", d.last_duration_ms as "lastDurationMs",
          ${isoInstant(sql`d.last_attempt_at`)} as "lastAttemptAt", ${isoInstant(sql`d.created_at`)} as "createdAt",
          ${isoInstant(sql`d.finished_at`)} as "finishedAt", d.replay_of as "replayOf",
          d.requested_by as "requestedBy", d.payload
        from webhook_deliveries d join webhook_subscriptions s on s.id = d.subscription_id
        where ${where}
        order by d.created_at desc, d.id desc
        limit ${WEBHOOK_PAGE_SIZE} offset ${(query.page - 1) * WEBHOOK_PAGE_SIZE}`,
    ),
    queryRows<{ total: number }>(
      db,
      sql`select count(*)::int as total from webhook_deliveries d where ${where}`,
    ),
  ]);
  return { data: rows, total: Number(count?.total ?? 0), page: query.page, pageSize: WEBHOOK_PAGE_SIZE };
}

/** Most deliveries one bulk replay repeats. */
const MAX_REPLAYED = 1_000;

/**
 * Queues each chosen delivery again as a new delivery (the same event and body, its own id and
 * attempts) pointing at the one it repeats. Deliveries of removed subscriptions are left out.
 */
export async function replayDeliveries(
  db: Database,
  actorId: string,
  request: ReplayRequest,
  now: Date,
): Promise<WebhookReplayResult> {
  const chosen =
    "ids" in request
      ? sql`d.id in (select jsonb_array_elements_text(${JSON.stringify(request.ids)}::jsonb)::uuid)`
      : deliveryFilter(request.filter);
  const rows = await queryRows<{ id: string }>(
    db,
    sql`insert into webhook_deliveries (subscription_id, event_type, event_id, payload, max_attempts,
          next_attempt_at, created_at, replay_of, requested_by)
        select d.subscription_id, d.event_type, d.event_id, d.payload, d.max_attempts, ${now}, ${now}, d.id, ${actorId}
        from webhook_deliveries d join webhook_subscriptions s on s.id = d.subscription_id and s.removed_at is null
        where ${chosen} and d.state in ('succeeded', 'failed')
        order by d.created_at desc limit ${MAX_REPLAYED}
        returning id`,
  );
  if (rows.length > 0) deliveriesQueued(now);
  return { replayed: rows.length, ids: rows.map((row) => row.id) };
}

/** One delivery replayed; 404 when it does not exist, 409 while it is still being delivered. */
export async function replayDelivery(db: Database, actorId: string, id: string, now: Date) {
  const [found] = await queryRows<{ state: string; removed: boolean }>(
    db,
    sql`select d.state, s.removed_at is not null as removed from webhook_deliveries d
        join webhook_subscriptions s on s.id = d.subscription_id where d.id = ${id}::uuid`,
  );
  if (!found) throw new AppError("not_found", message("webhooks:deliveryNotFound"));
  if (found.removed) throw new AppError("conflict", message("webhooks:subscriptionRemoved"));
  if (found.state === "queued" || found.state === "delivering")
    throw new AppError("conflict", message("webhooks:stillDelivering"));
  return replayDeliveries(db, actorId, { ids: [id] }, now);
}

/** A page of the ingestion log, newest first, with each app's totals over the filtered period. */
export async function listIngestRequests(db: Database, query: IngestQuery): Promise<IngestRequestPage> {
  const conditions: SQL[] = [sql`true`];
  if (query.appId) conditions.push(sql`r.app_id = ${query.appId}::uuid`);
  if (query.from) conditions.push(sql`r.received_at >= ${query.from}::timestamptz`);
  if (query.to) conditions.push(sql`r.received_at < ${query.to}::timestamptz`);
  const where = sql.join(conditions, sql` and `);
  const [rows, totals, [count]] = await Promise.all([
    queryJsonRows<IngestRequestPage["data"][number]>(
      db,
      sql`select r.id, r.app_id as "appId", a.name as "appName", r.endpoint,
          ${isoInstant(sql`r.received_at`)} as "receivedAt", r.status_code as "statusCode", r.accepted,
          r.duplicates, r.rejected, r.reasons, r.duration_ms as "durationMs"
        from ingest_requests r left join learning_apps a on a.id = r.app_id
        where ${where}
        order by r.received_at desc, r.id desc
        limit ${WEBHOOK_PAGE_SIZE} offset ${(query.page - 1) * WEBHOOK_PAGE_SIZE}`,
    ),
    queryJsonRows<IngestRequestPage["totals"][number]>(
      db,
      sql`select r.app_id as "appId", min(a.name) as "appName", count(*)::int as requests,
          sum(r.accepted)::int as accepted, sum(r.duplicates)::int as duplicates, sum(r.rejected)::int as rejected
        from ingest_requests r left join learning_apps a on a.id = r.app_id
        where ${where} group by r.app_id order by min(a.name), r.app_id`,
    ),
    queryRows<{ total: number }>(
      db,
      sql`select count(*)::int as total from ingest_requests r where ${where}`,
    ),
  ]);
  return {
    data: rows,
    totals,
    total: Number(count?.total ?? 0),
    page: query.page,
    pageSize: WEBHOOK_PAGE_SIZE,
  };
}
