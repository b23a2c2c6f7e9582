import type { Context, MiddlewareHandler } from "hono";
import { isHttps } from "./auth";
import type { AppEnv } from "./context";
import { AppError } from "./errors";
import { message } from "./i18n";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const JSON_TYPES = ["application/json"] as const;

/** The media type of the request body, without parameters, in lower case. */
function mediaTypeOf(c: Context): string | undefined {
  return c.req.header("content-type")?.split(";")[0]?.trim().toLowerCase() || undefined;
}

/** The app's own origin as the browser sees it: scheme, host and port, behind a trusted proxy too. */
export function ownOrigin(c: Context, trustProxy: boolean): string {
  const forwardedHost = trustProxy ? c.req.header("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  const host = forwardedHost || new URL(c.req.url).host;
  return `${isHttps(c, trustProxy) ? "https" : "http"}://${host}`;
}

export interface RequestGuardOptions {
  trustProxy: boolean;
  /** Paths whose state-changing requests take other body types than JSON, and which ones. */
  bodyTypes: Record<string, readonly string[]>;
  /**
   * Path prefixes whose callers authenticate with a bearer key, never a cookie: a foreign page
   * cannot make the browser send such a key, so there is no forged request to refuse.
   */
  bearerOnlyPrefixes: string[];
}

/**
 * The cross-site request forgery defence of the JSON API. A state-changing request must say it
 * sends JSON (or an upload type its path takes), which an HTML form cannot do and a foreign
 * script cannot do without a CORS preflight this server never answers; and a browser's Origin
 * and Sec-Fetch-Site headers, when present, must name this app.
 */
export function guardStateChangingRequests(options: RequestGuardOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!STATE_CHANGING.has(c.req.method)) return next();
    const expectedTypes = options.bodyTypes[c.req.path] ?? JSON_TYPES;
    const mediaType = mediaTypeOf(c);
    if (!mediaType || !expectedTypes.includes(mediaType)) {
      const expectedType = expectedTypes.join(", ");
      throw new AppError("unsupported_media_type", message("common:request.contentType", { expectedType }));
    }
    if (options.bearerOnlyPrefixes.some((prefix) => c.req.path.startsWith(prefix))) return next();
    const origin = c.req.header("origin");
    const fetchSite = c.req.header("sec-fetch-site");
    const isForeignOrigin = origin !== undefined && origin !== ownOrigin(c, options.trustProxy);
    const isForeignSite = fetchSite !== undefined && fetchSite !== "same-origin" && fetchSite !== "none";
    if (isForeignOrigin || isForeignSite)
      throw new AppError("forbidden", message("common:request.crossSite"));
    return next();
  };
}
