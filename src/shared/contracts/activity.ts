import { z } from "zod";
import { isTimeZone } from "../time-zone";
import { invalid } from "../validation-messages";
import { calendarDate } from "./fields";

export const MAX_EVENTS_PER_REQUEST = 1000;

/**
 * How much one event and one student-day may plausibly carry. Past the per-event and per-day
 * time limits and outside the time window an event is rejected; past the XP a day may be credited
 * without review it is held for a person to approve. The server's are set in its environment.
 */
export interface IngestLimits {
  maxXpPerEvent: number;
  maxActiveSecondsPerEvent: number;
  maxActiveSecondsPerDay: number;
  maxAutoXpPerDay: number;
  maxPastDays: number;
  maxFutureMinutes: number;
}

export const DEFAULT_INGEST_LIMITS: IngestLimits = {
  maxXpPerEvent: 500,
  maxActiveSecondsPerEvent: 4 * 3600,
  maxActiveSecondsPerDay: 86_400,
  maxAutoXpPerDay: 2000,
  maxPastDays: 30,
  maxFutureMinutes: 5,
};

const seconds = z.number().int(invalid("wholeSeconds")).min(0).max(86_400).default(0);
const count = z.number().int().min(0).max(100_000).default(0);

/** One learning fact in Dash's plain JSON form: who, when, what, how well and how long. */
export const activityFactSchema = z
  .object({
    eventId: z
      .string()
      .trim()
      .min(1, invalid("eventIdRequired"))
      .max(200)
      .describe("The app's own id for this fact: sent again, it is a duplicate and counts once."),
    studentId: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe("The student's OneRoster sourcedId (or give `email`)."),
    email: z
      .email()
      .max(320)
      .optional()
      .describe("The student's email, when the app does not know the sourcedId."),
    occurredAt: z.iso
      .datetime({ offset: true, message: invalid("occurredAtDateTime") })
      .describe("When it happened, with its UTC offset; it counts on the student's own day."),
    subject: z
      .string()
      .trim()
      .min(1, invalid("subjectRequired"))
      .max(100)
      .describe("The subject the XP counts for (Math, Reading, …)."),
    activityId: z.string().trim().max(200).optional(),
    activityName: z.string().trim().max(300).optional(),
    /** The app's learning session: a focus incident naming it can void its XP. */
    sessionId: z.string().trim().min(1).max(200).optional(),
    expectedXp: z
      .number()
      .min(0)
      .max(1000)
      .optional()
      .describe("The XP the activity is worth when done well; Dash works out what was earned."),
    xpEarned: z
      .number()
      .min(0)
      .max(1000)
      .optional()
      .describe("The XP the app says was earned, when it has no expected XP."),
    totalQuestions: count,
    correctQuestions: count,
    masteredUnits: count.describe("Units mastered in this activity."),
    /** A test's score: mastery tests of 90% and more earn Alphas. */
    scorePercent: z.number().min(0, invalid("scorePercent")).max(100, invalid("scorePercent")).optional(),
    activeSeconds: seconds.describe("Seconds spent learning."),
    inactiveSeconds: seconds,
    wasteSeconds: seconds.describe("Seconds spent off task while the activity was open."),
    antiPatternSeconds: seconds,
    attempt: z.number().int().min(1).max(1000).default(1),
  })
  .refine((fact) => fact.studentId || fact.email, {
    message: invalid("studentIdOrEmailRequired"),
    path: ["studentId"],
  })
  .refine((fact) => fact.correctQuestions <= fact.totalQuestions, {
    message: invalid("correctQuestionsAboveTotal"),
    path: ["correctQuestions"],
  });
export type ActivityFact = z.output<typeof activityFactSchema>;

export const activityBatchSchema = z.object({
  events: z
    .array(z.unknown())
    .min(1, invalid("sendAtLeastOneEvent"))
    .max(MAX_EVENTS_PER_REQUEST, invalid("sendAtMostEvents")),
});

export const caliperEnvelopeSchema = z.object({
  sensor: z.string().min(1),
  sendTime: z.iso.datetime({ offset: true }),
  dataVersion: z.string().min(1),
  data: z
    .array(z.unknown())
    .min(1, invalid("sendAtLeastOneEvent"))
    .max(MAX_EVENTS_PER_REQUEST, invalid("sendAtMostEvents")),
});

