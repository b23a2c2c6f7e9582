import { Hono } from "hono";
import { z } from "zod";
import { leaderboardQuerySchema, optOutSchema } from "../../../shared/contracts/leaderboards";
import { currentActor } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { readJsonBody, readParams, readQuery } from "../../lib/validation";
import { optOutState, setOptOut } from "./opt-outs";
import { leaderboard } from "./standings";

const studentParam = z.object({ studentId: z.string().trim().min(1).max(200) });

export function leaderboardsRoutes({ db, auth }: AppDeps) {
  return new Hono<AppEnv>()
    .get("/", async (c) => {
      const query = readQuery(c, leaderboardQuerySchema);
      return c.json(await leaderboard(db, currentActor(c), query, auth.now()));
    })
    .get("/opt-outs/:studentId", async (c) => {
      const { studentId } = readParams(c, studentParam);
      return c.json(await optOutState(db, currentActor(c), studentId));
    })
    .put("/opt-outs/:studentId", async (c) => {
      const { studentId } = readParams(c, studentParam);
      const { hidden } = await readJsonBody(c, optOutSchema);
      return c.json(await setOptOut(db, currentActor(c), studentId, hidden));
    });
}
