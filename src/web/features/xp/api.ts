import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import {
  type LearningSettings,
  learningSettingsResponseSchema,
  type manualXpRequestSchema,
  manualXpResponseSchema,
  xpDayResponseSchema,
  xpHistoryResponseSchema,
} from "../../../shared/contracts/activity";
import { viewableUsersResponseSchema } from "../../../shared/contracts/rostering";
import { apiFetch } from "../../lib/http";

export const xpKeys = {
  all: ["xp"] as const,
  history: (studentId: string, limit: number) => ["xp", "history", studentId, limit] as const,
  day: (studentId: string, date: string | undefined) => ["xp", "day", studentId, date ?? "today"] as const,
  studentSearch: (search: string) => ["users", "viewable", "students", search] as const,
};

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

export const xpHistoryQuery = (studentId: string, limit = 20) =>
  queryOptions({
    queryKey: xpKeys.history(studentId, limit),
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/xp/history?${new URLSearchParams({ studentId, limit: String(limit) })}`,
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