export const ingestResultSchema = z.object({
  accepted: z.array(z.object({ index: z.number(), eventId: z.string(), xp: z.number() })),
  duplicates: z.array(z.object({ index: z.number(), eventId: z.string() })),
  rejected: z.array(z.object({ index: z.number(), eventId: z.string().nullable(), reason: z.string() })),
  /** Stored but not credited: past the XP a day may earn without review, until a person approves. */
  held: z.array(
    z.object({
      index: z.number(),
      eventId: z.string(),
      heldId: z.string(),
      xp: z.number(),
      reason: z.string(),
    }),
  ),
});
export type IngestResult = z.infer<typeof ingestResultSchema>;

const isoDate = calendarDate();

export const heatmapRequestSchema = z
  .object({
    userId: z.string().trim().min(1, invalid("userIdRequired")),
    startDate: isoDate,
    endDate: isoDate,
    timezone: z.string().refine(isTimeZone, invalid("timeZone")).optional(),
  })
  .refine((request) => request.startDate <= request.endDate, {
    message: invalid("startDateAfterEndDate"),
    path: ["endDate"],
  });

export const heatmapResponseSchema = z.object({
  success: z.boolean(),
  data: z.array(z.object({ date: z.string(), xpGained: z.number() })),
  error: z.string().nullable(),
});
export type HeatmapResponse = z.infer<typeof heatmapResponseSchema>;

export const manualXpRequestSchema = z.object({
  studentId: z.string().trim().min(1, invalid("chooseStudent")),
  amount: z
    .number()
    .refine((value) => value !== 0, invalid("amountZero"))
    .refine((value) => Math.abs(value) <= 500, invalid("amountTooLarge"))
    // Hundredths are not exact in binary (0.29 * 100 is 28.999…), so compare with a tolerance far
    // below a hundredth and far above the rounding error.
    .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, invalid("amountDecimals")),
  subject: z.string().trim().min(1, invalid("chooseSubject")).max(100),
  reason: z.string().trim().min(3, invalid("reasonTooShort")).max(500),
  /** Sent again with a retried request, so it counts once. */
  idempotencyKey: z.string().trim().min(8).max(200),
});

export const studentSummarySchema = z.object({
  sourcedId: z.string(),
  givenName: z.string(),
  familyName: z.string(),
  grades: z.array(z.string()),
  timezone: z.string(),
  /** The student's today, in their own timezone. */
  today: z.string(),
  subjects: z.array(
    z.object({ subject: z.string(), xp: z.number(), goal: z.number(), isComplete: z.boolean() }),
  ),
  xpToday: z.number(),
  xpThisWeek: z.number(),
  week: z.array(z.object({ date: z.string(), xp: z.number(), allGoalsMet: z.boolean() })),
  streak: z.number(),
  lastActivityAt: z.string().nullable(),
});
export type StudentSummary = z.infer<typeof studentSummarySchema>;

export const appFreshnessSchema = z.object({
  appId: z.string(),
  name: z.string(),
  icon: z.string().nullable(),
  launchUrl: z.string().nullable(),
  subjects: z.array(z.string()),
  lastReportedAt: z.string().nullable(),
});

export const studentHomeResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ summary: studentSummarySchema, apps: z.array(appFreshnessSchema) }),
});

export const summariesResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(studentSummarySchema),
});

export const schoolSummariesResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(
    z.object({
      sourcedId: z.string(),
      name: z.string(),
      students: z.number(),
      activeToday: z.number(),
      activeThisWeek: z.number(),
      xpToday: z.number(),
      xpThisWeek: z.number(),
      /** Last week's XP from Sunday to the same weekday as today. */
      xpLastWeekToDate: z.number(),
      /** XP per day over the last four weeks, oldest first, today last. */
      dailyXp: z.array(z.number()),
    }),
  ),
});

/** GET /api/learning-metrics: totals per period (day, week from Sunday, month), student and group. */
export const METRICS_VIEWS = ["daily", "weekly", "monthly"] as const;
export type MetricsView = (typeof METRICS_VIEWS)[number];
export const METRICS_GROUPINGS = ["subject", "app"] as const;
export const MAX_METRICS_DAYS = 400;
export const MAX_METRICS_STUDENTS = 500;

const metricsId = z.string().trim().min(1).max(200);

