import type { TFunction } from "i18next";
import type { z } from "zod";
import type { searchSchemas } from "../../../shared/routes";

type LoginSearch = z.output<typeof searchSchemas.login>;

const KNOWN_ERRORS = ["access_denied", "session_expired", "unauthorized"] as const;

/** A readable sentence for the `error` / `error_description` pair an identity provider sends back. */
export function describeLoginError(
  search: Pick<LoginSearch, "error" | "error_description">,
  t: TFunction<"auth">,
): string | null {
  if (search.error_description) return search.error_description.replace(/\+/g, " ");
  if (!search.error) return null;
  const known = KNOWN_ERRORS.find((error) => error === search.error);
  if (known) return t(`auth:login.errors.${known}`);
  return t("auth:login.errors.other", { reason: search.error.replace(/[_-]+/g, " ").trim() });
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
