import { type QueryClient, useQuery, useQueryClient } from "@tanstack/react-query";
import { redirect, useNavigate, useRouterState } from "@tanstack/react-router";
import { useEffect } from "react";
import type { LockoutStatus } from "../../../shared/contracts/integrity";
import { DASHBOARD_LOCKED_EVENT } from "../../lib/http";
import type { AuthState } from "../auth/auth-state";
import { integrityKeys, lockoutQuery } from "./api";

/**
 * The dashboard lockout on the web side: a student whose dashboard is locked (where lockout is on)
 * is kept on the page that explains it. The shell polls the lockout every 30 seconds; the router
 * sends any navigation there while the last answer says locked; and a call the server refuses with
 * `dashboard_locked` leads there at once. The server refuses the calls either way: this only steers.
 */

export const LOCKED_PATH = "/app/dashboard-locked";

export function isLockedOut(status: LockoutStatus | undefined): boolean {
  return Boolean(status?.isLocked && status.lockoutEnabled);
}

/** Only a student signed in as themselves is locked out; someone viewing as them is not. */
export function isWatched(auth: Pick<AuthState, "activeRole" | "isImpersonating">): boolean {
  return auth.activeRole === "student" && !auth.isImpersonating;
}

/**
 * For the router's guard: the redirect to the locked page when the last answer says locked. The
 * first navigation does not wait for the check: it starts it, and the shell acts on its answer.
 */
export function lockoutRedirect(queryClient: QueryClient, auth: AuthState, path: string) {
  if (!isWatched(auth) || path === LOCKED_PATH) return null;
  const status = queryClient.getQueryData(lockoutQuery.queryKey);
  if (status === undefined) {
    void queryClient.prefetchQuery(lockoutQuery);
    return null;
  }
  return isLockedOut(status) ? redirect({ href: LOCKED_PATH, replace: true }) : null;
}

/**
 * The shell's side: polls the lockout for a student and takes them to the locked page from
 * wherever they are once it says locked, or once the server refuses a call for it. Answers
 * whether the dashboard is locked, for the shell to leave out the links that would lead nowhere.
 */
export function useLockoutGuard(auth: AuthState): boolean {
  const isStudent = isWatched(auth);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const status = useQuery({ ...lockoutQuery, enabled: isStudent });
  const isLocked = isStudent && isLockedOut(status.data);

  useEffect(() => {
    if (isLocked && pathname !== LOCKED_PATH) void navigate({ to: LOCKED_PATH, replace: true });
  }, [isLocked, pathname, navigate]);

  // The strike that locked the dashboard is newer than any list already loaded: the locked page
  // must show it.
  useEffect(() => {
    if (isLocked) void queryClient.invalidateQueries({ queryKey: integrityKeys.all });
  }, [isLocked, queryClient]);

  useEffect(() => {
    if (!isStudent) return;
    const onLocked = () => {
      void queryClient.invalidateQueries({ queryKey: integrityKeys.lockout });
      if (window.location.pathname !== LOCKED_PATH) void navigate({ to: LOCKED_PATH, replace: true });
    };
    window.addEventListener(DASHBOARD_LOCKED_EVENT, onLocked);
    return () => window.removeEventListener(DASHBOARD_LOCKED_EVENT, onLocked);
  }, [isStudent, queryClient, navigate]);

  return isLocked;
}
