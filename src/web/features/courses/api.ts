import { keepPreviousData, type QueryClient, queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import {
  type componentCreateSchema,
  componentResponseSchema,
  type componentUpdateSchema,
  type courseCreateSchema,
  courseDetailResponseSchema,
  courseListResponseSchema,
  courseOptionsResponseSchema,
  courseSummarySchema,
  type courseUpdateSchema,
  type enrollmentCreateSchema,
  enrollmentListResponseSchema,
  enrollmentResponseSchema,
} from "../../../shared/contracts/courses";
import type { searchSchemas } from "../../../shared/routes";
import { apiFetch } from "../../lib/http";
import { i18next } from "../../lib/i18n";

/** Courses and enrollments: query keys, fetchers and changes. Courses are always re-checked; enrollments keep 5 minutes. */

export type ManageCoursesSearch = z.output<typeof searchSchemas.manageCourses>;
export type ManageEnrollmentsSearch = z.output<typeof searchSchemas.manageEnrollments>;

const ENROLLMENTS_STALE_MS = 5 * 60_000;
const ENROLLMENTS_KEPT_MS = 30 * 60_000;

export const courseKeys = {
  all: ["courses"] as const,
  list: (params: Record<string, string>) => ["courses", "list", params] as const,
  detail: (courseId: string) => ["courses", "detail", courseId] as const,
  options: ["courses", "options"] as const,
  enrollments: ["enrollments"] as const,
  enrollmentList: (params: Record<string, string>) => ["enrollments", "list", params] as const,
};

/** A failed fetch in words: its own text, or `Unknown error` (in the shown language) when it has none. */
export function errorText(error: unknown): string {
  return error instanceof Error && error.message.trim() ? error.message : i18next.t("courses:unknownError");
}

export const courseListQuery = (params: Record<string, string>) =>
  queryOptions({
    queryKey: courseKeys.list(params),
    queryFn: ({ signal }) =>
      apiFetch(`/api/courses?${new URLSearchParams(params)}`, courseListResponseSchema, { signal }),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

/** The API query of the manage-courses page: offset = page × perPage. */
export function managedCoursesParams(search: ManageCoursesSearch): Record<string, string> {
  return {
    offset: String(search.page * search.perPage),
    limit: String(search.perPage),
    sort: search.sort,
    orderBy: search.orderBy,
    search: search.search.trim().slice(0, 200),
  };
}

/**
 * The manage-courses loader: the page's courses are fetched before it shows. Cached data shows at
 * once and is re-checked behind it; a failure is left to the page to show.
 */
export async function prefetchManagedCourses(queryClient: QueryClient, search: Record<string, unknown>) {
  const params = managedCoursesParams(search as ManageCoursesSearch);
  await queryClient
    .ensureQueryData({ ...courseListQuery(params), revalidateIfStale: true })
    .catch(() => undefined);
}

export const courseDetailQuery = (courseId: string) =>
  queryOptions({
    queryKey: courseKeys.detail(courseId),
    queryFn: ({ signal }) =>
      apiFetch(`/api/courses/${encodeURIComponent(courseId)}`, courseDetailResponseSchema, { signal }),
    select: (response) => response.data,
    staleTime: 0,
  });

export const courseOptionsQuery = queryOptions({
  queryKey: courseKeys.options,
  queryFn: ({ signal }) => apiFetch("/api/course-options", courseOptionsResponseSchema, { signal }),
  select: (response) => response.data,
  staleTime: 60_000,
});

export const enrollmentListQuery = (params: Record<string, string>) =>
  queryOptions({
    queryKey: courseKeys.enrollmentList(params),
    queryFn: ({ signal }) =>
      apiFetch(`/api/enrollments?${new URLSearchParams(params)}`, enrollmentListResponseSchema, { signal }),
    staleTime: ENROLLMENTS_STALE_MS,
    gcTime: ENROLLMENTS_KEPT_MS,
    placeholderData: keepPreviousData,
  });

/** The OneRoster filter of the enrollment list's role and status choices ("all" leaves one out). */
export function enrollmentFilter(role: string, status: string): string {
  const parts: string[] = [];
  if (status !== "all") parts.push(`status='${status}'`);
  if (role !== "all") parts.push(`role='${role}'`);
  return parts.join(" AND ");
}

const courseResponseSchema = z.object({ success: z.literal(true), data: courseSummarySchema });
const doneSchema = z.object({ success: z.literal(true) });

export const createCourse = (input: z.input<typeof courseCreateSchema>) =>
  apiFetch("/api/courses", courseResponseSchema, { body: input });

export const updateCourse = (courseId: string, changes: z.input<typeof courseUpdateSchema>) =>
  apiFetch(`/api/courses/${encodeURIComponent(courseId)}`, courseResponseSchema, {
    method: "PATCH",
    body: changes,
  });

const componentsPath = (courseId: string) => `/api/courses/${encodeURIComponent(courseId)}/components`;

export const createComponent = (courseId: string, input: z.input<typeof componentCreateSchema>) =>
  apiFetch(componentsPath(courseId), componentResponseSchema, { body: input });

export const updateComponent = (
  courseId: string,
  componentId: string,
  changes: z.input<typeof componentUpdateSchema>,
) =>
  apiFetch(`${componentsPath(courseId)}/${encodeURIComponent(componentId)}`, componentResponseSchema, {
    method: "PATCH",
    body: changes,
  });

export const removeComponent = (courseId: string, componentId: string) =>
  apiFetch(`${componentsPath(courseId)}/${encodeURIComponent(componentId)}`, doneSchema, {
    method: "DELETE",
  });

export const reorderComponents = (courseId: string, componentIds: string[]) =>
  apiFetch(`${componentsPath(courseId)}/order`, doneSchema, { method: "PUT", body: { componentIds } });

export const addEnrollment = (input: z.input<typeof enrollmentCreateSchema>) =>
  apiFetch("/api/enrollments", enrollmentResponseSchema, { body: input });

export const endEnrollment = (enrollmentId: string, endDate: string) =>
  apiFetch(`/api/enrollments/${encodeURIComponent(enrollmentId)}/end`, enrollmentResponseSchema, {
    body: { endDate },
  });
