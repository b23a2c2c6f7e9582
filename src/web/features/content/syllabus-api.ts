import { keepPreviousData, type QueryClient, queryOptions } from "@tanstack/react-query";
import {
  type LessonCreate,
  type LessonSettings,
  lessonListResponseSchema,
  qtiListResponseSchema,
  qtiTestSchema,
  type ResourceCreate,
  type ResourceInput,
  type SyllabusChange,
  type SyllabusMove,
  syllabusChangeResponseSchema,
  syllabusHistoryResponseSchema,
  syllabusResponseSchema,
  type UnitInput,
} from "../../../shared/contracts/content";
import { learningAppListResponseSchema } from "../../../shared/contracts/learning-apps";
import { ApiRequestError, apiFetch, searchParamsOf } from "../../lib/http";
import { i18next, loadCatalogues } from "../../lib/i18n";

/** Courses' syllabi and the course builder's edits: query keys, fetchers and changes. */

export const syllabusKeys = {
  all: ["syllabus"] as const,
  course: (courseId: string) => ["syllabus", "course", courseId] as const,
  history: (courseId: string, limit: number) => ["syllabus", "history", courseId, limit] as const,
  lessons: (params: Record<string, string>) => ["syllabus", "lessons", params] as const,
};

/** A refusal (not found, not allowed, bad input) does not change by asking again. */
const isRefusal = (error: unknown) =>
  error instanceof ApiRequestError && error.status >= 400 && error.status < 500;

/** The spec's fetchSyllabus: a course's units, lessons and resources, retried twice when the server fails. */
export const syllabusQuery = (courseId: string) =>
  queryOptions({
    queryKey: syllabusKeys.course(courseId),
    queryFn: ({ signal }) =>
      apiFetch(`/api/content/courses/${encodeURIComponent(courseId)}/syllabus`, syllabusResponseSchema, {
        signal,
      }),
    select: (answer) => answer.response.syllabus,
    staleTime: 0,
    retry: (failures, error) => failures < 2 && !isRefusal(error),
  });

/**
 * The course builder's loader: the syllabus is in the cache before the page shows. When it cannot
 * be fetched the route's error screen says so in words.
 */
export async function prefetchSyllabus(queryClient: QueryClient, courseId: string): Promise<void> {
  try {
    await queryClient.ensureQueryData(syllabusQuery(courseId));
  } catch (cause) {
    await loadCatalogues(["content"]).catch(() => undefined);
    throw new Error(i18next.t("content:builder.loadFailed"), { cause });
  }
}

const base = (courseId: string) => `/api/content/courses/${encodeURIComponent(courseId)}/syllabus`;
const change = async (path: string, init: { method: string; body?: unknown }): Promise<SyllabusChange> =>
  (await apiFetch(path, syllabusChangeResponseSchema, init)).response;

export const syllabusEdits = {
  createUnit: (courseId: string, input: UnitInput) =>
    change(`${base(courseId)}/units`, { method: "POST", body: input }),
  renameUnit: (courseId: string, unitId: string, input: UnitInput) =>
    change(`${base(courseId)}/units/${encodeURIComponent(unitId)}`, { method: "PATCH", body: input }),
  removeUnit: (courseId: string, unitId: string) =>
    change(`${base(courseId)}/units/${encodeURIComponent(unitId)}`, { method: "DELETE" }),
  createLesson: (courseId: string, input: LessonCreate) =>
    change(`${base(courseId)}/lessons`, { method: "POST", body: input }),
  updateLesson: (courseId: string, lessonId: string, changes: LessonSettings) =>
    change(`${base(courseId)}/lessons/${encodeURIComponent(lessonId)}`, { method: "PATCH", body: changes }),
  removeLesson: (courseId: string, lessonId: string) =>
    change(`${base(courseId)}/lessons/${encodeURIComponent(lessonId)}`, { method: "DELETE" }),
  createResource: (courseId: string, input: ResourceCreate) =>
    change(`${base(courseId)}/resources`, { method: "POST", body: input }),
  updateResource: (courseId: string, resourceId: string, input: ResourceInput) =>
    change(`${base(courseId)}/resources/${encodeURIComponent(resourceId)}`, { method: "PUT", body: input }),
  removeResource: (courseId: string, resourceId: string) =>
    change(`${base(courseId)}/resources/${encodeURIComponent(resourceId)}`, { method: "DELETE" }),
  move: (courseId: string, move: SyllabusMove) =>
    change(`${base(courseId)}/move`, { method: "POST", body: move }),
};

/** The server's answer to an edit becomes the syllabus every view of the course shows. */
export function keepSyllabus(queryClient: QueryClient, courseId: string, changed: SyllabusChange) {
  queryClient.setQueryData(syllabusKeys.course(courseId), {
    success: true as const,
    response: { syllabus: changed.syllabus },
  });
  // The admin lesson list counts what the edit may have changed.
  void queryClient.invalidateQueries({ queryKey: [...syllabusKeys.all, "lessons"] });
}

/** Who changed the syllabus and how, newest first: the latest `limit` edits. */
export const syllabusHistoryQuery = (courseId: string, limit: number) =>
  queryOptions({
    queryKey: syllabusKeys.history(courseId, limit),
    queryFn: ({ signal }) =>
      apiFetch(`${base(courseId)}/changes?${searchParamsOf({ limit })}`, syllabusHistoryResponseSchema, {
        signal,
      }),
    placeholderData: keepPreviousData,
    staleTime: 0,
    retry: (failures, error) => failures < 2 && !isRefusal(error),
  });

/** admin/lesson: lessons across courses, a page at a time. */
export const lessonListQuery = (params: {
  search: string;
  courseId?: string;
  offset: number;
  limit: number;
}) => {
  const query = searchParamsOf({ ...params, search: params.search.trim() });
  return queryOptions({
    queryKey: syllabusKeys.lessons(Object.fromEntries(query)),
    queryFn: ({ signal }) => apiFetch(`/api/content/lessons?${query}`, lessonListResponseSchema, { signal }),
    placeholderData: keepPreviousData,
    retry: (failures, error) => failures < 2 && !isRefusal(error),
  });
};

/** The bank's items or tests whose title or identifier holds `search`, for the question picker. */
export const qtiBankQuery = (kind: "items" | "tests", search: string) => {
  const query = searchParamsOf({ search: search.trim(), limit: 20 });
  return queryOptions({
    queryKey: ["qti", "bank", kind, search.trim()],
    queryFn: ({ signal }) => apiFetch(`/api/qti/${kind}?${query}`, qtiListResponseSchema, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: (failures, error) => failures < 2 && !isRefusal(error),
  });
};

/** A bank test with the items it holds, in order. */
export const qtiTestQuery = (identifier: string) =>
  queryOptions({
    queryKey: ["qti", "test", identifier],
    queryFn: ({ signal }) =>
      apiFetch(`/api/qti/tests/${encodeURIComponent(identifier)}`, qtiTestSchema, { signal }),
    staleTime: 30_000,
    retry: (failures, error) => failures < 2 && !isRefusal(error),
  });

/** The active learning apps a lesson can send students to. */
export const learningAppsQuery = queryOptions({
  queryKey: ["apps", "active"],
  queryFn: ({ signal }) => apiFetch("/api/apps", learningAppListResponseSchema, { signal }),
  select: (answer) => answer.data.filter((app) => app.kind === "learning" && app.isActive),
  staleTime: 60_000,
});
