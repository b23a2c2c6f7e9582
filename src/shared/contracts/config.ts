import { z } from "zod";

/** Installation settings the browser needs; public, so the sign-in page can use them too. */
export const publicConfigSchema = z.object({
  supportUrl: z.string(),
  classLeaderboardOrgId: z.string(),
  impersonationMinutes: z.number(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
