import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import {
  type CheckChartDraft,
  checkChartListSchema,
  checkChartSchema,
  classChartProgressSchema,
  legacyReviewSchema,
  levelMappingResultSchema,
  studentChartProgressSchema,
} from "../../../shared/contracts/assessment";
import { apiFetch } from "../../lib/http";
import { isRefusal } from "../goals/api";

/** Check charts: query keys, fetchers and changes. */

const BASE = "/api/assessment/check-charts";
const part = encodeURIComponent;

export const checkChartKeys = {
  all: ["check-charts"] as const,
  list: (studentId: string | null) => ["check-charts", "list", studentId ?? "all"] as const,
  chart: (chartId: string) => ["check-charts", "chart", chartId] as const,
  student: (chartId: string, studentId: string) => ["check-charts", "student", chartId, studentId] as const,
  classProgress: (chartId: string, classId: string) => ["check-charts", "class", chartId, classId] as const,
  legacyReview: ["check-charts", "legacy-review"] as const,
};

// A refusal (not found, not allowed) does not change by asking again.
const retry = (count: number, error: Error) => count < 2 && !isRefusal(error);

/** The caller's charts (every chart for staff), or a student's with their progress. */
export const checkChartListQuery = (studentId: string | null = null) =>
  queryOptions({
    queryKey: checkChartKeys.list(studentId),
    queryFn: ({ signal }) =>
      apiFetch(studentId ? `${BASE}?${new URLSearchParams({ studentId })}` : BASE, checkChartListSchema, {
        signal,
      }),
    retry,
  });

/** One chart's levels and checks (staff). */
export const checkChartQuery = (chartId: string) =>
  queryOptions({
    queryKey: checkChartKeys.chart(chartId),
    queryFn: ({ signal }) => apiFetch(`${BASE}/${part(chartId)}`, checkChartSchema, { signal }),
    retry,
  });

/** A student's ticks through a chart. */
export const studentChartProgressQuery = (chartId: string, studentId: string) =>
  queryOptions({
    queryKey: checkChartKeys.student(chartId, studentId),
    queryFn: ({ signal }) =>
      apiFetch(`${BASE}/${part(chartId)}/students/${part(studentId)}`, studentChartProgressSchema, {
        signal,
      }),
    retry,
  });

/** A class's students through a chart's levels. */
export const classChartProgressQuery = (chartId: string, classId: string) =>
  queryOptions({
    queryKey: checkChartKeys.classProgress(chartId, classId),
    queryFn: ({ signal }) =>
      apiFetch(`${BASE}/${part(chartId)}/classes/${part(classId)}`, classChartProgressSchema, { signal }),
    retry,
  });

export const legacyReviewQuery = queryOptions({
  queryKey: checkChartKeys.legacyReview,
  queryFn: ({ signal }) => apiFetch(`${BASE}/legacy-review`, legacyReviewSchema, { signal }),
  retry,
});

export const createCheckChart = (draft: CheckChartDraft) => apiFetch(BASE, checkChartSchema, { body: draft });

export const saveCheckChart = (chartId: string, draft: CheckChartDraft) =>
  apiFetch(`${BASE}/${part(chartId)}`, checkChartSchema, { method: "PUT", body: draft });

export const deleteCheckChart = (chartId: string) =>
  apiFetch(`${BASE}/${part(chartId)}`, z.unknown(), { method: "DELETE" });

const checkPath = (target: { chartId: string; studentId: string; checkId: string }) =>
  `${BASE}/${part(target.chartId)}/students/${part(target.studentId)}/checks/${part(target.checkId)}`;

/** Ticks a check as observed on a day; answers the student's progress as it is now. */
export const observeCheck = (
  target: { chartId: string; studentId: string; checkId: string },
  observedOn: string,
) => apiFetch(checkPath(target), studentChartProgressSchema, { method: "PUT", body: { observedOn } });

/** Unticks a check; answers the student's progress as it is now. */
export const clearObservation = (target: { chartId: string; studentId: string; checkId: string }) =>
  apiFetch(checkPath(target), studentChartProgressSchema, { method: "DELETE" });

export const mapLevel = (chartId: string, levelId: string, grade: number | null) =>
  apiFetch(`${BASE}/${part(chartId)}/levels/${part(levelId)}/mapping`, levelMappingResultSchema, {
    method: "PUT",
    body: { grade },
  });
