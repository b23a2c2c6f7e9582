import { sql } from "drizzle-orm";
import type { Database } from "../../db/client";

/**
 * "Dash lessons", the learning app under which finished lesson attempts report their activity:
 * their XP goes through the same engine, limits and reviews as any app's.
 */
export const DASH_LESSONS_APP_ID = "0da5e000-0000-4000-8000-000000000001";

/**
 * Registers the app the first time a lesson is reported. It is data, not schema: a migration that
 * wrote it would collide with the copy of it an embedded database's export carries to PostgreSQL.
 */
export async function ensureDashLessonsApp(db: Database): Promise<void> {
  if (registeredIn.has(db)) return;
  await db.execute(
    sql`insert into learning_apps (id, name, kind, launch_url)
      values (${DASH_LESSONS_APP_ID}::uuid, 'Dash lessons', 'learning', '/app/student-resources')
      on conflict (id) do nothing`,
  );
  registeredIn.add(db);
}

/** Databases the app is known to be in: one insert per process, not one per finished lesson. */
const registeredIn = new WeakSet<Database>();

/** The activity event a finished attempt is reported under: a finish told again is a duplicate. */
export const lessonAttemptEventId = (attemptId: string) => `lesson-attempt:${attemptId}`;
