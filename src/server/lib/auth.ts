import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AuthService, SignedInSession } from "../domains/auth/service";
import type { AppEnv } from "./context";
import { AppError } from "./errors";

export const SESSION_COOKIE = "dash_session";

/** Loads the caller's session, if any, into `c.var.session`. */
export function loadSession(auth: AuthService): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = getCookie(c, SESSION_COOKIE);
    const session = token ? await auth.resolveSession(token) : null;
    if (token && !session) deleteCookie(c, SESSION_COOKIE, { path: "/" });
    c.set("session", session);
    await next();
  };
}

export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get("session")) throw new AppError("unauthenticated", "Sign in to continue");
  await next();
};

export function currentSession(c: Context<AppEnv>): SignedInSession {
  const session = c.get("session");
  if (!session) throw new AppError("unauthenticated", "Sign in to continue");
  return session;
}

export function isHttps(c: Context<AppEnv>, trustProxy: boolean): boolean {
  if (trustProxy && c.req.header("x-forwarded-proto")?.split(",")[0]?.trim() === "https") return true;
  return new URL(c.req.url).protocol === "https:";
}

export function setSessionCookie(
  c: Context<AppEnv>,
  token: string,
  options: { maxAgeSeconds: number; trustProxy: boolean },
): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "Lax",
    secure: isHttps(c, options.trustProxy),
    path: "/",
    maxAge: options.maxAgeSeconds,
  });
}

export function clearSessionCookie(c: Context<AppEnv>): void {
  deleteCookie(c, SESSION_COOKIE, { path: "/" });
}

/** The caller's address: the socket's, or the first X-Forwarded-For hop behind a trusted proxy. */
export function clientIp(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return c.env?.incoming?.socket.remoteAddress ?? "local";
}
