import {
  DEFAULT_REWARD_SETTINGS,
  type RewardSettings,
  rewardSettingsSchema,
} from "../../../shared/contracts/rewards";
import type { Database } from "../../db/client";
import { getMeta, setMeta } from "../../db/meta";

/** The school's rules for Alphas: what an administrator saved, else the defaults. */
export async function rewardSettingsOf(db: Database): Promise<RewardSettings> {
  const stored = rewardSettingsSchema.safeParse(await getMeta(db, "reward_settings"));
  return stored.success ? stored.data : DEFAULT_REWARD_SETTINGS;
}

/** New rules apply from now on: Alphas already moved stay as they were. */
export async function saveRewardSettings(db: Database, settings: RewardSettings): Promise<RewardSettings> {
  await setMeta(db, "reward_settings", settings);
  return settings;
}
