import { z } from "zod";
import { invalid } from "../validation-messages";

/**
 * Integrity: focus incidents reported by the monitoring agent on a student's device, their review,
 * the strikes confirmed ones become, the dashboard lockout those strikes lead to, and appeals.
 */

/**
 * Where an incident stands. `pending` waits for a first review; `awaiting_second` was confirmed by
 * one reviewer and waits for a different one (with the second-reviewer rule on); `escalated` was
 * handed on by a reviewer for someone else to decide; `appealed` is a strike the student or their
 * family appealed, waiting for someone who did not confirm it. `confirmed` is a strike, `dismissed`
 * is not.
 */
export const REVIEW_STATUSES = [
  "pending",
  "awaiting_second",
  "escalated",
  "appealed",
  "confirmed",
  "dismissed",
] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** The statuses of the review queue: someone still has to decide. */
export const OPEN_REVIEW_STATUSES = [
  "pending",
  "awaiting_second",
  "escalated",
  "appealed",
] as const satisfies ReviewStatus[];

/** A strike counts while it is confirmed (or appealed and not yet decided) and has not expired. */
export const STRIKE_STATUSES = ["confirmed", "appealed"] as const satisfies ReviewStatus[];

/**
 * `GET /api/integrity/incidents?status=`: the spec's three groups. `pending`: the review queue (its
 * open statuses); `confirmed`: the strikes (appealed ones too, which count until decided);
 * `resolved`: confirmed and dismissed.
 */
export const INCIDENT_GROUPS = ["pending", "confirmed", "resolved"] as const;
export type IncidentGroup = (typeof INCIDENT_GROUPS)[number];

export const REVIEW_DECISIONS = ["confirm", "dismiss", "escalate"] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** What a person did to an incident, in its history. */
export const INCIDENT_ACTIONS = [...REVIEW_DECISIONS, "appeal"] as const;
export type IncidentAction = (typeof INCIDENT_ACTIONS)[number];

/** The largest screenshot an agent may send, decoded. */
export const MAX_SCREENSHOT_BYTES = 2 * 1024 * 1024;
/** Incidents in one batch from the agent. */
export const MAX_INCIDENTS_PER_REQUEST = 50;
/** The body of one intake request: a batch of screenshots in base64 (4/3 of their bytes) and the rest. */
export const MAX_INTAKE_BODY_BYTES = 12 * 1024 * 1024;
export const INCIDENTS_PAGE_SIZE = 50;

const note = z
  .string({ message: invalid("noteRequired") })
  .trim()
  .min(3, invalid("noteRequired"))
  .max(1000, invalid("noteTooLong"));

// ── Intake, from the monitoring agent ─────────────────────────────────────────────────────────

/** One incident as the agent reports it (the spec's field names). */
export const incidentInputSchema = z.object({
  /** The agent's own id for the incident: sending it again never stores it twice. */
  client_id: z
    .string({ message: invalid("clientIdRequired") })
    .trim()
    .min(1, invalid("clientIdRequired"))
    .max(200, invalid("clientIdRequired"))
    .describe("The agent's own id for the incident: sending it again never stores it twice."),
  /** The student's sourcedId or email. */
  user_id: z
    .string({ message: invalid("userIdRequired") })
    .trim()
    .min(1, invalid("userIdRequired"))
    .max(320, invalid("userIdTooLong"))
    .describe("The student's OneRoster sourcedId or email."),
  incident_type: z
    .string({ message: invalid("incidentTypeRequired") })
    .trim()
    .min(1, invalid("incidentTypeRequired"))
    .max(100, invalid("incidentTypeRequired"))
    .describe("What the agent saw (for example `off_task_app` or `camera_absent`)."),
  confidence_score: z
    .number({ message: invalid("confidenceScore") })
    .min(0, invalid("confidenceScore"))
    .max(1, invalid("confidenceScore"))
    .describe("How sure the agent is, from 0 to 1: the school's rules decide which scores a person reviews."),
  app_name: z.string().trim().max(200).nullish(),
  detected_text: z.string().max(5000, invalid("detectedTextTooLong")).default(""),
  created_at: z.iso
    .datetime({ offset: true, message: invalid("createdAtDateTime") })
    .describe("When it happened, with its UTC offset."),
  session_id: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .nullish()
    .describe("The learning app's session: a confirmed incident naming it can void that session's XP."),
  /** A PNG or JPEG in base64 (a `data:` URL is taken too), at most 2 MB once decoded. */
  screenshot: z
    .string()
    .max(4 * 1024 * 1024, invalid("screenshotTooLarge"))
    .nullish()
    .describe("A PNG or JPEG in base64 (or a data: URL), at most 2 MB once decoded."),
});
export type IncidentInput = z.output<typeof incidentInputSchema>;

