import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNotNull, lt, sql } from "drizzle-orm";
import type { AuthUser, ImpersonationViewerRole } from "../../../shared/contracts/auth";
import { type Database, queryRows } from "../../db/client";
import type { Env } from "../../env";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { createWorkQueue } from "../../lib/work-queue";
import type { BusPayload, EventBus } from "../../platform/events/bus";
import {
  findUserProfile,
  isActiveUser,
  toAuthUser,
  type UserProfileRow,
  userProfileColumns,
} from "../rostering/queries";
import { mayViewAs } from "../rostering/scope";
import { createFailureThrottle, minutesToWait } from "./failure-throttle";
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
  viewerRole: ImpersonationViewerRole;
  reason: string;
  startedAt: Date;
  expiresAt: Date;
}

export interface SignedInSession {
  tokenHash: string;
  user: AuthUser;
  impersonation: Impersonation | null;
  /** The signed-in person's dashboard is locked (integrity): as a student they may call almost nothing. */
  isDashboardLocked: boolean;
}

/**
 * Read with the session, so the locked-dashboard gate costs no query of its own; a lock or an
 * unlock drops the student's cached sessions (forgetUser).
 */
const isDashboardLocked = sql`exists (select 1 from integrity_lockouts l
  where l.student_sourced_id = u.sourced_id and l.unlocked_at is null) as "isDashboardLocked"`;

interface SessionRow extends UserProfileRow {
  isDashboardLocked: boolean;
  expiresAt: Date | string;
  lastSeenAt: Date | string;
  impersonatedUserSourcedId: string | null;
  impersonationReason: string | null;
  impersonationStartedAt: Date | string | null;
  impersonationExpiresAt: Date | string | null;
  impersonationViewerRole: ImpersonationViewerRole | null;
}

const MINUTE = 60_000;
// How long a resolved session is reused without asking the database again. Sign-out, role
// changes and the like drop it at once in every process (SESSION_CHANGES_CHANNEL); this bounds
// how long a change that was missed (the bus's connection was down) can go unnoticed.
const SESSION_CACHE_MS = 10_000;
const SESSION_CACHE_MAX_ENTRIES = 50_000;
// last_seen_at is written at most this often per session, to keep reads cheap.
const TOUCH_INTERVAL_MS = MINUTE;

// A password check (scrypt) takes a core for tens of milliseconds: a few at once keep the server
// answering everyone else, and a short line keeps a flood of sign-ins from queueing for minutes.
const CONCURRENT_PASSWORD_CHECKS = 2;
const WAITING_PASSWORD_CHECKS = 32;

/** The bus channel on which every process hears which signed-in sessions changed. */
export const SESSION_CHANGES_CHANNEL = "auth.sessions";
/** One session (by its token's hash), every session of one user (or viewing them), or all. */
export type SessionChange = { tokenHash: string } | { userId: string } | { everyone: true };

