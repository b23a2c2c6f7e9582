import { Hono } from "hono";
import { z } from "zod";
import { tourCompletionInputSchema, tourNameSchema } from "../../../shared/contracts/tours";
import { currentActor } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { readJsonBody, readParams } from "../../lib/validation";
import { completedTours, completeTour, restartTour } from "./tours";

const tourParam = z.object({ tour: tourNameSchema });

export function toursRoutes({ db, auth }: AppDeps) {
  return new Hono<AppEnv>()
    .get("/", async (c) => c.json(await completedTours(db, currentActor(c))))
    .put("/:tour", async (c) => {
      const { tour } = readParams(c, tourParam);
      const { outcome } = await readJsonBody(c, tourCompletionInputSchema);
      return c.json(await completeTour(db, currentActor(c), tour, outcome, auth.now()));
    })
    .delete("/:tour", async (c) => {
      const { tour } = readParams(c, tourParam);
      await restartTour(db, currentActor(c), tour);
      return c.body(null, 204);
    });
}
