/** Query keys of conversations and announcements. */
export const messagingKeys = {
  all: ["messaging"] as const,
  /** The conversation list with unread counts (and the shell's messages icon). */
  inbox: ["messaging", "inbox"] as const,
  conversation: (conversationId: string) => ["messaging", "conversation", conversationId] as const,
  // Under `inbox`, so that a conversation's change refreshes them too.
  unread: ["messaging", "inbox", "unread"] as const,
  conversations: (limit: number) => ["messaging", "inbox", "conversations", limit] as const,
  received: (offset: number) => ["messaging", "inbox", "announcements", offset] as const,
  contacts: (search: string) => ["messaging", "contacts", search] as const,
  admin: ["messaging", "admin"] as const,
  audiences: (schoolId: string) => ["messaging", "admin", "audiences", schoolId] as const,
  audienceSize: (audience: Record<string, string>) =>
    ["messaging", "admin", "audience-size", audience] as const,
  announcements: (status: string, offset: number) =>
    ["messaging", "admin", "announcements", status, offset] as const,
  settings: ["messaging", "admin", "settings"] as const,
};
