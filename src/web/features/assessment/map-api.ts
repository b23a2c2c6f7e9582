import { queryOptions } from "@tanstack/react-query";
import type {
  MapActualsPage,
  MapGrowthReport,
  MapImportRecord,
  MapImportReport,
  MapStudentsPage,
  MapTermSummary,
  StudentMapResults,
  UnmatchedMapRow,
} from "../../../shared/contracts/assessment";
import { answerOf, apiFetch, searchParamsOf } from "../../lib/http";

/** MAP Growth: query keys, fetchers and the import. Results change only with an import. */

const RESULTS_STALE_MS = 5 * 60_000;

export const mapKeys = {
  all: ["map"] as const,
  student: (studentId: string) => ["map", "student", studentId] as const,
  students: (filters: object) => ["map", "students", filters] as const,
  report: (filters: object) => ["map", "report", filters] as const,
  actuals: (filters: object) => ["map", "actuals", filters] as const,
  terms: ["map", "terms"] as const,
  imports: ["map", "imports"] as const,
  unmatched: ["map", "unmatched"] as const,
};

type Filters = Record<string, string | number | boolean | undefined>;

/** A student's every test, subject by subject, with the growth between them. */
export const studentMapQuery = (studentId: string) =>
  queryOptions({
    queryKey: mapKeys.student(studentId),
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/assessment/map/students/${encodeURIComponent(studentId)}`,
        answerOf<StudentMapResults>(),
        { signal },
      ),
    staleTime: RESULTS_STALE_MS,
  });

/** A Guide's students (an administrator's: everyone) with each subject's latest result and growth. */
export const mapStudentsQuery = (filters: Filters) =>
  queryOptions({
    queryKey: mapKeys.students(filters),
    queryFn: ({ signal }) =>
      apiFetch(`/api/assessment/map/students?${searchParamsOf(filters)}`, answerOf<MapStudentsPage>(), {
        signal,
      }),
    staleTime: RESULTS_STALE_MS,
    placeholderData: (previous) => previous,
  });

export const mapReportQuery = (filters: Filters) =>
  queryOptions({
    queryKey: mapKeys.report(filters),
    queryFn: ({ signal }) =>
      apiFetch(`/api/assessment/map/report?${searchParamsOf(filters)}`, answerOf<MapGrowthReport>(), {
        signal,
      }),
    staleTime: RESULTS_STALE_MS,
    placeholderData: (previous) => previous,
  });

export const mapReportCsvUrl = (filters: Filters) =>
  `/api/assessment/map/report.csv?${searchParamsOf(filters)}`;

export const mapActualsQuery = (filters: Filters) =>
  queryOptions({
    queryKey: mapKeys.actuals(filters),
    queryFn: ({ signal }) =>
      apiFetch(`/api/assessment/map/actuals?${searchParamsOf(filters)}`, answerOf<MapActualsPage>(), {
        signal,
      }),
    staleTime: RESULTS_STALE_MS,
    placeholderData: (previous) => previous,
  });

export const mapActualsCsvUrl = (filters: Filters) =>
  `/api/assessment/map/actuals.csv?${searchParamsOf({ ...filters, page: undefined })}`;

export const mapTermsQuery = queryOptions({
  queryKey: mapKeys.terms,
  queryFn: ({ signal }) =>
    apiFetch("/api/assessment/map/terms", answerOf<{ terms: MapTermSummary[] }>(), { signal }),
});

export const mapImportsQuery = queryOptions({
  queryKey: mapKeys.imports,
  queryFn: ({ signal }) =>
    apiFetch("/api/assessment/map/imports", answerOf<{ imports: MapImportRecord[] }>(), { signal }),
});

export type HeldMapRow = UnmatchedMapRow & { termName: string; subject: string };

export const unmatchedMapRowsQuery = queryOptions({
  queryKey: mapKeys.unmatched,
  queryFn: ({ signal }) =>
    apiFetch("/api/assessment/map/unmatched", answerOf<{ rows: HeldMapRow[] }>(), { signal }),
});

/** Sends an NWEA export: a dry run reports what would change, otherwise it is stored. */
export function importMapExport(file: File, dryRun: boolean) {
  const form = new FormData();
  form.set("dryRun", String(dryRun));
  form.set("file", file, file.name);
  return apiFetch("/api/assessment/map/imports", answerOf<MapImportReport & { applied: boolean }>(), {
    body: form,
  });
}

export const linkMapStudent = (nweaStudentId: string, studentId: string) =>
  apiFetch("/api/assessment/map/unmatched/link", answerOf<{ imported: number }>(), {
    body: { nweaStudentId, studentId },
  });
