import { z } from "zod";
import { invalid } from "../validation-messages";
import { calendarDate, changesOf } from "./fields";

/**
 * Athletics: a student's log of physical activity (what, how many minutes, which day in their own
 * time zone), counted toward a weekly activity goal in minutes that administrators set. Weeks start
 * on Sunday, as everywhere in Dash.
 */

export const ACTIVITY_MAX_LENGTH = 80;
export const NOTE_MAX_LENGTH = 500;
export const MINUTES_BOUNDS = { min: 1, max: 600 } as const;
/** An activity may be logged for today or this many days back, no further. */
export const LOG_MAX_PAST_DAYS = 30;
/** The weeks of totals a week's answer carries, the asked week last. */
export const HISTORY_WEEKS = 8;
export const DEFAULT_WEEKLY_GOAL_MINUTES = 150;
export const WEEKLY_GOAL_BOUNDS = { min: 10, max: 3_000 } as const;

/** Activities the log form offers; the web app names them in the reader's language, and any other may be typed. */
export const ACTIVITY_SUGGESTIONS = [
  "running",
  "walking",
  "soccer",
  "basketball",
  "swimming",
  "cycling",
  "dance",
  "yoga",
  "jumpRope",
  "playground",
  "martialArts",
  "gymnastics",
] as const;

const id = z.string().trim().min(1).max(200);
const activity = z
  .string()
  .trim()
  .min(1, invalid("nameActivity"))
  .max(ACTIVITY_MAX_LENGTH, invalid("activityTooLong"));
const minutes = z
  .number({ message: invalid("wholeMinutes") })
  .int(invalid("wholeMinutes"))
  .min(MINUTES_BOUNDS.min, invalid("minutesAtLeast"))
  .max(MINUTES_BOUNDS.max, invalid("minutesAtMost"));
/** A blank note is no note. */
const note = z
  .string()
  .trim()
  .max(NOTE_MAX_LENGTH, invalid("athleticNoteTooLong"))
  .transform((text) => text || null)
  .nullable();

/**
 * POST /api/athletics. A student logs for themself (`studentId` may be left out); a Guide or an
 * administrator names the student. `date` is a day of the student's own time zone, today or up to
 * LOG_MAX_PAST_DAYS back.
 */
export const activityInputSchema = z.object({
  studentId: id.optional(),
  activity,
  minutes,
  date: calendarDate(),
  note: note.optional(),
});
export type ActivityInput = z.infer<typeof activityInputSchema>;

/** PATCH /api/athletics/:entryId: any of the fields; `note: null` (or blank) clears the note. */
export const activityChangesSchema = changesOf({ activity, minutes, date: calendarDate(), note });
export type ActivityChanges = z.infer<typeof activityChangesSchema>;

/** GET /api/athletics: one student's week (any day of it; this week when left out). */
export const athleticsQuerySchema = z.object({
  studentId: id.optional(),
  week: calendarDate().optional(),
});

export const athleticEntrySchema = z.object({
  id: z.string(),
  activity: z.string(),
  minutes: z.number(),
  date: z.string(),
  note: z.string().nullable(),
  recordedBy: z.object({ id: z.string(), name: z.string().nullable() }),
  recordedAt: z.string(),
  changedAt: z.string().nullable(),
  /** Whether the caller may change or remove it: whoever logged it (while they still reach the student), or an administrator. */
  canChange: z.boolean(),
});
export type AthleticEntry = z.infer<typeof athleticEntrySchema>;

export const athleticsWeekSchema = z.object({
  student: z.object({ id: z.string(), name: z.string(), timezone: z.string() }),
  /** Today in the student's time zone. */
  today: z.string(),
  /** The earliest day an activity may be logged for. */
  earliestDate: z.string(),
  week: z.object({
    start: z.string(),
    end: z.string(),
    minutes: z.number(),
    goalMinutes: z.number(),
    entries: z.array(athleticEntrySchema),
  }),
  /** Minutes of each of the HISTORY_WEEKS weeks up to the asked one, oldest first. */
  history: z.array(z.object({ weekStart: z.string(), minutes: z.number() })),
  canLog: z.boolean(),
});
export type AthleticsWeek = z.infer<typeof athleticsWeekSchema>;

/** PUT /api/athletics/settings (administrators). */
export const athleticsSettingsInputSchema = z.object({
  weeklyGoalMinutes: z
    .number({ message: invalid("wholeMinutes") })
    .int(invalid("wholeMinutes"))
    .min(WEEKLY_GOAL_BOUNDS.min, invalid("weeklyMinutesAtLeast"))
    .max(WEEKLY_GOAL_BOUNDS.max, invalid("weeklyMinutesAtMost")),
});
export type AthleticsSettingsInput = z.infer<typeof athleticsSettingsInputSchema>;

/** GET /api/athletics/settings: the goal, and who last changed it and when (null while it is the default). */
export const athleticsSettingsSchema = z.object({
  weeklyGoalMinutes: z.number(),
  changedAt: z.string().nullable(),
  changedBy: z.string().nullable(),
});
export type AthleticsSettings = z.infer<typeof athleticsSettingsSchema>;
