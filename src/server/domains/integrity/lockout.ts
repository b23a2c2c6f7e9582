import { randomInt } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import type { LockoutStatus, StudentIntegrity } from "../../../shared/contracts/integrity";
import { type Database, isoInstant, queryRows } from "../../db/client";
import type { Actor, AppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { emitWebhookEvent } from "../webhooks/emit";
import { readableStudentIds, unlockableStudentIds } from "./access";
import { activeStrikesOf, isOpen } from "./records";
import { integritySettingsOf, lockoutEnabledFor } from "./settings";

/** A six-digit code the student reads out to a Guide, who unlocks with it. */
function newLockoutCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

/**
 * Locks a student's dashboard when their active strikes reached the threshold and lockout is on at
 * their school, inside the transaction that confirmed a strike (which holds the student's lock).
 * Answers the new lockout's id, or null when none was needed or one is open already.
 */
export async function lockIfDue(
  tx: Database,
  studentId: string,
  incidentId: string,
  activeStrikes: number,
  threshold: number,
  now: Date,
): Promise<string | null> {
  if (activeStrikes < threshold) return null;
  const [lockout] = await queryRows<{ id: string }>(
    tx,
    sql`insert into integrity_lockouts (student_sourced_id, code, locked_at, incident_id)
      select ${studentId}, ${newLockoutCode()}, ${now}, ${incidentId}::uuid
      where ${lockoutEnabledFor(sql`${studentId}::text`)}
        and not exists (select 1 from integrity_lockouts o where o.student_sourced_id = ${studentId} and o.unlocked_at is null)
      returning id`,
  );
  if (lockout)
    await emitWebhookEvent(
      tx,
      "lockout.changed",
      { studentId, locked: true, lockoutId: lockout.id, incidentId },
      { at: now, key: `${lockout.id}:locked` },
    );
  return lockout?.id ?? null;
}

interface Unlocking {
  actorId: string;
  note: string;
  reason: "staff" | "appeal";
  withCode: boolean;
}

/** Closes a student's open lockout; answers whether there was one. */
export async function closeLockout(tx: Database, studentId: string, unlocking: Unlocking, now: Date) {
  const closed = await queryRows<{ id: string }>(
    tx,
    sql`update integrity_lockouts set unlocked_at = ${now}, unlocked_by_sourced_id = ${unlocking.actorId},
        unlock_note = ${unlocking.note}, unlock_reason = ${unlocking.reason}, unlocked_with_code = ${unlocking.withCode}
      where student_sourced_id = ${studentId} and unlocked_at is null returning id`,
  );
  for (const { id } of closed)
    await emitWebhookEvent(
      tx,
      "lockout.changed",
      { studentId, locked: false, lockoutId: id, reason: unlocking.reason },
      { at: now, key: `${id}:unlocked` },
    );
  return closed.length > 0;
}

/**
 * A Guide or an administrator unlocks a student's dashboard, with the code the student read out or
 * directly, and a note: the lockout keeps who, when, how and why.
 */
export async function unlockStudent(
  db: Database,
  actor: Actor,
  studentId: string,
  request: { note: string; code?: string },
  now: Date,
): Promise<void> {
  const unlockable = unlockableStudentIds(actor);
  if (!unlockable) throw new AppError("forbidden", message("integrity:unlockForbidden"));
  await db.transaction(async (tx) => {
    const [open] = await queryRows<{ code: string; inReach: boolean }>(
      tx as unknown as Database,
      sql`select l.code, ${studentId} in (${unlockable}) as "inReach" from integrity_lockouts l
        where l.student_sourced_id = ${studentId} and l.unlocked_at is null for update`,
    );
    if (open && !open.inReach) throw new AppError("not_found", message("integrity:studentNotFound"));
    if (!open) {
      const [visible] = await queryRows<{ yes: boolean }>(
        tx as unknown as Database,
        sql`select ${studentId} in (${unlockable}) as yes`,
      );
      throw visible?.yes
        ? new AppError("conflict", message("integrity:notLocked"))
        : new AppError("not_found", message("integrity:studentNotFound"));
    }
    if (request.code !== undefined && request.code !== open.code)
      throw new AppError("bad_request", message("integrity:wrongCode"));
    await closeLockout(
      tx as unknown as Database,
      studentId,
      {
        actorId: actor.realUser.sourcedId,
        note: request.note,
        reason: "staff",
        withCode: request.code !== undefined,
      },
      now,
    );
  });
}

interface StandingRow {
  name: string;
  activeStrikes: number;
  pending: number;
  lockoutEnabled: boolean;
  code: string | null;
  lockedAt: string | null;
  latestStrikeAt: string | null;
}

function standingOf(studentId: SQL, now: Date): SQL {
  return sql`select coalesce(u.preferred_first_name, u.given_name) || ' ' || u.family_name as name,
      ${activeStrikesOf(studentId, now)} as "activeStrikes",
      (select count(*)::int from integrity_incidents p where p.student_sourced_id = ${studentId}
        and ${isOpen(sql`p`)}) as pending,
      ${lockoutEnabledFor(studentId)} as "lockoutEnabled",
      l.code, ${isoInstant(sql`l.locked_at`)} as "lockedAt",
      (select ${isoInstant(sql`max(s.struck_at)`)} from integrity_incidents s
        where s.student_sourced_id = ${studentId} and s.review_status in ('confirmed', 'appealed')) as "latestStrikeAt"
    from users u left join integrity_lockouts l on l.student_sourced_id = u.sourced_id and l.unlocked_at is null
    where u.sourced_id = ${studentId}`;
}

/** A student's strikes and lockout, for the student, their family, their reviewers and administrators. */
export async function studentIntegrity(
  db: Database,
  actor: Actor,
  studentId: string,
  now: Date,
): Promise<StudentIntegrity> {
  const readable = readableStudentIds(actor);
  const unlockable = unlockableStudentIds(actor);
  const [[row], settings] = await Promise.all([
    readable
      ? queryRows<StandingRow & { mayUnlock: boolean }>(
          db,
          sql`select s.*, ${unlockable ? sql`${studentId} in (${unlockable})` : sql`false`} as "mayUnlock"
            from (${standingOf(sql`${studentId}::text`, now)}) s where ${studentId} in (${readable})`,
        )
      : Promise.resolve([]),
    integritySettingsOf(db),
  ]);
  if (!row) throw new AppError("not_found", message("integrity:studentNotFound"));
  const seesCode =
    actor.activeRole === "student" ||
    actor.activeRole === "teacher" ||
    actor.activeRole === "administrator" ||
    actor.activeRole === "proctor";
  return {
    studentId,
    name: row.name,
    activeStrikes: row.activeStrikes,
    threshold: settings.strikeThreshold,
    pending: row.pending,
    lockoutEnabled: row.lockoutEnabled,
    isLocked: row.code !== null,
    lockoutCode: seesCode ? row.code : null,
    lockedAt: row.lockedAt,
    latestStrikeAt: row.latestStrikeAt,
    mayUnlock: row.mayUnlock && row.code !== null,
  };
}

/** The spec's dashboard lockout check, for the student signed in (or viewed as). */
export async function lockoutStatus(db: Database, actor: Actor, now: Date): Promise<LockoutStatus> {
  if (actor.activeRole !== "student")
    return { success: true, isLocked: false, lockoutEnabled: false, lockout: null };
  const [[row], settings] = await Promise.all([
    queryRows<StandingRow>(db, standingOf(sql`${actor.user.sourcedId}::text`, now)),
    integritySettingsOf(db),
  ]);
  const isLocked = Boolean(row?.code);
  return {
    success: true,
    isLocked,
    lockoutEnabled: row?.lockoutEnabled ?? false,
    lockout:
      row?.code && row.lockedAt
        ? {
            code: row.code,
            lockedAt: row.lockedAt,
            activeStrikes: row.activeStrikes,
            threshold: settings.strikeThreshold,
          }
        : null,
  };
}

/**
 * The paths a student whose dashboard is locked may still call: the lockout check, their own
 * strikes and the appeal (sign-out is under /api/auth, before the gate).
 */
function isOpenToLockedStudents(method: string, path: string): boolean {
  if (path === "/api/integrity/lockout") return true;
  if (method === "GET" && (path === "/api/integrity/incidents" || path === "/api/live")) return true;
  return method === "POST" && /^\/api\/integrity\/incidents\/[^/]+\/appeal$/.test(path);
}

/**
 * Refuses every other call of a student whose dashboard is locked with 403 `dashboard_locked`. The
 * session carries the lock (read with it, dropped from every process's cache when it changes), so
 * the gate costs no query. Staff viewing Dash as the student are not refused: they are staff.
 */
export const refuseLockedStudents: MiddlewareHandler<AppEnv> = async (c, next) => {
  const actor = c.get("actor");
  if (
    actor?.session.isDashboardLocked &&
    actor.activeRole === "student" &&
    !actor.session.impersonation &&
    !isOpenToLockedStudents(c.req.method, c.req.path)
  )
    throw new AppError("dashboard_locked", message("integrity:dashboardLocked"));
  await next();
};
