import type { OutboxQuery } from "../../../shared/contracts/notifications";

/** Query keys of the notification centre and the preferences page. */
export const notificationKeys = {
  all: ["notifications"] as const,
  /** The bell's newest ten and unread count. */
  bell: ["notifications", "bell"] as const,
  page: (offset: number, limit: number) => ["notifications", "page", offset, limit] as const,
  preferences: ["notifications", "preferences"] as const,
  outbox: (query: OutboxQuery) => ["notifications", "outbox", query] as const,
  outboxMail: (mailId: string) => ["notifications", "outbox-mail", mailId] as const,
};
