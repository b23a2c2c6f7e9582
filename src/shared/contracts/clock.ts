import { z } from "zod";

/**
 * GET /api/time: the server's clock, and the day it counts for a student (their own timezone) or
 * for the school, for checking that every clock of Dash agrees on "today".
 */
export const clockQuerySchema = z.object({ studentId: z.string().trim().min(1).max(200).optional() });

export const dayBoundsSchema = z.object({
  /** `yyyy-MM-dd` in the zone. */
  date: z.string(),
  /** The day's first instant, and the next day's (the day ends just before it). */
  startsAt: z.string(),
  endsAt: z.string(),
  /** The Sunday that starts the week. */
  weekStart: z.string(),
});
export type DayBounds = z.infer<typeof dayBoundsSchema>;

export const zoneDaySchema = z.object({ timeZone: z.string(), day: dayBoundsSchema });

export const serverTimeSchema = z.object({
  now: z.string(),
  /** The server process's own zone (its logs, its backups' hour). */
  server: zoneDaySchema,
  /** Whose days the display counts: a student (their timezone), or the school's calendar when none is chosen. */
  counted: zoneDaySchema.extend({
    student: z.object({ id: z.string(), name: z.string() }).nullable(),
  }),
});
export type ServerTime = z.infer<typeof serverTimeSchema>;
