import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { AppKind } from "../../../shared/contracts/learning-apps";
import type { Database } from "../../db/client";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { hashSecret, newSecret } from "../../lib/secrets";
import { appApiKeys, learningApps } from "./schema";

/** Learning apps and their API keys. A key's secret is shown once; only its hash is stored. */

const KEY_PREFIX_LENGTH = 12;

/**
 * The active app of the given kind a bearer key belongs to, or an AppError saying what is wrong: a
 * learning app's key reports activity, a monitoring agent's key reports incidents, and neither the other.
 */
export async function authenticateAppKey(
  db: Database,
  authorization: string | undefined,
  now: Date,
  kind: AppKind,
) {
  const secret = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];
  if (!secret)
    throw new AppError(
      "unauthenticated",
      message("activity:apps.sendKey", { header: "Authorization: Bearer <key>" }),
    );
  const [key] = await db
    .select({
      keyId: appApiKeys.id,
      appId: appApiKeys.appId,
      isActive: learningApps.isActive,
      kind: learningApps.kind,
      lastUsedAt: appApiKeys.lastUsedAt,
    })
    .from(appApiKeys)
    .innerJoin(learningApps, eq(learningApps.id, appApiKeys.appId))
    .where(and(eq(appApiKeys.keyHash, hashSecret(secret)), isNull(appApiKeys.revokedAt)));
  if (!key) throw new AppError("unauthenticated", message("activity:apps.unknownKey"));
  if (!key.isActive) throw new AppError("forbidden", message("activity:apps.switchedOff"));
  if (key.kind !== kind) throw new AppError("forbidden", message(`activity:apps.keyOfKind.${key.kind}`));
  // Written at most once a minute, so a busy app does not turn every batch into two writes.
  if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() > 60_000) {
    await db.update(appApiKeys).set({ lastUsedAt: now }).where(eq(appApiKeys.id, key.keyId));
  }
  return key;
}

/** Every app for administrators; for everyone else, the active learning apps (not the monitoring agent). */
export async function listApps(db: Database, options: { onlyActiveLearning: boolean }) {
  return db
    .select()
    .from(learningApps)
    .where(
      options.onlyActiveLearning
        ? and(eq(learningApps.isActive, true), eq(learningApps.kind, "learning"))
        : sql`true`,
    )
    .orderBy(asc(learningApps.name));
}

export async function createApp(db: Database, app: typeof learningApps.$inferInsert) {
  const [created] = await db.insert(learningApps).values(app).returning();
  return created;
}

export async function updateApp(
  db: Database,
  id: string,
  changes: Partial<typeof learningApps.$inferInsert>,
) {
  const [updated] = await db.update(learningApps).set(changes).where(eq(learningApps.id, id)).returning();
  if (!updated) throw new AppError("not_found", message("activity:apps.notFound"));
  return updated;
}

export async function listKeys(db: Database, appId: string) {
  return db
    .select({
      id: appApiKeys.id,
      label: appApiKeys.label,
      keyPrefix: appApiKeys.keyPrefix,
      createdAt: appApiKeys.createdAt,
      revokedAt: appApiKeys.revokedAt,
      lastUsedAt: appApiKeys.lastUsedAt,
    })
    .from(appApiKeys)
    .where(eq(appApiKeys.appId, appId))
    .orderBy(asc(appApiKeys.createdAt));
}

/** Creates a key and returns its secret: the only time anyone sees it. */
export async function createKey(db: Database, appId: string, label: string, secret = newSecret("dash")) {
  const [app] = await db.select({ id: learningApps.id }).from(learningApps).where(eq(learningApps.id, appId));
  if (!app) throw new AppError("not_found", message("activity:apps.notFound"));
  const [key] = await db
    .insert(appApiKeys)
    .values({ appId, label, keyPrefix: secret.slice(0, KEY_PREFIX_LENGTH), keyHash: hashSecret(secret) })
    .returning({
      id: appApiKeys.id,
      label: appApiKeys.label,
      keyPrefix: appApiKeys.keyPrefix,
      createdAt: appApiKeys.createdAt,
    });
  return { ...key, secret };
}

export async function revokeKey(db: Database, appId: string, keyId: string, now: Date) {
  const [revoked] = await db
    .update(appApiKeys)
    .set({ revokedAt: now })
    .where(and(eq(appApiKeys.id, keyId), eq(appApiKeys.appId, appId), isNull(appApiKeys.revokedAt)))
    .returning({ id: appApiKeys.id });
  if (!revoked) throw new AppError("not_found", message("activity:keys.noActiveKey"));
}
