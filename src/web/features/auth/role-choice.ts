import type { DashRole } from "../../../shared/roles";

export const ROLE_COOKIE = "selectedUserRole";
const THIRTY_DAYS_SECONDS = 30 * 24 * 60 * 60;
export const RELOAD_DELAY_MS = 100;

/**
 * Switches the active role: saves the choice in the selectedUserRole cookie (30 days, path /,
 * SameSite Lax) and reloads after 100 ms so every page and query starts over in the new role.
 * Choosing the current role or one that is not available does nothing.
 */
export function switchRole(
  target: DashRole,
  current: DashRole | null,
  available: readonly DashRole[],
): boolean {
  if (target === current || !available.includes(target)) return false;
  // biome-ignore lint/suspicious/noDocumentCookie: the server reads this cookie; the Cookie Store API is not in every browser
  document.cookie = `${ROLE_COOKIE}=${target}; Max-Age=${THIRTY_DAYS_SECONDS}; Path=/; SameSite=Lax`;
  setTimeout(() => window.location.reload(), RELOAD_DELAY_MS);
  return true;
}

/** Forgets the saved choice, so the highest role applies again. */
export function resetRole(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: see switchRole
  document.cookie = `${ROLE_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
  setTimeout(() => window.location.reload(), RELOAD_DELAY_MS);
}
