import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import {
  demoAccountsResponseSchema,
  type LoginRequest,
  meResponseSchema,
} from "../../../shared/contracts/auth";
import { apiFetch } from "../../lib/http";

export const authKeys = {
  me: ["auth", "me"] as const,
  demoAccounts: ["auth", "demo-accounts"] as const,
};

export const meQuery = queryOptions({
  queryKey: authKeys.me,
  queryFn: ({ signal }) => apiFetch("/api/auth/me", meResponseSchema, { signal }),
  staleTime: 5 * 60_000,
  retry: 3,
});

export const demoAccountsQuery = queryOptions({
  queryKey: authKeys.demoAccounts,
  queryFn: ({ signal }) => apiFetch("/api/auth/demo-accounts", demoAccountsResponseSchema, { signal }),
  staleTime: Number.POSITIVE_INFINITY,
});

export function signIn(credentials: LoginRequest) {
  return apiFetch("/api/auth/login", meResponseSchema, { body: credentials });
}

export function signOut() {
  return apiFetch("/api/auth/logout", z.object({ ok: z.boolean() }), { method: "POST" });
}
