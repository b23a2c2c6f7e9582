import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { LIVE_PATH, type LiveEventType } from "../../../shared/contracts/live";
import { authKeys } from "../auth/api";
import { clearAuthCache } from "../auth/auth-cache";
import { homeKeys } from "../home/keys";
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
    const on = (type: LiveEventType, handle: () => void) => source.addEventListener(type, handle);
    on("home-changed", () => {
      void queryClient.invalidateQueries({ queryKey: homeKeys.all });
      void queryClient.invalidateQueries({ queryKey: xpKeys.all });
    });
    on("profile-changed", () => void queryClient.invalidateQueries({ queryKey: authKeys.me }));
    on("resync", () => void queryClient.invalidateQueries());
    on("session-ended", () => {
      source.close();
      clearAuthCache();
      queryClient.clear();
      window.location.assign("/login");
    });
    return () => source.close();
  }, [queryClient]);
}
