import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import {
  type ChangePassword,
  demoAccountsResponseSchema,
  impersonationAuditResponseSchema,
  type LoginRequest,
  languageSettingsSchema,
  type MeResponse,
  meResponseSchema,
  type PasswordReset,
  type StartImpersonation,
} from "../../../shared/contracts/auth";
import { publicConfigSchema } from "../../../shared/contracts/config";
import {
  childrenResponseSchema,
  type PersonSummary,
  studentsWithFamiliesResponseSchema,
  viewableUsersResponseSchema,
} from "../../../shared/contracts/rostering";
import type { Language } from "../../../shared/languages";
import { apiFetch } from "../../lib/http";
import { followMe } from "../../lib/language";
import { clearAuthCache, writeAuthCache } from "./auth-cache";

export const INVALID_AUTH_DATA = "invalid_auth_data";

export const authKeys = {
  me: ["auth", "me"] as const,
  demoAccounts: ["auth", "demo-accounts"] as const,
  config: ["config"] as const,
  viewable: (search: string, offset: number, byStudent: boolean) =>
    ["users", "viewable", byStudent ? "by-student" : "everyone", search, offset] as const,
  children: ["parent", "children"] as const,
  impersonationAudit: (offset: number) => ["auth", "impersonation-audit", offset] as const,
};

/** Checks the `me` shape and keeps the local auth record in step with it. */
export function acceptMe(body: unknown): MeResponse {
  const parsed = meResponseSchema.safeParse(body);
  if (!parsed.success) throw new Error(INVALID_AUTH_DATA);
  const me = parsed.data;
  if (me.isAuthenticated)
    writeAuthCache({ onerosterId: me.user.sourcedId, isImpersonated: Boolean(me.impersonatedUser) });
  else clearAuthCache();
  followMe(me);
  return me;
}

export const meQuery = queryOptions({
  queryKey: authKeys.me,
  queryFn: async ({ signal }) => acceptMe(await apiFetch("/api/auth/me", z.unknown(), { signal })),
  staleTime: 5 * 60_000,
  gcTime: 30 * 60_000,
  // A shape error will not mend itself by asking again.
  retry: (failures, error) => error.message !== INVALID_AUTH_DATA && failures < 3,
});

export const configQuery = queryOptions({
  queryKey: authKeys.config,
  queryFn: ({ signal }) => apiFetch("/api/config", publicConfigSchema, { signal }),
  staleTime: Number.POSITIVE_INFINITY,
});

export const demoAccountsQuery = queryOptions({
  queryKey: authKeys.demoAccounts,
  queryFn: ({ signal }) => apiFetch("/api/auth/demo-accounts", demoAccountsResponseSchema, { signal }),
  staleTime: Number.POSITIVE_INFINITY,
});

/** People the caller may view Dash as, a page at a time. */
export const VIEWABLE_PAGE = 25;

/** A person one may view as; a Guide's student comes with their family. */
export type ViewablePerson = PersonSummary & { families?: PersonSummary[] };

/** Everyone one may view as, or (`byStudent`, for a Guide) their students, each with their family. */
export const viewablePeopleQuery = (search: string, offset: number, byStudent: boolean) =>
  queryOptions({
    queryKey: authKeys.viewable(search, offset, byStudent),
    queryFn: ({ signal }): Promise<{ data: ViewablePerson[]; total: number }> => {
      const query = new URLSearchParams({ search, limit: String(VIEWABLE_PAGE), offset: String(offset) });
      return byStudent
        ? apiFetch(`/api/users/viewable/students?${query}`, studentsWithFamiliesResponseSchema, { signal })
        : apiFetch(`/api/users/viewable?${query}`, viewableUsersResponseSchema, { signal });
    },
    staleTime: 30_000,
  });

export function fetchChildren(signal?: AbortSignal) {
  return apiFetch("/api/parent/children", childrenResponseSchema, { signal });
}

export const childrenQuery = queryOptions({
  queryKey: authKeys.children,
  queryFn: ({ signal }) => fetchChildren(signal),
  staleTime: 5 * 60_000,
});

export const impersonationAuditQuery = (offset: number) =>
  queryOptions({
    queryKey: authKeys.impersonationAudit(offset),
    queryFn: ({ signal }) =>
      apiFetch(`/api/auth/impersonation/audit?limit=50&offset=${offset}`, impersonationAuditResponseSchema, {
        signal,
      }),
  });

export async function signIn(credentials: LoginRequest) {
  return acceptMe(await apiFetch("/api/auth/login", z.unknown(), { body: credentials }));
}

export function saveOwnLanguage(language: Language | null) {
  return apiFetch("/api/auth/me/language", z.object({ language: languageSettingsSchema }), {
    method: "PUT",
    body: { language },
  }).then((answer) => answer.language);
}

export async function signOut() {
  clearAuthCache();
  return apiFetch("/api/auth/logout", z.object({ ok: z.boolean() }), { method: "POST" });
}

export async function startImpersonation(input: StartImpersonation) {
  return acceptMe(await apiFetch("/api/auth/impersonation", z.unknown(), { body: input }));
}

export async function stopImpersonation() {
  return acceptMe(await apiFetch("/api/auth/impersonation", z.unknown(), { method: "DELETE" }));
}

export function changePassword(input: ChangePassword) {
  return apiFetch("/api/auth/password", z.object({ ok: z.literal(true), otherSessionsEnded: z.number() }), {
    body: input,
  });
}

export function resetPassword(input: PasswordReset) {
  return apiFetch("/api/auth/password-reset", z.object({ ok: z.literal(true) }), { body: input });
}
