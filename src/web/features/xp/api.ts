import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import {
  heatmapResponseSchema,
  type manualXpRequestSchema,
  manualXpResponseSchema,
  studentHomeResponseSchema,
  summariesResponseSchema,
  xpDayResponseSchema,
  xpHistoryResponseSchema,
} from "../../../shared/contracts/activity";
import { viewableUsersResponseSchema } from "../../../shared/contracts/rostering";
import { apiFetch } from "../../lib/http";

export const xpKeys = {
  all: ["xp"] as const,
  history: (studentId: string, limit: number) => ["xp", "history", studentId, limit] as const,
  day: (studentId: string, date: string | undefined) => ["xp", "day", studentId, date ?? "today"] as const,
  heatmap: (studentId: string, startDate: string, endDate: string) =>
    ["xp", "heatmap", studentId, startDate, endDate] as const,
  guideStudents: ["guide", "students"] as const,
  children: ["parent", "children", "summary"] as const,
  studentHome: (studentId: string) => ["students", studentId, "home"] as const,
  studentSearch: (search: string) => ["users", "viewable", "students", search] as const,
};

export const guideStudentsQuery = queryOptions({
  queryKey: xpKeys.guideStudents,
  queryFn: ({ signal }) => apiFetch("/api/guide/students", summariesResponseSchema, { signal }),
  staleTime: 60_000,
});

export const childrenSummaryQuery = queryOptions({
  queryKey: xpKeys.children,
  queryFn: ({ signal }) => apiFetch("/api/parent/children/summary", summariesResponseSchema, { signal }),
  staleTime: 60_000,
});

export const studentHomeQuery = (studentId: string) =>
  queryOptions({
    queryKey: xpKeys.studentHome(studentId),
    queryFn: ({ signal }) =>
      apiFetch(`/api/students/${encodeURIComponent(studentId)}/home`, studentHomeResponseSchema, { signal }),
    staleTime: 60_000,
  });

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

/** XP per day of the student's own calendar: the timezone sent is always the student's. */
export const xpHeatmapQuery = (studentId: string, startDate: string, endDate: string, timezone: string) =>
  queryOptions({
    queryKey: xpKeys.heatmap(studentId, startDate, endDate),
    queryFn: ({ signal }) =>
      apiFetch("/api/learning-metrics/analytics-xp-heatmap", heatmapResponseSchema, {
        body: { userId: studentId, startDate, endDate, timezone },
        signal,
      }),
  });

export function awardXp(input: z.input<typeof manualXpRequestSchema>) {
  return apiFetch("/api/xp/manual", manualXpResponseSchema, { body: input });
}
