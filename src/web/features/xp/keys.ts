import type { HeldEventStatus } from "../../../shared/contracts/activity";

/** The XP pages' query keys, apart from their queries: the shell refreshes them without loading XP code. */
export const xpKeys = {
  all: ["xp"] as const,
  history: (studentId: string, limit: number, offset: number) =>
    ["xp", "history", studentId, limit, offset] as const,
  day: (studentId: string, date: string | undefined) => ["xp", "day", studentId, date ?? "today"] as const,
  studentSearch: (search: string) => ["users", "viewable", "students", search] as const,
  held: (status: HeldEventStatus | "all") => ["xp", "held", status] as const,
};
