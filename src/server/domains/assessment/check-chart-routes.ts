import { Hono } from "hono";
import { z } from "zod";
import {
  checkChartDraftSchema,
  checkChartListQuerySchema,
  checkObservationSchema,
  levelMappingSchema,
} from "../../../shared/contracts/assessment";
import { currentActor, requireActiveRole } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { message } from "../../lib/i18n";
import { readJsonBody, readParams, readQuery } from "../../lib/validation";
import { legacyReview, mapLevel } from "./check-chart-legacy";
import {
  classChartProgress,
  clearObservation,
  observeCheck,
  studentChartProgress,
} from "./check-chart-progress";
import {
  createCheckChart,
  deleteCheckChart,
  getCheckChart,
  listCheckCharts,
  saveCheckChart,
} from "./check-charts";

const id = z.string().trim().min(1).max(200);
const chartParams = z.object({ chartId: id });
const studentParams = z.object({ chartId: id, studentId: id });
const checkParams = z.object({ chartId: id, studentId: id, checkId: id });
const classParams = z.object({ chartId: id, classId: id });
const levelParams = z.object({ chartId: id, levelId: id });
const ADMIN = ["administrator"] as const;

/** Check charts: charts, their levels and checks, observations and the legacy review. */
export function checkChartRoutes({ db, auth }: AppDeps) {
  return (
    new Hono<AppEnv>()
      .get("/check-charts", async (c) => {
        const { studentId } = readQuery(c, checkChartListQuerySchema);
        return c.json(await listCheckCharts(db, currentActor(c), studentId));
      })
      .post("/check-charts", async (c) => {
        const draft = await readJsonBody(c, checkChartDraftSchema);
        return c.json(await createCheckChart(db, currentActor(c), draft, auth.now()), 201);
      })
      // Before /:chartId, which would take its name for an id.
      .get("/check-charts/legacy-review", async (c) => {
        requireActiveRole(c, ADMIN, message("assessment:checkCharts.actions.review"));
        return c.json(await legacyReview(db));
      })
      .get("/check-charts/:chartId", async (c) => {
        const { chartId } = readParams(c, chartParams);
        return c.json(await getCheckChart(db, currentActor(c), chartId));
      })
      .put("/check-charts/:chartId", async (c) => {
        const { chartId } = readParams(c, chartParams);
        const draft = await readJsonBody(c, checkChartDraftSchema);
        return c.json(await saveCheckChart(db, currentActor(c), chartId, draft, auth.now()));
      })
      .delete("/check-charts/:chartId", async (c) => {
        const { chartId } = readParams(c, chartParams);
        await deleteCheckChart(db, currentActor(c), chartId);
        return c.body(null, 204);
      })
      .get("/check-charts/:chartId/students/:studentId", async (c) => {
        const { chartId, studentId } = readParams(c, studentParams);
        return c.json(await studentChartProgress(db, currentActor(c), chartId, studentId, auth.now()));
      })
      .put("/check-charts/:chartId/students/:studentId/checks/:checkId", async (c) => {
        const target = readParams(c, checkParams);
        const { observedOn } = await readJsonBody(c, checkObservationSchema);
        return c.json(await observeCheck(db, currentActor(c), target, observedOn, auth.now()));
      })
      .delete("/check-charts/:chartId/students/:studentId/checks/:checkId", async (c) => {
        const target = readParams(c, checkParams);
        return c.json(await clearObservation(db, currentActor(c), target, auth.now()));
      })
      .get("/check-charts/:chartId/classes/:classId", async (c) => {
        const { chartId, classId } = readParams(c, classParams);
        return c.json(await classChartProgress(db, currentActor(c), chartId, classId));
      })
      .put("/check-charts/:chartId/levels/:levelId/mapping", async (c) => {
        const actor = requireActiveRole(c, ADMIN, message("assessment:checkCharts.actions.review"));
        const target = readParams(c, levelParams);
        const { grade } = await readJsonBody(c, levelMappingSchema);
        return c.json(await mapLevel(db, actor, target, grade, auth.now()));
      })
  );
}
