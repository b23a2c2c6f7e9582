import { z } from "zod";
import type { HeatmapRequest } from "./api";

/**
 * Daily XP kept in localStorage per student, day and timezone, so a returning visitor sees the
 * last known figures at once while the fresh ones load. One entry per student: a newer day or
 * another range replaces it, so storage never grows with use.
 */
const PREFIX = "dash-daily-xp:";

const entrySchema = z.object({
  key: z.string(),
  savedAt: z.number(),
  data: z.array(z.object({ date: z.string(), xpGained: z.number() })),
});
type DailyXpEntry = z.infer<typeof entrySchema>;

const entryKey = (request: HeatmapRequest) =>
  [request.startDate, request.endDate, request.timezone].join("|");

export function readDailyXp(request: HeatmapRequest): DailyXpEntry | undefined {
  try {
    const parsed = entrySchema.safeParse(JSON.parse(localStorage.getItem(PREFIX + request.userId) ?? "null"));
    return parsed.success && parsed.data.key === entryKey(request) ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function saveDailyXp(request: HeatmapRequest, data: DailyXpEntry["data"], savedAt = Date.now()) {
  try {
    const entry: DailyXpEntry = { key: entryKey(request), savedAt, data };
    localStorage.setItem(PREFIX + request.userId, JSON.stringify(entry));
  } catch {
    // Storage full or blocked: the figures still show, they are just not kept.
  }
}
