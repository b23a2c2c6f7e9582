import { sql } from "drizzle-orm";
import type { MessagingSettings, SchoolMessagingSetting } from "../../../shared/contracts/messaging";
import { type Database, isoInstant, queryJsonRows, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import type { Logger } from "../../lib/logger";
import { nameOf } from "../rostering/queries";

const SETTING_COLUMNS = sql`o.sourced_id as "schoolId", o.name as "schoolName",
  coalesce(m.students_may_write, false) as "studentsMayWrite", ${nameOf(sql`m.updated_by`)} as "updatedBy",
  ${isoInstant(sql`m.updated_at`)} as "updatedAt"`;

/** Each school's rule for messaging: whether its students may write to their Guides (off until turned on). */
export async function messagingSettings(db: Database): Promise<MessagingSettings> {
  const schools = await queryJsonRows<SchoolMessagingSetting>(
    db,
    sql`select ${SETTING_COLUMNS} from orgs o left join messaging_settings m on m.org_sourced_id = o.sourced_id
      where o.type = 'school' and o.status = 'active' order by o.name, o.sourced_id`,
  );
  return { schools };
}

/** Turns students' messages on or off for a school, keeping who changed it and when. */
export async function setStudentsMayWrite(
  db: Database,
  logger: Logger,
  actor: Actor,
  schoolId: string,
  studentsMayWrite: boolean,
  now: Date,
): Promise<SchoolMessagingSetting> {
  const [row] = await queryRows<SchoolMessagingSetting>(
    db,
    sql`with saved as (
        insert into messaging_settings (org_sourced_id, students_may_write, updated_by, updated_at)
        select o.sourced_id, ${studentsMayWrite}, ${actor.realUser.sourcedId}, ${now.toISOString()}::timestamptz
        from orgs o where o.sourced_id = ${schoolId} and o.type = 'school'
        on conflict (org_sourced_id) do update set students_may_write = excluded.students_may_write,
          updated_by = excluded.updated_by, updated_at = excluded.updated_at
        returning *)
      select ${SETTING_COLUMNS} from saved m join orgs o on o.sourced_id = m.org_sourced_id`,
  );
  if (!row) throw new AppError("not_found", message("messaging:schoolNotFound"));
  logger.info("students' messages changed", {
    schoolId,
    studentsMayWrite,
    by: actor.realUser.sourcedId,
  });
  return row;
}
