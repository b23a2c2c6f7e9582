import { Hono } from "hono";
import { getCookie } from "hono/cookie";
import { z } from "zod";
import {
  changePasswordSchema,
  type LanguageSettings,
  loginRequestSchema,
  type MeResponse,
  passwordResetSchema,
  setLanguageSchema,
  startImpersonationSchema,
} from "../../../shared/contracts/auth";
import {
  actorOf,
  clearSessionCookie,
  clientIp,
  currentActor,
  ROLE_COOKIE,
  requireActiveRole,
  setSessionCookie,
} from "../../lib/auth";
import type { Actor, AppDeps, AppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { type Message, message, translate } from "../../lib/i18n";
import { createRateLimiter } from "../../lib/rate-limit";
import { readJsonBody, readParams, readQuery, requestLanguage } from "../../lib/validation";
import { DEMO_PASSWORD, type DemoEmail } from "../../seed/demo-accounts";
import { findListedDemoAccounts } from "../../seed/demo-school";
import { minutesToWait } from "./failure-throttle";
import { createImpersonation } from "./impersonation";
import { languageSettingsOf, setPreferredLanguage } from "./language";
import { createPasswords } from "./passwords";
import { sessionExpiryOf } from "./session-expiry";

/**
 * The `me` body: the signed-in user, whom they view as, their active and available roles, and
 * what decides their language.
 */
function meBody(actor: Actor, language: LanguageSettings): MeResponse {
  const impersonation = actor.session.impersonation;
  return {
    isAuthenticated: true,
    user: actor.realUser,
    ...(impersonation && {
      impersonatedUser: impersonation.user,
      impersonation: {
        reason: impersonation.reason,
        startedAt: impersonation.startedAt.toISOString(),
        expiresAt: impersonation.expiresAt.toISOString(),
      },
    }),
    selectedRole: actor.activeRole,
    availableRoles: actor.availableRoles,
    language,
  };
}

const auditQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

/** Who each demo account is, as the sign-in page lists them. */
const DEMO_DESCRIPTIONS: Record<DemoEmail, Message> = {
  "admin@dash.demo": message("auth:demoAccounts.admin"),
  "guide@dash.demo": message("auth:demoAccounts.guide"),
  "student@dash.demo": message("auth:demoAccounts.student"),
  "parent@dash.demo": message("auth:demoAccounts.parent"),
  "guardian@dash.demo": message("auth:demoAccounts.guardian"),
  "proctor@dash.demo": message("auth:demoAccounts.proctor"),
  "multi@dash.demo": message("auth:demoAccounts.multi"),
};

// Tries of a reset link per address: a person needs one or two, a guesser would need billions.
const RESET_TRIES_PER_IP = 10;
const RESET_TRIES_WINDOW_MS = 15 * 60_000;

export function authRoutes({ db, env, auth, logger }: AppDeps) {
  const cookieOptions = { maxAgeSeconds: env.SESSION_MAX_HOURS * 3600, trustProxy: env.TRUST_PROXY };
  const impersonation = createImpersonation(db, auth, env.IMPERSONATION_MINUTES);
  const passwords = createPasswords(db, auth, logger);
  const resetTries = createRateLimiter(db, {
    name: "password-reset",
    limit: RESET_TRIES_PER_IP,
    windowMs: RESET_TRIES_WINDOW_MS,
  });

  const meOf = async (actor: Actor | null): Promise<MeResponse> =>
    actor
      ? meBody(actor, await languageSettingsOf(db, actor.realUser.sourcedId))
      : { isAuthenticated: false, user: null };

  return new Hono<AppEnv>()
    .post("/login", async (c) => {
      const { email, password } = await readJsonBody(c, loginRequestSchema);
      const { token, session } = await auth.login({
        email,
        password,
        ip: clientIp(c, env.TRUST_PROXY),
        userAgent: c.req.header("user-agent") ?? null,
      });
      // A previous session in this browser ends when another one begins.
      const previous = c.get("actor");
      if (previous) await auth.endSession(previous.session.tokenHash);
      setSessionCookie(c, token, cookieOptions);
      return c.json(await meOf(actorOf(session, getCookie(c, ROLE_COOKIE))));
    })
    .post("/logout", async (c) => {
      const actor = c.get("actor");
      if (actor) await auth.endSession(actor.session.tokenHash);
      clearSessionCookie(c);
      return c.json({ ok: true });
    })
    .post("/password", async (c) => {
      const actor = currentActor(c);
      const input = await readJsonBody(c, changePasswordSchema);
      const result = await passwords.changeOwnPassword(actor, input, clientIp(c, env.TRUST_PROXY));
      return c.json({ ok: true, ...result });
    })
    .post("/password-reset", async (c) => {
      const verdict = await resetTries.hit(clientIp(c, env.TRUST_PROXY), auth.now());
      if (!verdict.allowed) {
        throw new AppError(
          "too_many_requests",
          message("auth:password.tooManyResetTries", { minutes: minutesToWait(verdict.retryAfterSeconds) }),
          { retryAfterSeconds: verdict.retryAfterSeconds },
        );
      }
      await passwords.resetWithLink(await readJsonBody(c, passwordResetSchema));
      return c.json({ ok: true });
    })
    .get("/me", async (c) => {
      c.header("Cache-Control", "no-store");
      return c.json(await meOf(c.get("actor")));
    })
    .get("/session", async (c) => {
      c.header("Cache-Control", "no-store");
      return c.json(await sessionExpiryOf(db, currentActor(c), { idleMinutes: env.SESSION_IDLE_MINUTES }));
    })
    .put("/me/language", async (c) => {
      const actor = currentActor(c);
      const { language } = await readJsonBody(c, setLanguageSchema);
      await setPreferredLanguage(db, actor.realUser.sourcedId, language);
      return c.json({ language: await languageSettingsOf(db, actor.realUser.sourcedId) });
    })
    .get("/demo-accounts", async (c) => {
      const language = requestLanguage(c);
      const accounts = (await findListedDemoAccounts(db, env)).map(({ email, name }) => ({
        email,
        name,
        description: translate(DEMO_DESCRIPTIONS[email], language),
      }));
      return c.json({ accounts, password: accounts.length ? DEMO_PASSWORD : null });
    })
    .post("/impersonation", async (c) => {
      const actor = currentActor(c);
      const input = await readJsonBody(c, startImpersonationSchema);
      const session = await impersonation.start(actor, { ...input, ipAddress: clientIp(c, env.TRUST_PROXY) });
      return c.json(await meOf(actorOf(session, getCookie(c, ROLE_COOKIE))));
    })
    .delete("/impersonation", async (c) => {
      const session = await impersonation.stop(currentActor(c), clientIp(c, env.TRUST_PROXY));
      return c.json(await meOf(actorOf(session, getCookie(c, ROLE_COOKIE))));
    })
    .get("/impersonation/audit", async (c) => {
      requireActiveRole(c, ["administrator"], message("auth:actions.readImpersonationAudit"));
      const page = readQuery(c, auditQuerySchema);
      return c.json({ success: true, ...(await impersonation.listAudit(page)) });
    });
}

const userIdParamSchema = z.object({ userId: z.string().trim().min(1).max(255) });

/** `/api/admin/users/:userId/password-reset`: administrators issue one-time links to choose a password. */
export function passwordAdminRoutes({ db, auth, logger }: AppDeps) {
  const passwords = createPasswords(db, auth, logger);
  return new Hono<AppEnv>().post("/users/:userId/password-reset", async (c) => {
    const actor = requireActiveRole(c, ["administrator"], message("auth:actions.issueResetLinks"));
    const { userId } = readParams(c, userIdParamSchema);
    return c.json(await passwords.issueResetLink(actor, userId), 201);
  });
}
