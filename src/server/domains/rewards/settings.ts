import { sql } from "drizzle-orm";
import {
  DEFAULT_REWARD_SETTINGS,
  type RewardSettings,
  rewardSettingsSchema,
} from "../../../shared/contracts/rewards";
import type { Database } from "../../db/client";
import { appMeta, getMeta, setMeta } from "../../db/meta";

/** The school's rules for Alphas: what an administrator saved, else the defaults. */
export async function rewardSettingsOf(db: Database): Promise<RewardSettings> {
  return settingsFrom(await getMeta(db, "reward_settings"));
}

/** The stored rules as a column of a statement that needs them (a request, on its hot path). */
export const STORED_REWARD_SETTINGS = sql`(select m.value from ${appMeta} m where m.key = 'reward_settings')`;

/** The rules as stored (see STORED_REWARD_SETTINGS), else the defaults. */
export function settingsFrom(stored: unknown): RewardSettings {
  const parsed = rewardSettingsSchema.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_REWARD_SETTINGS;
}

/** New rules apply from now on: Alphas already moved stay as they were. */
export async function saveRewardSettings(db: Database, settings: RewardSettings): Promise<RewardSettings> {
  await setMeta(db, "reward_settings", settings);
  return settings;
}
