import type { QueryClient } from "@tanstack/react-query";
import { isPublicPath, loginUrlFor } from "../../../shared/redirect";
import { meQuery } from "./api";

export const AUTH_EXPIRED_EVENT = "auth-expired";
const FIRST_CHECK_MS = 60_000;
const CHECK_INTERVAL_MS = 50 * 60_000;

/** Sessions live on the server; there is no token to refresh, so a refresh always reports so. */
export function refreshAuthToken(): { refreshed: false; reason: "no refresh" } {
  return { refreshed: false, reason: "no refresh" };
}

/** Sends the browser to sign in, keeping the way back, unless the page is public. */
export function goToLogin(): void {
  if (isPublicPath(window.location.pathname)) return;
  window.location.assign(loginUrlFor(`${window.location.pathname}${window.location.search}`));
}

/**
 * Checks the session 60 s after load and then every 50 minutes; when it has ended, raises the
 * `auth-expired` event, which reloads to the sign-in page.
 */
export function startAuthChecks(queryClient: QueryClient): () => void {
  const check = async () => {
    refreshAuthToken();
    const me = await queryClient.fetchQuery({ ...meQuery, staleTime: 0 }).catch(() => null);
    if (me && !me.isAuthenticated) window.dispatchEvent(new Event(AUTH_EXPIRED_EVENT));
  };
  let interval: ReturnType<typeof setInterval> | undefined;
  const first = setTimeout(() => {
    void check();
    interval = setInterval(check, CHECK_INTERVAL_MS);
  }, FIRST_CHECK_MS);
  window.addEventListener(AUTH_EXPIRED_EVENT, goToLogin);
  return () => {
    clearTimeout(first);
    clearInterval(interval);
    window.removeEventListener(AUTH_EXPIRED_EVENT, goToLogin);
  };
}
