import { eq, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  type CreateScheduleBody,
  type createScheduleSchema,
  type ReportId,
  type ReportSchedule,
  reportSearchSchema,
  type ScheduleFilters,
  type StaffMember,
  type updateScheduleSchema,
} from "../../../shared/contracts/reports";
import type { Language } from "../../../shared/languages";
import { type Database, isoInstant, queryJsonRows, queryRows, uuidEquals } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message, translate } from "../../lib/i18n";
import type { Logger } from "../../lib/logger";
import { nameOf } from "../rostering/queries";
import { REPORTS } from "./definitions";
import { LOCALES, type ReportContext, type ReportDefinition } from "./engine";
import { describeFilters, filterOptions } from "./population";
import { reportSchedules } from "./schema";

/** Most staff a name search answers: the picker shows a short list to choose from. */
const STAFF_SEARCH_LIMIT = 20;

/** SQL: the person is staff, that is, holds the administrator or the teacher (Guide) role. */
export function isStaffSql(userId: SQL): SQL {
  return sql`exists (select 1 from user_roles sr where sr.user_sourced_id = ${userId}
    and lower(sr.role) in ('administrator', 'teacher'))`;
}

/** The report a schedule sends: an administrator report Dash has. */
export function scheduledDefinition(reportId: string): ReportDefinition {
  const definition = REPORTS[reportId as ReportId];
  if (definition?.access !== "administrator")
    throw new AppError("bad_request", message("reports:schedules.unknownReport"));
  return definition;
}

const notFound = () => new AppError("not_found", message("reports:schedules.notFound"));

/** `%text%` for ILIKE, its wildcards taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/** Staff whose name or address holds `query`, by name: the people a report may be sent to. */
export async function searchStaff(db: Database, query: string): Promise<StaffMember[]> {
  const pattern = containing(query);
  return queryRows<StaffMember>(
    db,
    sql`select u.sourced_id as id, ${nameOf(sql`u.sourced_id`)} as name, u.email,
          case when exists (select 1 from user_roles ar where ar.user_sourced_id = u.sourced_id
            and lower(ar.role) = 'administrator') then 'administrator' else 'teacher' end as role
        from users u
        where u.status = 'active' and u.enabled_user and ${isStaffSql(sql`u.sourced_id`)}
          and (${query} = '' or concat_ws(' ', u.preferred_first_name, u.given_name, u.family_name) ilike ${pattern}
            or u.email ilike ${pattern})
        order by u.family_name, u.given_name, u.sourced_id
        limit ${STAFF_SEARCH_LIMIT}`,
  );
}

/** Refuses recipients who are not active staff, naming them (by name when Dash knows them). */
async function checkRecipients(db: Database, recipientIds: readonly string[]): Promise<void> {
  const refused = await queryRows<{ label: string }>(
    db,
    sql`select coalesce(${nameOf(sql`r.id`)}, r.id) as label
        from jsonb_array_elements_text(${JSON.stringify(recipientIds)}::jsonb) with ordinality as r(id, at)
        where not exists (select 1 from users u where u.sourced_id = r.id and u.status = 'active'
          and u.enabled_user and ${isStaffSql(sql`u.sourced_id`)})
        order by r.at`,
  );
  if (refused.length > 0)
    throw new AppError(
      "bad_request",
      message("reports:schedules.notStaff", {
        count: refused.length,
        names: refused.map((row) => row.label).join(", "),
      }),
    );
}

/** Only the filters the report reads are kept, so a schedule never carries a value it ignores. */
function filtersFor(definition: ReportDefinition, filters: ScheduleFilters): ScheduleFilters {
  return Object.fromEntries(
    Object.entries(filters).filter(
      ([key, value]) => value !== undefined && (definition.filters as readonly string[]).includes(key),
    ),
  );
}

interface ScheduleRow {
  id: string;
  reportId: ReportId;
  frequency: ReportSchedule["frequency"];
  filters: ScheduleFilters;
  recipients: ReportSchedule["recipients"];
  createdBy: ReportSchedule["createdBy"];
  createdAt: string;
  lastPeriod: string | null;
  lastSentAt: string | null;
}

/** Every schedule, or one report's, newest first, with the report's title and the filters in words. */
export async function listSchedules(
  deps: { db: Database; readDb: Database },
  actor: Actor,
  options: { reportId?: ReportId; id?: string; language: Language; now: Date },
): Promise<ReportSchedule[]> {
  const where: SQL[] = [];
  if (options.reportId) where.push(sql`s.report_id = ${options.reportId}`);
  if (options.id) where.push(uuidEquals(sql`s.id`, options.id));
  const rows = await queryJsonRows<ScheduleRow>(
    deps.db,
    sql`select s.id, s.report_id as "reportId", s.frequency, s.filters,
          coalesce((select json_agg(json_build_object('id', r.id, 'name', coalesce(${nameOf(sql`r.id`)}, r.id))
            order by r.at) from unnest(s.recipient_ids) with ordinality as r(id, at)), '[]'::json) as recipients,
          json_build_object('id', s.created_by, 'name', coalesce(${nameOf(sql`s.created_by`)}, s.created_by)) as "createdBy",
          ${isoInstant(sql`s.created_at`)} as "createdAt", s.last_period as "lastPeriod",
          ${isoInstant(sql`s.last_sent_at`)} as "lastSentAt"
        from report_schedules s
        ${where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``}
        order by s.created_at desc, s.id`,
  );
  const t = (key: string, values?: Record<string, unknown>) =>
    translate(message(`reports:${key}`, values), options.language);
  return Promise.all(
    rows.map(async (row) => ({
      ...row,
      reportTitle: t(`titles.${row.reportId}`),
      applied: await filtersInWords(deps, actor, row, options.language, options.now),
    })),
  );
}

