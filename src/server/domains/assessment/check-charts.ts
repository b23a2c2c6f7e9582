import { randomUUID } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import {
  type CheckChart,
  type CheckChartDraft,
  type CheckChartList,
  type CheckChartSummary,
  checkChartProblems,
  workingLevelIndex,
} from "../../../shared/contracts/assessment";
import { type Database, isoInstant, queryJsonRows, queryRows, uuidEquals } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { invalidFields } from "../../lib/validation";
import { nameOf } from "../rostering/queries";
import { classIdsOf, studentVisibleTo } from "../rostering/scope";
import { checkChartChecks, checkChartLevels, checkCharts } from "./schema";

/**
 * Check charts themselves: listing, reading, creating, saving and deleting them. Administrators
 * change any chart; a Guide creates charts and changes the ones they created.
 */

const STAFF = new Set(["teacher", "administrator"]);

export function isStaff(actor: Actor): boolean {
  return STAFF.has(actor.activeRole ?? "");
}

/** Whether the caller may change or delete a chart made by `createdBy`. */
export function mayChangeChart(actor: Actor, createdBy: string): boolean {
  if (actor.activeRole === "administrator") return true;
  return actor.activeRole === "teacher" && createdBy === actor.user.sourcedId;
}

export function chartNotFound() {
  return new AppError("not_found", message("assessment:checkCharts.chartNotFound"));
}

export function studentNotFound() {
  return new AppError("not_found", message("assessment:checkCharts.studentNotFound"));
}

/** The 403 for a role that may not take a step: `action` is a key of checkCharts.actions. */
export function roleForbids(action: string) {
  return new AppError(
    "forbidden",
    message("common:roleForbids", { action: message(`assessment:checkCharts.actions.${action}`) }),
  );
}

/** `chart_id = …` for a chart id from a request: text that is no uuid matches nothing. */
export const isChart = (column: SQL, chartId: string) => uuidEquals(column, chartId);

/** Counts of a chart's levels and checks, for lists. */
const chartCounts = sql`(select count(*)::int from check_chart_levels l where l.chart_id = c.id) as "levelCount",
  (select count(*)::int from check_chart_checks k join check_chart_levels l on l.id = k.level_id
    where l.chart_id = c.id) as "checkCount"`;

/** Charts in the order lists show them: by subject, then title. */
export const chartOrderSql = sql`lower(c.subject), lower(c.title), c.id`;

interface SummaryRow extends Omit<CheckChartSummary, "createdBy" | "canEdit" | "canDelete" | "progress"> {
  createdById: string;
  createdByName: string | null;
  /** The student's observed and total checks per level, in order, when the list is a student's. */
  levels?: { name: string; checkCount: number; observedCount: number }[];
}

function summaryOf(
  actor: Actor,
  { createdById, createdByName, levels, ...row }: SummaryRow,
): CheckChartSummary {
  const canChange = mayChangeChart(actor, createdById);
  const working = levels ? workingLevelIndex(levels) : null;
  return {
    ...row,
    createdBy: { id: createdById, name: createdByName },
    canEdit: canChange,
    canDelete: canChange,
    progress: levels
      ? {
          observed: levels.reduce((total, level) => total + level.observedCount, 0),
          total: levels.reduce((total, level) => total + level.checkCount, 0),
          workingLevel: working === null ? null : { index: working, name: levels[working]?.name ?? "" },
        }
      : null,
  };
}

const summaryColumns = sql`c.id, c.title, c.subject, c.description, c.created_by as "createdById",
  ${nameOf(sql`c.created_by`)} as "createdByName", ${isoInstant(sql`c.updated_at`)} as "updatedAt", ${chartCounts}`;

/** The charts a student sees: those they have progress in, and those of the subjects of their classes. */
function chartsOfStudent(studentId: string): SQL {
  return sql`(exists (select 1 from check_observations o join check_chart_checks k on k.id = o.check_id
        join check_chart_levels l on l.id = k.level_id
      where l.chart_id = c.id and o.student_sourced_id = ${studentId})
    or lower(c.subject) in (select lower(s.subject) from classes k
        left join courses co on co.sourced_id = k.course_sourced_id
        cross join lateral unnest(k.subjects || coalesce(co.subjects, '{}'::text[])) as s(subject)
      where k.sourced_id in (${classIdsOf(sql`select ${studentId}::text`, "student")})))`;
}

/**
 * The charts the caller lists: a student's own (without `studentId`) or those of a student they may
 * see, each with that student's progress; for staff without `studentId`, every chart.
 */
