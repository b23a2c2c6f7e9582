import { Hono } from "hono";
import { z } from "zod";
import { attemptFinishInputSchema, attemptResponseInputSchema } from "../../../shared/contracts/content";
import { currentActor } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { readJsonBody, readParams } from "../../lib/validation";
import { ingestLimitsFromEnv } from "../activity/ingest";
import { EARN_JOB } from "../rewards/jobs";
import { attemptResult, finishAttempt, saveAttemptResponse, startAttempt } from "./attempts";
import { lessonView } from "./lesson-view";

const lessonParam = z.object({ lessonId: z.string().trim().min(1).max(200) });
// Any text: an id that is no attempt's (a uuid or not) is a 404, never a database error.
const attemptParam = z.object({ attemptId: z.string().trim().min(1).max(100) });

/** A student takes a lesson: the lesson, its attempts, answers and the finish (under /api/content). */
export function lessonRoutes({ db, auth, env, live, jobs }: AppDeps) {
  const limits = ingestLimitsFromEnv(env);
  // A credited student's home updates live, and the Alphas their XP earned are paid.
  const onCredited = async (studentIds: string[]) => {
    await live.publish("home-changed", studentIds);
    await jobs.enqueue(EARN_JOB, { studentIds });
  };
  return new Hono<AppEnv>()
    .get("/lessons/:lessonId", async (c) => {
      const { lessonId } = readParams(c, lessonParam);
      return c.json(await lessonView(db, currentActor(c), lessonId));
    })
    .post("/lessons/:lessonId/attempts", async (c) => {
      const { lessonId } = readParams(c, lessonParam);
      const started = await startAttempt(db, currentActor(c), lessonId, auth.now());
      return c.json(started, started.isNew ? 201 : 200);
    })
    .get("/attempts/:attemptId", async (c) => {
      const { attemptId } = readParams(c, attemptParam);
      return c.json(await attemptResult(db, currentActor(c), attemptId));
    })
    .put("/attempts/:attemptId/responses", async (c) => {
      const { attemptId } = readParams(c, attemptParam);
      const input = await readJsonBody(c, attemptResponseInputSchema);
      await saveAttemptResponse(db, currentActor(c), attemptId, input, auth.now());
      return c.json({ saved: true });
    })
    .post("/attempts/:attemptId/finish", async (c) => {
      const { attemptId } = readParams(c, attemptParam);
      const { activeSeconds } = await readJsonBody(c, attemptFinishInputSchema);
      const context = { db, now: auth.now(), limits, onCredited };
      return c.json(await finishAttempt(context, currentActor(c), attemptId, activeSeconds));
    });
}
