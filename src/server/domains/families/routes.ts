import { Hono } from "hono";
import { childParamsSchema, childProgressQuerySchema } from "../../../shared/contracts/families";
import { currentActor } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { revalidateEachTime } from "../../lib/revalidate";
import { readParams, readQuery } from "../../lib/validation";
import { childProgress } from "./child-progress";
import { childrenOverview } from "./children";
import { pulseRoutes } from "./pulse-routes";

export function familiesRoutes({ db, auth, logger }: AppDeps) {
  return (
    new Hono<AppEnv>()
      // ---- parent pages ----
      .get("/children", revalidateEachTime, async (c) =>
        c.json({ success: true, data: await childrenOverview(db, currentActor(c), auth.now()) }),
      )
      .get("/children/:childId/progress", async (c) => {
        const { childId } = readParams(c, childParamsSchema);
        const query = readQuery(c, childProgressQuerySchema);
        return c.json(await childProgress(db, currentActor(c), childId, query, auth.now()));
      })
      // ---- weekly pulse ----
      .route("/pulse", pulseRoutes({ db, auth, logger }))
  );
}
