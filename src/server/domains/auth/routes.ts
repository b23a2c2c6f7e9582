import { inArray, sql } from "drizzle-orm";
import { Hono } from "hono";
import { loginRequestSchema, type MeResponse } from "../../../shared/contracts/auth";
import { getMeta } from "../../db/meta";
import { clearSessionCookie, clientIp, setSessionCookie } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { readJsonBody } from "../../lib/validation";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "../../seed/demo-accounts";
import { users } from "../rostering/schema";

export function authRoutes({ db, env, auth }: AppDeps) {
  const cookieOptions = { maxAgeSeconds: env.SESSION_MAX_HOURS * 3600, trustProxy: env.TRUST_PROXY };

  return new Hono<AppEnv>()
    .post("/login", async (c) => {
      const { email, password } = await readJsonBody(c, loginRequestSchema);
      const { token, user } = await auth.login({
        email,
        password,
        ip: clientIp(c, env.TRUST_PROXY),
        userAgent: c.req.header("user-agent") ?? null,
      });
      // A previous session in this browser ends when another one begins.
      const previous = c.get("session");
      if (previous) await auth.endSession(previous.tokenHash);
      setSessionCookie(c, token, cookieOptions);
      return c.json({ isAuthenticated: true, user } satisfies MeResponse);
    })
    .post("/logout", async (c) => {
      const session = c.get("session");
      if (session) await auth.endSession(session.tokenHash);
      clearSessionCookie(c);
      return c.json({ ok: true });
    })
    .get("/me", (c) => {
      const session = c.get("session");
      const body: MeResponse = session
        ? { isAuthenticated: true, user: session.user }
        : { isAuthenticated: false, user: null };
      c.header("Cache-Control", "no-store");
      return c.json(body);
    })
    .get("/demo-accounts", async (c) => {
      // Listed only while the demo school is there: a real school's sign-in page shows none.
      if (!(await getMeta(db, "demo_seeded_at"))) return c.json({ accounts: [], password: null });
      const present = await db
        .select({ email: users.email })
        .from(users)
        .where(
          inArray(
            sql`lower(${users.email})`,
            DEMO_ACCOUNTS.map((account) => account.email),
          ),
        );
      const emails = new Set(present.map((row) => row.email?.toLowerCase()));
      const accounts = DEMO_ACCOUNTS.filter((account) => emails.has(account.email));
      return c.json({ accounts, password: accounts.length ? DEMO_PASSWORD : null });
    });
}
