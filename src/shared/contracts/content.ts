import { z } from "zod";

/**
 * Content: the QTI 3 item bank, courses' syllabi (units → lessons → resources), lessons taken by
 * students, assignments and progress. Requests and answers of /api/qti and /api/content.
 */

/** A learner's answer to one response of an item, as the QTI player gives it. */
export const qtiResponseValueSchema = z.union([
  z.string().max(20_000),
  z.array(z.string().max(2_000)).max(200),
  z.null(),
]);
export type QtiResponseValue = z.infer<typeof qtiResponseValueSchema>;

// ---- QTI item bank ----

// ---- Syllabus and course builder ----

// ---- Lessons, attempts, assignments, progress and resources ----
