import { sql } from "drizzle-orm";
import {
  type GrowthWindow,
  gradeLevelOf,
  type MapTestRecord,
  type ReportedGrowth,
  type StudentMapResults,
} from "../../../shared/contracts/assessment";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { nameOf } from "../rostering/queries";
import { studentIdsInReach } from "../rostering/scope";
import { growthWindowsOf } from "./growth-store";
import { normBands, percentileFromNorms } from "./norms";

type StoredTest = Omit<MapTestRecord, "percentileSource"> & {
  growthMeasure: boolean;
  growth: Partial<Record<GrowthWindow, ReportedGrowth>>;
};

/**
 * A student's MAP results, subject by subject: every test in order, its percentile (the export's,
 * else from the 2020 status norms), and the growth of every window two of the tests span, with the
 * export's own growth columns where it gave them. Only for people who may see the student.
 */
export async function studentMapResults(
  db: Database,
  actor: Actor,
  studentId: string,
): Promise<StudentMapResults> {
  const reach = studentIdsInReach(actor);
  if (!reach) throw new AppError("forbidden", message("assessment:forbidden"));
  const [student] = await queryRows<{ sourcedId: string; name: string; grade: string | null }>(
    db,
    sql`select u.sourced_id as "sourcedId", ${nameOf(sql`u.sourced_id`)} as name, u.grades[1] as grade
      from users u where u.sourced_id = ${studentId} and u.sourced_id in (${reach})`,
  );
  if (!student) throw new AppError("not_found", message("assessment:studentNotFound"));
  const tests = await queryRows<StoredTest>(
    db,
    sql`select id, term_name as "termName", season, school_year as "schoolYear", subject, test_name as "testName",
        to_char(test_date, 'YYYY-MM-DD') as "testDate", duration_minutes as "durationMinutes", rit,
        standard_error::float8 as "standardError", percentile, grade, growth_measure as "growthMeasure", goals, growth
      from map_results where student_sourced_id = ${studentId}
      order by subject, school_year, array_position(array['fall','winter','spring'], season), test_date`,
  );
  const subjects = [...new Set(tests.map((test) => test.subject))];
  const rosterGrade = gradeLevelOf(student.grade);
  return {
    student,
    subjects: subjects.map((subject) => {
      const ofSubject = tests.filter((test) => test.subject === subject);
      return {
        subject,
        tests: ofSubject.map((test) => withPercentile(test, rosterGrade)),
        growth: growthWindowsOf(ofSubject).map(({ start: _start, end: _end, ...record }) => record),
      };
    }),
  };
}

/** A test's percentile and norm band; a test the export gave no grade is read at the roster's. */
function withPercentile(
  { growth: _growth, growthMeasure: _measure, ...test }: StoredTest,
  rosterGrade: number | null,
) {
  const grade = test.grade ?? rosterGrade;
  const fromNorms =
    test.percentile === null && grade !== null
      ? percentileFromNorms(test.subject, test.season, grade, test.rit)
      : null;
  return {
    ...test,
    percentile: test.percentile ?? fromNorms,
    percentileSource:
      test.percentile !== null ? ("export" as const) : fromNorms !== null ? ("norms" as const) : null,
    normBand: grade === null ? null : normBands(test.subject, test.season, grade),
  };
}
