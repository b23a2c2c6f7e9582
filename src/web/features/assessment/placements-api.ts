import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import type {
  BulkPlacementInput,
  BulkPlacementResult,
  CsvImportReport,
  PlacementLevelInput,
  PlacementReport,
  PlacementStudentList,
  PlacementTestInput,
  PlacementTestRecord,
  ScreeningChanges,
  ScreeningInput,
  ScreeningList,
  ScreeningResult,
  StudentPlacements,
  SubjectTrack,
} from "../../../shared/contracts/assessment";
import { answerOf, apiFetch, searchParamsOf } from "../../lib/http";
import { isRefusal } from "../goals/api";

/**
 * Placements, screening and subject tracks: query keys, fetchers and changes. The answers are the
 * server's own contracts (typed, taken as they come: the server builds them from its schemas).
 */

const nothing = z.unknown();

export interface PlacementFilters {
  schoolId?: string;
  subject?: string;
  grade?: number;
  search?: string;
}

export interface DateFilters {
  subject?: string;
  from?: string;
  to?: string;
}

export type ReportFilters = DateFilters & { schoolId?: string };
export type ScreeningFilters = DateFilters & { decision?: string; search?: string };

export const placementKeys = {
  all: ["placements"] as const,
  student: (studentId: string) => ["placements", "student", studentId] as const,
  list: (filters: PlacementFilters, page: number, perPage: number) =>
    ["placements", "list", filters, page, perPage] as const,
  report: (filters: ReportFilters, page: number) => ["placements", "report", filters, page] as const,
  screening: (filters: ScreeningFilters, page: number) => ["screening", filters, page] as const,
  tracks: ["subject-tracks"] as const,
};

/** A refusal (not found, not allowed) does not change by asking again. */
const retry = (count: number, error: Error) => count < 2 && !isRefusal(error);

/** One student's placements; a student's own without an id. */
export const studentPlacementsQuery = (studentId: string | undefined) =>
  queryOptions({
    queryKey: placementKeys.student(studentId ?? "me"),
    queryFn: ({ signal }) =>
      apiFetch(`/api/assessment/placements?${searchParamsOf({ studentId })}`, answerOf<StudentPlacements>(), {
        signal,
      }),
    retry,
  });

export const placementListQuery = (filters: PlacementFilters, page: number, perPage: number) =>
  queryOptions({
    queryKey: placementKeys.list(filters, page, perPage),
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/assessment/placements/students?${searchParamsOf({ ...filters, page, perPage })}`,
        answerOf<PlacementStudentList>(),
        { signal },
      ),
    retry,
  });

export const placementsCsvUrl = (filters: PlacementFilters) =>
  `/api/assessment/placements/students.csv?${searchParamsOf({ ...filters })}`;

export const placementReportQuery = (filters: ReportFilters, page: number, perPage: number) =>
  queryOptions({
    queryKey: placementKeys.report(filters, page),
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/assessment/placements/changes?${searchParamsOf({ ...filters, page, perPage })}`,
        answerOf<PlacementReport>(),
        { signal },
      ),
    retry,
  });

export const placementReportCsvUrl = (filters: ReportFilters) =>
  `/api/assessment/placements/changes.csv?${searchParamsOf({ ...filters })}`;

export const setPlacementLevel = (studentId: string, input: PlacementLevelInput) =>
  apiFetch(`/api/assessment/placements/${encodeURIComponent(studentId)}/level`, nothing, { body: input });

export const recordPlacementTest = (studentId: string, input: PlacementTestInput) =>
  apiFetch(
    `/api/assessment/placements/${encodeURIComponent(studentId)}/tests`,
    answerOf<PlacementTestRecord>(),
    {
      method: "PUT",
      body: input,
    },
  );

export const bulkSetPlacementLevel = (input: BulkPlacementInput) =>
  apiFetch("/api/assessment/placements/bulk", answerOf<BulkPlacementResult>(), { body: input });

export const screeningQuery = (filters: ScreeningFilters, page: number, perPage: number) =>
  queryOptions({
    queryKey: placementKeys.screening(filters, page),
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/assessment/screening?${searchParamsOf({ ...filters, page, perPage })}`,
        answerOf<ScreeningList>(),
        {
          signal,
        },
      ),
    retry,
  });

export const screeningCsvUrl = (filters: ScreeningFilters) =>
  `/api/assessment/screening/export.csv?${searchParamsOf({ ...filters })}`;

export const addScreeningResult = (input: ScreeningInput) =>
  apiFetch("/api/assessment/screening", answerOf<ScreeningResult>(), { body: input });

export const changeScreeningResult = (id: string, changes: ScreeningChanges) =>
  apiFetch(`/api/assessment/screening/${encodeURIComponent(id)}`, answerOf<ScreeningResult>(), {
    method: "PATCH",
    body: changes,
  });

export const subjectTracksQuery = queryOptions({
  queryKey: placementKeys.tracks,
  queryFn: ({ signal }) =>
    apiFetch("/api/assessment/subject-tracks", answerOf<{ tracks: SubjectTrack[] }>(), { signal }),
  select: (data) => data.tracks,
  retry,
});

export const createSubjectTrack = (subject: string) =>
  apiFetch("/api/assessment/subject-tracks", answerOf<SubjectTrack>(), { body: { subject } });

export const saveTrackSteps = (
  trackId: string,
  steps: { gradeLevel: number; title: string; courseId: string | null }[],
) =>
  apiFetch(`/api/assessment/subject-tracks/${encodeURIComponent(trackId)}/steps`, answerOf<SubjectTrack>(), {
    method: "PUT",
    body: { steps },
  });

export const deleteSubjectTrack = (trackId: string) =>
  apiFetch(`/api/assessment/subject-tracks/${encodeURIComponent(trackId)}`, nothing, { method: "DELETE" });

export type UploadKind = "placements" | "screening";

/** Sends a CSV to an import: a dry run reports what would change, otherwise it is stored. */
export function uploadCsv(kind: UploadKind, file: File, dryRun: boolean) {
  const form = new FormData();
  form.set("dryRun", String(dryRun));
  form.set("file", file, file.name);
  return apiFetch(`/api/assessment/${kind}/imports`, answerOf<CsvImportReport>(), { body: form });
}
