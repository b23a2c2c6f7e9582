import { Hono } from "hono";
import {
  analyticsEventsRequestSchema,
  analyticsReportQuerySchema,
} from "../../../shared/contracts/analytics";
import { clientIp, requireActiveRole } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { createRateLimiter } from "../../lib/rate-limit";
import { readJsonBody, readQuery } from "../../lib/validation";
import { createEventRecorder, senderOf } from "./collect";
import { analyticsReport } from "./report";

/**
 * Batches a browser may send a minute, per session (or per address when signed out). A page sends
 * one every few seconds at most; the limit only stops a runaway script.
 */
const BATCHES_PER_MINUTE = 120;

/**
 * The collector, signed in or not (the sign-in page reports too): stores the batch (with the
 * batches that arrive with it, in one insert) and answers 202 with no body.
 */
export function analyticsCollectorRoutes({ db, auth, env }: AppDeps) {
  const limiter = createRateLimiter(db, { name: "analytics", limit: BATCHES_PER_MINUTE, windowMs: 60_000 });
  const recordEvents = createEventRecorder(db);
  return new Hono<AppEnv>().post("/events", async (c) => {
    const sender = senderOf(c.get("actor"));
    const verdict = await limiter.hit(sender.sessionKey ?? `ip:${clientIp(c, env.TRUST_PROXY)}`, auth.now());
    if (!verdict.allowed)
      throw new AppError("too_many_requests", message("analytics:tooMany"), {
        retryAfterSeconds: verdict.retryAfterSeconds,
      });
    const { events } = await readJsonBody(c, analyticsEventsRequestSchema);
    await recordEvents(events, sender, auth.now());
    return c.body(null, 202);
  });
}

/** The administrators' report of how Dash is used and where it breaks. */
export function analyticsAdminRoutes({ readDb, auth }: AppDeps) {
  return new Hono<AppEnv>().get("/", async (c) => {
    requireActiveRole(c, ["administrator"], message("analytics:actions.read"));
    const query = readQuery(c, analyticsReportQuerySchema);
    return c.json(await analyticsReport(readDb, query, auth.now()));
  });
}
