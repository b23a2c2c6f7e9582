import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import {
  classGoalsSchema,
  type GoalChanges,
  type GoalInput,
  studentGoalsSchema,
} from "../../../shared/contracts/goals";
import { leaderboardSchema } from "../../../shared/contracts/leaderboards";
import { apiFetch } from "../../lib/http";

/** Goals: query keys, fetchers and changes. Figures move as apps report, so they are re-read each minute. */

const GOALS_REFRESH_MS = 60_000;

export const goalKeys = {
  all: ["goals"] as const,
  student: (studentId: string) => ["goals", "student", studentId] as const,
  classGoals: (classId: string) => ["goals", "class", classId] as const,
  classBoard: (classId: string) => ["goals", "class-leaderboard", classId] as const,
};

/** One student's goals: their day, week, streak and target goals with forecasts. */
export const studentGoalsQuery = (studentId: string) =>
  queryOptions({
    queryKey: goalKeys.student(studentId),
    queryFn: ({ signal }) =>
      apiFetch(`/api/goals?${new URLSearchParams({ studentId })}`, studentGoalsSchema, { signal }),
    staleTime: GOALS_REFRESH_MS,
    refetchInterval: GOALS_REFRESH_MS,
    // A refusal (not found, not allowed) does not change by asking again.
    retry: (count, error) => count < 2 && !isRefusal(error),
  });

/** A class as its Guide runs it: its goals and each student's day and week. */
export const classGoalsQuery = (classId: string) =>
  queryOptions({
    queryKey: goalKeys.classGoals(classId),
    queryFn: ({ signal }) =>
      apiFetch(`/api/goals/classes/${encodeURIComponent(classId)}`, classGoalsSchema, { signal }),
    staleTime: GOALS_REFRESH_MS,
    refetchInterval: GOALS_REFRESH_MS,
    retry: (count, error) => count < 2 && !isRefusal(error),
  });

/** The class's top ten by XP this week. */
export const classLeaderboardQuery = (classId: string) =>
  queryOptions({
    queryKey: goalKeys.classBoard(classId),
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/leaderboards?${new URLSearchParams({ scope: "class", cls: classId, tf: "week" })}`,
        leaderboardSchema,
        { signal },
      ),
    select: (board) => board.rows.slice(0, 10),
    staleTime: GOALS_REFRESH_MS,
    retry: (count, error) => count < 2 && !isRefusal(error),
  });

/** Whether a failed request was a refusal (4xx) rather than a hiccup. */
export function isRefusal(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 500;
}

const createdSchema = z.object({ id: z.string() });
const nothing = z.unknown();

export const createGoal = (input: GoalInput) => apiFetch("/api/goals", createdSchema, { body: input });

export const updateGoal = (goalId: string, changes: GoalChanges) =>
  apiFetch(`/api/goals/${encodeURIComponent(goalId)}`, nothing, { method: "PATCH", body: changes });

export const removeGoal = (goalId: string) =>
  apiFetch(`/api/goals/${encodeURIComponent(goalId)}`, nothing, { method: "DELETE" });
