import { z } from "zod";
import type { DashRole } from "../roles";

/** Guided tours: one per role family. Progress within a tour stays in the browser. */

export const TOUR_NAMES = ["student", "teacher", "parent", "administrator"] as const;
export const tourNameSchema = z.enum(TOUR_NAMES);
export type TourName = z.infer<typeof tourNameSchema>;

/** How a tour ended: every ending counts as done, so the tour is not offered again by itself. */
export const tourOutcomeSchema = z.enum(["finished", "skipped", "closed"]);
export type TourOutcome = z.infer<typeof tourOutcomeSchema>;

export const tourCompletionInputSchema = z.object({ outcome: tourOutcomeSchema });
export type TourCompletionInput = z.infer<typeof tourCompletionInputSchema>;

export const tourCompletionSchema = z.object({
  tour: tourNameSchema,
  outcome: tourOutcomeSchema,
  completedAt: z.string(),
});
export type TourCompletion = z.infer<typeof tourCompletionSchema>;

export const tourCompletionsSchema = z.array(tourCompletionSchema);

/**
 * The tour a role takes. Guardians see the pages parents see, so they take the parent tour.
 * Proctors take none: the Guide's tour walks through pages a proctor may not open (learning
 * metrics, goals, class MAP Growth), and their home and review pages need no walk-through.
 */
const TOUR_OF_ROLE: Record<DashRole, TourName | null> = {
  student: "student",
  teacher: "teacher",
  parent: "parent",
  guardian: "parent",
  administrator: "administrator",
  proctor: null,
};

export function tourOfRole(role: DashRole | null | undefined): TourName | null {
  return role ? TOUR_OF_ROLE[role] : null;
}
