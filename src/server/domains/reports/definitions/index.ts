import type { ReportId } from "../../../../shared/contracts/reports";
import type { ReportDefinition } from "../engine";
import { dailyMetricsReport, monthReport, weekReport } from "./period";

/** Every report of Dash, by id. */
export const REPORTS: Partial<Record<ReportId, ReportDefinition>> = {
  "daily-metrics": dailyMetricsReport,
  "week-report": weekReport,
  "month-report": monthReport,
};
