import { z } from "zod";

/** Every error answer of the JSON API has this body. */
export const apiErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  retryAfterSeconds: z.number().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
