import { Hono } from "hono";
import { z } from "zod";
import {
  activityChangesSchema,
  activityInputSchema,
  athleticsQuerySchema,
  athleticsSettingsInputSchema,
} from "../../../shared/contracts/athletics";
import { currentActor, requireActiveRole } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { message } from "../../lib/i18n";
import { readJsonBody, readParams, readQuery } from "../../lib/validation";
import { changeActivity, logActivity, removeActivity, studentWeek } from "./athletics";
import { athleticsSettingsOf, saveAthleticsSettings } from "./settings";

const entryParam = z.object({ entryId: z.string().trim().min(1).max(200) });

export function athleticsRoutes({ db, auth }: AppDeps) {
  return (
    new Hono<AppEnv>()
      .get("/", async (c) => {
        const query = readQuery(c, athleticsQuerySchema);
        return c.json(await studentWeek(db, currentActor(c), query, auth.now()));
      })
      .post("/", async (c) => {
        const input = await readJsonBody(c, activityInputSchema);
        return c.json(await logActivity(db, currentActor(c), input, auth.now()), 201);
      })
      // Everyone who keeps or reads a log sees the goal it counts toward.
      .get("/settings", async (c) => {
        currentActor(c);
        return c.json(await athleticsSettingsOf(db));
      })
      .put("/settings", async (c) => {
        const actor = requireActiveRole(c, ["administrator"], message("athletics:actions.setGoal"));
        const input = await readJsonBody(c, athleticsSettingsInputSchema);
        return c.json(await saveAthleticsSettings(db, actor, input));
      })
      .patch("/:entryId", async (c) => {
        const { entryId } = readParams(c, entryParam);
        const changes = await readJsonBody(c, activityChangesSchema);
        await changeActivity(db, currentActor(c), entryId, changes, auth.now());
        return c.body(null, 204);
      })
      .delete("/:entryId", async (c) => {
        const { entryId } = readParams(c, entryParam);
        await removeActivity(db, currentActor(c), entryId, auth.now());
        return c.body(null, 204);
      })
  );
}
