import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import {
  type AthleticsSettingsInput,
  type activityChangesSchema,
  type activityInputSchema,
  athleticsSettingsSchema,
  athleticsWeekSchema,
} from "../../../shared/contracts/athletics";
import { apiFetch, searchParamsOf } from "../../lib/http";

/** Athletics: a student's week of activities, the weekly goal, and changes to both. */

export const athleticsKeys = {
  all: ["athletics"] as const,
  week: (studentId: string, week: string | undefined) =>
    ["athletics", "week", studentId, week ?? "current"] as const,
  settings: ["athletics", "settings"] as const,
};

/** One student's week (this week without `week`), with eight weeks of totals. */
export const athleticsWeekQuery = (studentId: string, week: string | undefined) =>
  queryOptions({
    queryKey: athleticsKeys.week(studentId, week),
    queryFn: ({ signal }) =>
      apiFetch(`/api/athletics?${searchParamsOf({ studentId, week })}`, athleticsWeekSchema, { signal }),
    // A refusal (not found, not allowed) does not change by asking again.
    retry: (count, error) => count < 2 && !isRefusal(error),
  });

export const athleticsSettingsQuery = queryOptions({
  queryKey: athleticsKeys.settings,
  queryFn: ({ signal }) => apiFetch("/api/athletics/settings", athleticsSettingsSchema, { signal }),
});

function isRefusal(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 500;
}

const created = z.object({ id: z.string() });
const nothing = z.unknown();

export const logActivity = (input: z.input<typeof activityInputSchema>) =>
  apiFetch("/api/athletics", created, { body: input });

export const changeActivity = (entryId: string, changes: z.input<typeof activityChangesSchema>) =>
  apiFetch(`/api/athletics/${encodeURIComponent(entryId)}`, nothing, { method: "PATCH", body: changes });

export const removeActivity = (entryId: string) =>
  apiFetch(`/api/athletics/${encodeURIComponent(entryId)}`, nothing, { method: "DELETE" });

export const saveAthleticsSettings = (input: AthleticsSettingsInput) =>
  apiFetch("/api/athletics/settings", athleticsSettingsSchema, { method: "PUT", body: input });
