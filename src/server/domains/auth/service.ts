import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNotNull, lt, or, sql } from "drizzle-orm";
import type { AuthUser } from "../../../shared/contracts/auth";
import { type Database, queryRows } from "../../db/client";
import type { Env } from "../../env";
import { AppError } from "../../lib/errors";
import { createWorkQueue } from "../../lib/work-queue";
import {
  findUserProfile,
  isActiveUser,
  toAuthUser,
  type UserProfileRow,
  userProfileColumns,
} from "../rostering/queries";
import { createFailureThrottle, retryAfterText } from "./failure-throttle";
import { decoyPasswordHash, verifyPassword } from "./password";
import { impersonationAudit, loginFailures, sessions } from "./schema";

export interface AuthSettings {
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  maxFailuresPerAccount: number;
  maxFailuresPerIp: number;
  throttleMinutes: number;
}

export function authSettingsFromEnv(env: Env): AuthSettings {
  return {
    sessionIdleMinutes: env.SESSION_IDLE_MINUTES,
    sessionMaxHours: env.SESSION_MAX_HOURS,
    maxFailuresPerAccount: env.LOGIN_MAX_FAILURES_PER_ACCOUNT,
    maxFailuresPerIp: env.LOGIN_MAX_FAILURES_PER_IP,
    throttleMinutes: env.LOGIN_THROTTLE_MINUTES,
  };
}

export interface Impersonation {
  user: AuthUser;
  reason: string;
  startedAt: Date;
  expiresAt: Date;
}

export interface SignedInSession {
  tokenHash: string;
  user: AuthUser;
  impersonation: Impersonation | null;
}

interface SessionRow extends UserProfileRow {
  expiresAt: Date | string;
  lastSeenAt: Date | string;
  impersonatedUserSourcedId: string | null;
  impersonationReason: string | null;
  impersonationStartedAt: Date | string | null;
  impersonationExpiresAt: Date | string | null;
}

const MINUTE = 60_000;
// How long a resolved session is reused without asking the database again. Sign-out in this
// process drops it at once; other processes notice within this time.
const SESSION_CACHE_MS = 10_000;
const SESSION_CACHE_MAX_ENTRIES = 50_000;
// last_seen_at is written at most this often per session, to keep reads cheap.
const TOUCH_INTERVAL_MS = MINUTE;

// A password check (scrypt) takes a core for tens of milliseconds: a few at once keep the server
// answering everyone else, and a short line keeps a flood of sign-ins from queueing for minutes.
const CONCURRENT_PASSWORD_CHECKS = 2;
const WAITING_PASSWORD_CHECKS = 32;

export const INVALID_CREDENTIALS = "Invalid email or password";

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

