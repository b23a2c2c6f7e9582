import { Hono } from "hono";
import {
  type JobListResponse,
  jobNameParamSchema,
  type RunJobResponse,
} from "../../../shared/contracts/jobs";
import { requireActiveRole } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { readParams, requestLanguage } from "../../lib/validation";

const ADMIN = ["administrator"] as const;

/** `/api/admin/jobs`: the job runner's state for administrators, and running a scheduled job now. */
export function jobAdminRoutes({ jobs, logger }: AppDeps) {
  return new Hono<AppEnv>()
    .get("/", async (c) => {
      requireActiveRole(c, ADMIN, message("common:jobs.actions.see"));
      const data = await jobs.overview(requestLanguage(c));
      return c.json({ success: true, data } satisfies JobListResponse);
    })
    .post("/:name/run", async (c) => {
      const actor = requireActiveRole(c, ADMIN, message("common:jobs.actions.run"));
      const { name } = readParams(c, jobNameParamSchema);
      if (!jobs.isScheduled(name))
        throw new AppError("not_found", message("common:jobs.notScheduled", { name }));
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
