import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";

type BodyLimitOptions = Required<Parameters<typeof bodyLimit>[0]>;

/**
 * Hono's body limit, without its cost for bodies that declare their length: those are judged by
 * `Content-Length` (Node's parser holds the body to it) and never wrapped in a web stream, so the
 * handler reads them straight from the socket's buffers. A body of unknown length (chunked) is
 * counted as it is read, as before.
 */
export function limitBody(options: BodyLimitOptions): MiddlewareHandler {
  const counted = bodyLimit(options);
  return async (c, next) => {
    const declared = c.req.header("content-length");
    if (declared === undefined || c.req.header("transfer-encoding") !== undefined) return counted(c, next);
    if (Number(declared) > options.maxSize) return options.onError(c);
    await next();
  };
}
