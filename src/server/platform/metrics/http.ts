import { createHash, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { gatherMetrics, metricsContentType } from "./cluster";
import { httpRequestDuration } from "./metrics";

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * Times every request under its route pattern (`/api/courses/:id`, never the path with its ids,
 * so the number of series stays bounded) and status class. After the handlers have run, the
 * route index points at the one that answered, or refused.
 */
export function httpMetrics(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const endTimer = httpRequestDuration.startTimer();
    await next();
    endTimer({
      method: KNOWN_METHODS.has(c.req.method) ? c.req.method : "other",
      route: routePath(c) || "unmatched",
      status_class: `${Math.floor(c.res.status / 100)}xx`,
    });
  };
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * `GET /metrics` in Prometheus's text format, for a scraper that sends `Authorization: Bearer
 * METRICS_TOKEN`. Without a token configured the route does not exist: numbers about a school's
 * use are not for anyone who asks.
 */
export function metricsHandler(token: string | undefined) {
  const expected = token ? digest(token) : null;
  return async (c: Context<AppEnv>) => {
    if (!expected) return c.text("Not Found", 404);
    const sent =
      c.req
        .header("authorization")
        ?.match(/^Bearer\s+(.+)$/i)?.[1]
        ?.trim() ?? "";
    // Digests have one length, so the comparison takes the same time whatever was sent.
    if (!timingSafeEqual(digest(sent), expected))
      throw new AppError("unauthenticated", message("common:metrics.sendToken"));
    c.header("Content-Type", metricsContentType);
    c.header("Cache-Control", "no-store");
    return c.body(await gatherMetrics());
  };
}
