import { z } from "zod";
import { LANGUAGES } from "../languages";
import type { DashRole } from "../roles";
import { isTimeZone } from "../time-zone";
import { invalid } from "../validation-messages";

/**
 * The notification centre: what every domain tells people in the app and by email. Each type says
 * whom it concerns (the preferences page offers a person the types of their roles), whether it
 * reaches them in the app and by email when they chose nothing, and which `params` its sentence
 * takes (the sender passes them; the reader's page makes the sentence in the reader's language).
 */
export const NOTIFICATION_TYPES = [
  "redemption.requested",
  "redemption.decided",
  "strike.confirmed",
  "lockout.changed",
  "survey.invited",
  "message.received",
  "announcement.published",
  "pulse.ready",
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export function isNotificationType(value: string): value is NotificationType {
  return (NOTIFICATION_TYPES as readonly string[]).includes(value);
}

export interface NotificationTypeDefinition {
  /** Who receives it, so who may choose how. */
  roles: readonly DashRole[];
  /** Without a choice of the person's own. Students are never emailed unless they chose it. */
  defaults: { inApp: boolean; email: boolean };
  /** The values its sentence uses; a sender passes each of them. */
  params: readonly string[];
}

const FAMILY: readonly DashRole[] = ["parent", "guardian"];
const EVERYONE: readonly DashRole[] = [
  "student",
  "parent",
  "guardian",
  "teacher",
  "proctor",
  "administrator",
];

export const NOTIFICATION_TYPE_DEFINITIONS: Record<NotificationType, NotificationTypeDefinition> = {
  /** A child asked to spend Alphas on a reward: `studentId`, `studentName`, `rewardName`, `price`. */
  "redemption.requested": {
    roles: FAMILY,
    defaults: { inApp: true, email: false },
    params: ["studentId", "studentName", "rewardName", "price"],
  },
  /** The student's request was decided: `rewardName`, `decision` ("approved" or "declined"). */
  "redemption.decided": {
    roles: ["student"],
    defaults: { inApp: true, email: false },
    params: ["rewardName", "decision"],
  },
  /** A strike was confirmed: `studentId`, `studentName`, `strikes` (the count now). */
  "strike.confirmed": {
    roles: ["student", ...FAMILY],
    defaults: { inApp: true, email: true },
    params: ["studentId", "studentName", "strikes"],
  },
  /** Learning was locked or unlocked: `studentId`, `studentName`, `state` ("on" or "off"). */
  "lockout.changed": {
    roles: ["student", ...FAMILY],
    defaults: { inApp: true, email: true },
    params: ["studentId", "studentName", "state"],
  },
  /** A survey opened for the person: `surveyTitle`. */
  "survey.invited": {
    roles: EVERYONE,
    defaults: { inApp: true, email: true },
    params: ["surveyTitle"],
  },
  /** A direct message arrived: `senderName`. */
  "message.received": {
    roles: ["student", "parent", "guardian", "teacher", "administrator"],
    defaults: { inApp: true, email: true },
    params: ["senderName"],
  },
  /** An announcement reached the person: `title`, `senderName`. */
  "announcement.published": {
    roles: EVERYONE,
    defaults: { inApp: true, email: true },
    params: ["title", "senderName"],
  },
  /** A child's weekly pulse is ready: `studentId`, `childName`, `week` (yyyy-MM-dd, its Sunday). */
  "pulse.ready": {
    roles: FAMILY,
    defaults: { inApp: true, email: true },
    params: ["studentId", "childName", "week"],
  },
};

/** The roles that choose their notifications, time zone and language on the preferences page. */
export const PREFERENCES_ROLES = [
  "parent",
  "guardian",
  "teacher",
  "administrator",
] as const satisfies readonly DashRole[];
/** The roles that choose the day of their weekly digest. */
export const DIGEST_DAY_ROLES = FAMILY;

/** The types a person with these roles receives, in the order of NOTIFICATION_TYPES. */
export function notificationTypesFor(roles: readonly DashRole[]): NotificationType[] {
  return NOTIFICATION_TYPES.filter((type) =>
    NOTIFICATION_TYPE_DEFINITIONS[type].roles.some((role) => roles.includes(role)),
  );
}

/** A notification as the bell and the notifications page show it; the sentence is made from type and params. */
export interface NotificationItem {
  id: string;
  type: NotificationType;
  params: Record<string, string | number>;
  /** The page it opens (`/app/...`), or none. */
  link: string | null;
  createdAt: string;
  readAt: string | null;
}

export const NOTIFICATION_PAGE_LIMIT_MAX = 100;

/** GET /api/notifications */
export const notificationListQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(NOTIFICATION_PAGE_LIMIT_MAX).default(20),
  unread: z.enum(["true", "false"]).optional(),
});
export type NotificationListQuery = z.output<typeof notificationListQuerySchema>;

