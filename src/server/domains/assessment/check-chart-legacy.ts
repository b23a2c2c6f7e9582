import { sql } from "drizzle-orm";
import { type LegacyReview, workingLevelIndex } from "../../../shared/contracts/assessment";
import { type Database, isoInstant, queryJsonRows, queryRows, uuidEquals } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { nameOf } from "../rostering/queries";
import { chartOrderSql, isChart } from "./check-charts";

/**
 * The legacy review: each level of the older charts mapped to the placement grade it stands for,
 * and, per level, the students working at it with their current placement in the chart's subject,
 * so an administrator can see where the two disagree.
 */

type ReviewLevel = Omit<LegacyReview["charts"][number]["levels"][number], "students">;

interface ChartRow {
  id: string;
  title: string;
  subject: string;
  levels: ReviewLevel[];
}

interface ProgressRow {
  chartId: string;
  studentId: string;
  name: string;
  placementGrade: number | null;
  observedByLevel: Record<string, number>;
}

const mappedByJson = sql`case when l.mapped_by is null then null
  else json_build_object('id', l.mapped_by, 'name', ${nameOf(sql`l.mapped_by`)}) end`;

export async function legacyReview(db: Database): Promise<LegacyReview> {
  const [charts, progress] = await Promise.all([
    queryJsonRows<ChartRow>(
      db,
      sql`select c.id, c.title, c.subject,
          coalesce((select json_agg(json_build_object('id', l.id, 'name', l.name,
              'checkCount', (select count(*)::int from check_chart_checks k where k.level_id = l.id),
              'mappedGrade', l.mapped_grade, 'mappedBy', ${mappedByJson}, 'mappedAt', ${isoInstant(sql`l.mapped_at`)})
            order by l.position, l.id) from check_chart_levels l where l.chart_id = c.id), '[]'::json) as levels
        from check_charts c order by ${chartOrderSql}`,
    ),
    // Every student with an observation in a chart, with their observed checks per level.
    queryJsonRows<ProgressRow>(
      db,
      sql`select l.chart_id as "chartId", x.student_sourced_id as "studentId",
          ${nameOf(sql`x.student_sourced_id`)} as name,
          (select p.current_grade from placements p where p.student_sourced_id = x.student_sourced_id
            and lower(p.subject) = lower(c.subject) order by p.subject limit 1) as "placementGrade",
          json_object_agg(x.level_id, x.observed) as "observedByLevel"
        from (select k.level_id, o.student_sourced_id, count(*)::int as observed from check_observations o
            join check_chart_checks k on k.id = o.check_id group by k.level_id, o.student_sourced_id) x
          join check_chart_levels l on l.id = x.level_id
          join check_charts c on c.id = l.chart_id
        group by l.chart_id, c.subject, x.student_sourced_id
        order by name, x.student_sourced_id`,
    ),
  ]);
  return {
    charts: charts.map((chart) => {
      const students = progress.filter((row) => row.chartId === chart.id);
      const atLevel = chart.levels.map(
        () => [] as LegacyReview["charts"][number]["levels"][number]["students"],
      );
      let completedCount = 0;
      for (const student of students) {
        const working = workingLevelIndex(
          chart.levels.map((level) => ({
            checkCount: level.checkCount,
            observedCount: student.observedByLevel[level.id] ?? 0,
          })),
        );
        if (working === null) {
          completedCount += 1;
          continue;
        }
        const mapped = chart.levels[working]?.mappedGrade ?? null;
        atLevel[working]?.push({
          id: student.studentId,
          name: student.name,
          placementGrade: student.placementGrade,
          differs: mapped !== null && student.placementGrade !== null && mapped !== student.placementGrade,
        });
      }
      return {
        id: chart.id,
        title: chart.title,
        subject: chart.subject,
        completedCount,
        levels: chart.levels.map((level, index) => ({ ...level, students: atLevel[index] ?? [] })),
      };
    }),
  };
}

/**
 * Maps a level to the placement grade it stands for, or clears the mapping (null). Who changed it
 * and when stays on the level either way.
 */
export async function mapLevel(
  db: Database,
  actor: Actor,
  target: { chartId: string; levelId: string },
  grade: number | null,
  now: Date,
) {
  const [level] = await queryRows<{
    mappedGrade: number | null;
    mappedBy: { id: string; name: string | null } | null;
    mappedAt: string | null;
  }>(
    db,
    sql`with changed as (update check_chart_levels set mapped_grade = ${grade}::int,
          mapped_by = ${actor.realUser.sourcedId}, mapped_at = ${now.toISOString()}::timestamptz
        where ${uuidEquals(sql`id`, target.levelId)} and ${isChart(sql`chart_id`, target.chartId)}
        returning mapped_grade, mapped_by, mapped_at)
      select l.mapped_grade as "mappedGrade", ${mappedByJson} as "mappedBy", ${isoInstant(sql`l.mapped_at`)} as "mappedAt"
      from changed l`,
  );
  if (!level) throw new AppError("not_found", message("assessment:checkCharts.levelNotFound"));
  return level;
}
