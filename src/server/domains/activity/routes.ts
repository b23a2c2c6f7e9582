import { type Context, Hono } from "hono";
import { z } from "zod";
import {
  activityBatchSchema,
  approveHeldEventSchema,
  caliperEnvelopeSchema,
  dismissHeldEventSchema,
  heatmapRequestSchema,
  heldEventsQuerySchema,
  type IngestResult,
  learningMetricsQuerySchema,
  learningSettingsSchema,
  manualXpRequestSchema,
  xpDayQuerySchema,
} from "../../../shared/contracts/activity";
import {
  appKeyInputSchema,
  learningAppChangesSchema,
  learningAppInputSchema,
} from "../../../shared/contracts/learning-apps";
import { daysBetween } from "../../../shared/time-zone";
import { invalid } from "../../../shared/validation-messages";
import { currentActor, requireActiveRole } from "../../lib/auth";
import type { Actor, AppDeps, AppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { revalidateEachTime } from "../../lib/revalidate";
import { readJsonBody, readQuery, requestLanguage } from "../../lib/validation";
import { ingestedEvents } from "../../platform/metrics/metrics";
import { EARN_JOB } from "../rewards/jobs";
import { canSeeStudent, studentIdsInReach } from "../rostering/scope";
import { recordIngestRequest, refusalOf } from "../webhooks/ingest-log";
import { createApp, createKey, listApps, listKeys, revokeKey, updateApp } from "./apps";
import { readCaliperEvent } from "./caliper";
import { homeSummariesOf, studentHome } from "./home-summaries";
import { ingestActivity, ingestLimitsFromEnv } from "./ingest";
import { learningMetrics } from "./metrics";
import { approveHeldEvent, dismissHeldEvent, listHeldEvents } from "./review";
import { learningSettings, saveLearningSettings } from "./settings";
import { schoolSummaries } from "./summaries";
import { awardManualXp, MAX_HEATMAP_DAYS, xpDay, xpHeatmap, xpHistory, xpHistoryTotal } from "./xp";

/** Counts what apps posted for /metrics; the seed's own ingestion is not the apps' and is left out. */
function countIngestedEvents(result: IngestResult): void {
  for (const outcome of ["accepted", "held", "rejected", "duplicates"] as const) {
    const count = result[outcome].length;
    if (count > 0) ingestedEvents.inc({ outcome: outcome === "duplicates" ? "duplicate" : outcome }, count);
  }
}

/** Learning apps post activity here with their API key (no session). */
export function ingestRoutes({ db, auth, env, live, jobs, appKeys, logger }: AppDeps) {
  const limits = ingestLimitsFromEnv(env);
  // Credited students' homes update live, and the Alphas their activity earned are paid.
  const tellStudents = async (studentIds: string[]) => {
    await live.publish("home-changed", studentIds);
    await jobs.enqueue(EARN_JOB, { studentIds });
  };
  return new Hono<AppEnv & { Variables: { appId: string; ingestResult: IngestResult } }>()
    .use("*", async (c, next) => {
      const key = await appKeys.authenticate(c.req.header("authorization"), auth.now(), "learning");
      c.set("appId", key.appId);
      const receivedAt = auth.now();
      const started = performance.now();
      await next();
      // The ingestion log: each request of a known app, refused ones too (their status says why).
      const endpoint = c.req.path.endsWith("/caliper") ? "caliper" : "activity";
      const result = c.get("ingestResult");
      await recordIngestRequest(
        db,
        logger,
        {
          appId: key.appId,
          endpoint,
          statusCode: c.res.status,
          durationMs: performance.now() - started,
          result,
          refusal: result ? undefined : refusalOf(c.error, c.res.status),
        },
        receivedAt,
      );
    })
    .post("/activity", async (c) => {
      const { events } = await readJsonBody(c, activityBatchSchema, { checkEachItem: true });
      const result = await ingestActivity(
        db,
        c.get("appId"),
        events.map((fact) => ({ fact })),
        auth.now(),
        limits,
        tellStudents,
      );
      countIngestedEvents(result);
      c.set("ingestResult", result);
      return c.json(result);
    })
    .post("/caliper", async (c) => {
      const envelope = await readJsonBody(c, caliperEnvelopeSchema, { checkEachItem: true });
      const result = await ingestActivity(
        db,
        c.get("appId"),
        envelope.data.map(readCaliperEvent),
        auth.now(),
        limits,
        tellStudents,
      );
      countIngestedEvents(result);
      c.set("ingestResult", result);
      return c.json(result);
    });
}

const historyQuerySchema = z.object({
  studentId: z.string().trim().min(1, invalid("studentIdRequired")),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

const ADMIN = ["administrator"] as const;

const NOT_FOUND_MESSAGES = {
  appId: message("activity:apps.notFound"),
  keyId: message("activity:keys.notFound"),
  heldId: message("activity:held.notFound"),
};

/** These ids are UUIDs: anything else names nothing, so it is a 404 rather than a database error. */
function idParam(c: Context, name: keyof typeof NOT_FOUND_MESSAGES): string {
  const value = c.req.param(name) ?? "";
  if (!z.uuid().safeParse(value).success) throw new AppError("not_found", NOT_FOUND_MESSAGES[name]);
  return value;
}

const REVIEWERS = ["administrator", "teacher"] as const;

export function activityRoutes({ db, readDb, auth, live, appKeys }: AppDeps) {
  const forbidden = () => new AppError("forbidden", message("activity:students.forbidden"));
  const summariesInReach = (actor: Actor) => {
    const reach = studentIdsInReach(actor);
    if (!reach) throw forbidden();
    return homeSummariesOf(db, reach, auth.now());
  };

  return (
    new Hono<AppEnv>()
      // Every signed-in person sees the active apps (students launch them from home).
      .get("/apps", async (c) =>
        c.json({ success: true, data: await listApps(db, { onlyActiveLearning: true }) }),
      )
      .get("/admin/apps", async (c) => {
        requireActiveRole(c, ADMIN, message("activity:actions.manageApps"));
        return c.json({ success: true, data: await listApps(db, { onlyActiveLearning: false }) });
      })
      .post("/admin/apps", async (c) => {
        requireActiveRole(c, ADMIN, message("activity:actions.manageApps"));
        return c.json(
          { success: true, data: await createApp(db, await readJsonBody(c, learningAppInputSchema)) },
          201,
        );
      })
      .patch("/admin/apps/:appId", async (c) => {
        requireActiveRole(c, ADMIN, message("activity:actions.manageApps"));
        const changes = await readJsonBody(c, learningAppChangesSchema);
        const updated = await updateApp(db, idParam(c, "appId"), changes);
        await appKeys.changed();
        return c.json({ success: true, data: updated });
      })
      .get("/admin/apps/:appId/keys", async (c) => {
        requireActiveRole(c, ADMIN, message("activity:actions.manageApps"));
        return c.json({ success: true, data: await listKeys(db, idParam(c, "appId")) });
      })
      .post("/admin/apps/:appId/keys", async (c) => {
        requireActiveRole(c, ADMIN, message("activity:actions.manageApps"));
        const { label } = await readJsonBody(c, appKeyInputSchema);
        return c.json({ success: true, data: await createKey(db, idParam(c, "appId"), label) }, 201);
      })
      .delete("/admin/apps/:appId/keys/:keyId", async (c) => {
        requireActiveRole(c, ADMIN, message("activity:actions.manageApps"));
        await revokeKey(db, idParam(c, "appId"), idParam(c, "keyId"), auth.now());
        await appKeys.changed();
        return c.json({ success: true });
      })
      .get("/admin/learning-settings", async (c) => {
        requireActiveRole(c, ADMIN, message("activity:actions.seeLearningSettings"));
        return c.json({ success: true, data: await learningSettings(db) });
      })
      .put("/admin/learning-settings", async (c) => {
        requireActiveRole(c, ADMIN, message("activity:actions.changeLearningSettings"));
        const settings = await readJsonBody(c, learningSettingsSchema);
        return c.json({ success: true, data: await saveLearningSettings(db, settings) });
      })
      .get("/learning-metrics", async (c) => {
        const actor = requireActiveRole(
          c,
          ["student", "parent", "guardian", "teacher", "administrator"],
          message("activity:actions.seeLearningMetrics"),
        );
        const query = readQuery(c, learningMetricsQuerySchema);
        return c.json({
          success: true,
          data: await learningMetrics({ db, readDb }, actor, query, auth.now(), requestLanguage(c)),
        });
      })
      .post("/learning-metrics/analytics-xp-heatmap", async (c) => {
        // This endpoint answers in the spec's { success, data, error } shape, errors included.
        try {
          const actor = currentActor(c);
          const request = await readJsonBody(c, heatmapRequestSchema);
          if (daysBetween(request.startDate, request.endDate) >= MAX_HEATMAP_DAYS) {
            throw new AppError(
              "validation_failed",
              message("activity:range.tooLong", { days: MAX_HEATMAP_DAYS }),
            );
          }
          // Days are the student's own, whatever timezone the viewer is in.
          const data = await xpHeatmap(
            { db, readDb },
            actor,
            request.userId,
            request.startDate,
            request.endDate,
          );
          if (!data) throw forbidden();
          return c.json({ success: true, data, error: null });
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          const body = error.toBody(requestLanguage(c));
          return c.json({ success: false, data: [], error: body.message, ...body }, error.status);
        }
      })
      .post("/xp/manual", async (c) => {
        const actor = requireActiveRole(c, ["administrator", "teacher"], message("activity:actions.awardXp"));
        const input = await readJsonBody(c, manualXpRequestSchema);
        if (!(await canSeeStudent(db, actor, input.studentId))) throw forbidden();
        const { entry, isReplay } = await awardManualXp(db, actor, input, auth.now());
        if (!isReplay) await live.publish("home-changed", [input.studentId]);
        return c.json({ success: true, data: entry, isReplay }, isReplay ? 200 : 201);
      })
      .get("/xp/held", async (c) => {
        const actor = requireActiveRole(c, REVIEWERS, message("activity:actions.reviewHeld"));
        const query = readQuery(c, heldEventsQuerySchema);
        return c.json({ success: true, ...(await listHeldEvents(db, actor, query, requestLanguage(c))) });
      })
      .post("/xp/held/:heldId/approve", async (c) => {
        const actor = requireActiveRole(c, REVIEWERS, message("activity:actions.reviewHeld"));
        const { note } = await readJsonBody(c, approveHeldEventSchema);
        const { event, isReplay } = await approveHeldEvent(
          db,
          actor,
          idParam(c, "heldId"),
          note,
          auth.now(),
          requestLanguage(c),
        );
        if (!isReplay) await live.publish("home-changed", [event.studentId]);
        return c.json({ success: true, data: event, isReplay });
      })
      .post("/xp/held/:heldId/dismiss", async (c) => {
        const actor = requireActiveRole(c, REVIEWERS, message("activity:actions.reviewHeld"));
        const { reason } = await readJsonBody(c, dismissHeldEventSchema);
        const { event, isReplay } = await dismissHeldEvent(
          db,
          actor,
          idParam(c, "heldId"),
          reason,
          auth.now(),
          requestLanguage(c),
        );
        return c.json({ success: true, data: event, isReplay });
      })
      .get("/students/:studentId/home", revalidateEachTime, async (c) => {
        const home = await studentHome(db, currentActor(c), c.req.param("studentId"), auth.now());
        return c.json({ success: true, data: home });
      })
      .get("/guide/students", revalidateEachTime, async (c) => {
        const actor = requireActiveRole(c, ["teacher"], message("activity:actions.seeGuideStudents"));
        return c.json({
          success: true,
          data: await summariesInReach(actor),
        });
      })
      .get("/parent/children/summary", revalidateEachTime, async (c) => {
        const actor = requireActiveRole(c, ["parent", "guardian"], message("activity:actions.seeChildren"));
        return c.json({
          success: true,
          data: await summariesInReach(actor),
        });
      })
      .get("/admin/schools/summary", async (c) => {
        requireActiveRole(c, ADMIN, message("activity:actions.seeSchoolTotals"));
        return c.json({ success: true, data: await schoolSummaries(db, auth.now()) });
      })
      .get("/xp/history", async (c) => {
        const actor = currentActor(c);
        const page = readQuery(c, historyQuerySchema);
        if (!(await canSeeStudent(db, actor, page.studentId))) throw forbidden();
        const [data, total] = await Promise.all([
          xpHistory(db, page.studentId, page),
          xpHistoryTotal(db, page.studentId),
        ]);
        return c.json({ success: true, data, total });
      })
      .get("/xp/day", async (c) => {
        const actor = currentActor(c);
        const query = readQuery(c, xpDayQuerySchema);
        if (!(await canSeeStudent(db, actor, query.studentId))) throw forbidden();
        return c.json({
          success: true,
          data: await xpDay(db, query.studentId, query.date, auth.now(), requestLanguage(c)),
        });
      })
  );
}
