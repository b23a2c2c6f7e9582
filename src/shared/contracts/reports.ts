import { z } from "zod";
import { LANGUAGES } from "../languages";
import { integerOr, isoDate, oneOf, oneOfOr, text, textOr } from "../search";
import { invalid } from "../validation-messages";

/**
 * Reports: each is a definition on the server (its filters, its query over the daily totals, its
 * columns with units, its charts and who may open it) whose one result the page shows, the CSV
 * writes and the PDF prints, so the three always agree.
 */

export const ADMIN_REPORT_IDS = [
  "daily-metrics",
  "week-report",
  "month-report",
  "session-report",
  "student-xp-report",
  "overall_students_subject_report",
] as const;
export const LEARNING_REPORT_IDS = ["my-learning-report", "my-learning-report-2"] as const;
export const REPORT_IDS = [...ADMIN_REPORT_IDS, ...LEARNING_REPORT_IDS] as const;
export type ReportId = (typeof REPORT_IDS)[number];

export const reportIdSchema = z.enum(REPORT_IDS);

/** The filters a report may take; each report says which it reads and ignores the others. */
export const REPORT_FILTERS = [
  "schoolId",
  "grade",
  "classId",
  "guideId",
  "subject",
  "appKey",
  "studentId",
  "date",
  "startDate",
  "endDate",
] as const;
export type ReportFilter = (typeof REPORT_FILTERS)[number];

export const REPORT_PAGE_SIZE = 50;
/** Rows of a report's other tables shown on the page; the CSV and PDF hold them all. */
export const REPORT_PREVIEW_ROWS = 100;
/** The longest range a report covers. */
export const MAX_REPORT_DAYS = 366;
/** A learning session ends where a student's activity pauses this long or longer. */
export const SESSION_GAP_MINUTES = 10;

/**
 * A report's search, the same on its page and its API: a bad value falls back to its default, as
 * on every page. `sort`, `order`, `q` and `page` apply to the report's main table.
 */
export const reportSearchSchema = z.object({
  schoolId: text(),
  grade: text(),
  classId: text(),
  guideId: text(),
  subject: text(),
  appKey: text(),
  studentId: text(),
  date: isoDate(),
  startDate: isoDate(),
  endDate: isoDate(),
  q: textOr(""),
  sort: text(),
  order: oneOfOr(["asc", "desc"], "desc"),
  page: integerOr(0, 0),
});
export type ReportSearch = z.output<typeof reportSearchSchema>;

/**
 * A report's file: the CSV of one of its tables (the main one unless named) or the PDF, in the
 * language the app shows (`lang`: a download link cannot send the app's Accept-Language).
 */
export const reportFileQuerySchema = reportSearchSchema.extend({ table: text(), lang: oneOf(LANGUAGES) });

/**
 * What a figure measures, which says how it is written: XP with up to two decimals, minutes and
 * hours rounded, a percent from a fraction (0.5 is 50%), a trend as a list of numbers.
 */
export const REPORT_UNITS = [
  "count",
  "xp",
  "minutes",
  "hours",
  "percent",
  "xpPerHour",
  "rit",
  "date",
  "text",
  "trend",
] as const;
export type ReportUnit = (typeof REPORT_UNITS)[number];

export const reportValueSchema = z.union([z.string(), z.number(), z.null(), z.array(z.number())]);
export type ReportValue = z.infer<typeof reportValueSchema>;

export const reportColumnSchema = z.object({
  key: z.string(),
  label: z.string(),
  unit: z.enum(REPORT_UNITS),
  /** What the unit is called in a CSV heading and a PDF column ("min", "%"); empty when plain. */
  unitLabel: z.string(),
});
export type ReportColumn = z.infer<typeof reportColumnSchema>;

export const reportTableSchema = z.object({
  key: z.string(),
  title: z.string(),
  /** Said when the table has no rows. */
  empty: z.string(),
  columns: z.array(reportColumnSchema),
  rows: z.array(z.array(reportValueSchema)),
  /** Rows in all; the page may show fewer (the main table a page of them, the others a preview). */
  total: z.number().int(),
  /** The main table is searched, sorted and paged from the address. */
  main: z.boolean(),
  /** Column keys a person may sort by. */
  sortable: z.array(z.string()),
  /** A row's link, by the row's first cell: a student's learning report, for example. */
  studentIds: z.array(z.string().nullable()).optional(),
});
export type ReportTable = z.infer<typeof reportTableSchema>;

export const reportChartSchema = z.object({
  key: z.string(),
  title: z.string(),
  kind: z.enum(["bar", "line"]),
  unit: z.enum(REPORT_UNITS),
  categories: z.array(z.string()),
  series: z.array(z.object({ name: z.string(), values: z.array(z.number().nullable()) })),
});
export type ReportChart = z.infer<typeof reportChartSchema>;

