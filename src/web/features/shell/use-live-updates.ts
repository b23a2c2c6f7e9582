import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import {
  LIVE_PATH,
  type LiveEventData,
  type LiveEventType,
  liveEventDataSchema,
} from "../../../shared/contracts/live";
import { authKeys } from "../auth/api";
import { clearAuthCache } from "../auth/auth-cache";
import { homeKeys } from "../home/keys";
import { messagingKeys } from "../messaging/keys";
import { notificationKeys } from "../notifications/keys";
import { xpKeys } from "../xp/keys";

/**
 * While signed in, listens to the live stream and refreshes what changed elsewhere (an app's
 * report, a Guide's award, another tab or device), so pages update without a reload. The browser
 * reconnects by itself when the stream drops (a restart, another server process).
 */
export function useLiveUpdates() {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource(LIVE_PATH);
    const on = (type: LiveEventType, handle: (data: LiveEventData) => void) =>
      source.addEventListener(type, (event) => handle(dataOf(event)));
    on("home-changed", () => {
      void queryClient.invalidateQueries({ queryKey: homeKeys.all });
      void queryClient.invalidateQueries({ queryKey: xpKeys.all });
    });
    on("profile-changed", () => void queryClient.invalidateQueries({ queryKey: authKeys.me }));
    on("resync", () => void queryClient.invalidateQueries());
    on("notifications-changed", () => void queryClient.invalidateQueries({ queryKey: notificationKeys.all }));
    on("conversation-changed", ({ conversationId }) => {
      if (conversationId)
        void queryClient.invalidateQueries({ queryKey: messagingKeys.conversation(conversationId) });
      void queryClient.invalidateQueries({ queryKey: messagingKeys.inbox });
    });
    on("session-ended", () => {
      source.close();
      clearAuthCache();
      queryClient.clear();
      window.location.assign("/login");
    });
    return () => source.close();
  }, [queryClient]);
}

/** What an event says: its JSON data, or nothing when it cannot be read. */
function dataOf(event: Event): LiveEventData {
  try {
    const read = liveEventDataSchema.safeParse(JSON.parse((event as MessageEvent<string>).data));
    return read.success ? read.data : {};
  } catch {
    return {};
  }
}
