import type { MapActualsQuery, MapGrowthReport } from "../../../shared/contracts/assessment";
import { csvLine } from "../../../shared/csv";
import type { Language } from "../../../shared/languages";
import type { Database } from "../../db/client";
import { message, translate } from "../../lib/i18n";
import { mapActualsReport } from "./map-reports";

const say = (key: string, language: Language) => translate(message(`assessment:csv.${key}`), language);

/** The growth report's rows, one per grade and subject and a total per subject, as the page shows them. */
export function* mapGrowthReportCsv(report: MapGrowthReport, language: Language): Generator<string> {
  yield csvLine(
    [
      "schoolYear",
      "window",
      "subject",
      "grade",
      "students",
      "metProjected",
      "shareMetProjected",
      "medianConditionalGrowthPercentile",
      "atTarget",
      "shareAtTarget",
      "medianMultiple",
    ].map((key) => say(key, language)),
  );
  for (const row of report.rows)
    yield csvLine([
      report.schoolYear,
      report.window,
      row.subject,
      row.total ? say("allGrades", language) : row.grade,
      row.students,
      row.metProjected,
      row.shareMetProjected === null ? null : row.shareMetProjected.toFixed(3),
      row.medianConditionalGrowthPercentile,
      row.atTarget,
      row.shareAtTarget === null ? null : row.shareAtTarget.toFixed(3),
      row.medianMultiple,
    ]);
}

/** Rows of the actuals report read a page at a time. */
const CSV_PAGE = 200;

/** Every row of the actuals report the query names, all pages of it. */
export async function* mapActualsCsv(
  db: Database,
  query: MapActualsQuery,
  language: Language,
): AsyncGenerator<string> {
  yield csvLine(
    [
      "studentId",
      "student",
      "grade",
      "subject",
      "startTerm",
      "startRit",
      "latestTerm",
      "latestRit",
      "projectedRit",
      "goalRit",
      "goalDeadline",
      "status",
    ].map((key) => say(key, language)),
  );
  for (let page = 0; ; page += 1) {
    const { rows } = await mapActualsReport(db, { ...query, page, perPage: CSV_PAGE });
    for (const row of rows)
      yield csvLine([
        row.studentId,
        row.name,
        row.grade,
        row.subject,
        row.startTerm,
        row.startRit,
        row.latestTerm,
        row.latestRit,
        row.projectedRit,
        row.goalRit,
        row.goalDeadline,
        say(`statuses.${row.status}`, language),
      ]);
    if (rows.length < CSV_PAGE) return;
  }
}
