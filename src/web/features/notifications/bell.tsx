import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Bell } from "lucide-react";
import { Suspense, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { NotificationItem } from "../../../shared/contracts/notifications";
import { useAuth } from "../auth/use-auth";
import { bellQuery } from "./api";
import { NotificationRow } from "./notification-row";
import { useMarkRead } from "./use-mark-read";

const BUTTON_CLASS =
  "relative inline-flex size-9 shrink-0 items-center justify-center rounded-lg border border-slate-300 dark:border-slate-700";

/**
 * The shell's bell: the signed-in person's unread count, and their newest notifications in a
 * panel with "Mark all as read" and a link to them all. It waits for its words without holding up
 * the header.
 */
export function NotificationBell() {
  return (
    <Suspense fallback={<span aria-hidden="true" className={BUTTON_CLASS} />}>
      <BellWithPanel />
    </Suspense>
  );
}

/** More than this shows as "99+". */
const MAX_SHOWN_COUNT = 99;

function BellWithPanel() {
  const { t } = useTranslation("notifications");
  const [isOpen, setIsOpen] = useState(false);
  const bell = useQuery(bellQuery());
  const count = bell.data?.unreadCount ?? 0;
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const titleId = useId();

  // Open, the panel takes focus; Escape or a click elsewhere closes it, focus back on the bell.
  useEffect(() => {
    if (!isOpen) return;
    panel.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setIsOpen(false);
      button.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setIsOpen(false);
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
    };
  }, [isOpen]);

  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        aria-label={t("bell.label", { count })}
        aria-expanded={isOpen}
        aria-controls={isOpen ? panelId : undefined}
        onClick={() => setIsOpen((open) => !open)}
        className={`${BUTTON_CLASS} hover:bg-slate-50 dark:hover:bg-slate-800`}
      >
        <Bell aria-hidden="true" className="size-4.5" />
        {count > 0 && (
          <span
            aria-hidden="true"
            className="absolute -top-1.5 -right-1.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs leading-5 font-bold text-white tabular-nums"
          >
            {count > MAX_SHOWN_COUNT ? `${MAX_SHOWN_COUNT}+` : count}
          </span>
        )}
      </button>
      {isOpen && (
        <div
          ref={panel}
          id={panelId}
          role="dialog"
          aria-labelledby={titleId}
          tabIndex={-1}
          className="fixed inset-x-2 top-16 z-40 max-h-[calc(100vh-5rem)] overflow-y-auto rounded-2xl border border-slate-200 bg-white text-slate-900 shadow-xl sm:absolute sm:inset-x-auto sm:top-full sm:right-0 sm:mt-2 sm:w-96 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
        >
          <BellPanel titleId={titleId} onClose={() => setIsOpen(false)} />
        </div>
      )}
    </div>
  );
}

function BellPanel({ titleId, onClose }: { titleId: string; onClose: () => void }) {
  const { t } = useTranslation("notifications");
  const { isImpersonating } = useAuth();
  const bell = useQuery(bellQuery());
  const markRead = useMarkRead();
  const items = bell.data?.items ?? [];
  const hasUnread = (bell.data?.unreadCount ?? 0) > 0;
  const open = (item: NotificationItem) => {
    if (item.readAt === null && !isImpersonating) markRead.mutate({ ids: [item.id] });
    if (item.link) onClose();
  };
  return (
    <>
      <div className="flex items-center justify-between gap-3 border-b border-slate-200 px-4 py-3 dark:border-slate-800">
        <h2 id={titleId} className="font-bold">
          {t("bell.title")}
        </h2>
        {hasUnread && !isImpersonating && (
          <button
            type="button"
            disabled={markRead.isPending}
            onClick={() => markRead.mutate({ all: true })}
            className="rounded-md px-2 py-1 text-sm font-semibold text-brand-700 hover:underline disabled:opacity-60 dark:text-brand-100"
          >
            {t("bell.markAll")}
          </button>
        )}
      </div>
      {bell.isPending ? (
        <p role="status" className="px-4 py-6 text-sm text-slate-600 dark:text-slate-300">
          {t("bell.loading")}
        </p>
      ) : bell.isError ? (
        <p role="alert" className="px-4 py-6 text-sm text-red-800 dark:text-red-200">
          {t("bell.failed")}
        </p>
      ) : items.length === 0 ? (
        <p className="px-4 py-6 text-center text-sm text-slate-600 dark:text-slate-300">{t("bell.empty")}</p>
      ) : (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {items.map((item) => (
            <li key={item.id}>
              <NotificationRow item={item} onOpen={open} compact />
            </li>
          ))}
        </ul>
      )}
      <div className="border-t border-slate-200 px-4 py-3 text-center dark:border-slate-800">
        <Link
          to="/app/notifications"
          onClick={onClose}
          className="text-sm font-semibold text-brand-700 hover:underline dark:text-brand-100"
        >
          {t("bell.seeAll")}
        </Link>
      </div>
    </>
  );
}
