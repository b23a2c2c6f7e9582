import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { activeOrganizationIds } from "../../shared/roles";
import type { AppEnv } from "./context";
import type { Logger } from "./logger";

const INCOMING_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Gives each request an id (kept from X-Request-Id when it is sane) and logs one line when it
 * ends. Only method, path, status, duration and id, and for a signed-in caller the active role
 * and its organisation (the school, or the district of its administrators), read from the session
 * the request already loaded: never bodies, cookies, query strings or who the person is.
 */
export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    c.set("requestId", requestId);
    c.header("X-Request-Id", requestId);
    const started = performance.now();
    await next();
    const actor = c.get("actor");
    logger.info("request", {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      requestId,
      ...(actor?.activeRole && {
        role: actor.activeRole,
        org: activeOrganizationIds(actor.user.roles, actor.activeRole)[0] ?? null,
      }),
    });
  };
}
