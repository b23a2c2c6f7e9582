import { Hono } from "hono";
import { z } from "zod";
import {
  appealRequestSchema,
  incidentsQuerySchema,
  integritySettingsSchema,
  MAX_INTAKE_BODY_BYTES,
  reviewRequestSchema,
  unlockRequestSchema,
} from "../../../shared/contracts/integrity";
import { currentActor, requireActiveRole } from "../../lib/auth";
import { limitBody } from "../../lib/body-limit";
import type { AppDeps, AppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { readJsonBody, readParams, readQuery, requestLanguage } from "../../lib/validation";
import { fileResponse } from "../../platform/storage/http";
import { rewriteHomeSummaries } from "../activity/home-summaries";
import { tellLockoutChanged, tellStrikeConfirmed } from "../notifications/tell";
import { createIntake, incidentsOfBody } from "./intake";
import { lockoutStatus, studentIntegrity, unlockStudent } from "./lockout";
import { incidentDetail, listIncidents, readIncident, screenshotKeyFor } from "./records";
import { appealIncident, type DecisionEffects, reviewIncident } from "./review";
import { integritySettingsOf, saveIntegritySettings } from "./settings";
import { integritySummary } from "./summary";

/** Where the monitoring agent posts incidents; the same path lists them for people with a session. */
export const INCIDENT_INTAKE_PATH = "/api/integrity/incidents";

const incidentParam = z.object({ id: z.string().trim().min(1).max(100) });
const studentParam = z.object({ studentId: z.string().trim().min(1).max(200) });

/**
 * The monitoring agent reports incidents with its key (no session): one incident, answered 201
 * with its record, or `{ incidents: [...] }`, answered with the records stored and the ones refused.
 */
export function integrityIntakeRoutes({ db, auth, storage, appKeys }: AppDeps) {
  const intake = createIntake(db, storage);
  const limitIntakeBody = limitBody({
    maxSize: MAX_INTAKE_BODY_BYTES,
    onError: () => {
      throw new AppError("payload_too_large", message("integrity:intake.bodyTooLarge"));
    },
  });
  return new Hono<AppEnv>().post("/incidents", limitIntakeBody, async (c) => {
    // Checked before the body is read, so a caller without a key never has its upload parsed.
    const agent = await appKeys.authenticate(c.req.header("authorization"), auth.now(), "agent");
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      throw new AppError("invalid_json", message("common:invalidJson"));
    }
    const language = requestLanguage(c);
    const incidents = incidentsOfBody(body);
    const result = await intake(agent.appId, incidents, auth.now(), language);
    return incidents.isBatch ? c.json(result) : c.json(result.incidents[0], 201);
  });
}

/** Reviewing incidents, strikes, lockouts, appeals and the rules, for people with a session. */
export function integrityRoutes({ db, auth, storage, live, logger }: AppDeps) {
  const told = { db, live, logger };
  /** After a decision commits: a lock or unlock reaches the student's sessions, changed XP their home, the family hears. */
  const afterDecision = async (effects: DecisionEffects) => {
    if (effects.lockChanged) await auth.forgetUser(effects.studentId);
    await rewriteHomeSummaries(db, effects.changedSummaries, auth.now());
    if (effects.strike) await tellStrikeConfirmed(told, { studentId: effects.studentId, ...effects.strike });
    if (effects.lockChanged)
      await tellLockoutChanged(told, {
        studentId: effects.studentId,
        state: effects.strike ? "on" : "off",
        at: auth.now(),
      });
  };
  return new Hono<AppEnv>()
    .get("/incidents", async (c) => {
      const query = readQuery(c, incidentsQuerySchema);
      return c.json(await listIncidents(db, currentActor(c), query, auth.now()));
    })
    .get("/incidents/:id", async (c) => {
      const { id } = readParams(c, incidentParam);
      return c.json(await incidentDetail(db, currentActor(c), id, auth.now()));
    })
    .get("/incidents/:id/screenshot", async (c) => {
      const { id } = readParams(c, incidentParam);
      const key = await screenshotKeyFor(db, currentActor(c), id);
      const file = await storage.get(key);
      if (!file) throw new AppError("not_found", message("integrity:screenshotNotFound"));
      return fileResponse(file, { cacheControl: "private, no-store" });
    })
    .post("/incidents/:id/review", async (c) => {
      const { id } = readParams(c, incidentParam);
      const actor = currentActor(c);
      const request = await readJsonBody(c, reviewRequestSchema);
      await afterDecision(await reviewIncident(db, actor, id, request, auth.now()));
      return c.json(await readIncident(db, actor, id, auth.now()));
    })
    .post("/incidents/:id/appeal", async (c) => {
      const { id } = readParams(c, incidentParam);
      const actor = currentActor(c);
      const { note } = await readJsonBody(c, appealRequestSchema);
      await appealIncident(db, actor, id, note, auth.now());
      return c.json(await readIncident(db, actor, id, auth.now()));
    })
    .get("/summary", async (c) => c.json(await integritySummary(db, currentActor(c), auth.now())))
    .get("/lockout", async (c) => c.json(await lockoutStatus(db, currentActor(c), auth.now())))
    .get("/students/:studentId", async (c) => {
      const { studentId } = readParams(c, studentParam);
      return c.json(await studentIntegrity(db, currentActor(c), studentId, auth.now()));
    })
    .post("/students/:studentId/unlock", async (c) => {
      const { studentId } = readParams(c, studentParam);
      const actor = currentActor(c);
      const request = await readJsonBody(c, unlockRequestSchema);
      await unlockStudent(db, actor, studentId, request, auth.now());
      await auth.forgetUser(studentId);
      await tellLockoutChanged(told, { studentId, state: "off", at: auth.now() });
      return c.json(await studentIntegrity(db, actor, studentId, auth.now()));
    })
    .get("/settings", async (c) => {
      requireActiveRole(c, ["administrator"], message("integrity:actions.manageRules"));
      return c.json(await integritySettingsOf(db));
    })
    .put("/settings", async (c) => {
      const actor = requireActiveRole(c, ["administrator"], message("integrity:actions.manageRules"));
      const settings = await readJsonBody(c, integritySettingsSchema);
      const unlocked = await saveIntegritySettings(db, settings, actor.realUser.sourcedId, auth.now());
      await Promise.all(unlocked.map((studentId) => auth.forgetUser(studentId)));
      for (const studentId of unlocked)
        await tellLockoutChanged(told, { studentId, state: "off", at: auth.now() });
      return c.json(await integritySettingsOf(db));
    });
}
