import { z } from "zod";
import { invalid } from "../validation-messages";

/** A job's name: lower-case words joined by dots or dashes ("sessions.sweep"). */
export const JOB_NAME_PATTERN = /^[a-z][a-z0-9]*(?:[.-][a-z0-9]+)*$/;

export const jobNameParamSchema = z.object({
  name: z.string().max(100).regex(JOB_NAME_PATTERN, invalid("jobName")),
});

/** How a job's latest run went; `retrying` means it failed and waits for another attempt. */
export const jobOutcomeSchema = z.enum(["running", "succeeded", "failed", "retrying"]);
export type JobOutcome = z.infer<typeof jobOutcomeSchema>;

export const jobRunSchema = z.object({
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  outcome: jobOutcomeSchema,
  durationMs: z.number().int().nullable(),
  error: z.string().nullable(),
  /** The administrator who ran it by hand, or null for a run of the schedule or the queue. */
  requestedBy: z.string().nullable(),
});
export type JobRun = z.infer<typeof jobRunSchema>;

export const jobSummarySchema = z.object({
  name: z.string(),
  description: z.string(),
  /** "Every hour", "Daily at 02:00 (UTC)"; null for jobs that only run when queued. */
  schedule: z.string().nullable(),
  lastRun: jobRunSchema.nullable(),
  queued: z.number().int(),
  running: z.number().int(),
  failed: z.number().int(),
  nextRunAt: z.string().nullable(),
});
export type JobSummary = z.infer<typeof jobSummarySchema>;

export const jobListResponseSchema = z.object({ success: z.literal(true), data: z.array(jobSummarySchema) });
export type JobListResponse = z.infer<typeof jobListResponseSchema>;

export const runJobResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ jobId: z.number().int(), name: z.string() }),
});
export type RunJobResponse = z.infer<typeof runJobResponseSchema>;
