import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import type {
  IngestRequestPage,
  WebhookDeliveryPage,
  WebhookReplayRequest,
  WebhookReplayResult,
  WebhookSubscription,
  WebhookSubscriptionChanges,
  WebhookSubscriptionInput,
} from "../../../shared/contracts/webhooks";
import { answerOf, apiFetch, searchParamsOf } from "../../lib/http";

/** The webhook monitor: query keys, fetchers and changes. Deliveries move on their own, so lists refresh. */

const MONITOR_REFRESH_MS = 10_000;

export const webhookKeys = {
  all: ["webhooks"] as const,
  subscriptions: ["webhooks", "subscriptions"] as const,
  deliveries: (filters: DeliveryFilters) => ["webhooks", "deliveries", filters] as const,
  ingestion: (filters: IngestionFilters) => ["webhooks", "ingestion", filters] as const,
};

export interface DeliveryFilters {
  subscriptionId?: string;
  event?: string;
  state?: string;
  from?: string;
  to?: string;
  page: number;
}

export interface IngestionFilters {
  appId?: string;
  from?: string;
  to?: string;
  page: number;
}

/** A day chosen in the filters (YYYY-MM-DD) as the instant its local day starts, or ends (`end`). */
export function dayStart(isoDate: string | undefined, end = false): string | undefined {
  if (!isoDate) return undefined;
  const start = new Date(`${isoDate}T00:00:00`);
  if (end) start.setDate(start.getDate() + 1);
  return start.toISOString();
}

export const subscriptionsQuery = queryOptions({
  queryKey: webhookKeys.subscriptions,
  queryFn: ({ signal }) =>
    apiFetch(
      "/api/admin/webhooks",
      z.object({ data: answerOf<WebhookSubscription[]>() }).transform((answer) => answer.data),
      { signal },
    ),
  refetchInterval: MONITOR_REFRESH_MS * 3,
});

export const deliveriesQuery = (filters: DeliveryFilters) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(filters),
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/admin/webhooks/deliveries?${searchParamsOf({
          ...filters,
          from: dayStart(filters.from),
          to: dayStart(filters.to, true),
        })}`,
        answerOf<WebhookDeliveryPage>(),
        { signal },
      ),
    refetchInterval: MONITOR_REFRESH_MS,
    placeholderData: (previous) => previous,
  });

export const ingestionQuery = (filters: IngestionFilters) =>
  queryOptions({
    queryKey: webhookKeys.ingestion(filters),
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/admin/ingest-requests?${searchParamsOf({
          ...filters,
          from: dayStart(filters.from),
          to: dayStart(filters.to, true),
        })}`,
        answerOf<IngestRequestPage>(),
        { signal },
      ),
    refetchInterval: MONITOR_REFRESH_MS,
    placeholderData: (previous) => previous,
  });

const subscriptionAnswer = z.object({ data: answerOf<WebhookSubscription>() });

export const createSubscription = (input: WebhookSubscriptionInput) =>
  apiFetch("/api/admin/webhooks", subscriptionAnswer, { body: input });

export const updateSubscription = (id: string, changes: WebhookSubscriptionChanges) =>
  apiFetch(`/api/admin/webhooks/${encodeURIComponent(id)}`, subscriptionAnswer, {
    method: "PATCH",
    body: changes,
  });

export const removeSubscription = (id: string) =>
  apiFetch(`/api/admin/webhooks/${encodeURIComponent(id)}`, z.unknown(), { method: "DELETE" });

export const sendTestEvent = (id: string) =>
  apiFetch(
    `/api/admin/webhooks/${encodeURIComponent(id)}/test`,
    z.object({ deliveryId: z.string().nullable() }),
    {
      method: "POST",
    },
  );

export const replayDelivery = (id: string) =>
  apiFetch(
    `/api/admin/webhooks/deliveries/${encodeURIComponent(id)}/replay`,
    answerOf<WebhookReplayResult>(),
    {
      method: "POST",
    },
  );

export const replayDeliveries = (request: WebhookReplayRequest) =>
  apiFetch("/api/admin/webhooks/deliveries/replay", answerOf<WebhookReplayResult>(), { body: request });