export async function listCheckCharts(
  db: Database,
  actor: Actor,
  requestedStudentId: string | undefined,
): Promise<CheckChartList> {
  const studentId = requestedStudentId ?? (actor.activeRole === "student" ? actor.user.sourcedId : undefined);
  const canCreate = isStaff(actor);
  if (!studentId) {
    if (!isStaff(actor)) {
      if (actor.activeRole === "parent" || actor.activeRole === "guardian")
        throw new AppError("bad_request", message("assessment:checkCharts.chooseStudent"));
      throw roleForbids("list");
    }
    const rows = await queryRows<SummaryRow>(
      db,
      sql`select ${summaryColumns} from check_charts c order by ${chartOrderSql}`,
    );
    return { student: null, charts: rows.map((row) => summaryOf(actor, row)), canCreate };
  }

  const visible = studentVisibleTo(actor, studentId);
  if (!visible) throw roleForbids("seeProgress");
  const [student] = await queryRows<{ id: string; name: string }>(
    db,
    sql`select u.sourced_id as id, ${nameOf(sql`u.sourced_id`)} as name from users u
      where u.sourced_id = ${studentId} and ${visible}`,
  );
  if (!student) throw studentNotFound();
  const rows = await queryJsonRows<SummaryRow>(
    db,
    sql`select ${summaryColumns},
        coalesce((select json_agg(json_build_object('name', l.name,
            'checkCount', (select count(*)::int from check_chart_checks k where k.level_id = l.id),
            'observedCount', (select count(*)::int from check_observations o join check_chart_checks k on k.id = o.check_id
              where k.level_id = l.id and o.student_sourced_id = ${studentId}))
          order by l.position, l.id) from check_chart_levels l where l.chart_id = c.id), '[]'::json) as levels
      from check_charts c where ${chartsOfStudent(studentId)} order by ${chartOrderSql}`,
  );
  return { student, charts: rows.map((row) => summaryOf(actor, row)), canCreate };
}

type StoredChart = Omit<CheckChart, "createdBy" | "canEdit" | "canDelete"> & {
  createdById: string;
  createdByName: string | null;
};

/** One chart with its levels and checks, for staff: the editor, the dashboard and the previews. */
export async function getCheckChart(db: Database, actor: Actor, chartId: string): Promise<CheckChart> {
  if (!isStaff(actor)) throw roleForbids("read");
  const [chart] = await queryJsonRows<StoredChart>(
    db,
    sql`select c.id, c.title, c.subject, c.description, c.created_by as "createdById",
        ${nameOf(sql`c.created_by`)} as "createdByName", ${isoInstant(sql`c.created_at`)} as "createdAt",
        ${isoInstant(sql`c.updated_at`)} as "updatedAt",
        coalesce((select json_agg(json_build_object('id', l.id, 'name', l.name, 'mappedGrade', l.mapped_grade,
            'checks', coalesce((select json_agg(json_build_object('id', k.id, 'name', k.name, 'description', k.description,
                'observationCount', (select count(*)::int from check_observations o where o.check_id = k.id))
              order by k.position, k.id) from check_chart_checks k where k.level_id = l.id), '[]'::json))
          order by l.position, l.id) from check_chart_levels l where l.chart_id = c.id), '[]'::json) as levels
      from check_charts c where ${isChart(sql`c.id`, chartId)}`,
  );
  if (!chart) throw chartNotFound();
  const { createdById, createdByName, ...rest } = chart;
  const canChange = mayChangeChart(actor, createdById);
  return {
    ...rest,
    createdBy: { id: createdById, name: createdByName },
    canEdit: canChange,
    canDelete: canChange,
    // How many students a check's removal would take ticks from: for those who may remove it.
    levels: rest.levels.map((level) => ({
      ...level,
      checks: level.checks.map((check) => ({
        ...check,
        observationCount: canChange ? check.observationCount : null,
      })),
    })),
  };
}

/** Refuses a chart its own rules refuse, naming each field's problem. */
function assertSaveable(draft: CheckChartDraft) {
  const issues = checkChartProblems(draft);
  if (issues.length > 0)
    throw invalidFields(
      issues.map((issue) => ({
        path: issue.path,
        message: message(`assessment:checkCharts.problems.${issue.problem}`, { limit: issue.limit }),
      })),
    );
}

/** The levels and checks already in a chart, whose ids a save may keep. */
interface ExistingParts {
  levelIds: Set<string>;
  checkIds: Set<string>;
}

/**
 * Writes a chart's levels and checks as the draft has them, in one transaction with the chart:
 * kept ids are updated in place (their observations stay), new parts get new ids, and parts left
 * out are deleted with their observations. A check may move to another level of the chart.
 */
