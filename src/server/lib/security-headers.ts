import type { MiddlewareHandler } from "hono";
import { isHttps } from "./auth";
import type { AppEnv } from "./context";

/**
 * The app's Content-Security-Policy. Only files of this origin run: the built app has no inline
 * script. Inline styles stay allowed for the onboarding printout's own <style> element (an
 * injected style cannot run code). `frameAncestors` is for the few pages other sites may frame (the QTI embeds): such a
 * route sets its own policy with this function, and the default one is left alone.
 */
export function contentSecurityPolicy(options: { frameAncestors?: string } = {}): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    // Store items may show a picture served elsewhere (https only): an image runs no code.
    "img-src 'self' data: https:",
    "font-src 'self'",
    "connect-src 'self'",
    // A lesson's video plays in the privacy-enhanced players of YouTube and Vimeo; no other site is framed.
    "frame-src 'self' https://www.youtube-nocookie.com https://player.vimeo.com",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${options.frameAncestors ?? "'none'"}`,
  ].join("; ");
}

const DEFAULT_POLICY = contentSecurityPolicy();
// Answers of the APIs are about people and must stay out of shared and browser caches; a route may
// only ask the browser to keep its answer for revalidation (lib/revalidate.ts).
const UNCACHEABLE_PREFIXES = ["/api/", "/oauth/"];
const HSTS_SECONDS = 180 * 24 * 3600;

/** Security headers on every answer; a route's own Content-Security-Policy and Referrer-Policy are kept. */
export function securityHeaders(options: {
  trustProxy: boolean;
  uncacheablePrefixes: string[];
}): MiddlewareHandler<AppEnv> {
  const uncacheable = [...UNCACHEABLE_PREFIXES, ...options.uncacheablePrefixes];
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    if (!headers.has("Content-Security-Policy")) {
      headers.set("Content-Security-Policy", DEFAULT_POLICY);
      headers.set("X-Frame-Options", "DENY");
    }
    headers.set("X-Content-Type-Options", "nosniff");
    // A page that carries a secret in its address (the reset link) sets a stricter one of its own.
    if (!headers.has("Referrer-Policy")) headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
    headers.set("Cross-Origin-Opener-Policy", "same-origin");
    if (isHttps(c, options.trustProxy))
      headers.set("Strict-Transport-Security", `max-age=${HSTS_SECONDS}; includeSubDomains`);
    const path = c.req.path;
    // A stored file (platform/storage) or a summary answered with an ETag (lib/revalidate) has
    // chosen a private cache of its own.
    const isPrivate = headers.get("Cache-Control")?.startsWith("private") ?? false;
    if (!isPrivate && (path === "/api" || uncacheable.some((prefix) => path.startsWith(prefix))))
      headers.set("Cache-Control", "no-store");
  };
}
