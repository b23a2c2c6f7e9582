import type { ReportId } from "../../../../shared/contracts/reports";
import type { ReportDefinition } from "../engine";
import { learningBySubjectReport, learningReport } from "./learning";
import { dailyMetricsReport, monthReport, weekReport } from "./period";
import { sessionReport } from "./sessions";
import { studentXpReport } from "./student-xp";
import { subjectReport } from "./subjects";

/** Every report of Dash, by id. */
export const REPORTS: Record<ReportId, ReportDefinition> = {
  "daily-metrics": dailyMetricsReport,
  "week-report": weekReport,
  "month-report": monthReport,
  "session-report": sessionReport,
  "student-xp-report": studentXpReport,
  overall_students_subject_report: subjectReport,
  "my-learning-report": learningReport,
  "my-learning-report-2": learningBySubjectReport,
};
