import { Hono } from "hono";
import { z } from "zod";
import {
  createScheduleSchema,
  scheduleListQuerySchema,
  staffSearchQuerySchema,
  updateScheduleSchema,
} from "../../../shared/contracts/reports";
import { requireActiveRole } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { readJsonBody, readParams, readQuery, requestLanguage } from "../../lib/validation";
import { createSchedule, deleteSchedule, listSchedules, searchStaff, updateSchedule } from "./schedules";

const ADMIN = ["administrator"] as const;
const scheduleParamsSchema = z.object({ id: z.string().trim().min(1).max(100) });

/** Scheduled reports: administrators have a report emailed to staff every day, week or month. */
export function scheduleRoutes({ db, readDb, auth, logger }: AppDeps) {
  const administrator = (c: Parameters<typeof requireActiveRole>[0]) =>
    requireActiveRole(c, ADMIN, message("reports:schedules.action"));

  return new Hono<AppEnv>()
    .get("/", async (c) => {
      const actor = administrator(c);
      const { reportId } = readQuery(c, scheduleListQuerySchema);
      const data = await listSchedules({ db, readDb }, actor, {
        reportId,
        language: requestLanguage(c),
        now: auth.now(),
      });
      return c.json({ success: true as const, data });
    })
    .get("/staff", async (c) => {
      administrator(c);
      const { q } = readQuery(c, staffSearchQuerySchema);
      return c.json({ success: true as const, data: await searchStaff(db, q) });
    })
    .post("/", async (c) => {
      const actor = administrator(c);
      const body = await readJsonBody(c, createScheduleSchema);
      const now = auth.now();
      const id = await createSchedule(db, actor, body, logger, now);
      const [created] = await listSchedules({ db, readDb }, actor, { id, language: requestLanguage(c), now });
      return c.json({ success: true as const, data: created }, 201);
    })
    .patch("/:id", async (c) => {
      const actor = administrator(c);
      const { id } = readParams(c, scheduleParamsSchema);
      const body = await readJsonBody(c, updateScheduleSchema);
      const now = auth.now();
      await updateSchedule(db, actor, id, body, logger, now);
      const [updated] = await listSchedules({ db, readDb }, actor, { id, language: requestLanguage(c), now });
      if (!updated) throw new AppError("not_found", message("reports:schedules.notFound"));
      return c.json({ success: true as const, data: updated });
    })
    .delete("/:id", async (c) => {
      const actor = administrator(c);
      const { id } = readParams(c, scheduleParamsSchema);
      await deleteSchedule(db, actor, id, logger, auth.now());
      return c.json({ success: true as const });
    });
}