/** A schedule's filters as its report's header says them, with the student's name when there is one. */
async function filtersInWords(
  deps: { db: Database; readDb: Database },
  actor: Actor,
  row: ScheduleRow,
  language: Language,
  now: Date,
): Promise<ReportSchedule["applied"]> {
  const definition = REPORTS[row.reportId];
  if (!definition) return [];
  const t = (key: string, values?: Record<string, unknown>) =>
    translate(message(`reports:${key}`, values), language);
  const context: ReportContext = {
    ...deps,
    actor,
    search: reportSearchSchema.parse(row.filters),
    now,
    language,
    locale: LOCALES[language],
    t,
  };
  const { applied } = describeFilters(
    context,
    definition.filters,
    await filterOptions(context, definition.filters),
  );
  if (!row.filters.studentId) return applied;
  const [student] = await queryRows<{ name: string | null }>(
    deps.db,
    sql`select ${nameOf(sql`${row.filters.studentId}::text`)} as name`,
  );
  return [...applied, { label: t("filters.studentId"), value: student?.name ?? row.filters.studentId }];
}

type CreateInput = z.output<typeof createScheduleSchema>;
type UpdateInput = z.output<typeof updateScheduleSchema>;

/** A new schedule of an administrator report to staff; the change is logged with who and when. */
export async function createSchedule(
  db: Database,
  actor: Actor,
  body: CreateInput,
  logger: Logger,
  now: Date,
): Promise<string> {
  const definition = scheduledDefinition(body.reportId);
  await checkRecipients(db, body.recipientIds);
  const [created] = await db
    .insert(reportSchedules)
    .values({
      reportId: body.reportId,
      filters: filtersFor(definition, body.filters),
      frequency: body.frequency,
      recipientIds: body.recipientIds,
      createdBy: actor.user.sourcedId,
      createdAt: now,
    })
    .returning({ id: reportSchedules.id });
  if (!created) throw new Error("The schedule was not written");
  logChange(logger, "report schedule created", actor, created.id, now, body);
  return created.id;
}

/** Changes a schedule's filters, frequency or recipients; a new frequency starts from its next period. */
export async function updateSchedule(
  db: Database,
  actor: Actor,
  id: string,
  body: UpdateInput,
  logger: Logger,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [current] = await queryRows<{ report_id: string; frequency: string }>(
      tx,
      sql`select report_id, frequency from report_schedules where ${uuidEquals(sql`id`, id)} for update`,
    );
    if (!current) throw notFound();
    const definition = scheduledDefinition(current.report_id);
    if (body.recipientIds) await checkRecipients(tx, body.recipientIds);
    const frequencyChanged = body.frequency !== undefined && body.frequency !== current.frequency;
    await tx
      .update(reportSchedules)
      .set({
        ...(body.filters && { filters: filtersFor(definition, body.filters) }),
        ...(body.frequency && { frequency: body.frequency }),
        ...(body.recipientIds && { recipientIds: body.recipientIds }),
        // The last period was of the old frequency: the new one's first period is sent as it ends.
        ...(frequencyChanged && { lastPeriod: null }),
      })
      .where(eq(reportSchedules.id, id));
  });
  logChange(logger, "report schedule changed", actor, id, now, body);
}

export async function deleteSchedule(
  db: Database,
  actor: Actor,
  id: string,
  logger: Logger,
  now: Date,
): Promise<void> {
  const removed = await queryRows<{ id: string }>(
    db,
    sql`delete from report_schedules where ${uuidEquals(sql`id`, id)} returning id`,
  );
  if (removed.length === 0) throw notFound();
  logChange(logger, "report schedule deleted", actor, id, now, {});
}

/** Who changed which schedule and when, without names or filter values (they may name a student). */
function logChange(
  logger: Logger,
  what: string,
  actor: Actor,
  scheduleId: string,
  now: Date,
  body: Partial<CreateScheduleBody>,
): void {
  logger.info(what, {
    scheduleId,
    by: actor.user.sourcedId,
    signedInAs: actor.realUser.sourcedId,
    at: now.toISOString(),
    ...(body.reportId && { reportId: body.reportId }),
    ...(body.frequency && { frequency: body.frequency }),
    ...(body.recipientIds && { recipients: body.recipientIds.length }),
  });
}
