import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { availableRoles, type DashRole, distinctRoles, resolveActiveRole } from "../../shared/roles";
import type { AuthService, SignedInSession } from "../domains/auth/service";
import type { Actor, AppEnv } from "./context";
import { AppError } from "./errors";
import { type Message, message } from "./i18n";

export const SESSION_COOKIE = "dash_session";

/** The browser's saved role choice (30 days, path /, SameSite Lax), written by the role switcher. */
export const ROLE_COOKIE = "selectedUserRole";

/** The caller in their active role: the saved choice when available, else their highest role. */
export function actorOf(session: SignedInSession, savedRole: string | undefined): Actor {
  const impersonated = session.impersonation?.user;
  const available = availableRoles(
    distinctRoles(session.user.roles.map((entry) => entry.role)),
    impersonated ? distinctRoles(impersonated.roles.map((entry) => entry.role)) : null,
  );
  return {
    session,
    realUser: session.user,
    user: impersonated ?? session.user,
    availableRoles: available,
    activeRole: resolveActiveRole({ available, saved: savedRole }),
  };
}

/** Loads the caller's session, if any, into `c.var.actor`. */
export function loadSession(auth: AuthService): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = getCookie(c, SESSION_COOKIE);
    // A cookie naming no session is left as it is: a request sent before a new sign-in (a page's
    // last analytics beacon) can be answered after it, and clearing the cookie then would clear
    // the new session's.
    const session = token ? await auth.resolveSession(token) : null;
    c.set("actor", session ? actorOf(session, getCookie(c, ROLE_COOKIE)) : null);
    await next();
  };
}

export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get("actor")) throw new AppError("unauthenticated", message("common:signIn"));
  await next();
};

export function currentActor(c: Context<AppEnv>): Actor {
  const actor = c.get("actor");
  if (!actor) throw new AppError("unauthenticated", message("common:signIn"));
  return actor;
}

/**
 * The caller, who must be acting in one of these roles. `action` completes "Your role does not
 * allow you to …": a message of the domain's catalogue ("list courses"), or a text said as it is.
 */
export function requireActiveRole(
  c: Context<AppEnv>,
  roles: readonly DashRole[],
  action: string | Message,
): Actor {
  const actor = currentActor(c);
  if (!actor.activeRole || !roles.includes(actor.activeRole))
    throw new AppError("forbidden", message("common:roleForbids", { action }));
  return actor;
}

export function isHttps(c: Context, trustProxy: boolean): boolean {
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
