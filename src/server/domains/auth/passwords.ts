import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { ChangePassword, PasswordReset, PasswordResetLink } from "../../../shared/contracts/auth";
import type { PasswordContext } from "../../../shared/password-policy";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { type Message, message } from "../../lib/i18n";
import type { Logger } from "../../lib/logger";
import { hashSecret, newSecret } from "../../lib/secrets";
import { recordRosterChange } from "../rostering/roster-changes";
import { hashPassword } from "./password";
import { assertPasswordAllowed } from "./password-policy";
import { passwordResetTokens, sessions, userCredentials } from "./schema";
import type { AuthService } from "./service";

/** How long an issued link works: a day, so the person can use it the next school day. */
export const RESET_LINK_HOURS = 24;

// One message for an unknown, used or expired token: the answer tells a guesser nothing.
const INVALID_RESET_LINK = message("auth:password.invalidResetLink");

interface Person extends PasswordContext {
  sourcedId: string;
  name: string;
}

/** An active person with the words of theirs a password may not contain. */
async function findPerson(db: Database, userId: string): Promise<Person | undefined> {
  const [person] = await queryRows<Person>(
    db,
    sql`select sourced_id as "sourcedId", email, username, given_name as "givenName", family_name as "familyName",
          given_name || ' ' || family_name as name
        from users where sourced_id = ${userId} and status = 'active'`,
  );
  return person;
}

/** While viewing as someone, nothing here acts on the viewed person's account: `refusal` says so, naming them. */
function refuseWhileViewingAs(actor: Actor, refusal: (name: string) => Message): void {
  if (actor.session.impersonation)
    throw new AppError("forbidden", refusal(`${actor.user.givenName} ${actor.user.familyName}`));
}

/**
 * Password changes and one-time reset links. Every change ends the person's other sessions (all
 * of them after a reset), is written to the log of changes and to the server log.
 */
