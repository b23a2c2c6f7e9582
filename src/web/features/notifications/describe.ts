import type { TFunction } from "i18next";
import {
  BadgeCheck,
  CalendarHeart,
  ClipboardList,
  Gift,
  Lock,
  type LucideIcon,
  Megaphone,
  MessageSquare,
  ShieldAlert,
} from "lucide-react";
import type { NotificationItem, NotificationType } from "../../../shared/contracts/notifications";
import { monthDayLabel } from "../../lib/format";

/** Each type's picture beside its sentence. */
export const NOTIFICATION_ICONS: Record<NotificationType, LucideIcon> = {
  "redemption.requested": Gift,
  "redemption.decided": BadgeCheck,
  "strike.confirmed": ShieldAlert,
  "lockout.changed": Lock,
  "survey.invited": ClipboardList,
  "message.received": MessageSquare,
  "announcement.published": Megaphone,
  "pulse.ready": CalendarHeart,
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A notification's sentence in the shown language, made from its type and values: "yes" for
 * `self` when it is about the reader (a student told of their own strike), else about their child.
 */
export function notificationText(
  t: TFunction<"notifications">,
  item: Pick<NotificationItem, "type" | "params">,
  readerId: string,
): string {
  const params = item.params;
  return t(`types.${item.type}.text`, {
    ...params,
    self: params.studentId === readerId ? "yes" : "no",
    hasSender: params.senderName ? "yes" : "no",
    weekLabel:
      typeof params.week === "string" && ISO_DATE.test(params.week) ? monthDayLabel(params.week) : "",
  });
}
