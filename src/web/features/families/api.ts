import { queryOptions } from "@tanstack/react-query";
import type { ChildProgress, ChildrenOverviewResponse } from "../../../shared/contracts/families";
import { answerOf, apiFetch } from "../../lib/http";
import { isRefusal } from "../goals/api";

/** The parent pages' queries. Figures move as apps report, so they are read again each minute. */

const FAMILY_REFRESH_MS = 60_000;

export const familyKeys = {
  all: ["families"] as const,
  children: (agentId: string) => ["families", "children", agentId] as const,
  progress: (childId: string, weeks: number) => ["families", "progress", childId, weeks] as const,
};

/** Every child of the signed-in parent or guardian, as the cards of `my-children` and the hub show them. */
export const childrenOverviewQuery = (agentId: string) =>
  queryOptions({
    queryKey: familyKeys.children(agentId),
    queryFn: ({ signal }) =>
      apiFetch("/api/families/children", answerOf<ChildrenOverviewResponse>(), { signal }),
    select: (response) => response.data,
    staleTime: FAMILY_REFRESH_MS,
    refetchInterval: FAMILY_REFRESH_MS,
    retry: (count, error) => count < 2 && !isRefusal(error),
  });

/** One child's weeks and terms. */
export const childProgressQuery = (childId: string, weeks: number) =>
  queryOptions({
    queryKey: familyKeys.progress(childId, weeks),
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/families/children/${encodeURIComponent(childId)}/progress?${new URLSearchParams({ weeks: String(weeks) })}`,
        answerOf<ChildProgress>(),
        { signal },
      ),
    staleTime: FAMILY_REFRESH_MS,
    retry: (count, error) => count < 2 && !isRefusal(error),
  });
