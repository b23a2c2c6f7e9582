import { sql } from "drizzle-orm";
import {
  type AthleticsSettings,
  type AthleticsSettingsInput,
  athleticsSettingsInputSchema,
  DEFAULT_WEEKLY_GOAL_MINUTES,
} from "../../../shared/contracts/athletics";
import { type Database, queryRows } from "../../db/client";
import { setMeta } from "../../db/meta";
import type { Actor } from "../../lib/context";
import { nameOf } from "../rostering/queries";

/** The weekly activity goal as an administrator last saved it (with who and when), else the default. */
export async function athleticsSettingsOf(db: Database): Promise<AthleticsSettings> {
  const [row] = await queryRows<{ value: unknown; changedAt: string; changedBy: string | null }>(
    db,
    sql`select m.value, to_char(m.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "changedAt",
        ${nameOf(sql`m.value->>'changedBy'`)} as "changedBy"
      from app_meta m where m.key = 'athletics_settings'`,
  );
  const stored = athleticsSettingsInputSchema.safeParse(row?.value);
  if (!row || !stored.success)
    return { weeklyGoalMinutes: DEFAULT_WEEKLY_GOAL_MINUTES, changedAt: null, changedBy: null };
  return {
    weeklyGoalMinutes: stored.data.weeklyGoalMinutes,
    changedAt: row.changedAt,
    changedBy: row.changedBy,
  };
}

/** A new goal counts for every week from now on, past weeks included: it is a yardstick, not a record. */
export async function saveAthleticsSettings(
  db: Database,
  actor: Actor,
  input: AthleticsSettingsInput,
): Promise<AthleticsSettings> {
  await setMeta(db, "athletics_settings", { ...input, changedBy: actor.realUser.sourcedId });
  return athleticsSettingsOf(db);
}