export const learningMetricsQuerySchema = z
  .object({
    view: z.enum(METRICS_VIEWS).default("daily"),
    startDate: isoDate.optional(),
    endDate: isoDate.optional(),
    studentId: metricsId.optional(),
    studentIds: z
      .string()
      .transform((value) =>
        value
          .split(",")
          .map((part) => part.trim())
          .filter(Boolean),
      )
      .pipe(
        z
          .array(metricsId)
          .min(1, invalid("nameAtLeastOneStudent"))
          .max(MAX_METRICS_STUDENTS, invalid("nameAtMostStudents")),
      )
      .optional(),
    classId: metricsId.optional(),
    allStudents: z
      .enum(["1", "true"], invalid("mustBe1"))
      .transform(() => true as const)
      .optional(),
    groupBy: z.enum(METRICS_GROUPINGS).default("subject"),
  })
  .refine((query) => !query.startDate || !query.endDate || query.startDate <= query.endDate, {
    message: invalid("startDateAfterEndDate"),
    path: ["endDate"],
  })
  .refine(
    (query) =>
      [query.studentId, query.studentIds, query.classId, query.allStudents].filter(
        (value) => value !== undefined,
      ).length <= 1,
    { message: invalid("oneStudentChoice"), path: ["studentId"] },
  );
export type LearningMetricsQuery = z.output<typeof learningMetricsQuerySchema>;

export const learningMetricsRowSchema = z.object({
  /** The first day of the period, `yyyy-MM-dd`, in the student's own days. */
  period: z.string(),
  studentId: z.string(),
  /** The subject, or the app's id ("manual" for XP awarded by hand). */
  group: z.string(),
  groupName: z.string(),
  xp: z.number(),
  activeSeconds: z.number(),
  wasteSeconds: z.number(),
  totalQuestions: z.number(),
  correctQuestions: z.number(),
  /** correctQuestions / totalQuestions from 0 to 1; null without questions. */
  accuracy: z.number().nullable(),
  masteredUnits: z.number(),
  events: z.number(),
});
export type LearningMetricsRow = z.infer<typeof learningMetricsRowSchema>;

export const learningMetricsSchema = z.object({
  view: z.enum(METRICS_VIEWS),
  startDate: z.string(),
  endDate: z.string(),
  groupBy: z.enum(METRICS_GROUPINGS),
  students: z.array(z.object({ sourcedId: z.string(), givenName: z.string(), familyName: z.string() })),
  rows: z.array(learningMetricsRowSchema),
  /** The sum of the school's default daily goals of every subject. */
  dailyGoal: z.number(),
});
export type LearningMetrics = z.infer<typeof learningMetricsSchema>;

export const learningMetricsResponseSchema = z.object({
  success: z.literal(true),
  data: learningMetricsSchema,
});

export const xpHistoryEntrySchema = z.object({
  id: z.string(),
  amount: z.number(),
  reason: z.string(),
  /** `integrity`: XP voided after a confirmed focus incident, or given back on appeal. */
  source: z.enum(["activity", "manual", "integrity"]),
  subject: z.string(),
  localDate: z.string(),
  createdAt: z.string(),
  actorName: z.string().nullable(),
  /** For XP from learning: the activity and how it went. */
  activity: z
    .object({
      name: z.string().nullable(),
      totalQuestions: z.number(),
      correctQuestions: z.number(),
      attempt: z.number(),
      activeSeconds: z.number(),
      wasteSeconds: z.number(),
      antiPatternSeconds: z.number(),
    })
    .nullable()
    .optional(),
});
export type XpHistoryEntry = z.infer<typeof xpHistoryEntrySchema>;

export const xpHistoryResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(xpHistoryEntrySchema),
  total: z.number(),
});

export const manualXpResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ id: z.string(), amount: z.number(), localDate: z.string() }),
  isReplay: z.boolean(),
});

/** Events held for review: past the XP a student-day may be credited without a person's review. */
export const HELD_EVENT_STATUSES = ["pending", "approved", "dismissed"] as const;
export type HeldEventStatus = (typeof HELD_EVENT_STATUSES)[number];

