import { addDays, localDateOf, SCHOOL_TIME_ZONE, weekStartOf } from "../../shared/time-zone";
import type { Database } from "../db/client";
import { placeLeagues } from "../domains/leaderboards/leagues";
import { leaderboardOptOuts } from "../domains/leaderboards/schema";
import { demoId } from "./demo-accounts";

/**
 * Two weeks of leagues (last week's, and this week's moved by last week's XP) and one student
 * their family hid from leaderboards: Leo Johnson, by his parent Sam.
 */
export async function seedDemoLeaderboards(db: Database, today: Date): Promise<void> {
  const thisWeek = weekStartOf(localDateOf(today, SCHOOL_TIME_ZONE));
  await placeLeagues(db, addDays(thisWeek, -7));
  await placeLeagues(db, thisWeek);
  await db.insert(leaderboardOptOuts).values({
    studentSourcedId: demoId("student-leo"),
    hiddenBy: "family",
    actorSourcedId: demoId("parent-sam"),
    createdAt: today,
  });
}
