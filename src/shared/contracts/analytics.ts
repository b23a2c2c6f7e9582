import { z } from "zod";
import { DASH_ROLES } from "../roles";
import { invalid } from "../validation-messages";
import { calendarDate } from "./fields";

/**
 * Dash's own product analytics: the browser reports page views, sign-ins, daily activity and the
 * errors it meets to POST /api/analytics/events; administrators read how Dash is used and where
 * it breaks on admin/analytics.
 */
export const ANALYTICS_EVENT_TYPES = ["page_view", "login", "daily_active", "exception"] as const;
export type AnalyticsEventType = (typeof ANALYTICS_EVENT_TYPES)[number];

/** A request carries at most this many events; the browser sends smaller batches. */
export const MAX_EVENTS_PER_REQUEST = 50;
export const MAX_PATH_LENGTH = 2_048;
export const MAX_MESSAGE_LENGTH = 1_000;
export const MAX_STACK_LENGTH = 8_000;
/** A sign-in carries at most this many linked people (a student's parents, a parent's children). */
export const MAX_LINKED_IDS = 10;

/** The first `length` characters, never ending on half of a surrogate pair (which cannot be stored). */
export function cappedText(text: string, length: number): string {
  if (text.length <= length) return text;
  const cut = text.slice(0, length);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** A path of Dash without its query string or fragment, which may hold names or tokens. */
export function pagePathOf(path: string): string {
  const end = path.search(/[?#]/);
  return end === -1 ? path : path.slice(0, end);
}

const pagePath = z
  .string()
  .trim()
  .max(MAX_PATH_LENGTH)
  // A path of this site: one leading slash, never another host (`//host`) or a full URL.
  .regex(/^\/(?!\/)/, invalid("dashPagePath"))
  .transform(pagePathOf);

/** An error's text, kept to its first characters: a long stack must not cost the batch. */
const cappedString = (length: number) =>
  z
    .string()
    .transform((text) => cappedText(text, length))
    .optional();

export const analyticsEventSchema = z.object({
  type: z.enum(ANALYTICS_EVENT_TYPES),
  path: pagePath,
  /** When it happened in the browser. */
  at: z.iso.datetime({ offset: true }),
  /** An exception's message and stack; dropped for other types. */
  message: cappedString(MAX_MESSAGE_LENGTH),
  stack: cappedString(MAX_STACK_LENGTH),
});
export type AnalyticsEvent = z.infer<typeof analyticsEventSchema>;
export type AnalyticsEventInput = z.input<typeof analyticsEventSchema>;

/** POST /api/analytics/events, answered 202 with no body. */
export const analyticsEventsRequestSchema = z.object({
  events: z.array(analyticsEventSchema).min(1).max(MAX_EVENTS_PER_REQUEST),
});
export type AnalyticsEventsRequest = z.infer<typeof analyticsEventsRequestSchema>;

/** The longest span the report covers at once. */
export const MAX_REPORT_DAYS = 366;
/** The report's span when none is asked for: the last four weeks. */
export const DEFAULT_REPORT_DAYS = 28;

/** GET /api/admin/analytics: days in the school's time zone, both included. */
export const analyticsReportQuerySchema = z.object({
  from: calendarDate().optional(),
  to: calendarDate().optional(),
  schoolId: z.string().trim().min(1).max(200).optional(),
  role: z.enum(DASH_ROLES).optional(),
});
export type AnalyticsReportQuery = z.infer<typeof analyticsReportQuerySchema>;

const activeCountSchema = z.object({
  role: z.string().nullable(),
  schoolId: z.string().nullable(),
  schoolName: z.string().nullable(),
  /** People active on the span's average day, and in the span's average week. */
  dailyActive: z.number(),
  weeklyActive: z.number(),
  /** Different people active at all in the span. */
  people: z.number(),
});
export type ActiveCount = z.infer<typeof activeCountSchema>;

export const analyticsReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Per day: different people active, page views and errors. */
  days: z.array(
    z.object({ day: z.string(), activePeople: z.number(), pageViews: z.number(), exceptions: z.number() }),
  ),
  /** Per week (its Sunday): different people active. */
  weeks: z.array(z.object({ weekStart: z.string(), activePeople: z.number() })),
  activeByRoleAndSchool: z.array(activeCountSchema),
  topPages: z.array(z.object({ path: z.string(), views: z.number(), people: z.number() })),
  /** The newest errors grouped by message, the most recently seen first. */
  errors: z.array(
    z.object({
      message: z.string(),
      count: z.number(),
      people: z.number(),
      lastSeenAt: z.string(),
      sampleStack: z.string().nullable(),
      paths: z.array(z.string()),
    }),
  ),
  /** The choices of the filters: the schools events came from. */
  schools: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type AnalyticsReport = z.infer<typeof analyticsReportSchema>;
