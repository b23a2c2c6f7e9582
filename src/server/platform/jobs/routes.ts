import { Hono } from "hono";
import {
  type JobListResponse,
  jobNameParamSchema,
  type RunJobResponse,
} from "../../../shared/contracts/jobs";
import { requireActiveRole } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { readParams } from "../../lib/validation";

const ADMIN = ["administrator"] as const;

/** `/api/admin/jobs`: the job runner's state for administrators, and running a scheduled job now. */
export function jobAdminRoutes({ jobs, logger }: AppDeps) {
  return new Hono<AppEnv>()
    .get("/", async (c) => {
      requireActiveRole(c, ADMIN, "see the background jobs");
      return c.json({ success: true, data: await jobs.overview() } satisfies JobListResponse);
    })
    .post("/:name/run", async (c) => {
      const actor = requireActiveRole(c, ADMIN, "run a background job");
      const { name } = readParams(c, jobNameParamSchema);
      if (!jobs.isScheduled(name)) throw new AppError("not_found", `No scheduled job is named "${name}"`);
      // The job's row keeps who asked (requested_by); the log has it at once.
      const jobId = await jobs.runNow(name, actor.realUser.sourcedId);
      logger.info("job run requested", {
        job: name,
        jobId,
        requestedBy: actor.realUser.sourcedId,
        requestId: c.get("requestId"),
      });
      return c.json({ success: true, data: { jobId, name } } satisfies RunJobResponse, 202);
    });
}