export function readSessionChange(payload: BusPayload): SessionChange | null {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return null;
  if (typeof payload.tokenHash === "string") return { tokenHash: payload.tokenHash };
  if (typeof payload.userId === "string") return { userId: payload.userId };
  if (payload.everyone === true) return { everyone: true };
  return null;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

export function createAuthService(
  db: Database,
  settings: AuthSettings,
  bus: EventBus,
  now: () => Date = () => new Date(),
) {
  const cache = new Map<string, { session: SignedInSession; cachedUntil: number }>();
  const inFlight = new Map<string, Promise<SignedInSession | null>>();
  // Bumped by every change heard: a lookup that began before a change must not cache what it read.
  let changesHeard = 0;
  bus.subscribe(SESSION_CHANGES_CHANNEL, (payload) => {
    const change = readSessionChange(payload);
    if (change) dropCached(change);
  });
  bus.onMissedMessages(() => dropCached({ everyone: true }));
  const windowMs = settings.throttleMinutes * MINUTE;
  const throttle = createFailureThrottle(db, { windowMs, now });
  const hashing = createWorkQueue({
    concurrency: CONCURRENT_PASSWORD_CHECKS,
    maxWaiting: WAITING_PASSWORD_CHECKS,
    busyMessage: message("auth:signIn.busy"),
  });

  /** Counts an attempt for an account and an address before its password is checked; 429 while paused. */
  async function reserveAttempt(accountName: string, ip: string): Promise<[string, string]> {
    const reservation = await throttle.reserve([
      { key: `account:${accountName}`, limit: settings.maxFailuresPerAccount },
      { key: `ip:${ip}`, limit: settings.maxFailuresPerIp },
    ]);
    if (!reservation.allowed) {
      throw new AppError(
        "too_many_requests",
        message("auth:signIn.tooManyFailures", { minutes: minutesToWait(reservation.retryAfterSeconds) }),
        { retryAfterSeconds: reservation.retryAfterSeconds },
      );
    }
    return reservation.keys as [string, string];
  }

  /**
   * Checks a password for an account from an address: false when it is wrong. The attempt is
   * counted (reserved) only once it holds one of the few password-check slots, so the attempts in
   * flight from one address are never more than the slots: a whole school signing in at 8:00
   * through one address never looks like a flood of failures, and attempts sent at once still
   * never check more wrong passwords than the limits allow. A wrong password keeps its count; a
   * right one clears the account's and gives the address's back; a check that could not run (the
   * database failed) was no failure. A stored hash that is missing is checked against a decoy, so
   * unknown accounts take as long.
   */
  async function checkPassword(
    accountName: string,
    ip: string,
    password: string,
    loadStoredHash: () => Promise<string | null | undefined>,
  ): Promise<boolean> {
    return hashing.run(async () => {
      const [accountKey, ipKey] = await reserveAttempt(accountName, ip);
      let matches: boolean;
      try {
        const storedHash = await loadStoredHash();
        matches = await verifyPassword(password, storedHash ?? (await decoyPasswordHash()));
        if (!storedHash) matches = false;
      } catch (error) {
        await throttle.giveBack([accountKey, ipKey]);
        throw error;
      }
      if (matches) {
        await throttle.clear([accountKey]);
        await throttle.giveBack([ipKey]);
      }
      return matches;
    });
  }

  /** Signs in by email, or by username for accounts without an email (young students). */
  async function login(input: { email: string; password: string; ip: string; userAgent: string | null }) {
    const email = input.email.trim().toLowerCase();
    type Account = UserProfileRow & { passwordHash: string; isDashboardLocked: boolean };
    let account: Account | undefined;
    const isValid = await checkPassword(email, input.ip, input.password, async () => {
      const accounts = await queryRows<Account>(
        db,
        sql`
        select ${userProfileColumns}, c.password_hash as "passwordHash", ${isDashboardLocked}
        from users u join user_credentials c on c.user_sourced_id = u.sourced_id
        where ${email.includes("@") ? sql`lower(u.email) = ${email}` : sql`lower(u.username) = ${email}`} and ${isActiveUser}
        limit 2`,
      );
      // A username two sign-in accounts share signs in neither: it cannot tell them apart.
      account = accounts.length === 1 ? accounts[0] : undefined;
      return account?.passwordHash;
    });
    if (!isValid || !account)
      throw new AppError("invalid_credentials", message("auth:signIn.invalidCredentials"));

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
    const session: SignedInSession = {
      tokenHash,
      user: toAuthUser(account),
      impersonation: null,
      isDashboardLocked: account.isDashboardLocked,
    };
    return { token, session };
  }

  /**
   * Checks a signed-in person's current password before they change it. Failures count against
   * the same per-account and per-address limits as sign-in, so a session left open cannot be used
   * to guess the password.
   */
  async function verifyCurrentPassword(input: { userSourcedId: string; password: string; ip: string }) {
    const [account] = await queryRows<{ signInName: string | null; passwordHash: string | null }>(
      db,
      sql`
      select lower(coalesce(u.email, u.username)) as "signInName", c.password_hash as "passwordHash"
      from users u left join user_credentials c on c.user_sourced_id = u.sourced_id
      where u.sourced_id = ${input.userSourcedId}`,
    );
    return checkPassword(
      account?.signInName ?? input.userSourcedId,
      input.ip,
      input.password,
      async () => account?.passwordHash,
    );
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
    const changesHeardBefore = changesHeard;

    // The session is read and, when it is due, touched in one statement: the touch sees the row
    // as the read does, and applies only to a session the read finds current.
    const [row] = await queryRows<SessionRow>(
      db,
      sql`
      with touched as (
        update sessions set last_seen_at = ${at}::timestamptz
        where token_hash = ${tokenHash} and expires_at > ${at}::timestamptz
          and last_seen_at > ${new Date(at.getTime() - settings.sessionIdleMinutes * MINUTE)}::timestamptz
          and last_seen_at <= ${new Date(at.getTime() - TOUCH_INTERVAL_MS)}::timestamptz
          and exists (select 1 from users u where u.sourced_id = sessions.user_sourced_id and ${isActiveUser})
        returning token_hash
      )
      select ${userProfileColumns}, s.expires_at as "expiresAt", s.last_seen_at as "lastSeenAt",
        s.impersonated_user_sourced_id as "impersonatedUserSourcedId", s.impersonation_reason as "impersonationReason",
        s.impersonation_started_at as "impersonationStartedAt", s.impersonation_expires_at as "impersonationExpiresAt",
        s.impersonation_viewer_role as "impersonationViewerRole", ${isDashboardLocked}
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
      await endSession(tokenHash, { action: "expire", ipAddress: null });
      return null;
    }
    const session: SignedInSession = {
      tokenHash,
      user: toAuthUser(row),
      impersonation: await loadImpersonation(tokenHash, row, at),
      isDashboardLocked: row.isDashboardLocked,
    };
    if (cache.size >= SESSION_CACHE_MAX_ENTRIES) cache.clear();
    // An impersonation that ends before the cache entry would must be noticed on time.
    const cachedUntil = Math.min(
      at.getTime() + SESSION_CACHE_MS,
      session.impersonation?.expiresAt.getTime() ?? Infinity,
    );
    if (changesHeard === changesHeardBefore) cache.set(tokenHash, { session, cachedUntil });
    return session;
  }

  /**
   * The impersonation of a session, ending it (with an audit row) when its time is up or when the
   * viewer no longer may view as that person (an ended enrollment, a removed role or link).
   */
  async function loadImpersonation(
    tokenHash: string,
    row: SessionRow,
    at: Date,
  ): Promise<Impersonation | null> {
    if (!row.impersonatedUserSourcedId || !row.impersonationExpiresAt || !row.impersonationStartedAt)
      return null;
    const expiresAt = new Date(row.impersonationExpiresAt);
    // Sessions from before the viewer's role was recorded are bounded as a Guide's: the narrower reach.
    const viewerRole = row.impersonationViewerRole ?? "teacher";
    const end = (action: "expire" | "revoke") =>
      recordImpersonationEnd(tokenHash, {
        actorSourcedId: row.sourcedId,
        targetSourcedId: row.impersonatedUserSourcedId as string,
        action,
        ipAddress: null,
      }).then(() => null);
    if (expiresAt.getTime() <= at.getTime()) return end("expire");
    const target = await findUserProfile(
      db,
      sql`u.sourced_id = ${row.impersonatedUserSourcedId} and ${isActiveUser}
        and ${mayViewAs(row.sourcedId, viewerRole)}`,
    );
    if (!target) return end("revoke");
    return {
      user: toAuthUser(target),
      viewerRole,
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
      action: "stop" | "expire" | "revoke";
      ipAddress: string | null;
    },
  ): Promise<void> {
    await db.transaction(async (tx) => {
      const cleared = await tx
        .update(sessions)
        .set({
          impersonatedUserSourcedId: null,
          impersonationReason: null,
          impersonationStartedAt: null,
          impersonationExpiresAt: null,
          impersonationViewerRole: null,
        })
        .where(and(eq(sessions.tokenHash, tokenHash), isNotNull(sessions.impersonatedUserSourcedId)))
        .returning({ tokenHash: sessions.tokenHash });
      // Two requests may notice the end at once: only the one that cleared it writes the row.
      if (cleared.length) await tx.insert(impersonationAudit).values({ ...entry, createdAt: now() });
    });
    await forgetSession(tokenHash);
  }

  function dropCached(change: SessionChange): void {
    changesHeard++;
    if ("tokenHash" in change) cache.delete(change.tokenHash);
    else if ("userId" in change) {
      for (const [tokenHash, entry] of cache) {
        const { user, impersonation } = entry.session;
        if (user.sourcedId === change.userId || impersonation?.user.sourcedId === change.userId)
          cache.delete(tokenHash);
      }
    } else cache.clear();
  }

  /** Tells every process that a session changed or ended: call after the change has committed. */
  function forgetSession(tokenHash: string): Promise<void> {
    return bus.publish(SESSION_CHANGES_CHANNEL, { tokenHash });
  }

  /**
   * The sessions of a user (signed in as themself or viewed as by someone) changed, so a change
   * to their roles applies at their next request, in every process.
   */
  function forgetUser(userSourcedId: string): Promise<void> {
    return bus.publish(SESSION_CHANGES_CHANNEL, { userId: userSourcedId });
  }

  /** Every session changed: after a change that shows in everyone's profile (an org's name). */
  function forgetEveryone(): Promise<void> {
    return bus.publish(SESSION_CHANGES_CHANNEL, { everyone: true });
  }

  /**
   * Ends a session. One that was viewing Dash as someone leaves the end of that in the audit: a
   * `stop` at sign-out, an `expire` when the session ran out.
   */
  async function endSession(
    tokenHash: string,
    ending: { action: "stop" | "expire"; ipAddress: string | null } = { action: "stop", ipAddress: null },
  ): Promise<void> {
    cache.delete(tokenHash);
    await db.execute(sql`with ended as (delete from sessions where token_hash = ${tokenHash}
        returning user_sourced_id, impersonated_user_sourced_id)
      insert into impersonation_audit (actor_sourced_id, target_sourced_id, action, ip_address, created_at)
      select user_sourced_id, impersonated_user_sourced_id, ${ending.action}, ${ending.ipAddress}, ${now()}
      from ended where impersonated_user_sourced_id is not null`);
    await forgetSession(tokenHash);
  }

  /** Removes expired sessions and stale throttle windows; run now and then. */
  async function sweepExpired(): Promise<void> {
    const at = now();
    const idleCutoff = new Date(at.getTime() - settings.sessionIdleMinutes * MINUTE);
    await db.execute(sql`with ended as (delete from sessions
        where expires_at < ${at} or last_seen_at < ${idleCutoff}
        returning user_sourced_id, impersonated_user_sourced_id)
      insert into impersonation_audit (actor_sourced_id, target_sourced_id, action, created_at)
      select user_sourced_id, impersonated_user_sourced_id, 'expire', ${at}
      from ended where impersonated_user_sourced_id is not null`);
    await db
      .delete(loginFailures)
      .where(lt(loginFailures.windowStartedAt, new Date(at.getTime() - windowMs)));
  }

  return {
    login,
    verifyCurrentPassword,
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
