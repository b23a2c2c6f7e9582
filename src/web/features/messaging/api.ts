import { queryOptions } from "@tanstack/react-query";
import type {
  AdminAnnouncement,
  AdminAnnouncementPage,
  AnnouncementStatus,
  Audience,
  AudienceChoices,
  AudienceSize,
  ContactList,
  CreateAnnouncement,
  Inbox,
  MessagingSettings,
  ReadResult,
  ReceivedAnnouncementPage,
  SchoolMessagingSetting,
  SendMessage,
  SentMessage,
  Thread,
  UnreadSummary,
} from "../../../shared/contracts/messaging";
import { answerOf, apiFetch, searchParamsOf } from "../../lib/http";
import { isRefusal } from "../goals/api";
import { messagingKeys } from "./keys";

/**
 * The messaging API: one query or change per endpoint. Live updates refresh conversations and the
 * unread count at once; the intervals only catch what a dropped stream missed.
 */

const BASE = "/api/messaging";
const CATCH_UP_MS = 5 * 60_000;
/** A refusal (not allowed, not found) does not change by asking again. */
const retry = (count: number, error: Error) => count < 2 && !isRefusal(error);

export const unreadQuery = () =>
  queryOptions({
    queryKey: messagingKeys.unread,
    queryFn: ({ signal }) => apiFetch(`${BASE}/unread`, answerOf<UnreadSummary>(), { signal }),
    refetchInterval: CATCH_UP_MS,
    retry,
  });

export const inboxQuery = (limit: number) =>
  queryOptions({
    queryKey: messagingKeys.conversations(limit),
    queryFn: ({ signal }) =>
      apiFetch(`${BASE}/conversations?${searchParamsOf({ limit })}`, answerOf<Inbox>(), {
        signal,
      }),
    placeholderData: (previous) => previous,
    refetchInterval: CATCH_UP_MS,
    retry,
  });

export const threadQuery = (conversationId: string) =>
  queryOptions({
    queryKey: messagingKeys.conversation(conversationId),
    queryFn: ({ signal }) =>
      apiFetch(`${BASE}/conversations/${encodeURIComponent(conversationId)}`, answerOf<Thread>(), { signal }),
    retry,
  });

export const olderMessages = (conversationId: string, before: string) =>
  apiFetch(
    `${BASE}/conversations/${encodeURIComponent(conversationId)}?${searchParamsOf({ before })}`,
    answerOf<Thread>(),
  );

export const contactsQuery = (search: string) =>
  queryOptions({
    queryKey: messagingKeys.contacts(search),
    queryFn: ({ signal }) =>
      apiFetch(`${BASE}/contacts?${searchParamsOf({ search, limit: 50 })}`, answerOf<ContactList>(), {
        signal,
      }),
    placeholderData: (previous) => previous,
    retry,
  });

export const receivedAnnouncementsQuery = (offset: number, limit: number) =>
  queryOptions({
    queryKey: messagingKeys.received(offset),
    queryFn: ({ signal }) =>
      apiFetch(
        `${BASE}/announcements?${searchParamsOf({ offset, limit })}`,
        answerOf<ReceivedAnnouncementPage>(),
        {
          signal,
        },
      ),
    placeholderData: (previous) => previous,
    retry,
  });

export const sendMessage = (body: SendMessage) =>
  apiFetch(`${BASE}/messages`, answerOf<SentMessage>(), { body });

export const markConversationRead = (conversationId: string) =>
  apiFetch(`${BASE}/conversations/${encodeURIComponent(conversationId)}/read`, answerOf<ReadResult>(), {
    method: "POST",
  });

export const markAnnouncementRead = (announcementId: string) =>
  apiFetch(`${BASE}/announcements/${encodeURIComponent(announcementId)}/read`, answerOf<unknown>(), {
    method: "POST",
  });

// Administrators.

export const audienceChoicesQuery = (schoolId: string) =>
  queryOptions({
    queryKey: messagingKeys.audiences(schoolId),
    queryFn: ({ signal }) =>
      apiFetch(`${BASE}/admin/audiences?${searchParamsOf({ schoolId })}`, answerOf<AudienceChoices>(), {
        signal,
      }),
    placeholderData: (previous) => previous,
    retry,
  });

export const audienceSizeQuery = (audience: Audience) => {
  const fields = Object.fromEntries(Object.entries(audience).map(([name, value]) => [name, String(value)]));
  return queryOptions({
    queryKey: messagingKeys.audienceSize(fields),
    queryFn: ({ signal }) =>
      apiFetch(`${BASE}/admin/audience-size?${searchParamsOf(fields)}`, answerOf<AudienceSize>(), { signal }),
    retry,
  });
};

export const adminAnnouncementsQuery = (status: AnnouncementStatus, offset: number, limit: number) =>
  queryOptions({
    queryKey: messagingKeys.announcements(status, offset),
    queryFn: ({ signal }) =>
      apiFetch(
        `${BASE}/admin/announcements?${searchParamsOf({ status, offset, limit })}`,
        answerOf<AdminAnnouncementPage>(),
        { signal },
      ),
    placeholderData: (previous) => previous,
    retry,
  });

export const createAnnouncement = (body: CreateAnnouncement) =>
  apiFetch(`${BASE}/admin/announcements`, answerOf<AdminAnnouncement>(), { body });

export const cancelAnnouncement = (id: string) =>
  apiFetch(`${BASE}/admin/announcements/${encodeURIComponent(id)}/cancel`, answerOf<AdminAnnouncement>(), {
    method: "POST",
  });

export const settingsQuery = () =>
  queryOptions({
    queryKey: messagingKeys.settings,
    queryFn: ({ signal }) => apiFetch(`${BASE}/admin/settings`, answerOf<MessagingSettings>(), { signal }),
    retry,
  });

export const saveSchoolSetting = (schoolId: string, studentsMayWrite: boolean) =>
  apiFetch(`${BASE}/admin/settings/${encodeURIComponent(schoolId)}`, answerOf<SchoolMessagingSetting>(), {
    method: "PUT",
    body: { studentsMayWrite },
  });