export function createAuthService(db: Database, settings: AuthSettings, now: () => Date = () => new Date()) {
  const cache = new Map<string, { session: SignedInSession; cachedUntil: number }>();
  const inFlight = new Map<string, Promise<SignedInSession | null>>();
  const windowMs = settings.throttleMinutes * MINUTE;
  const throttle = createFailureThrottle(db, { windowMs, now });
  const hashing = createWorkQueue({
    concurrency: CONCURRENT_PASSWORD_CHECKS,
    maxWaiting: WAITING_PASSWORD_CHECKS,
    busyMessage: "Dash is busy signing people in. Try again in a moment.",
  });

  /** Signs in by email, or by username for accounts without an email (young students). */
  async function login(input: { email: string; password: string; ip: string; userAgent: string | null }) {
    const email = input.email.trim().toLowerCase();
    const reservation = await throttle.reserve([
      { key: `account:${email}`, limit: settings.maxFailuresPerAccount },
      { key: `ip:${input.ip}`, limit: settings.maxFailuresPerIp },
    ]);
    if (!reservation.allowed) {
      throw new AppError(
        "too_many_requests",
        `Too many failed sign-in attempts. ${retryAfterText(reservation.retryAfterSeconds)}`,
        { retryAfterSeconds: reservation.retryAfterSeconds },
      );
    }
    const [accountKey, ipKey] = reservation.keys as [string, string];

    let account: (UserProfileRow & { passwordHash: string }) | undefined;
    let isValid = false;
    try {
      const accounts = await queryRows<UserProfileRow & { passwordHash: string }>(
        db,
        sql`
        select ${userProfileColumns}, c.password_hash as "passwordHash"
        from users u join user_credentials c on c.user_sourced_id = u.sourced_id
        where ${email.includes("@") ? sql`lower(u.email) = ${email}` : sql`lower(u.username) = ${email}`} and ${isActiveUser}
        limit 2`,
      );
      // A username two sign-in accounts share signs in neither: it cannot tell them apart.
      account = accounts.length === 1 ? accounts[0] : undefined;
      const storedHash = account?.passwordHash ?? (await decoyPasswordHash());
      isValid = await hashing.run(() => verifyPassword(input.password, storedHash));
    } catch (error) {
      // Not checked (the server was busy, or the database failed): the attempt was no failure.
      await throttle.giveBack(reservation.keys);
      throw error;
    }
    // A wrong password keeps its count; a right one clears the account's and gives the address's back.
    if (!account || !isValid) throw new AppError("invalid_credentials", INVALID_CREDENTIALS);
    await throttle.clear([accountKey]);
    await throttle.giveBack([ipKey]);

    const token = randomBytes(32).toString("base64url");
    const tokenHash = hashToken(token);
    const createdAt = now();
    await db.insert(sessions).values({
      tokenHash,
      userSourcedId: account.sourcedId,
      createdAt,
      lastSeenAt: createdAt,
      expiresAt: new Date(createdAt.getTime() + settings.sessionMaxHours * 60 * MINUTE),
      ipAddress: input.ip,
      userAgent: input.userAgent?.slice(0, 500) ?? null,
    });
    const session: SignedInSession = { tokenHash, user: toAuthUser(account), impersonation: null };
    return { token, session };
  }

  /**
   * The session behind a cookie token, or null when it is unknown, expired or its user may no
   * longer sign in. Concurrent requests of one session share a single database lookup.
   */
  function resolveSession(token: string): Promise<SignedInSession | null> {
    const tokenHash = hashToken(token);
    const cached = cache.get(tokenHash);
    if (cached && cached.cachedUntil > now().getTime()) return Promise.resolve(cached.session);
    let lookup = inFlight.get(tokenHash);
    if (!lookup) {
      lookup = lookUpSession(tokenHash).finally(() => inFlight.delete(tokenHash));
      inFlight.set(tokenHash, lookup);
    }
    return lookup;
  }

  async function lookUpSession(tokenHash: string): Promise<SignedInSession | null> {
    const at = now();

    const [row] = await queryRows<SessionRow>(
      db,
      sql`
      select ${userProfileColumns}, s.expires_at as "expiresAt", s.last_seen_at as "lastSeenAt",
        s.impersonated_user_sourced_id as "impersonatedUserSourcedId", s.impersonation_reason as "impersonationReason",
        s.impersonation_started_at as "impersonationStartedAt", s.impersonation_expires_at as "impersonationExpiresAt"
      from sessions s join users u on u.sourced_id = s.user_sourced_id
      where s.token_hash = ${tokenHash} and ${isActiveUser}`,
    );
    if (!row) {
      cache.delete(tokenHash);
      return null;
    }
    const lastSeenAt = new Date(row.lastSeenAt).getTime();
    const isExpired =
      new Date(row.expiresAt).getTime() <= at.getTime() ||
      lastSeenAt + settings.sessionIdleMinutes * MINUTE <= at.getTime();
    if (isExpired) {
      await endSession(tokenHash);
      return null;
    }
    if (at.getTime() - lastSeenAt >= TOUCH_INTERVAL_MS) {
      await db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.tokenHash, tokenHash));
    }
    const session: SignedInSession = {
      tokenHash,
      user: toAuthUser(row),
      impersonation: await loadImpersonation(tokenHash, row, at),
    };
    if (cache.size >= SESSION_CACHE_MAX_ENTRIES) cache.clear();
    // An impersonation that ends before the cache entry would must be noticed on time.
    const cachedUntil = Math.min(
      at.getTime() + SESSION_CACHE_MS,
      session.impersonation?.expiresAt.getTime() ?? Infinity,
    );
    cache.set(tokenHash, { session, cachedUntil });
    return session;
  }

  /** The impersonation of a session, ending it (with an audit row) when its time is up. */
  async function loadImpersonation(
    tokenHash: string,
    row: SessionRow,
    at: Date,
  ): Promise<Impersonation | null> {
    if (!row.impersonatedUserSourcedId || !row.impersonationExpiresAt || !row.impersonationStartedAt)
      return null;
    const expiresAt = new Date(row.impersonationExpiresAt);
    const target = await findUserProfile(
      db,
      sql`u.sourced_id = ${row.impersonatedUserSourcedId} and ${isActiveUser}`,
    );
    if (expiresAt.getTime() <= at.getTime() || !target) {
      await recordImpersonationEnd(tokenHash, {
        actorSourcedId: row.sourcedId,
        targetSourcedId: row.impersonatedUserSourcedId,
        action: "expire",
        ipAddress: null,
      });
      return null;
    }
    return {
      user: toAuthUser(target),
      reason: row.impersonationReason ?? "",
      startedAt: new Date(row.impersonationStartedAt),
      expiresAt,
    };
  }

  /** Clears a session's impersonation and writes the audit row, in one transaction. */
  async function recordImpersonationEnd(
    tokenHash: string,
    entry: {
      actorSourcedId: string;
      targetSourcedId: string;
      action: "stop" | "expire";
      ipAddress: string | null;
    },
  ): Promise<void> {
    cache.delete(tokenHash);
    await db.transaction(async (tx) => {
      const cleared = await tx
        .update(sessions)
        .set({
          impersonatedUserSourcedId: null,
          impersonationReason: null,
          impersonationStartedAt: null,
          impersonationExpiresAt: null,
        })
        .where(and(eq(sessions.tokenHash, tokenHash), isNotNull(sessions.impersonatedUserSourcedId)))
        .returning({ tokenHash: sessions.tokenHash });
      // Two requests may notice the end at once: only the one that cleared it writes the row.
      if (cleared.length) await tx.insert(impersonationAudit).values({ ...entry, createdAt: now() });
    });
  }

  function forgetSession(tokenHash: string): void {
    cache.delete(tokenHash);
  }

  /**
   * Drops the cached sessions of a user (signed in as themself or viewed as by someone), so a
   * change to their roles applies at their next request in this process.
   */
  function forgetUser(userSourcedId: string): void {
    for (const [tokenHash, entry] of cache) {
      const { user, impersonation } = entry.session;
      if (user.sourcedId === userSourcedId || impersonation?.user.sourcedId === userSourcedId)
        cache.delete(tokenHash);
    }
  }

  /** Drops every cached session: after a change that shows in everyone's profile (an org's name). */
  function forgetEveryone(): void {
    cache.clear();
  }

  async function endSession(tokenHash: string): Promise<void> {
    cache.delete(tokenHash);
    await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
  }

  /** Removes expired sessions and stale throttle windows; run now and then. */
  async function sweepExpired(): Promise<void> {
    const at = now();
    const idleCutoff = new Date(at.getTime() - settings.sessionIdleMinutes * MINUTE);
    await db.delete(sessions).where(or(lt(sessions.expiresAt, at), lt(sessions.lastSeenAt, idleCutoff)));
    await db
      .delete(loginFailures)
      .where(lt(loginFailures.windowStartedAt, new Date(at.getTime() - windowMs)));
  }

  return {
    login,
    resolveSession,
    endSession,
    forgetSession,
    forgetUser,
    forgetEveryone,
    recordImpersonationEnd,
    sweepExpired,
    now,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