/** One incident, or `{ incidents: [...] }` for a batch. */
export const incidentBatchSchema = z.object({
  incidents: z
    .array(z.unknown())
    .min(1, invalid("sendAtLeastOneIncident"))
    .max(MAX_INCIDENTS_PER_REQUEST, invalid("sendAtMostIncidents")),
});

// ── Records ───────────────────────────────────────────────────────────────────────────────────

export const incidentDecisionSchema = z.object({
  action: z.enum(INCIDENT_ACTIONS),
  note: z.string(),
  actorId: z.string(),
  actorName: z.string(),
  /** The role they acted in: a Guide, a proctor, an administrator, the student or their family. */
  actorRole: z.string(),
  at: z.string(),
});
export type IncidentDecision = z.infer<typeof incidentDecisionSchema>;

/** The spec's incident record, with who it is about, its evidence and its history. */
export const incidentRecordSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  created_at: z.string(),
  incident_type: z.string(),
  confidence_score: z.number(),
  app_name: z.string().nullable(),
  detected_text: z.string(),
  /** Dash's own address for the screenshot, for people who may review the student; never public. */
  screenshot_url: z.string().nullable(),
  /** Active strikes the student had once this one was confirmed. */
  cumulative_strikes: z.number().nullable(),
  /** The code of the lockout this strike started ("" when it started none). */
  lockout_code: z.string(),
  locked_dashboard: z.boolean(),
  review_status: z.enum(REVIEW_STATUSES),
  client_id: z.string(),
  session_id: z.string().nullable(),
  received_at: z.string(),
  student: z.object({ sourcedId: z.string(), name: z.string(), grade: z.string().nullable() }),
  /** When the evidence was deleted after the retention period. */
  evidence_deleted_at: z.string().nullable(),
  /** For a strike: when it stops counting. */
  strike_expires_at: z.string().nullable(),
  is_active_strike: z.boolean(),
  /** XP voided for the activity of the incident's session when it was confirmed. */
  voided_xp: z.number(),
  decisions: z.array(incidentDecisionSchema),
  /** The caller may confirm, dismiss or escalate it now. */
  can_review: z.boolean(),
  /** The caller (the student or their family) may appeal it now. */
  can_appeal: z.boolean(),
});
export type IncidentRecord = z.infer<typeof incidentRecordSchema>;

