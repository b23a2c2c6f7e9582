import type { z } from "zod";
import type { searchSchemas } from "../../../shared/routes";

type LoginSearch = z.output<typeof searchSchemas.login>;

/** A readable sentence for the `error` / `error_description` pair an identity provider sends back. */
export function describeLoginError(search: Pick<LoginSearch, "error" | "error_description">): string | null {
  if (search.error_description) return search.error_description.replace(/\+/g, " ");
  if (!search.error) return null;
  const known: Record<string, string> = {
    access_denied: "Access was denied. Please try again or ask your school for help.",
    session_expired: "Your session has ended. Please sign in again.",
    unauthorized: "Please sign in to continue.",
  };
  const words = search.error.replace(/[_-]+/g, " ").trim();
  return known[search.error] ?? `Sign-in failed: ${words}.`;
}

/** Where to go after signing in: the safe redirect, else /app with the kept school and role. */
export function afterSignInPath(search: LoginSearch, safeRedirect: string | null): string {
  if (safeRedirect) return safeRedirect;
  const params = new URLSearchParams();
  if (search.schoolId) params.set("schoolId", search.schoolId);
  if (search.role) params.set("role", search.role);
  const query = params.toString();
  return query ? `/app?${query}` : "/app";
}