export const reportFigureSchema = z.object({
  key: z.string(),
  label: z.string(),
  value: z.number().nullable(),
  unit: z.enum(REPORT_UNITS),
  /** Against the previous period, as a fraction (0.1 is 10% more); null when there is nothing to compare. */
  change: z.number().nullable().optional(),
});
export type ReportFigure = z.infer<typeof reportFigureSchema>;

export const reportOptionSchema = z.object({ value: z.string(), label: z.string() });
export type ReportOption = z.infer<typeof reportOptionSchema>;

export const reportResultSchema = z.object({
  id: reportIdSchema,
  title: z.string(),
  /** The period or the student, in words: "Week of 22 November 2026". */
  subtitle: z.string(),
  /** Whose figures: a school's name, "All schools", a student's name. */
  scope: z.string(),
  /** The filters applied, in words, for the PDF's header and the page. */
  applied: z.array(z.object({ label: z.string(), value: z.string() })),
  /** The filters resolved to values (defaults filled in), for the page's controls. */
  filters: reportSearchSchema.partial(),
  /** The filters this report reads, and the choices of each that has a list. */
  filterKeys: z.array(z.enum(REPORT_FILTERS)),
  options: z.partialRecord(z.enum(REPORT_FILTERS), z.array(reportOptionSchema)),
  generatedAt: z.string(),
  /** A sentence under the figures saying what the previous period was, when there is one. */
  comparedWith: z.string().nullable(),
  figures: z.array(reportFigureSchema),
  /** Plain sentences worth saying first: best week, longest streak… */
  highlights: z.array(z.string()),
  charts: z.array(reportChartSchema),
  tables: z.array(reportTableSchema),
});
export type ReportResult = z.infer<typeof reportResultSchema>;

export const reportResponseSchema = z.object({ success: z.literal(true), data: reportResultSchema });

// ---- scheduled reports ----

export const REPORT_FREQUENCIES = ["daily", "weekly", "monthly"] as const;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];
export const MAX_SCHEDULE_RECIPIENTS = 50;

/** The reports a schedule may send: the administrators'. */
export type AdminReportId = (typeof ADMIN_REPORT_IDS)[number];

/** The filters a schedule keeps: a report's search without its dates and paging (each run covers its period). */
export const SCHEDULE_FILTERS = [
  "schoolId",
  "grade",
  "classId",
  "guideId",
  "subject",
  "appKey",
  "studentId",
] as const satisfies readonly ReportFilter[];
export type ScheduleFilter = (typeof SCHEDULE_FILTERS)[number];
export type ScheduleFilters = Partial<Record<ScheduleFilter, string>>;

const filterValue = z.string().trim().min(1).max(200).optional();
/** Unknown keys (dates, paging, sorting) are dropped: a schedule's run sets its own period. */
export const scheduleFiltersSchema = z.object({
  schoolId: filterValue,
  grade: filterValue,
  classId: filterValue,
  guideId: filterValue,
  subject: filterValue,
  appKey: filterValue,
  studentId: filterValue,
});

const recipientIdsSchema = z
  .array(z.string().trim().min(1).max(200))
  .min(1)
  .max(MAX_SCHEDULE_RECIPIENTS)
  .transform((ids) => [...new Set(ids)]);

/** POST /api/reports/schedules */
export const createScheduleSchema = z.object({
  reportId: z.enum(ADMIN_REPORT_IDS),
  filters: scheduleFiltersSchema.default({}),
  frequency: z.enum(REPORT_FREQUENCIES),
  recipientIds: recipientIdsSchema,
});
export type CreateScheduleBody = z.input<typeof createScheduleSchema>;

/** PATCH /api/reports/schedules/:id: what changes; the report stays. */
export const updateScheduleSchema = z
  .object({
    filters: scheduleFiltersSchema.optional(),
    frequency: z.enum(REPORT_FREQUENCIES).optional(),
    recipientIds: recipientIdsSchema.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: invalid("nothingToChange"),
  });
export type UpdateScheduleBody = z.input<typeof updateScheduleSchema>;

/** GET /api/reports/schedules: all, or one report's. */
export const scheduleListQuerySchema = z.object({ reportId: z.enum(ADMIN_REPORT_IDS).optional() });

/** GET /api/reports/schedules/staff?q=: staff whose name or email holds `q`, to pick recipients. */
export const staffSearchQuerySchema = z.object({ q: z.string().trim().max(100).default("") });

export interface SchedulePerson {
  id: string;
  name: string;
}

export interface StaffMember extends SchedulePerson {
  email: string | null;
  /** "administrator" when they hold it, else "teacher": what their copy of a report covers. */
  role: "administrator" | "teacher";
}

export interface ReportSchedule {
  id: string;
  reportId: ReportId;
  reportTitle: string;
  frequency: ReportFrequency;
  filters: ScheduleFilters;
  /** The filters in words, in the reader's language. */
  applied: { label: string; value: string }[];
  recipients: SchedulePerson[];
  createdBy: SchedulePerson;
  createdAt: string;
  /** The first day of the last period sent, `yyyy-MM-dd`. */
  lastPeriod: string | null;
  lastSentAt: string | null;
}
