import { sql } from "drizzle-orm";
import type {
  GrowthRecord,
  GrowthWindow,
  MapSeason,
  ReportedGrowth,
} from "../../../shared/contracts/assessment";
import { type Database, queryRows } from "../../db/client";
import { gradeLevelOfGrades } from "../rostering/queries";
import { growthBetween, windowBetween } from "./growth";

/** What a growth window needs of a stored test. */
export interface GrowthTest {
  termName: string;
  season: MapSeason;
  schoolYear: number;
  rit: number;
  grade: number | null;
  testDate: string;
  growthMeasure: boolean;
  growth: Partial<Record<GrowthWindow, ReportedGrowth>>;
}

/** Every window two of a subject's growth tests span, latest end first. */
export function growthWindowsOf<Test extends GrowthTest>(
  tests: Test[],
): (GrowthRecord & { start: Test; end: Test })[] {
  const counted = tests.filter((test) => test.growthMeasure);
  const windows = [];
  for (const end of counted)
    for (const start of counted) {
      const window = windowBetween(start, end);
      if (!window) continue;
      windows.push({
        window,
        from: start.termName,
        to: end.termName,
        startRit: start.rit,
        endRit: end.rit,
        ...growthBetween(start, end, window),
        start,
        end,
      });
    }
  return windows.reverse();
}

/** Students whose growth is rewritten in one statement. */
const REFRESH_CHUNK = 2000;

/**
 * Rewrites the stored growth (map_growth) of students whose results changed, from all their tests.
 * Runs in the caller's transaction, so the reports never see results without their growth.
 */
export async function refreshStoredGrowth(db: Database, studentIds: readonly string[]): Promise<void> {
  for (let start = 0; start < studentIds.length; start += REFRESH_CHUNK) {
    const ids = JSON.stringify(studentIds.slice(start, start + REFRESH_CHUNK));
    const tests = await queryRows<GrowthTest & { studentId: string; subject: string }>(
      db,
      sql`select r.student_sourced_id as "studentId", r.subject, r.term_name as "termName", r.season,
          r.school_year as "schoolYear", r.rit, coalesce(r.grade, ${gradeLevelOfGrades(sql`u.grades`)}) as grade,
          to_char(r.test_date, 'YYYY-MM-DD') as "testDate", r.growth_measure as "growthMeasure", r.growth
        from map_results r join users u on u.sourced_id = r.student_sourced_id
        where r.growth_measure and r.student_sourced_id in (select jsonb_array_elements_text(${ids}::jsonb))
        order by r.student_sourced_id, r.subject, r.school_year,
          array_position(array['fall','winter','spring'], r.season), r.test_date`,
    );
    const rows = [];
    const seen = new Set<string>();
    for (const group of Map.groupBy(tests, (test) => `${test.studentId}\u0000${test.subject}`).values())
      for (const record of growthWindowsOf(group)) {
        const { studentId, subject } = record.end;
        // A retest in the same term spans the same window again: the latest end counts.
        const key = `${studentId}\u0000${subject}\u0000${record.end.schoolYear}\u0000${record.window}`;
        if (seen.has(key)) continue;
        seen.add(key);
        rows.push({
          student: studentId,
          subject,
          school_year: record.end.schoolYear,
          window: record.window,
          from_term: record.from,
          to_term: record.to,
          grade: record.end.grade,
          end_test_date: record.end.testDate,
          start_rit: record.startRit,
          end_rit: record.endRit,
          observed: record.observed,
          projected: record.projected,
          cgp: record.conditionalGrowthPercentile,
          met: record.metProjected,
          multiple: record.multiple,
          reaches: record.reachesTarget,
        });
      }
    await db.execute(
      sql`delete from map_growth where student_sourced_id in (select jsonb_array_elements_text(${ids}::jsonb))`,
    );
    if (rows.length === 0) continue;
    await db.execute(sql`insert into map_growth (student_sourced_id, subject, school_year, "window", from_term,
        to_term, grade, end_test_date, start_rit, end_rit, observed, projected, conditional_growth_percentile,
        met_projected, multiple, reaches_target)
      select student, subject, school_year, "window", from_term, to_term, grade, end_test_date, start_rit, end_rit,
        observed, projected, cgp, met, multiple, reaches
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as g(student text, subject text, school_year int,
        "window" text, from_term text, to_term text, grade int, end_test_date date, start_rit int, end_rit int,
        observed int, projected numeric, cgp int, met boolean, multiple numeric, reaches boolean)`);
  }
}
