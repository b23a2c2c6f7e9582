import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import {
  type AppCredentialInput,
  type AppCredentialListQuery,
  appCredentialListSchema,
  appCredentialSavedSchema,
  type CredentialChangesQuery,
  type CredentialDecryptsQuery,
  credentialChangeListSchema,
  credentialDecryptListSchema,
  credentialImportReportSchema,
  decryptedCredentialSchema,
  myAppCredentialsSchema,
} from "../../../shared/contracts/credentials";
import { orgClassesResponseSchema } from "../../../shared/contracts/people";
import { apiFetch, searchParamsOf } from "../../lib/http";

/**
 * Students' logins to their learning apps: the administrators' list, its history and the reveal
 * audit, a student's own, revealing one.
 */

export const credentialKeys = {
  all: ["app-credentials"] as const,
  list: (query: Partial<AppCredentialListQuery>) => ["app-credentials", "list", query] as const,
  allDecrypts: ["app-credentials", "decrypts"] as const,
  decrypts: (query: Partial<CredentialDecryptsQuery>) => ["app-credentials", "decrypts", query] as const,
  changes: (query: Partial<CredentialChangesQuery>) => ["app-credentials", "changes", query] as const,
  mine: ["app-credentials", "mine"] as const,
  classes: (schoolId: string) => ["app-credentials", "classes", schoolId] as const,
};

export const APP_LOGINS_PAGE_SIZE = 25;

export const appLoginsQuery = (query: Partial<AppCredentialListQuery>) =>
  queryOptions({
    queryKey: credentialKeys.list(query),
    queryFn: ({ signal }) =>
      apiFetch(`/api/admin/app-credentials?${searchParamsOf(query)}`, appCredentialListSchema, { signal }),
  });

export const decryptAuditQuery = (query: Partial<CredentialDecryptsQuery>) =>
  queryOptions({
    queryKey: credentialKeys.decrypts(query),
    queryFn: ({ signal }) =>
      apiFetch(`/api/admin/app-credentials/decrypts?${searchParamsOf(query)}`, credentialDecryptListSchema, {
        signal,
      }),
  });

export const loginChangesQuery = (query: Partial<CredentialChangesQuery>) =>
  queryOptions({
    queryKey: credentialKeys.changes(query),
    queryFn: ({ signal }) =>
      apiFetch(`/api/admin/app-credentials/changes?${searchParamsOf(query)}`, credentialChangeListSchema, {
        signal,
      }),
  });

export const myAppLoginsQuery = queryOptions({
  queryKey: credentialKeys.mine,
  queryFn: ({ signal }) => apiFetch("/api/app-credentials/mine", myAppCredentialsSchema, { signal }),
  staleTime: 60_000,
});

/** A school's classes, for the class filter and the import (a school has far fewer than 200). */
export const schoolClassesQuery = (schoolId: string) =>
  queryOptions({
    queryKey: credentialKeys.classes(schoolId),
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/admin/orgs/${encodeURIComponent(schoolId)}/classes?${searchParamsOf({ limit: 200 })}`,
        orgClassesResponseSchema,
        { signal },
      ),
    staleTime: 60_000,
  });

export function saveAppLogin(input: AppCredentialInput) {
  return apiFetch("/api/admin/app-credentials", appCredentialSavedSchema, { body: input });
}

export function deleteAppLogin(id: string) {
  return apiFetch(`/api/admin/app-credentials/${encodeURIComponent(id)}`, z.unknown(), { method: "DELETE" });
}

/** The one call that answers a password; the server audits it. */
export function revealAppLogin(id: string) {
  return apiFetch(`/api/app-credentials/${encodeURIComponent(id)}/decrypt`, decryptedCredentialSchema, {
    method: "POST",
  });
}

export function importAppLogins(file: File, classId: string) {
  const form = new FormData();
  if (classId) form.set("classId", classId);
  form.set("file", file);
  return apiFetch("/api/admin/app-credentials/import", credentialImportReportSchema, { body: form });
}
