import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import {
  type HeldEventStatus,
  heldEventResponseSchema,
  heldEventsResponseSchema,
  type LearningSettings,
  learningSettingsResponseSchema,
  type manualXpRequestSchema,
  manualXpResponseSchema,
  xpDayResponseSchema,
  xpHistoryResponseSchema,
} from "../../../shared/contracts/activity";
import { viewableUsersResponseSchema } from "../../../shared/contracts/rostering";
import { apiFetch } from "../../lib/http";
import { xpKeys } from "./keys";

/** People an administrator may look at, narrowed to students. */
export const studentSearchQuery = (search: string) =>
  queryOptions({
    queryKey: xpKeys.studentSearch(search),
    queryFn: async ({ signal }) => {
      const people = await apiFetch(
        `/api/users/viewable?${new URLSearchParams({ search, limit: "100" })}`,
        viewableUsersResponseSchema,
        { signal },
      );
      return people.data.filter((person) => person.roles.includes("student"));
    },
    staleTime: 30_000,
  });

export const xpHistoryQuery = (studentId: string, limit: number, offset: number) =>
  queryOptions({
    queryKey: xpKeys.history(studentId, limit, offset),
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/xp/history?${new URLSearchParams({ studentId, limit: String(limit), offset: String(offset) })}`,
        xpHistoryResponseSchema,
        { signal },
      ),
  });

export const xpDayQuery = (studentId: string, date: string | undefined) =>
  queryOptions({
    queryKey: xpKeys.day(studentId, date),
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/xp/day?${new URLSearchParams(date ? { studentId, date } : { studentId })}`,
        xpDayResponseSchema,
        { signal },
      ),
  });

export function awardXp(input: z.input<typeof manualXpRequestSchema>) {
  return apiFetch("/api/xp/manual", manualXpResponseSchema, { body: input });
}

export const learningSettingsQuery = queryOptions({
  queryKey: [...xpKeys.all, "settings"] as const,
  queryFn: ({ signal }) =>
    apiFetch("/api/admin/learning-settings", learningSettingsResponseSchema, { signal }),
  select: (response) => response.data,
});

export function saveLearningSettings(settings: LearningSettings) {
  return apiFetch("/api/admin/learning-settings", learningSettingsResponseSchema, {
    method: "PUT",
    body: settings,
  });
}

/** Events held for review that the signed-in administrator or Guide may decide. */
export const heldEventsQuery = (status: HeldEventStatus | "all") =>
  queryOptions({
    queryKey: xpKeys.held(status),
    queryFn: ({ signal }) =>
      apiFetch(`/api/xp/held?${new URLSearchParams({ status, limit: "200" })}`, heldEventsResponseSchema, {
        signal,
      }),
  });

export function approveHeldEvent(heldId: string, note: string) {
  return apiFetch(`/api/xp/held/${heldId}/approve`, heldEventResponseSchema, {
    body: note ? { note } : {},
  });
}

export function dismissHeldEvent(heldId: string, reason: string) {
  return apiFetch(`/api/xp/held/${heldId}/dismiss`, heldEventResponseSchema, { body: { reason } });
}