/** An incident of a batch that was not stored, and why. */
export const rejectedIncidentSchema = z.object({
  index: z.number(),
  client_id: z.string().nullable(),
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type RejectedIncident = z.infer<typeof rejectedIncidentSchema>;

/** The answer to a batch `{ incidents: [...] }`: the records stored (or stored before) and the ones refused. */
export const incidentIntakeResultSchema = z.object({
  incidents: z.array(incidentRecordSchema),
  rejected: z.array(rejectedIncidentSchema),
});
export type IncidentIntakeResult = z.infer<typeof incidentIntakeResultSchema>;

export const incidentsQuerySchema = z.object({
  status: z.enum(INCIDENT_GROUPS, { message: invalid("incidentGroupOneOf") }).default("pending"),
  studentId: z.string().trim().min(1).max(200).optional(),
  sessionId: z.string().trim().min(1).max(200).optional(),
  classId: z.string().trim().min(1).max(200).optional(),
  page: z.coerce
    .number({ message: invalid("pageNumber") })
    .int(invalid("pageNumber"))
    .min(1, invalid("pageNumber"))
    .max(100_000, invalid("pageNumber"))
    .default(1),
});
export type IncidentsQuery = z.output<typeof incidentsQuerySchema>;

export const incidentListSchema = z.object({
  incidents: z.array(incidentRecordSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type IncidentList = z.infer<typeof incidentListSchema>;

/** `GET /api/integrity/incidents/:id`: one incident and the student's other recent incidents. */
export const incidentDetailSchema = z.object({
  incident: incidentRecordSchema,
  history: z.array(incidentRecordSchema),
  activeStrikes: z.number().int(),
  threshold: z.number().int(),
});
export type IncidentDetail = z.infer<typeof incidentDetailSchema>;

// ── Decisions ─────────────────────────────────────────────────────────────────────────────────

export const reviewRequestSchema = z.object({
  decision: z.enum(REVIEW_DECISIONS, { message: invalid("reviewDecisionOneOf") }),
  note,
});
export type ReviewRequest = z.infer<typeof reviewRequestSchema>;

export const appealRequestSchema = z.object({ note });

export const unlockRequestSchema = z.object({
  note,
  /** The six digits the student reads out; without it a Guide unlocks directly. */
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, invalid("lockoutCodeSixDigits"))
    .optional(),
});

// ── Strikes, lockout and the summary ──────────────────────────────────────────────────────────

/** `GET /api/integrity/lockout`: the spec's dashboard lockout check, for the student signed in. */
export const lockoutStatusSchema = z.object({
  success: z.boolean(),
  isLocked: z.boolean(),
  lockoutEnabled: z.boolean(),
  /** While locked: the code to read out to a Guide, since when, and the strikes that led to it. */
  lockout: z
    .object({
      code: z.string(),
      lockedAt: z.string(),
      activeStrikes: z.number().int(),
      threshold: z.number().int(),
    })
    .nullable(),
});
export type LockoutStatus = z.infer<typeof lockoutStatusSchema>;

/** `GET /api/integrity/students/:studentId`: a student's strikes and lockout, for whoever may see them. */
export const studentIntegritySchema = z.object({
  studentId: z.string(),
  name: z.string(),
  activeStrikes: z.number().int(),
  threshold: z.number().int(),
  pending: z.number().int(),
  lockoutEnabled: z.boolean(),
  isLocked: z.boolean(),
  /** The code, for the student and their staff only. */
  lockoutCode: z.string().nullable(),
  lockedAt: z.string().nullable(),
  /** The latest strike, to tell a family or a Guide what is new. */
  latestStrikeAt: z.string().nullable(),
  mayUnlock: z.boolean(),
});
export type StudentIntegrity = z.infer<typeof studentIntegritySchema>;

/** `GET /api/integrity/summary`: counts per student and class, within the caller's reach. */
export const integritySummarySchema = z.object({
  totals: z.object({
    pending: z.number().int(),
    activeStrikes: z.number().int(),
    lockedStudents: z.number().int(),
    /** Strikes confirmed in the last 7 days. */
    newStrikes: z.number().int(),
  }),
  students: z.array(
    z.object({
      studentId: z.string(),
      name: z.string(),
      pending: z.number().int(),
      activeStrikes: z.number().int(),
      isLocked: z.boolean(),
      latestIncidentAt: z.string().nullable(),
    }),
  ),
  classes: z.array(
    z.object({
      classId: z.string(),
      title: z.string(),
      pending: z.number().int(),
      activeStrikes: z.number().int(),
      lockedStudents: z.number().int(),
    }),
  ),
});
export type IntegritySummary = z.infer<typeof integritySummarySchema>;

// ── Settings ──────────────────────────────────────────────────────────────────────────────────

const wholeDays = (minimum: number, maximum: number) =>
  z
    .number({ message: invalid("wholeNumberOnly") })
    .int(invalid("wholeNumberOnly"))
    .min(minimum, invalid("atLeast"))
    .max(maximum, invalid("atMost"));

export const integritySettingsSchema = z.object({
  /** A confirm counts only once a second, different reviewer confirms too. */
  secondReviewer: z.boolean(),
  /** Active strikes that lock a dashboard, where lockout is on. */
  strikeThreshold: wholeDays(1, 20),
  /** Days a strike counts. */
  strikeExpiryDays: wholeDays(1, 365),
  /** Days a screenshot is kept before it is deleted. */
  evidenceRetentionDays: wholeDays(1, 3650),
  /** Confirming an incident voids the XP of its activity session. */
  voidSessionXp: z.boolean(),
  /** Schools whose students' dashboards lock at the threshold. */
  lockoutSchoolIds: z.array(z.string().trim().min(1).max(200)).max(1000),
});
export type IntegritySettings = z.infer<typeof integritySettingsSchema>;

export const DEFAULT_INTEGRITY_SETTINGS: IntegritySettings = {
  secondReviewer: true,
  strikeThreshold: 3,
  strikeExpiryDays: 30,
  evidenceRetentionDays: 90,
  voidSessionXp: false,
  lockoutSchoolIds: [],
};
