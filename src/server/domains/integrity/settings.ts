import { type SQL, sql } from "drizzle-orm";
import {
  DEFAULT_INTEGRITY_SETTINGS,
  type IntegritySettings,
  integritySettingsSchema,
} from "../../../shared/contracts/integrity";
import { type Database, queryRows } from "../../db/client";
import { appMeta, getMeta, setMeta } from "../../db/meta";
import { schoolIdsOf } from "../rostering/scope";

/** The school's integrity rules: what an administrator saved, else the defaults. */
export async function integritySettingsOf(db: Database): Promise<IntegritySettings> {
  const parsed = integritySettingsSchema.safeParse(await getMeta(db, "integrity_settings"));
  return parsed.success ? parsed.data : DEFAULT_INTEGRITY_SETTINGS;
}

/**
 * Saves the rules. A school whose lockout is turned off has its locked students unlocked at once
 * (recorded as `lockout_off`), so no dashboard stays locked under a rule that no longer applies.
 * Answers the students unlocked.
 */
export async function saveIntegritySettings(
  db: Database,
  settings: IntegritySettings,
  actorId: string,
  now: Date,
): Promise<string[]> {
  const lockoutSchoolIds = [...new Set(settings.lockoutSchoolIds)].sort();
  return db.transaction(async (tx) => {
    await setMeta(tx as unknown as Database, "integrity_settings", { ...settings, lockoutSchoolIds });
    const unlocked = await queryRows<{ studentId: string }>(
      tx as unknown as Database,
      sql`update integrity_lockouts l set unlocked_at = ${now}, unlocked_by_sourced_id = ${actorId},
          unlock_reason = 'lockout_off', unlock_note = '', unlocked_with_code = false
        where l.unlocked_at is null and not (${lockoutEnabledFor(sql`l.student_sourced_id`)})
        returning l.student_sourced_id as "studentId"`,
    );
    return unlocked.map((row) => row.studentId);
  });
}

/** Whether lockout is on at one of the schools of the student in `studentId`, as SQL. */
export function lockoutEnabledFor(studentId: SQL): SQL {
  return sql`exists (select 1 from ${appMeta} m
    cross join jsonb_array_elements_text(m.value -> 'lockoutSchoolIds') as school(id)
    where m.key = 'integrity_settings' and school.id in (${schoolIdsOf(sql`select ${studentId}`)}))`;
}
