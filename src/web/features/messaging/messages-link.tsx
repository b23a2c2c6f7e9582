import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { MessageSquare } from "lucide-react";
import { Suspense } from "react";
import { useTranslation } from "react-i18next";
import { useAuth } from "../auth/use-auth";
import { unreadQuery } from "./api";

const LINK_CLASS =
  "relative inline-flex size-9 shrink-0 items-center justify-center rounded-lg border border-slate-300 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800";
/** More than this shows as "99+". */
const MAX_SHOWN_COUNT = 99;
const ROLES_WITH_MESSAGES = new Set(["student", "teacher", "parent", "guardian", "administrator"]);

/**
 * The shell's messages icon: a link to the caller's messages (an administrator's chat) with the
 * number of unread messages and announcements, kept current by the live stream. It waits for its
 * words without holding up the header.
 */
export function MessagesLink() {
  const { activeRole } = useAuth();
  if (!activeRole || !ROLES_WITH_MESSAGES.has(activeRole)) return null;
  return (
    <Suspense fallback={<span aria-hidden="true" className={LINK_CLASS} />}>
      <MessagesLinkWithCount to={activeRole === "administrator" ? "/app/admin/chat" : "/app/messages"} />
    </Suspense>
  );
}

function MessagesLinkWithCount({ to }: { to: "/app/messages" | "/app/admin/chat" }) {
  const { t } = useTranslation("messaging");
  const unread = useQuery(unreadQuery());
  const count = unread.data?.unread ?? 0;
  return (
    <Link
      to={to}
      aria-label={t("link.label", { count })}
      title={t("link.label", { count })}
      className={LINK_CLASS}
    >
      <MessageSquare aria-hidden="true" className="size-4.5" />
      {count > 0 && (
        <span
          aria-hidden="true"
          className="absolute -top-1.5 -right-1.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs leading-5 font-bold text-white tabular-nums"
        >
          {count > MAX_SHOWN_COUNT ? `${MAX_SHOWN_COUNT}+` : count}
        </span>
      )}
    </Link>
  );
}
