import { sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { demoId } from "./demo-accounts";

/**
 * The demo's student accounts (Ava, and Jordan in his student role) start with the student tour
 * done, so a visitor or a browser journey signing in lands on the home as it is; "Take the tour"
 * in their menu starts it, and restarting it makes it come back by itself at the next sign-in.
 */
export async function seedDemoTours(db: Database, today: Date): Promise<void> {
  await db.execute(sql`insert into tour_completions (user_sourced_id, tour, outcome, completed_at)
    values (${demoId("student-ava")}, 'student', 'finished', ${today.toISOString()}::timestamptz),
      (${demoId("multi")}, 'student', 'finished', ${today.toISOString()}::timestamptz)
    on conflict do nothing`);
}