export function createPasswords(db: Database, auth: AuthService, logger: Logger) {
  /** A signed-in person changes their own password; the session they do it from stays. */
  async function changeOwnPassword(actor: Actor, input: ChangePassword, ip: string) {
    refuseWhileViewingAs(actor, (name) => message("auth:viewingAs.changeOwnPassword", { name }));
    const userId = actor.realUser.sourcedId;
    const isCurrent = await auth.verifyCurrentPassword({
      userSourcedId: userId,
      password: input.currentPassword,
      ip,
    });
    if (!isCurrent) {
      // The web app marks the field the issue names: the path, not the words, which are the reader's.
      const wrong = message("auth:password.wrongCurrent");
      throw new AppError("validation_failed", wrong, {
        issues: [{ path: "currentPassword", message: wrong }],
      });
    }
    const person = await findPerson(db, userId);
    if (!person) throw new AppError("unauthenticated", message("common:signIn"));
    assertPasswordAllowed(input.newPassword, person);
    const passwordHash = await hashPassword(input.newPassword);
    const at = auth.now();
    const otherSessionsEnded = await db.transaction(async (tx) => {
      await tx
        .update(userCredentials)
        .set({ passwordHash, updatedAt: at })
        .where(eq(userCredentials.userSourcedId, userId));
      const ended = await tx
        .delete(sessions)
        .where(and(eq(sessions.userSourcedId, userId), ne(sessions.tokenHash, actor.session.tokenHash)))
        .returning({ tokenHash: sessions.tokenHash });
      await recordRosterChange(tx, {
        actorSourcedId: userId,
        action: "password.change",
        targetUserSourcedId: userId,
        summary: message("auth:changes.passwordChanged", { name: person.name }),
        details: { otherSessionsEnded: ended.length },
        createdAt: at,
      });
      return ended.length;
    });
    await auth.forgetUser(userId);
    logger.info("password changed", { userSourcedId: userId, otherSessionsEnded });
    return { otherSessionsEnded };
  }

  /**
   * A new one-time link for a person to choose a password, replacing any earlier unused one.
   * Only the token's hash is stored: the link is answered this once.
   */
  async function issueResetLink(actor: Actor, userId: string): Promise<PasswordResetLink> {
    refuseWhileViewingAs(actor, (name) => message("auth:viewingAs.issueResetLink", { name }));
    const person = await findPerson(db, userId);
    if (!person) throw new AppError("not_found", message("auth:people.noActivePerson"));
    const token = newSecret("reset", 32);
    const at = auth.now();
    const expiresAt = new Date(at.getTime() + RESET_LINK_HOURS * 3_600_000);
    const issuer = actor.realUser;
    await db.transaction(async (tx) => {
      await tx
        .delete(passwordResetTokens)
        .where(and(eq(passwordResetTokens.userSourcedId, userId), isNull(passwordResetTokens.usedAt)));
      await tx.insert(passwordResetTokens).values({
        tokenHash: hashSecret(token),
        userSourcedId: userId,
        issuedBySourcedId: issuer.sourcedId,
        createdAt: at,
        expiresAt,
      });
      await recordRosterChange(tx, {
        actorSourcedId: issuer.sourcedId,
        action: "password.reset_link",
        targetUserSourcedId: userId,
        summary: message("auth:changes.resetLinkIssued", { name: person.name, hours: RESET_LINK_HOURS }),
        details: { expiresAt: expiresAt.toISOString() },
        createdAt: at,
      });
    });
    logger.info("password reset link issued", { by: issuer.sourcedId, for: userId });
    return { link: `/reset-password?token=${encodeURIComponent(token)}`, expiresAt: expiresAt.toISOString() };
  }

  /**
   * Sets the password a link's owner chose. The token is claimed in the same transaction that
   * sets the password, so two uses at once cannot both succeed; every session of the person ends.
   */
  async function resetWithLink(input: PasswordReset): Promise<void> {
    const tokenHash = hashSecret(input.token);
    const at = auth.now();
    const isUsable = and(
      eq(passwordResetTokens.tokenHash, tokenHash),
      isNull(passwordResetTokens.usedAt),
      gt(passwordResetTokens.expiresAt, at),
    );
    const [token] = await db
      .select({ userSourcedId: passwordResetTokens.userSourcedId })
      .from(passwordResetTokens)
      .where(isUsable);
    const person = token && (await findPerson(db, token.userSourcedId));
    if (!person) throw new AppError("bad_request", INVALID_RESET_LINK);
    // The policy is checked before the token is claimed: a refused password leaves the link usable.
    assertPasswordAllowed(input.newPassword, person);
    const passwordHash = await hashPassword(input.newPassword);
    const sessionsEnded = await db.transaction(async (tx) => {
      const claimed = await tx
        .update(passwordResetTokens)
        .set({ usedAt: at })
        .where(isUsable)
        .returning({ userSourcedId: passwordResetTokens.userSourcedId });
      if (!claimed.length) throw new AppError("bad_request", INVALID_RESET_LINK);
      // People from a roster import have no password yet: the link gives them their first.
      await tx
        .insert(userCredentials)
        .values({ userSourcedId: person.sourcedId, passwordHash, updatedAt: at })
        .onConflictDoUpdate({ target: userCredentials.userSourcedId, set: { passwordHash, updatedAt: at } });
      const ended = await tx
        .delete(sessions)
        .where(eq(sessions.userSourcedId, person.sourcedId))
        .returning({ tokenHash: sessions.tokenHash });
      await recordRosterChange(tx, {
        actorSourcedId: person.sourcedId,
        action: "password.reset",
        targetUserSourcedId: person.sourcedId,
        summary: message("auth:changes.passwordReset", { name: person.name }),
        details: { sessionsEnded: ended.length },
        createdAt: at,
      });
      return ended.length;
    });
    await auth.forgetUser(person.sourcedId);
    logger.info("password reset with a link", { userSourcedId: person.sourcedId, sessionsEnded });
  }

  return { changeOwnPassword, issueResetLink, resetWithLink };
}
