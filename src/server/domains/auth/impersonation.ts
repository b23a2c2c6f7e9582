import { sql } from "drizzle-orm";
import type { ImpersonationAuditAction } from "../../../shared/contracts/auth";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { recordSensitiveAccess } from "../privacy/access-log";
import { findUserProfile, isActiveUser, toAuthUser } from "../rostering/queries";
import { mayViewAs } from "../rostering/scope";
import { impersonationAudit, sessions } from "./schema";
import type { AuthService, SignedInSession } from "./service";

/**
 * Viewing Dash as someone else. Administrators may view as anyone; Guides only as their own
 * students and those students' parents and guardians (see mayViewAs). Every start, end and refused
 * attempt is audited.
 */
export function createImpersonation(db: Database, auth: AuthService, durationMinutes: number) {
  async function start(
    actor: Actor,
    input: { userId: string; reason: string; ipAddress: string },
  ): Promise<SignedInSession> {
    const refuse = async (error: AppError): Promise<never> => {
      await db.insert(impersonationAudit).values({
        actorSourcedId: actor.realUser.sourcedId,
        targetSourcedId: input.userId,
        action: "refuse",
        reason: input.reason,
        // The audit keeps the refusal in English (the message's English), whoever reads it later.
        detail: error.message,
        ipAddress: input.ipAddress,
        createdAt: auth.now(),
      });
      throw error;
    };
    if (actor.session.impersonation) {
      return refuse(new AppError("conflict", message("auth:viewAs.alreadyViewing")));
    }
    const role = actor.activeRole;
    if (role !== "administrator" && role !== "teacher") {
      return refuse(new AppError("forbidden", message("auth:viewAs.notAllowed")));
    }
    if (input.userId === actor.realUser.sourcedId)
      return refuse(new AppError("bad_request", message("auth:viewAs.notYourself")));

    const target = await findUserProfile(
      db,
      sql`u.sourced_id = ${input.userId} and ${isActiveUser} and ${mayViewAs(actor.realUser.sourcedId, role)}`,
    );
    if (!target) {
      return refuse(
        role === "teacher"
          ? new AppError("forbidden", message("auth:viewAs.guideReach"))
          : new AppError("not_found", message("auth:people.noActiveUser")),
      );
    }

    const startedAt = auth.now();
    const expiresAt = new Date(startedAt.getTime() + durationMinutes * 60_000);
    await db.transaction(async (tx) => {
      await tx
        .update(sessions)
        .set({
          impersonatedUserSourcedId: target.sourcedId,
          impersonationReason: input.reason,
          impersonationStartedAt: startedAt,
          impersonationExpiresAt: expiresAt,
          impersonationViewerRole: role,
        })
        .where(sql`${sessions.tokenHash} = ${actor.session.tokenHash}`);
      await tx.insert(impersonationAudit).values({
        actorSourcedId: actor.realUser.sourcedId,
        targetSourcedId: target.sourcedId,
        action: "start",
        reason: input.reason,
        ipAddress: input.ipAddress,
        createdAt: startedAt,
      });
      await recordSensitiveAccess(tx, {
        actorId: actor.realUser.sourcedId,
        realActorId: actor.realUser.sourcedId,
        personId: target.sourcedId,
        kind: "impersonation",
        detail: `Viewed Dash as them for up to ${durationMinutes} minutes`,
        at: startedAt,
      });
    });
    await auth.forgetSession(actor.session.tokenHash);
    return {
      ...actor.session,
      impersonation: {
        user: toAuthUser(target),
        viewerRole: role,
        reason: input.reason,
        startedAt,
        expiresAt,
      },
    };
  }

  async function stop(actor: Actor, ipAddress: string): Promise<SignedInSession> {
    const current = actor.session.impersonation;
    if (current) {
      await auth.recordImpersonationEnd(actor.session.tokenHash, {
        actorSourcedId: actor.realUser.sourcedId,
        targetSourcedId: current.user.sourcedId,
        action: "stop",
        ipAddress,
      });
    }
    return { ...actor.session, impersonation: null };
  }

  async function listAudit(page: { limit: number; offset: number }) {
    const rows = await queryRows<{
      id: string;
      action: ImpersonationAuditAction;
      actorSourcedId: string;
      actorName: string | null;
      targetSourcedId: string;
      targetName: string | null;
      reason: string | null;
      detail: string | null;
      ipAddress: string | null;
      createdAt: Date | string;
      total: number | string;
    }>(
      db,
      sql`select a.id, a.action, a.actor_sourced_id as "actorSourcedId", a.target_sourced_id as "targetSourcedId",
            actor.given_name || ' ' || actor.family_name as "actorName",
            target.given_name || ' ' || target.family_name as "targetName",
            a.reason, a.detail, a.ip_address as "ipAddress", a.created_at as "createdAt", count(*) over () as total
          from impersonation_audit a
          left join users actor on actor.sourced_id = a.actor_sourced_id
          left join users target on target.sourced_id = a.target_sourced_id
          order by a.created_at desc, a.id
          limit ${page.limit} offset ${page.offset}`,
    );
    return {
      total: Number(rows[0]?.total ?? 0),
      data: rows.map((row) => ({
        id: row.id,
        action: row.action,
        actor: { sourcedId: row.actorSourcedId, name: row.actorName ?? row.actorSourcedId },
        target: { sourcedId: row.targetSourcedId, name: row.targetName ?? row.targetSourcedId },
        reason: row.reason,
        detail: row.detail,
        ipAddress: row.ipAddress,
        createdAt: new Date(row.createdAt).toISOString(),
      })),
    };
  }

  return { start, stop, listAudit };
}
