import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import {
  apiClientListResponseSchema,
  apiClientSchema,
  type createApiClientSchema,
  createdApiClientResponseSchema,
} from "../../../shared/contracts/api-clients";
import {
  appKeyListResponseSchema,
  createdAppKeyResponseSchema,
  type learningAppChangesSchema,
  type learningAppInputSchema,
  learningAppListResponseSchema,
  learningAppResponseSchema,
} from "../../../shared/contracts/learning-apps";
import { apiFetch } from "../../lib/http";

/** Fetchers of the credentials page: OneRoster API clients, learning apps and their keys. */

export const credentialKeys = {
  apiClients: ["admin", "api-clients"] as const,
  apps: ["admin", "apps"] as const,
  appKeys: (appId: string) => ["admin", "apps", appId, "keys"] as const,
};

export const apiClientsQuery = queryOptions({
  queryKey: credentialKeys.apiClients,
  // Every client an administrator registered fits one page; the newest come first.
  queryFn: ({ signal }) =>
    apiFetch("/api/admin/api-clients?limit=200&sort=createdAt&orderBy=desc", apiClientListResponseSchema, {
      signal,
    }),
});

export function createApiClient(input: z.input<typeof createApiClientSchema>) {
  return apiFetch("/api/admin/api-clients", createdApiClientResponseSchema, { body: input });
}

export function revokeApiClient(id: string) {
  return apiFetch(
    `/api/admin/api-clients/${encodeURIComponent(id)}`,
    z.object({ success: z.literal(true), data: apiClientSchema }),
    { method: "DELETE" },
  );
}

export const appsQuery = queryOptions({
  queryKey: credentialKeys.apps,
  queryFn: ({ signal }) => apiFetch("/api/admin/apps", learningAppListResponseSchema, { signal }),
});

export const appKeysQuery = (appId: string) =>
  queryOptions({
    queryKey: credentialKeys.appKeys(appId),
    queryFn: ({ signal }) =>
      apiFetch(`/api/admin/apps/${encodeURIComponent(appId)}/keys`, appKeyListResponseSchema, { signal }),
  });

export function createLearningApp(input: z.input<typeof learningAppInputSchema>) {
  return apiFetch("/api/admin/apps", learningAppResponseSchema, { body: input });
}

export function updateLearningApp(appId: string, changes: z.input<typeof learningAppChangesSchema>) {
  return apiFetch(`/api/admin/apps/${encodeURIComponent(appId)}`, learningAppResponseSchema, {
    method: "PATCH",
    body: changes,
  });
}

export function createAppKey(appId: string, label: string) {
  return apiFetch(`/api/admin/apps/${encodeURIComponent(appId)}/keys`, createdAppKeyResponseSchema, {
    body: { label },
  });
}

export function revokeAppKey(appId: string, keyId: string) {
  return apiFetch(
    `/api/admin/apps/${encodeURIComponent(appId)}/keys/${encodeURIComponent(keyId)}`,
    z.object({ success: z.literal(true) }),
    { method: "DELETE" },
  );
}