async function writeParts(tx: Database, chartId: string, draft: CheckChartDraft, existing: ExistingParts) {
  const unknown = draft.levels.flatMap((level, levelIndex) => [
    ...(level.id && !existing.levelIds.has(level.id)
      ? [{ path: `levels.${levelIndex}.id`, message: message("assessment:checkCharts.unknownLevel") }]
      : []),
    ...level.checks.flatMap((check, checkIndex) =>
      check.id && !existing.checkIds.has(check.id)
        ? [
            {
              path: `levels.${levelIndex}.checks.${checkIndex}.id`,
              message: message("assessment:checkCharts.unknownCheck"),
            },
          ]
        : [],
    ),
  ]);
  if (unknown.length > 0) throw invalidFields(unknown);

  const levels = draft.levels.map((level, position) => ({
    id: level.id ?? randomUUID(),
    chartId,
    position,
    name: level.name.trim(),
  }));
  const checks = draft.levels.flatMap((level, levelIndex) =>
    level.checks.map((check, position) => ({
      id: check.id ?? randomUUID(),
      levelId: levels[levelIndex]?.id as string,
      position,
      name: check.name.trim(),
      description: (check.description ?? "").trim(),
    })),
  );
  if (levels.length > 0)
    await tx
      .insert(checkChartLevels)
      .values(levels)
      .onConflictDoUpdate({
        target: checkChartLevels.id,
        set: { position: sql`excluded.position`, name: sql`excluded.name` },
      });
  if (checks.length > 0)
    await tx
      .insert(checkChartChecks)
      .values(checks)
      .onConflictDoUpdate({
        target: checkChartChecks.id,
        set: {
          levelId: sql`excluded.level_id`,
          position: sql`excluded.position`,
          name: sql`excluded.name`,
          description: sql`excluded.description`,
        },
      });
  // Checks first: one that moved out of a removed level has its new level by now.
  const keptChecks =
    checks.length > 0
      ? sql.join(
          checks.map((check) => sql`${check.id}::uuid`),
          sql`, `,
        )
      : null;
  const keptLevels =
    levels.length > 0
      ? sql.join(
          levels.map((level) => sql`${level.id}::uuid`),
          sql`, `,
        )
      : null;
  await tx.execute(sql`delete from check_chart_checks
    where level_id in (select id from check_chart_levels where chart_id = ${chartId}::uuid)
      ${keptChecks ? sql`and id not in (${keptChecks})` : sql``}`);
  await tx.execute(sql`delete from check_chart_levels where chart_id = ${chartId}::uuid
    ${keptLevels ? sql`and id not in (${keptLevels})` : sql``}`);
}

/** A new chart, made by the caller (a Guide or an administrator). */
export async function createCheckChart(
  db: Database,
  actor: Actor,
  draft: CheckChartDraft,
  now: Date,
): Promise<CheckChart> {
  if (!isStaff(actor)) throw roleForbids("edit");
  assertSaveable(draft);
  const chartId = randomUUID();
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    await tx.insert(checkCharts).values({
      id: chartId,
      title: draft.title.trim(),
      subject: draft.subject.trim(),
      description: (draft.description ?? "").trim(),
      createdBy: actor.user.sourcedId,
      createdAt: now,
      updatedAt: now,
    });
    await writeParts(tx, chartId, draft, { levelIds: new Set(), checkIds: new Set() });
  });
  return getCheckChart(db, actor, chartId);
}

/** The chart to change, locked until the transaction ends, once the caller may change it. */
async function chartToChange(tx: Database, actor: Actor, chartId: string) {
  const [chart] = await queryRows<{ id: string; createdBy: string; updatedAt: string }>(
    tx,
    sql`select id, created_by as "createdBy", ${isoInstant(sql`updated_at`)} as "updatedAt"
      from check_charts where ${isChart(sql`id`, chartId)} for update`,
  );
  if (!chart) throw chartNotFound();
  if (!mayChangeChart(actor, chart.createdBy))
    throw new AppError("forbidden", message("assessment:checkCharts.notYourChart"));
  return chart;
}

/** Saves the whole chart as the draft has it (see writeParts). */
export async function saveCheckChart(
  db: Database,
  actor: Actor,
  chartId: string,
  draft: CheckChartDraft,
  now: Date,
): Promise<CheckChart> {
  if (!isStaff(actor)) throw roleForbids("edit");
  assertSaveable(draft);
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const chart = await chartToChange(tx, actor, chartId);
    if (draft.updatedAt && draft.updatedAt !== chart.updatedAt)
      throw new AppError("conflict", message("assessment:checkCharts.changedSince"));
    const parts = await queryRows<{ levelId: string; checkId: string | null }>(
      tx,
      sql`select l.id::text as "levelId", k.id::text as "checkId" from check_chart_levels l
        left join check_chart_checks k on k.level_id = l.id where l.chart_id = ${chart.id}::uuid`,
    );
    await writeParts(tx, chart.id, draft, {
      levelIds: new Set(parts.map((part) => part.levelId)),
      checkIds: new Set(parts.flatMap((part) => (part.checkId ? [part.checkId] : []))),
    });
    await tx.execute(sql`update check_charts set title = ${draft.title.trim()}, subject = ${draft.subject.trim()},
        description = ${(draft.description ?? "").trim()}, updated_at = ${now.toISOString()}::timestamptz
      where id = ${chart.id}::uuid`);
  });
  return getCheckChart(db, actor, chartId);
}

/** Deletes a chart with its levels, checks and every observation of them. */
export async function deleteCheckChart(db: Database, actor: Actor, chartId: string): Promise<void> {
  if (!isStaff(actor)) throw roleForbids("edit");
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const chart = await chartToChange(tx, actor, chartId);
    await tx.execute(sql`delete from check_charts where id = ${chart.id}::uuid`);
  });
}
