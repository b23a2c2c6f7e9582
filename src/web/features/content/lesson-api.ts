import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import type {
  AttemptResponseInput,
  AttemptResult,
  LessonAttemptStarted,
  LessonView,
} from "../../../shared/contracts/content";
import { ApiRequestError, answerOf, apiFetch } from "../../lib/http";
import { unsaveResource } from "./assignments-api";

/** A lesson as a student takes it: the lesson, attempts, saving answers and the finish. */

export const lessonKeys = {
  lesson: (lessonId: string) => ["content", "lesson", lessonId] as const,
  attempt: (attemptId: string) => ["content", "lesson-attempt", attemptId] as const,
};

const noRetryOnRefusal = (failures: number, error: Error) =>
  !(error instanceof ApiRequestError && error.status < 500) && failures < 2;

/**
 * GET /api/content/lessons/:lessonId. Read once per visit: while the page is open its answers live
 * on it, and the next visit reads them again (nothing is kept once the page is left).
 */
export const lessonQuery = (lessonId: string) =>
  queryOptions({
    queryKey: lessonKeys.lesson(lessonId),
    queryFn: ({ signal }) =>
      apiFetch(`/api/content/lessons/${encodeURIComponent(lessonId)}`, answerOf<LessonView>(), { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: noRetryOnRefusal,
  });

/** GET /api/content/attempts/:attemptId: a finished attempt's result. It never changes but for its XP's review. */
export const attemptResultQuery = (attemptId: string) =>
  queryOptions({
    queryKey: lessonKeys.attempt(attemptId),
    queryFn: ({ signal }) =>
      apiFetch(`/api/content/attempts/${encodeURIComponent(attemptId)}`, answerOf<AttemptResult>(), {
        signal,
      }),
    retry: noRetryOnRefusal,
  });

export const startAttempt = (lessonId: string) =>
  apiFetch(
    `/api/content/lessons/${encodeURIComponent(lessonId)}/attempts`,
    answerOf<LessonAttemptStarted>(),
    { method: "POST" },
  );

export const saveResponse = (attemptId: string, input: AttemptResponseInput) =>
  apiFetch(`/api/content/attempts/${encodeURIComponent(attemptId)}/responses`, z.unknown(), {
    method: "PUT",
    body: input,
  });

export const finishAttempt = (attemptId: string, activeSeconds: number) =>
  apiFetch(`/api/content/attempts/${encodeURIComponent(attemptId)}/finish`, answerOf<AttemptResult>(), {
    body: { activeSeconds },
  });

/** The server said the attempt is no longer open (finished in another tab): the page reads the lesson again. */
export const isAttemptClosed = (error: unknown) => error instanceof ApiRequestError && error.status === 409;

/**
 * PUT or DELETE /api/content/saved-resources/:resourceId: the student keeps a resource for later,
 * or lets it go. Letting go of one that is no longer kept (let go in another tab) is done already.
 */
export async function keepResource(resourceId: string, keep: boolean): Promise<void> {
  if (keep) {
    await apiFetch(`/api/content/saved-resources/${encodeURIComponent(resourceId)}`, z.unknown(), {
      method: "PUT",
    });
    return;
  }
  await unsaveResource(resourceId).catch((error: unknown) => {
    if (!(error instanceof ApiRequestError && error.status === 404)) throw error;
  });
}
