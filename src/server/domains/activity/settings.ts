import { type LearningSettings, xpRulesSchema } from "../../../shared/contracts/activity";
import { DEFAULT_XP_RULES, type XpRules } from "../../../shared/xp-rules";
import type { Database } from "../../db/client";
import { getMeta, setMeta } from "../../db/meta";
import { schoolDailyGoals } from "../goals/daily-goals";
import { forgetHomeSummaries } from "./home-summaries";

/** The XP rules in force: the school's own when an administrator set them, else the defaults. */
export async function xpRulesOf(db: Database): Promise<XpRules> {
  const stored = xpRulesSchema.safeParse(await getMeta(db, "xp_rules"));
  return stored.success ? stored.data : DEFAULT_XP_RULES;
}

export async function learningSettings(db: Database): Promise<LearningSettings> {
  const [xpRules, dailyGoals] = await Promise.all([xpRulesOf(db), schoolDailyGoals(db)]);
  return { xpRules, dailyGoals };
}

/** New rules apply to activity that arrives from now on; XP already awarded stays as it was. */
export async function saveLearningSettings(
  db: Database,
  settings: LearningSettings,
): Promise<LearningSettings> {
  await db.transaction(async (tx) => {
    const scoped = tx as unknown as Database;
    await setMeta(scoped, "xp_rules", settings.xpRules);
    await setMeta(scoped, "daily_xp_goals", settings.dailyGoals);
    await forgetHomeSummaries(scoped);
  });
  return settings;
}
