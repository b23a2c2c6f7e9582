/**
 * "Dash lessons", the learning app (added by migration 0026) under which finished lesson attempts
 * report their activity: their XP goes through the same engine, limits and reviews as any app's.
 */
export const DASH_LESSONS_APP_ID = "0da5e000-0000-4000-8000-000000000001";

/** The activity event a finished attempt is reported under: a finish told again is a duplicate. */
export const lessonAttemptEventId = (attemptId: string) => `lesson-attempt:${attemptId}`;
