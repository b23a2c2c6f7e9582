import { Hono } from "hono";
import { z } from "zod";
import { currentActor } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { readParams } from "../../lib/validation";
import { saveResource, studentResources, unsaveResource } from "./student-resources";

const studentParam = z.object({ studentId: z.string().trim().min(1).max(200) });
const resourceParam = z.object({ resourceId: z.string().trim().min(1).max(200) });

/** A student's courses, assignments, apps and kept resources; keeping resources is the student's own. */
export function studentResourcesRoutes({ db, auth }: AppDeps) {
  return new Hono<AppEnv>()
    .get("/students/:studentId/resources", async (c) => {
      const { studentId } = readParams(c, studentParam);
      return c.json(await studentResources(db, currentActor(c), studentId, auth.now()));
    })
    .put("/saved-resources/:resourceId", async (c) => {
      const { resourceId } = readParams(c, resourceParam);
      await saveResource(db, currentActor(c), resourceId, auth.now());
      return c.body(null, 204);
    })
    .delete("/saved-resources/:resourceId", async (c) => {
      const { resourceId } = readParams(c, resourceParam);
      await unsaveResource(db, currentActor(c), resourceId);
      return c.body(null, 204);
    });
}
