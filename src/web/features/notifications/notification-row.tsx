import { useRouter } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import type { NotificationItem } from "../../../shared/contracts/notifications";
import { instantLabel, relativeTime } from "../../lib/format";
import { useAuth } from "../auth/use-auth";
import { NOTIFICATION_ICONS, notificationText } from "./describe";

/**
 * One notification: its picture, its sentence, how long ago, and a dot while unread. Opening it
 * marks it read (`onOpen`) and goes to its page; one without a page is marked read where it is.
 */
export function NotificationRow({
  item,
  onOpen,
  compact = false,
}: {
  item: NotificationItem;
  onOpen: (item: NotificationItem) => void;
  compact?: boolean;
}) {
  const { t } = useTranslation("notifications");
  const router = useRouter();
  const { realUser } = useAuth();
  const Icon = NOTIFICATION_ICONS[item.type];
  const isUnread = item.readAt === null;
  const content = (
    <>
      <span
        aria-hidden="true"
        className={`flex size-9 shrink-0 items-center justify-center rounded-full ${
          isUnread
            ? "bg-brand-100 text-brand-700 dark:bg-brand-900 dark:text-brand-100"
            : "bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300"
        }`}
      >
        <Icon className="size-4.5" />
      </span>
      <span className="min-w-0 flex-1">
        <span className={`block text-sm ${isUnread ? "font-semibold" : ""}`}>
          {notificationText(t, item, realUser.sourcedId)}
        </span>
        <time
          dateTime={item.createdAt}
          title={instantLabel(item.createdAt)}
          className="mt-0.5 block text-xs text-slate-600 dark:text-slate-300"
        >
          {relativeTime(item.createdAt)}
        </time>
      </span>
      {isUnread && (
        <span className="mt-1.5 flex shrink-0 items-center">
          <span aria-hidden="true" className="size-2.5 rounded-full bg-brand-600 dark:bg-brand-500" />
          <span className="sr-only">{t("bell.unread")}</span>
        </span>
      )}
    </>
  );
  const rowClass = `flex w-full items-start gap-3 text-left ${compact ? "px-4 py-3" : "px-4 py-3.5 sm:px-5"} hover:bg-slate-50 dark:hover:bg-slate-800/60`;
  if (!item.link)
    return (
      <button type="button" className={rowClass} onClick={() => onOpen(item)}>
        {content}
      </button>
    );
  const link = item.link;
  return (
    <a
      href={link}
      className={rowClass}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        onOpen(item);
        router.history.push(link);
      }}
    >
      {content}
    </a>
  );
}
