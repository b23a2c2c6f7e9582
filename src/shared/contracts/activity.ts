import { z } from "zod";
import { isIsoDate } from "../search";
import { isTimeZone } from "../time-zone";

export const MAX_EVENTS_PER_REQUEST = 1000;

const seconds = z.number().int("must be whole seconds").min(0).max(86_400).default(0);
const count = z.number().int().min(0).max(100_000).default(0);

/** One learning fact in Dash's plain JSON form: who, when, what, how well and how long. */
export const activityFactSchema = z
  .object({
    eventId: z.string().trim().min(1, "eventId is required").max(200),
    studentId: z.string().trim().min(1).max(200).optional(),
    email: z.email().max(320).optional(),
    occurredAt: z.iso.datetime({ offset: true, message: "occurredAt must be an ISO 8601 date-time" }),
    subject: z.string().trim().min(1, "subject is required").max(100),
    activityId: z.string().trim().max(200).optional(),
    activityName: z.string().trim().max(300).optional(),
    expectedXp: z.number().min(0).max(1000).optional(),
    xpEarned: z.number().min(0).max(1000).optional(),
    totalQuestions: count,
    correctQuestions: count,
    masteredUnits: count,
    activeSeconds: seconds,
    inactiveSeconds: seconds,
    wasteSeconds: seconds,
    antiPatternSeconds: seconds,
    attempt: z.number().int().min(1).max(1000).default(1),
  })
  .refine((fact) => fact.studentId || fact.email, {
    message: "studentId or email is required",
    path: ["studentId"],
  })
  .refine((fact) => fact.correctQuestions <= fact.totalQuestions, {
    message: "correctQuestions cannot exceed totalQuestions",
    path: ["correctQuestions"],
  });
export type ActivityFact = z.output<typeof activityFactSchema>;

export const activityBatchSchema = z.object({
  events: z
    .array(z.unknown())
    .min(1, "Send at least one event")
    .max(MAX_EVENTS_PER_REQUEST, `Send at most ${MAX_EVENTS_PER_REQUEST} events per request`),
});

export const caliperEnvelopeSchema = z.object({
  sensor: z.string().min(1),
  sendTime: z.iso.datetime({ offset: true }),
  dataVersion: z.string().min(1),
  data: z
    .array(z.unknown())
    .min(1, "Send at least one event")
    .max(MAX_EVENTS_PER_REQUEST, `Send at most ${MAX_EVENTS_PER_REQUEST} events per request`),
});

export const ingestResultSchema = z.object({
  accepted: z.array(z.object({ index: z.number(), eventId: z.string(), xp: z.number() })),
  duplicates: z.array(z.object({ index: z.number(), eventId: z.string() })),
  rejected: z.array(z.object({ index: z.number(), eventId: z.string().nullable(), reason: z.string() })),
});
export type IngestResult = z.infer<typeof ingestResultSchema>;

const isoDate = z.string().refine(isIsoDate, "must be a yyyy-MM-dd date");

export const heatmapRequestSchema = z
  .object({
    userId: z.string().trim().min(1, "userId is required"),
    startDate: isoDate,
    endDate: isoDate,
    timezone: z.string().refine(isTimeZone, "must be an IANA timezone such as America/New_York").optional(),
  })
  .refine((request) => request.startDate <= request.endDate, {
    message: "startDate must not be after endDate",
    path: ["endDate"],
  });

export const heatmapResponseSchema = z.object({
  success: z.boolean(),
  data: z.array(z.object({ date: z.string(), xpGained: z.number() })),
  error: z.string().nullable(),
});
export type HeatmapResponse = z.infer<typeof heatmapResponseSchema>;

export const manualXpRequestSchema = z.object({
  studentId: z.string().trim().min(1, "Choose a student"),
  amount: z
    .number()
    .refine((value) => value !== 0, "The amount cannot be zero")
    .refine((value) => Math.abs(value) <= 500, "At most 500 XP at a time")
    .refine((value) => Number.isInteger(value * 100), "At most two decimals"),
  subject: z.string().trim().min(1, "Choose a subject").max(100),
  reason: z.string().trim().min(3, "Give a reason of at least 3 characters").max(500),
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
      xpToday: z.number(),
      xpThisWeek: z.number(),
    }),
  ),
});
