import { createHmac } from "node:crypto";
import { sql } from "drizzle-orm";
import { type Database, isoInstant, queryRows } from "../../db/client";
import type { Logger } from "../../lib/logger";
import type { SecretBox } from "../../lib/secret-box";

/** A receiver has this long to answer (its whole answer, body included). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Deliveries in flight at once in one process. */
export const DELIVERY_CONCURRENCY = 16;
/**
 * A claimed delivery belongs to its process this long; one whose process died is taken back
 * after it. A round's deliveries all end within the timeout, so the lease outlasts them.
 */
export const DELIVERY_LEASE_MS = DELIVERY_TIMEOUT_MS + 15_000;
/** The wait after a first failed attempt; it doubles with each attempt after, up to the cap. */
export const DELIVERY_BACKOFF_MS = 30_000;
export const DELIVERY_MAX_BACKOFF_MS = 6 * 60 * 60_000;
/** What is kept of a receiver's error answer, for the monitor. */
const ERROR_TEXT_LIMIT = 500;

/** The context the secret box binds a subscription's secret to: it decrypts only as that subscription's. */
export const secretContextOf = (subscriptionId: string) => `webhook-subscription:${subscriptionId}`;

/** The signature header's value: the receiver computes the same HMAC over the raw body it got. */
export function signatureOf(body: string, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(body, "utf8").digest("hex")}`;
}

export interface DeliveryDeps {
  db: Database;
  secretBox: SecretBox;
  logger: Logger;
  now: () => Date;
  /** Names this process in the deliveries it holds. */
  workerId: string;
  /** For tests: the retry delays. */
  backoffMs?: number;
  maxBackoffMs?: number;
  timeoutMs?: number;
}

interface Claimed {
  id: string;
  subscriptionId: string;
  eventType: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
  url: string;
  secretEnvelope: string;
}

interface Outcome {
  id: string;
  state: "queued" | "succeeded" | "failed";
  status: number | null;
  error: string | null;
  ms: number;
  next: string | null;
}

/**
 * Fails the deliveries whose last attempt's process stopped before it ended: their lease passed
 * and no attempt is left to take them back with.
 */
async function failAbandoned(deps: DeliveryDeps): Promise<void> {
  await deps.db.execute(
    sql`update webhook_deliveries set state = 'failed', locked_by = null, finished_at = ${deps.now()},
          last_error = coalesce(last_error, ${"The process delivering it stopped before it finished"})
        where state = 'delivering' and next_attempt_at <= ${deps.now()} and attempts >= max_attempts`,
  );
}

/**
 * Claims up to `limit` due deliveries of active subscriptions, queued ones and those whose lease
 * passed, for this process: skipped when another process holds them, so processes never wait on
 * each other and never both send one.
 */
async function claim(deps: DeliveryDeps, limit: number): Promise<Claimed[]> {
  const current = deps.now();
  return queryRows<Claimed>(
    deps.db,
    sql`update webhook_deliveries d set state = 'delivering', attempts = d.attempts + 1,
          locked_by = ${deps.workerId}, last_attempt_at = ${current},
          next_attempt_at = ${new Date(current.getTime() + DELIVERY_LEASE_MS)}
        from webhook_subscriptions s
        where d.id in (
            select q.id from webhook_deliveries q
              join webhook_subscriptions qs on qs.id = q.subscription_id and qs.is_active and qs.removed_at is null
            where q.state in ('queued', 'delivering') and q.next_attempt_at <= ${current}
              and q.attempts < q.max_attempts
            order by q.next_attempt_at limit ${limit}
            for update of q skip locked)
          and s.id = d.subscription_id
        returning d.id, d.subscription_id as "subscriptionId", d.event_type as "eventType", d.payload,
          d.attempts, d.max_attempts as "maxAttempts", s.url, s.secret_envelope as "secretEnvelope"`,
  );
}

/** Records a round's outcomes in one statement, for the deliveries this process still holds. */
async function settle(deps: DeliveryDeps, outcomes: Outcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const finishedAt = deps.now();
  await deps.db.execute(
    sql`update webhook_deliveries d set state = o.state, last_status_code = o.status, last_error = o.error,
          last_duration_ms = o.ms, locked_by = null,
          next_attempt_at = coalesce(o.next, d.next_attempt_at),
          finished_at = case when o.state = 'queued' then null else ${finishedAt}::timestamptz end
        from jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb)
          as o(id uuid, state text, status int, error text, ms int, next timestamptz)
        where d.id = o.id and d.locked_by = ${deps.workerId} and d.state = 'delivering'`,
  );
}

/** One POST of a delivery; answers its outcome (a retry, a success or the last failure). */
async function attempt(deps: DeliveryDeps, delivery: Claimed, secret: string): Promise<Outcome> {
  const body = JSON.stringify(delivery.payload);
  const started = performance.now();
  let status: number | null = null;
  let error: string | null = null;
  try {
    const response = await fetch(delivery.url, {
      method: "POST",
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(deps.timeoutMs ?? DELIVERY_TIMEOUT_MS),
      headers: {
        "content-type": "application/json",
        "user-agent": "Dash-Webhooks/1",
        "x-dash-signature": signatureOf(body, secret),
        "x-dash-delivery": delivery.id,
        "x-dash-event": delivery.eventType,
      },
    });
    status = response.status;
    // The answer is read whole, so the connection is reused; only an error's start is kept.
    const text = await response.text();
    if (status < 200 || status > 299)
      error = `HTTP ${status}${text ? `: ${text.slice(0, ERROR_TEXT_LIMIT)}` : ""}`;
  } catch (caught) {
    const cause = (caught as { cause?: { code?: string; message?: string } }).cause;
    error =
      caught instanceof Error && caught.name === "TimeoutError"
        ? `No answer within ${(deps.timeoutMs ?? DELIVERY_TIMEOUT_MS) / 1000} s`
        : `${caught instanceof Error ? caught.message : String(caught)}${cause?.code ? ` (${cause.code})` : ""}`;
  }
  const ms = Math.round(performance.now() - started);
  if (error === null) return { id: delivery.id, state: "succeeded", status, error, ms, next: null };
  if (delivery.attempts >= delivery.maxAttempts)
    return { id: delivery.id, state: "failed", status, error, ms, next: null };
  const delay = Math.min(
    (deps.backoffMs ?? DELIVERY_BACKOFF_MS) * 2 ** (delivery.attempts - 1),
    deps.maxBackoffMs ?? DELIVERY_MAX_BACKOFF_MS,
  );
  const next = new Date(deps.now().getTime() + delay).toISOString();
  return { id: delivery.id, state: "queued", status, error, ms, next };
}

/** The secrets of a round's subscriptions, decrypted once each; a secret that cannot be read fails its deliveries. */
function secretsOf(deps: DeliveryDeps, claimed: Claimed[]): Map<string, string | Error> {
  const secrets = new Map<string, string | Error>();
  for (const delivery of claimed) {
    if (secrets.has(delivery.subscriptionId)) continue;
    try {
      secrets.set(
        delivery.subscriptionId,
        deps.secretBox.decryptSecret(delivery.secretEnvelope, secretContextOf(delivery.subscriptionId)),
      );
    } catch (error) {
      secrets.set(delivery.subscriptionId, error as Error);
    }
  }
  return secrets;
}

export interface DrainResult {
  attempted: number;
  succeeded: number;
  /** Whether due deliveries may be left (the time ran out first). */
  hasMore: boolean;
}

/**
 * Delivers due deliveries in rounds of DELIVERY_CONCURRENCY at once until none is due, `budgetMs`
 * passed or `signal` aborts. Nothing stays locked while the POSTs are in flight.
 */
export async function drainDeliveries(
  deps: DeliveryDeps,
  options: { budgetMs: number; signal?: AbortSignal },
): Promise<DrainResult> {
  const ends = performance.now() + options.budgetMs;
  const result: DrainResult = { attempted: 0, succeeded: 0, hasMore: false };
  await failAbandoned(deps);
  for (;;) {
    if (options.signal?.aborted || performance.now() >= ends) {
      result.hasMore = true;
      return result;
    }
    const claimed = await claim(deps, DELIVERY_CONCURRENCY);
    if (claimed.length === 0) return result;
    const secrets = secretsOf(deps, claimed);
    const outcomes = await Promise.all(
      claimed.map((delivery): Promise<Outcome> => {
        const secret = secrets.get(delivery.subscriptionId);
        if (typeof secret === "string") return attempt(deps, delivery, secret);
        deps.logger.error("webhook secret unreadable", {
          subscriptionId: delivery.subscriptionId,
          error: secret?.message,
        });
        return Promise.resolve({
          id: delivery.id,
          state: "failed",
          status: null,
          error: "The subscription's secret cannot be read with this server's DASH_SECRET_KEY",
          ms: 0,
          next: null,
        });
      }),
    );
    await settle(deps, outcomes);
    result.attempted += outcomes.length;
    result.succeeded += outcomes.filter((outcome) => outcome.state === "succeeded").length;
    const failed = outcomes.filter((outcome) => outcome.state === "failed");
    if (failed.length > 0) deps.logger.warn("webhook deliveries failed", { deliveries: failed.length });
  }
}

/** When the next queued delivery (a retry) is due, or null when none waits. */
export async function nextDueAt(db: Database): Promise<Date | null> {
  const [row] = await queryRows<{ at: string | null }>(
    db,
    sql`select ${isoInstant(sql`min(d.next_attempt_at)`)} as at from webhook_deliveries d
        where d.state in ('queued', 'delivering')
          and exists (select 1 from webhook_subscriptions s
                      where s.id = d.subscription_id and s.is_active and s.removed_at is null)`,
  );
  return row?.at ? new Date(row.at) : null;
}