export interface NotificationList {
  items: NotificationItem[];
  total: number;
  unreadCount: number;
}

/** GET /api/notifications/unread-count */
export interface UnreadCount {
  unreadCount: number;
}

/** POST /api/notifications/read: some notifications, or all of the caller's. */
export const markReadSchema = z.union([
  z.strictObject({ ids: z.array(z.uuid()).min(1).max(NOTIFICATION_PAGE_LIMIT_MAX) }),
  z.strictObject({ all: z.literal(true) }),
]);
export type MarkReadBody = z.infer<typeof markReadSchema>;

export interface MarkReadResult {
  marked: number;
  unreadCount: number;
}

export const notificationChannelsSchema = z.strictObject({ inApp: z.boolean(), email: z.boolean() });
export type NotificationChannels = z.infer<typeof notificationChannelsSchema>;

const timeZoneSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((zone) => isTimeZone(zone), invalid("timeZone"));

/** GET /api/notifications/preferences */
export interface NotificationPreferences {
  /** The caller's types, each with its current choice (the type's defaults when none was made). */
  types: { type: NotificationType; inApp: boolean; email: boolean; defaults: NotificationChannels }[];
  timeZone: string;
  /** The language chosen; null follows the browser. */
  language: (typeof LANGUAGES)[number] | null;
  /** Parents and guardians: the day of the weekly digest (0 Sunday … 6 Saturday); null, the school's Friday. */
  digestDay: number | null;
  /** Whether the caller chooses a digest day (a parent or guardian). */
  choosesDigestDay: boolean;
  /** The caller's email address, where mail goes; null when Dash has none. */
  email: string | null;
  /** Kinds of mail that are no notification type (scheduled reports, announcements) the caller stopped. */
  stoppedMail: string[];
}

/** PUT /api/notifications/preferences: every part optional; what is left out stays as it was. */
export const updatePreferencesSchema = z.strictObject({
  types: z
    .array(z.strictObject({ type: z.enum(NOTIFICATION_TYPES), inApp: z.boolean(), email: z.boolean() }))
    .max(NOTIFICATION_TYPES.length * 2)
    .optional(),
  timeZone: timeZoneSchema.optional(),
  language: z.enum(LANGUAGES).nullable().optional(),
  digestDay: z.number().int().min(0).max(6).nullable().optional(),
  /** Kinds of mail stopped through an unsubscribe link, to be sent again. */
  resumeMail: z.array(z.string().trim().min(1).max(60)).max(20).optional(),
});
export type UpdatePreferencesBody = z.infer<typeof updatePreferencesSchema>;

/** The outbox's statuses (see email_outbox). */
export const EMAIL_STATUSES = ["queued", "sent", "failed", "kept"] as const;
export type EmailStatusName = (typeof EMAIL_STATUSES)[number];

/** GET /api/notifications/admin/outbox */
export const outboxQuerySchema = z.object({
  status: z.enum(EMAIL_STATUSES).optional(),
  search: z.string().trim().max(200).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type OutboxQuery = z.output<typeof outboxQuerySchema>;

export interface OutboxMail {
  id: string;
  to: string;
  recipientId: string | null;
  recipientName: string | null;
  subject: string;
  category: string;
  status: EmailStatusName;
  attempts: number;
  error: string | null;
  createdAt: string;
  sentAt: string | null;
}

export interface OutboxPage {
  items: OutboxMail[];
  total: number;
}

/** GET /api/notifications/admin/outbox/:id: one mail with its plain text. */
export interface OutboxMailDetail extends OutboxMail {
  text: string;
  hasHtml: boolean;
  /** The names of the files sent with it. */
  attachments: string[];
}
