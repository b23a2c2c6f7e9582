import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import {
  type LeaderboardScope,
  type LeaderboardTimeframe,
  leaderboardSchema,
  optOutStateSchema,
} from "../../../shared/contracts/leaderboards";
import { ApiRequestError, apiFetch } from "../../lib/http";

/**
 * The leaderboards API: the standings of a scope and period, and whether a student is hidden from
 * them. Queries share the `leaderboards` key, so hiding someone refreshes every board shown.
 */

export interface LeaderboardRequest {
  scope?: LeaderboardScope;
  tf?: LeaderboardTimeframe;
  cls?: string;
  school?: string;
  teacher?: string;
  src?: string;
  subj?: string;
  g?: string;
  p?: number;
  child?: string;
  startDate?: string;
  endDate?: string;
}

export const leaderboardKeys = {
  all: ["leaderboards"] as const,
  board: (request: LeaderboardRequest) => ["leaderboards", "board", request] as const,
  optOut: (studentId: string) => ["leaderboards", "opt-out", studentId] as const,
};

/** The request without its empty parts, as the API's query (and a stable query key). */
export function requestOf(request: LeaderboardRequest): LeaderboardRequest {
  return Object.fromEntries(
    Object.entries(request).filter(([, value]) => value !== undefined && value !== ""),
  ) as LeaderboardRequest;
}

/** A custom period is asked for only once both its days are chosen, in order. */
export function isComplete(request: LeaderboardRequest): boolean {
  if (request.tf !== "custom") return true;
  return Boolean(request.startDate && request.endDate && request.startDate <= request.endDate);
}

/** A refusal (no class, not your child, choose a school) will not change by asking again. */
const retryUnlessRefused = (failures: number, error: Error) =>
  !(error instanceof ApiRequestError && error.status < 500) && failures < 2;

export const leaderboardQuery = (request: LeaderboardRequest, refetchInterval?: number) => {
  const asked = requestOf(request);
  return queryOptions({
    queryKey: leaderboardKeys.board(asked),
    queryFn: ({ signal }) => {
      const query = new URLSearchParams(Object.entries(asked).map(([name, value]) => [name, String(value)]));
      const text = query.toString();
      return apiFetch(`/api/leaderboards${text ? `?${text}` : ""}`, leaderboardSchema, { signal });
    },
    enabled: isComplete(asked),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    refetchInterval,
    retry: retryUnlessRefused,
  });
};

const optOutPath = (studentId: string) => `/api/leaderboards/opt-outs/${encodeURIComponent(studentId)}`;

export const optOutQuery = (studentId: string) =>
  queryOptions({
    queryKey: leaderboardKeys.optOut(studentId),
    queryFn: ({ signal }) => apiFetch(optOutPath(studentId), optOutStateSchema, { signal }),
    staleTime: 30_000,
    retry: retryUnlessRefused,
  });

/** Hides a student from leaderboards, or lifts the caller's side's hiding (a family's or staff's). */
export function setOptOut(studentId: string, hidden: boolean) {
  return apiFetch(optOutPath(studentId), optOutStateSchema, { method: "PUT", body: { hidden } });
}
