import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { AppKind } from "../../../shared/contracts/learning-apps";
import type { Database } from "../../db/client";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { hashSecret, newSecret } from "../../lib/secrets";
import type { EventBus } from "../../platform/events/bus";
import { appApiKeys, learningApps } from "./schema";

/** Learning apps and their API keys. A key's secret is shown once; only its hash is stored. */

const KEY_PREFIX_LENGTH = 12;

/** A key's app as the intake checks it; looked up once and kept (see createAppKeys). */
interface KnownKey {
  keyId: string;
  appId: string;
  isActive: boolean;
  kind: AppKind;
  lastUsedAt: Date | null;
}

/** Keys are checked on every report: a found key is kept this long, unless a change drops it first. */
const KNOWN_KEY_MS = 60_000;
/** A cap on the keys kept, which are a school's few apps and agents. */
const MAX_KNOWN_KEYS = 1_000;
/** Said when a key is revoked or an app changed (switched off, say): every process drops its keys. */
export const APP_KEYS_CHANGED_CHANNEL = "app-keys-changed";

export type AppKeys = ReturnType<typeof createAppKeys>;

/**
 * The bearer keys of learning apps and monitoring agents, checked with a lookup kept for a minute:
 * a revoked key or a switched-off app is refused at once in every process, because the change is
 * said on the bus (`changed`) after it commits. Unknown keys are never kept, so a new key works
 * at once and guessing fills nothing.
 */
export function createAppKeys(db: Database, bus: EventBus) {
  const known = new Map<string, { key: KnownKey; until: number }>();
  const forgetAll = () => known.clear();
  bus.subscribe(APP_KEYS_CHANGED_CHANNEL, forgetAll);
  bus.onMissedMessages(forgetAll);

  async function lookUp(keyHash: string, at: number): Promise<KnownKey | null> {
    const cached = known.get(keyHash);
    if (cached && cached.until > at) return cached.key;
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
      .where(and(eq(appApiKeys.keyHash, keyHash), isNull(appApiKeys.revokedAt)));
    known.delete(keyHash);
    if (!key) return null;
    if (known.size >= MAX_KNOWN_KEYS) forgetAll();
    known.set(keyHash, { key, until: at + KNOWN_KEY_MS });
    return key;
  }

  return {
    /**
     * The active app of the given kind a bearer key belongs to, or an AppError saying what is wrong:
     * a learning app's key reports activity, a monitoring agent's key reports incidents, and neither the other.
     */
    async authenticate(authorization: string | undefined, now: Date, kind: AppKind): Promise<KnownKey> {
      const secret = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];
      if (!secret)
        throw new AppError(
          "unauthenticated",
          message("activity:apps.sendKey", { header: "Authorization: Bearer <key>" }),
        );
      const key = await lookUp(hashSecret(secret), now.getTime());
      if (!key) throw new AppError("unauthenticated", message("activity:apps.unknownKey"));
      if (!key.isActive) throw new AppError("forbidden", message("activity:apps.switchedOff"));
      if (key.kind !== kind) throw new AppError("forbidden", message(`activity:apps.keyOfKind.${key.kind}`));
      // Written at most once a minute, so a busy app does not turn every batch into two writes.
      if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() > 60_000) {
        key.lastUsedAt = now;
        await db.update(appApiKeys).set({ lastUsedAt: now }).where(eq(appApiKeys.id, key.keyId));
      }
      return key;
    },
    /** After a key was revoked or an app changed, once it committed. */
    changed(): Promise<void> {
      return bus.publish(APP_KEYS_CHANGED_CHANNEL, null);
    },
  };
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
