import { queryOptions } from "@tanstack/react-query";
import type {
  MarkReadBody,
  MarkReadResult,
  NotificationList,
  NotificationPreferences,
  OutboxMailDetail,
  OutboxPage,
  OutboxQuery,
  UpdatePreferencesBody,
} from "../../../shared/contracts/notifications";
import { answerOf, apiFetch, searchParamsOf } from "../../lib/http";
import { isRefusal } from "../goals/api";
import { notificationKeys } from "./keys";

/** The bell shows this many, newest first; the notifications page has the rest. */
export const BELL_SIZE = 10;
/** Live updates refresh the bell at once; this catches what a dropped stream missed. */
const BELL_REFRESH_MS = 5 * 60_000;

const notificationsOf = (offset: number, limit: number, signal?: AbortSignal) =>
  apiFetch(`/api/notifications?${searchParamsOf({ offset, limit })}`, answerOf<NotificationList>(), {
    signal,
  });

export const bellQuery = () =>
  queryOptions({
    queryKey: notificationKeys.bell,
    queryFn: ({ signal }) => notificationsOf(0, BELL_SIZE, signal),
    refetchInterval: BELL_REFRESH_MS,
    // A refusal (a locked dashboard) does not change by asking again.
    retry: (count, error) => count < 2 && !isRefusal(error),
  });

export const notificationsPageQuery = (offset: number, limit: number) =>
  queryOptions({
    queryKey: notificationKeys.page(offset, limit),
    queryFn: ({ signal }) => notificationsOf(offset, limit, signal),
    placeholderData: (previous) => previous,
  });

export const markRead = (body: MarkReadBody) =>
  apiFetch("/api/notifications/read", answerOf<MarkReadResult>(), { body });

export const preferencesQuery = () =>
  queryOptions({
    queryKey: notificationKeys.preferences,
    queryFn: ({ signal }) =>
      apiFetch("/api/notifications/preferences", answerOf<NotificationPreferences>(), { signal }),
    retry: (count, error) => count < 2 && !isRefusal(error),
  });

export const savePreferences = (body: UpdatePreferencesBody) =>
  apiFetch("/api/notifications/preferences", answerOf<NotificationPreferences>(), { method: "PUT", body });

export const outboxQuery = (query: OutboxQuery) =>
  queryOptions({
    queryKey: notificationKeys.outbox(query),
    queryFn: ({ signal }) =>
      apiFetch(`/api/notifications/admin/outbox?${searchParamsOf({ ...query })}`, answerOf<OutboxPage>(), {
        signal,
      }),
    placeholderData: (previous) => previous,
    retry: (count, error) => count < 2 && !isRefusal(error),
  });

export const outboxMailQuery = (mailId: string) =>
  queryOptions({
    queryKey: notificationKeys.outboxMail(mailId),
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/notifications/admin/outbox/${encodeURIComponent(mailId)}`,
        answerOf<OutboxMailDetail>(),
        { signal },
      ),
  });
