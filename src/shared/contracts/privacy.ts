import { z } from "zod";
import { invalid, type ValidationMessage } from "../validation-messages";

/**
 * The privacy centre: exporting what Dash holds about a student, anonymising a student, how long
 * each kind of data is kept, and the log of every access to sensitive data.
 */

const id = (required: ValidationMessage) => z.string().trim().min(1, required).max(200);

export const studentParamSchema = z.object({ studentId: id(invalid("studentIdRequired")) });
export const childParamSchema = z.object({ childId: id(invalid("childIdRequired")) });

// ---------------------------------------------------------------- sensitive-access log

export const SENSITIVE_ACCESS_KINDS = [
  "impersonation",
  "data_export",
  "credential_decrypt",
  "evidence_view",
  "anonymise",
] as const;
export type SensitiveAccessKind = (typeof SENSITIVE_ACCESS_KINDS)[number];

export const SENSITIVE_ACCESS_LABELS: Record<SensitiveAccessKind, string> = {
  impersonation: "Viewed Dash as them",
  data_export: "Downloaded their data",
  credential_decrypt: "Revealed a credential",
  evidence_view: "Opened incident evidence",
  anonymise: "Anonymised them",
};

export const ACCESS_LOG_PAGE_SIZE = 25;

export const accessLogQuerySchema = z.object({
  personId: z.string().trim().max(200).optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(200, invalid("limitAbove200")).default(ACCESS_LOG_PAGE_SIZE),
});
export type AccessLogQuery = z.infer<typeof accessLogQuerySchema>;

const personRef = z.object({ sourcedId: z.string(), name: z.string() });

export const accessLogEntrySchema = z.object({
  id: z.string(),
  kind: z.enum(SENSITIVE_ACCESS_KINDS),
  actor: personRef,
  /** Whoever actually signed in, when it differs from the actor (while viewing Dash as someone else). */
  realActor: personRef.nullable(),
  person: personRef.nullable(),
  detail: z.string().nullable(),
  createdAt: z.string(),
});
export type AccessLogEntry = z.infer<typeof accessLogEntrySchema>;

export const accessLogResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(accessLogEntrySchema),
  total: z.number(),
  error: z.null(),
});

// ---------------------------------------------------------------- anonymisation

export const anonymiseRequestSchema = z.object({
  confirm: z.string().trim().min(1, invalid("confirmAnonymise")).max(400),
  reason: z.string().trim().min(3, invalid("sayWhy")).max(500, invalid("reasonTooLong")),
});
export type AnonymiseRequest = z.infer<typeof anonymiseRequestSchema>;

export const anonymiseResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    sourcedId: z.string(),
    /** The name the student's record carries from now on: "Former student 0007". */
    displayName: z.string(),
    anonymisedAt: z.string(),
    /** True when the student had been anonymised before: nothing changed this time. */
    wasAlreadyAnonymised: z.boolean(),
  }),
});
export type AnonymiseResponse = z.infer<typeof anonymiseResponseSchema>;

// ---------------------------------------------------------------- retention

export const RETENTION_KINDS = [
  "activity_events",
  "incident_evidence",
  "analytics",
  "webhook_deliveries",
  "audit_logs",
] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

/** Each kind's default, bounds (in days) and words for the page. */
export const RETENTION_RULES: Record<
  RetentionKind,
  { label: string; description: string; defaultDays: number; minDays: number; maxDays: number }
> = {
  activity_events: {
    label: "Raw activity events",
    description:
      "Each event a learning app reported. Daily totals and the XP ledger are kept, so XP and charts stay as they were.",
    defaultDays: 400,
    minDays: 30,
    maxDays: 3650,
  },
  incident_evidence: {
    label: "Incident evidence",
    description: "Files and notes attached to incidents.",
    defaultDays: 365,
    minDays: 30,
    maxDays: 3650,
  },
  analytics: {
    label: "Analytics",
    description: "Page views, sign-ins and browser errors that Dash's own analytics collects.",
    defaultDays: 180,
    minDays: 30,
    maxDays: 3650,
  },
  webhook_deliveries: {
    label: "Webhook deliveries",
    description:
      "Each event sent to a subscribed address, with its answer and attempts. Deliveries still being retried are kept until they end.",
    defaultDays: 90,
    minDays: 7,
    maxDays: 3650,
  },
  audit_logs: {
    label: "Audit logs",
    description: "Viewing-as, roster changes and the sensitive-access log.",
    defaultDays: 1095,
    minDays: 365,
    maxDays: 3650,
  },
};

/** What a retention setting out of its rule is told: its label, then the problem, with the rule's bounds. */
const RETENTION_MESSAGES: Record<
  RetentionKind,
  {
    notANumber: ValidationMessage;
    notWhole: ValidationMessage;
    tooFew: ValidationMessage;
    tooMany: ValidationMessage;
  }
> = {
  activity_events: {
    notANumber: invalid("activityEventsRetention"),
    notWhole: invalid("activityEventsRetentionWhole"),
    tooFew: invalid("activityEventsRetentionTooShort"),
    tooMany: invalid("activityEventsRetentionTooLong"),
  },
  incident_evidence: {
    notANumber: invalid("incidentEvidenceRetention"),
    notWhole: invalid("incidentEvidenceRetentionWhole"),
    tooFew: invalid("incidentEvidenceRetentionTooShort"),
    tooMany: invalid("incidentEvidenceRetentionTooLong"),
  },
  analytics: {
    notANumber: invalid("analyticsRetention"),
    notWhole: invalid("analyticsRetentionWhole"),
    tooFew: invalid("analyticsRetentionTooShort"),
    tooMany: invalid("analyticsRetentionTooLong"),
  },
  webhook_deliveries: {
    notANumber: invalid("webhookDeliveriesRetention"),
    notWhole: invalid("webhookDeliveriesRetentionWhole"),
    tooFew: invalid("webhookDeliveriesRetentionTooShort"),
    tooMany: invalid("webhookDeliveriesRetentionTooLong"),
  },
  audit_logs: {
    notANumber: invalid("auditLogsRetention"),
    notWhole: invalid("auditLogsRetentionWhole"),
    tooFew: invalid("auditLogsRetentionTooShort"),
    tooMany: invalid("auditLogsRetentionTooLong"),
  },
};

/** Days to keep, or null to keep for ever. */
export type RetentionDays = number | null;

export const retentionSettingsSchema = z
  .object(
    Object.fromEntries(
      RETENTION_KINDS.map((kind) => {
        const rule = RETENTION_RULES[kind];
        const messages = RETENTION_MESSAGES[kind];
        return [
          kind,
          z
            .number({ message: messages.notANumber })
            .int(messages.notWhole)
            .min(rule.minDays, messages.tooFew)
            .max(rule.maxDays, messages.tooMany)
            .nullable(),
        ];
      }),
    ) as Record<RetentionKind, z.ZodNullable<z.ZodNumber>>,
  )
  .strict();
export type RetentionSettings = z.infer<typeof retentionSettingsSchema>;

export const DEFAULT_RETENTION: RetentionSettings = Object.fromEntries(
  RETENTION_KINDS.map((kind) => [kind, RETENTION_RULES[kind].defaultDays]),
) as RetentionSettings;

export const retentionRunSchema = z.object({
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Rows removed per kind; missing while the run is under way. */
  removed: z.record(z.string(), z.number()).nullable(),
});
export type RetentionRun = z.infer<typeof retentionRunSchema>;

export const retentionResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ settings: retentionSettingsSchema, lastRun: retentionRunSchema.nullable() }),
});
export type RetentionResponse = z.infer<typeof retentionResponseSchema>;
