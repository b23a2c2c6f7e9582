import { z } from "zod";
import { invalid } from "../validation-messages";
import { changesOf } from "./fields";

/**
 * Learning apps registered by administrators, and the API keys they report activity with. A
 * monitoring agent is registered the same way, with the kind `agent`: its keys report focus
 * incidents and nothing else, and a learning app's keys never report incidents.
 */

export const APP_KINDS = ["learning", "agent"] as const;
export type AppKind = (typeof APP_KINDS)[number];

const appFields = {
  name: z.string().trim().min(1, invalid("nameApp")).max(100),
  subjects: z.array(z.string().trim().min(1).max(100)).max(20),
  launchUrl: z.url(invalid("fullHttpsAddress")).max(500).nullable(),
  icon: z.string().trim().max(500).nullable(),
  isActive: z.boolean(),
};

/** A new app: what is left out takes its default. Its kind is chosen once. */
export const learningAppInputSchema = z.object({
  ...appFields,
  kind: z.enum(APP_KINDS, { message: invalid("appKindOneOf") }).default("learning"),
  subjects: appFields.subjects.default([]),
  launchUrl: appFields.launchUrl.default(null),
  icon: appFields.icon.default(null),
  isActive: appFields.isActive.default(true),
});

/** Changes to an app: only the fields given change (no defaults, which would reset the others). */
export const learningAppChangesSchema = changesOf(appFields);

export const appKeyInputSchema = z.object({ label: z.string().trim().min(1, invalid("labelKey")).max(100) });

export const learningAppSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(APP_KINDS),
  subjects: z.array(z.string()),
  launchUrl: z.string().nullable(),
  icon: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: z.string(),
});
export type LearningApp = z.infer<typeof learningAppSchema>;

export const appKeySchema = z.object({
  id: z.string(),
  label: z.string(),
  keyPrefix: z.string(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type AppKey = z.infer<typeof appKeySchema>;

export const learningAppListResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(learningAppSchema),
});
export const learningAppResponseSchema = z.object({ success: z.literal(true), data: learningAppSchema });
export const appKeyListResponseSchema = z.object({ success: z.literal(true), data: z.array(appKeySchema) });
export const createdAppKeyResponseSchema = z.object({
  success: z.literal(true),
  data: appKeySchema.omit({ revokedAt: true, lastUsedAt: true }).extend({ secret: z.string() }),
});
