import { eq } from "drizzle-orm";
import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { Database } from "./client";

/** Small facts about the installation itself, such as whether the demo school was seeded. */
export const appMeta = pgTable("app_meta", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type MetaKey =
  | "demo_seeded_at"
  | "daily_xp_goals"
  | "xp_rules"
  | "retention_settings"
  | "reward_settings"
  | "integrity_settings"
  | "athletics_settings"
  | "analytics_forward_cursor";

export async function getMeta(db: Database, key: MetaKey): Promise<unknown> {
  const [row] = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, key));
  return row?.value;
}

export async function setMeta(db: Database, key: MetaKey, value: unknown): Promise<void> {
  await db
    .insert(appMeta)
    .values({ key, value })
    .onConflictDoUpdate({ target: appMeta.key, set: { value, updatedAt: new Date() } });
}
