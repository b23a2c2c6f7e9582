import type { MiddlewareHandler } from "hono";
import { etag } from "hono/etag";

/**
 * The only caching an API answer may ask for: the browser may keep it for this user alone and must
 * ask again before each use; shared caches never keep it.
 */
export const REVALIDATE_EACH_TIME = "private, no-cache";

const tagBody = etag();

/**
 * For answers read again and again that rarely change (the homes, refreshed every minute): an
 * `ETag` of the body, so the browser's next request carries `If-None-Match` and an unchanged
 * answer comes back as a 304 without a body. The answer still depends on the session, hence
 * `Vary: Cookie`.
 */
export const revalidateEachTime: MiddlewareHandler = async (c, next) => {
  await tagBody(c, next);
  // A refusal is never kept.
  if (c.res.status !== 200 && c.res.status !== 304) return;
  c.header("Cache-Control", REVALIDATE_EACH_TIME);
  c.header("Vary", "Cookie", { append: true });
};
