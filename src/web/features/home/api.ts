import { type QueryClient, queryOptions } from "@tanstack/react-query";
import {
  heatmapResponseSchema,
  schoolSummariesResponseSchema,
  studentHomeResponseSchema,
  summariesResponseSchema,
} from "../../../shared/contracts/activity";
import { ApiRequestError, apiFetch } from "../../lib/http";
import { i18next, loadCatalogues } from "../../lib/i18n";
import type { AuthState } from "../auth/auth-state";
import { studentGoalsQuery } from "../goals/api";
import { studentIntegrityQuery, summaryQuery } from "../integrity/api";
import { accountQuery, redemptionsQuery } from "../rewards/api";
import { readDailyXp, saveDailyXp } from "./daily-xp-cache";
import { homeKeys } from "./keys";

/** A student's daily XP changes as apps report: it is refreshed every minute while on screen. */
const DAILY_XP_REFRESH_MS = 60_000;
/** The plain words shown when the daily XP could not be loaded and the server gave none. */
export const heatmapFallbackError = () => i18next.t("home:heatmapFailed");

/** Today, the week, the streak and the apps of one student. */
export const studentHomeQuery = (studentId: string) =>
  queryOptions({
    queryKey: homeKeys.student(studentId),
    queryFn: ({ signal }) =>
      apiFetch(`/api/students/${encodeURIComponent(studentId)}/home`, studentHomeResponseSchema, { signal }),
    select: (response) => response.data,
    staleTime: DAILY_XP_REFRESH_MS,
    refetchInterval: DAILY_XP_REFRESH_MS,
  });

/** The summaries of the signed-in Guide's students. */
export const guideStudentsQuery = (guideId: string) =>
  queryOptions({
    queryKey: homeKeys.guideStudents(guideId),
    queryFn: ({ signal }) => apiFetch("/api/guide/students", summariesResponseSchema, { signal }),
    select: (response) => response.data,
    staleTime: DAILY_XP_REFRESH_MS,
    refetchInterval: DAILY_XP_REFRESH_MS,
  });

/** The summaries of a parent's or guardian's children. */
export const childrenSummaryQuery = (agentId: string) =>
  queryOptions({
    queryKey: homeKeys.children(agentId),
    queryFn: ({ signal }) => apiFetch("/api/parent/children/summary", summariesResponseSchema, { signal }),
    select: (response) => response.data,
    staleTime: DAILY_XP_REFRESH_MS,
    refetchInterval: DAILY_XP_REFRESH_MS,
  });

/** Per school totals for an administrator. */
export const schoolsSummaryQuery = queryOptions({
  queryKey: homeKeys.schools,
  queryFn: ({ signal }) => apiFetch("/api/admin/schools/summary", schoolSummariesResponseSchema, { signal }),
  select: (response) => response.data,
  staleTime: DAILY_XP_REFRESH_MS,
});

export interface HeatmapRequest {
  userId: string;
  /** `yyyy-MM-dd`, in the student's calendar. */
  startDate: string;
  endDate: string;
  /** The student's IANA timezone, never the viewer's. */
  timezone: string;
}

/** XP per day of a student's calendar; failures carry the server's text or a plain fallback. */
export const xpHeatmapQuery = (request: HeatmapRequest) => {
  const cached = readDailyXp(request);
  return queryOptions({
    queryKey: homeKeys.heatmap(request),
    queryFn: async ({ signal }) => {
      let response: Awaited<ReturnType<typeof fetchHeatmap>>;
      try {
        response = await fetchHeatmap(request, signal);
      } catch (error) {
        if (error instanceof ApiRequestError) {
          throw new ApiRequestError(heatmapErrorText(error), error.status, error.code);
        }
        throw error;
      }
      if (!response.success)
        throw new ApiRequestError(response.error || heatmapFallbackError(), 200, "failed");
      saveDailyXp(request, response.data);
      return response.data;
    },
    // The last figures kept on this device show at once; they count as fetched when they were saved.
    initialData: cached?.data,
    initialDataUpdatedAt: cached?.savedAt,
    staleTime: DAILY_XP_REFRESH_MS,
    refetchInterval: DAILY_XP_REFRESH_MS,
  });
};

function fetchHeatmap(request: HeatmapRequest, signal?: AbortSignal) {
  return apiFetch("/api/learning-metrics/analytics-xp-heatmap", heatmapResponseSchema, {
    body: request,
    signal,
  });
}

/**
 * The server's own words when it gave any (its error message, or the `{ error }` of a heatmap
 * body); an answer without them (an empty body, a proxy's page) gets the plain fallback.
 */
function heatmapErrorText(error: ApiRequestError): string {
  if (error.code !== "http_error") return error.message.trim() || heatmapFallbackError();
  try {
    const body = heatmapResponseSchema.partial().safeParse(JSON.parse(error.message));
    if (body.success) return body.data.error?.trim() || heatmapFallbackError();
  } catch {
    // Not JSON: a status line or a page, not a message for people.
  }
  return heatmapFallbackError();
}

/**
 * Asks for the active role's home data while the page's code is still on its way, so the page
 * paints with its figures instead of asking for them once it shows. Does not wait for the answers.
 */
export function prefetchHome(queryClient: QueryClient, { activeRole, user }: AuthState) {
  switch (activeRole) {
    case "student":
      void queryClient.prefetchQuery(studentHomeQuery(user.sourcedId));
      void queryClient.prefetchQuery(studentGoalsQuery(user.sourcedId));
      void loadCatalogues(["goals"]);
      void queryClient.prefetchQuery(accountQuery(user.sourcedId));
      void queryClient.prefetchQuery(redemptionsQuery({ status: "pending" }));
      void queryClient.prefetchQuery(studentIntegrityQuery(user.sourcedId));
      void loadCatalogues(["integrity"]);
      break;
    case "parent":
    case "guardian":
      void queryClient.prefetchQuery(childrenSummaryQuery(user.sourcedId));
      void loadCatalogues(["goals", "integrity"]);
      void queryClient.prefetchQuery(redemptionsQuery({ status: "pending" }));
      break;
    case "teacher":
      void queryClient.prefetchQuery(guideStudentsQuery(user.sourcedId));
      void queryClient.prefetchQuery(summaryQuery);
      void loadCatalogues(["integrity"]);
      break;
    case "administrator":
      void queryClient.prefetchQuery(schoolsSummaryQuery);
      void queryClient.prefetchQuery(summaryQuery);
      void loadCatalogues(["integrity"]);
      break;
    case "proctor":
      void queryClient.prefetchQuery(summaryQuery);
      void loadCatalogues(["integrity"]);
      break;
  }
}
