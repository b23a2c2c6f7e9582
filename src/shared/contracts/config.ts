import { z } from "zod";

/** Installation settings the browser needs; public, so the sign-in page can use them too. */
export const publicConfigSchema = z.object({
  supportUrl: z.string(),
  classLeaderboardOrgId: z.string(),
  impersonationMinutes: z.number(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

/** GET /api/health: whether the server reaches its database, and which kind it runs on. */
export const healthSchema = z.object({ ok: z.boolean(), db: z.enum(["pglite", "postgres"]) });
export type Health = z.infer<typeof healthSchema>;
