import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import {
  type AssignmentChanges,
  type AssignmentInput,
  type AssignmentList,
  assignmentsCreatedSchema,
  type CourseProgress,
  type MyAssignments,
  type StudentResources,
} from "../../../shared/contracts/content";
import { ApiRequestError, answerOf, apiFetch, searchParamsOf } from "../../lib/http";

/**
 * Required learning, course progress and a student's resources: query keys, fetchers and changes.
 * Progress moves as students finish lessons, so what they see is re-read when they come back to it.
 */

const PROGRESS_STALE_MS = 30_000;

export const assignmentKeys = {
  all: ["assignments"] as const,
  list: (filters: object) => ["assignments", "list", filters] as const,
  mine: ["assignments", "mine"] as const,
  resources: (studentId: string) => ["assignments", "resources", studentId] as const,
  progress: (filters: object) => ["course-progress", filters] as const,
};

/** A refusal (not found, not allowed) does not change by asking again. */
const retryUnlessRefused = (failures: number, error: Error) =>
  failures < 2 && !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500);

type Filters = Record<string, string | number | undefined>;

/** The assignments a Guide (or an administrator) sees, overdue first. */
export const assignmentListQuery = (filters: Filters) =>
  queryOptions({
    queryKey: assignmentKeys.list(filters),
    queryFn: ({ signal }) =>
      apiFetch(`/api/content/assignments?${searchParamsOf(filters)}`, answerOf<AssignmentList>(), { signal }),
    staleTime: PROGRESS_STALE_MS,
    placeholderData: keepPreviousData,
    retry: retryUnlessRefused,
  });

/** The signed-in student's assignments, the next due first. */
export const myAssignmentsQuery = queryOptions({
  queryKey: assignmentKeys.mine,
  queryFn: ({ signal }) => apiFetch("/api/content/assignments/mine", answerOf<MyAssignments>(), { signal }),
  staleTime: PROGRESS_STALE_MS,
  retry: retryUnlessRefused,
});

/** A student's courses, assignments, apps and kept resources. */
export const studentResourcesQuery = (studentId: string) =>
  queryOptions({
    queryKey: assignmentKeys.resources(studentId),
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/content/students/${encodeURIComponent(studentId)}/resources`,
        answerOf<StudentResources>(),
        { signal },
      ),
    staleTime: PROGRESS_STALE_MS,
    retry: retryUnlessRefused,
  });

/** A course's progress report. */
export const courseProgressQuery = (filters: { courseId: string; classId?: string }) =>
  queryOptions({
    queryKey: assignmentKeys.progress(filters),
    queryFn: ({ signal }) =>
      apiFetch(`/api/content/progress?${searchParamsOf(filters)}`, answerOf<CourseProgress>(), { signal }),
    staleTime: PROGRESS_STALE_MS,
    placeholderData: keepPreviousData,
    retry: retryUnlessRefused,
  });

export const courseProgressCsvUrl = (filters: { courseId: string; classId?: string }) =>
  `/api/content/progress.csv?${searchParamsOf(filters)}`;

const nothing = z.unknown();

export const createAssignments = (input: AssignmentInput) =>
  apiFetch("/api/content/assignments", assignmentsCreatedSchema, { body: input });

export const updateAssignment = (assignmentId: string, changes: AssignmentChanges) =>
  apiFetch(`/api/content/assignments/${encodeURIComponent(assignmentId)}`, nothing, {
    method: "PATCH",
    body: changes,
  });

export const removeAssignment = (assignmentId: string) =>
  apiFetch(`/api/content/assignments/${encodeURIComponent(assignmentId)}`, nothing, { method: "DELETE" });

export const unsaveResource = (resourceId: string) =>
  apiFetch(`/api/content/saved-resources/${encodeURIComponent(resourceId)}`, nothing, { method: "DELETE" });