export const heldEventsQuerySchema = z.object({
  status: z.enum([...HELD_EVENT_STATUSES, "all"]).default("pending"),
  studentId: z.string().trim().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export const heldEventSchema = z.object({
  id: z.string(),
  eventId: z.string(),
  studentId: z.string(),
  studentName: z.string(),
  appName: z.string().nullable(),
  subject: z.string(),
  activityName: z.string().nullable(),
  occurredAt: z.string(),
  localDate: z.string(),
  activeSeconds: z.number(),
  totalQuestions: z.number(),
  correctQuestions: z.number(),
  /** The XP the event earns when approved. */
  xp: z.number(),
  xpExplanation: z.string(),
  heldReason: z.string(),
  status: z.enum(HELD_EVENT_STATUSES),
  reviewerName: z.string().nullable(),
  reviewNote: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  receivedAt: z.string(),
});
export type HeldEvent = z.infer<typeof heldEventSchema>;

export const heldEventsResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(heldEventSchema),
  total: z.number(),
});

export const approveHeldEventSchema = z.object({
  note: z.string().trim().max(500).optional(),
});

export const dismissHeldEventSchema = z.object({
  reason: z.string().trim().min(3, invalid("reasonTooShort")).max(500),
});

export const heldEventResponseSchema = z.object({
  success: z.literal(true),
  data: heldEventSchema,
  /** True when the event had already been decided this way: nothing changed. */
  isReplay: z.boolean(),
});

/** One student's day for "why this number": `date` defaults to the student's today. */
export const xpDayQuerySchema = z.object({
  studentId: z.string().trim().min(1, invalid("studentIdRequired")),
  date: isoDate.optional(),
});

export const xpDayEventSchema = z.object({
  id: z.string(),
  eventId: z.string(),
  appName: z.string().nullable(),
  subject: z.string(),
  activityId: z.string().nullable(),
  activityName: z.string().nullable(),
  occurredAt: z.string(),
  totalQuestions: z.number(),
  correctQuestions: z.number(),
  /** Correct over total, 0–1; null without questions. */
  accuracy: z.number().nullable(),
  activeSeconds: z.number(),
  wasteSeconds: z.number(),
  antiPatternSeconds: z.number(),
  attempt: z.number(),
  expectedXp: z.number().nullable(),
  awardedXp: z.number(),
  xpExplanation: z.string(),
});
export type XpDayEvent = z.infer<typeof xpDayEventSchema>;

export const xpDaySchema = z.object({
  student: z.object({
    sourcedId: z.string(),
    givenName: z.string(),
    familyName: z.string(),
    timezone: z.string(),
    today: z.string(),
  }),
  date: z.string(),
  events: z.array(xpDayEventSchema),
  manual: z.array(xpHistoryEntrySchema),
  /** Events of the day held for review: not in the totals unless approved. */
  held: z.array(heldEventSchema),
  /** Per subject: XP from events, from manual entries, and the stored daily total the dashboards show. */
  totals: z.array(
    z.object({ subject: z.string(), eventXp: z.number(), manualXp: z.number(), totalXp: z.number() }),
  ),
  totalXp: z.number(),
});
export type XpDay = z.infer<typeof xpDaySchema>;

export const xpDayResponseSchema = z.object({ success: z.literal(true), data: xpDaySchema });

/** The school's XP rules and default daily goals, as administrators set them. */
export const xpRulesSchema = z.object({
  accuracyFloor: z.number().min(0, invalid("accuracyFloorTooSmall")).max(1, invalid("accuracyFloorTooLarge")),
  firstAttemptPerfect: z.number().min(0).max(5, invalid("multiplierTooLarge")),
  firstAttemptPassing: z.number().min(0).max(5, invalid("multiplierTooLarge")),
  retryPerfect: z.number().min(0).max(5, invalid("multiplierTooLarge")),
  retryPassing: z.number().min(0).max(5, invalid("multiplierTooLarge")),
  gamingPenaltyPerMinute: z.number().min(0).max(10, invalid("gamingPenaltyTooLarge")),
});

export const learningSettingsSchema = z.object({
  xpRules: xpRulesSchema,
  dailyGoals: z
    .record(
      z.string().trim().min(1, invalid("nameSubject")).max(50),
      z.number().int(invalid("wholeXp")).min(0).max(600, invalid("dailyGoalTooLarge")),
    )
    .refine((goals) => Object.keys(goals).length > 0, invalid("setOneGoal"))
    .refine((goals) => Object.keys(goals).length <= 20, invalid("tooManyGoals")),
});
export type LearningSettings = z.infer<typeof learningSettingsSchema>;

export const learningSettingsResponseSchema = z.object({
  success: z.literal(true),
  data: learningSettingsSchema,
});
