import { useQuery } from "@tanstack/react-query";
import { BellOff } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { NotificationItem } from "../../../shared/contracts/notifications";
import { Card, PageHeader } from "../../components/page-header";
import { useAnnouncement } from "../../components/ui/announcement";
import { buttonClass } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { useAuth } from "../auth/use-auth";
import { EmptyState, Loading, QueryError } from "../home/parts";
import { notificationsPageQuery } from "./api";
import { NotificationRow } from "./notification-row";
import { useMarkRead } from "./use-mark-read";

const PAGE_SIZE = 20;

/** Everything Dash told the signed-in person, newest first, a page at a time. */
export function NotificationsPage() {
  const { t } = useTranslation("notifications");
  const { isImpersonating } = useAuth();
  const [offset, setOffset] = useState(0);
  const list = useQuery(notificationsPageQuery(offset, PAGE_SIZE));
  const markRead = useMarkRead();
  const [announcement, announce] = useAnnouncement();
  const unread = list.data?.unreadCount ?? 0;
  const open = (item: NotificationItem) => {
    if (item.readAt === null && !isImpersonating) markRead.mutate({ ids: [item.id] });
  };
  const markAll = () =>
    markRead.mutate(
      { all: true },
      {
        onSuccess: () => announce(t("page.markedAll")),
        onError: () => announce(t("page.markFailed")),
      },
    );

  return (
    <>
      <PageHeader
        title={t("page.title")}
        description={t("page.description")}
        actions={
          !isImpersonating &&
          unread > 0 && (
            <button
              type="button"
              disabled={markRead.isPending}
              onClick={markAll}
              className={buttonClass("secondary")}
            >
              {t("page.markAll")}
            </button>
          )
        }
      />
      <div className="has-[p]:mb-4">{announcement}</div>
      {isImpersonating && (
        <p className="mb-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          {t("page.viewingAs")}
        </p>
      )}
      <Card className="overflow-hidden p-0 sm:p-0">
        {list.isPending ? (
          <div className="p-5">
            <Loading label={t("page.loading")} rows={5} />
          </div>
        ) : list.isError ? (
          <div className="p-5">
            <QueryError error={list.error} fallback={t("page.failed")} onRetry={() => void list.refetch()} />
          </div>
        ) : list.data.items.length === 0 ? (
          <div className="p-5">
            <EmptyState icon={BellOff} title={t("page.empty")}>
              {t("page.emptyHint")}
            </EmptyState>
          </div>
        ) : (
          <>
            <p className="border-b border-slate-200 px-4 py-3 text-sm font-semibold sm:px-5 dark:border-slate-800">
              {t("page.unreadCount", { count: unread })}
            </p>
            <ul className="divide-y divide-slate-100 dark:divide-slate-800">
              {list.data.items.map((item) => (
                <li key={item.id}>
                  <NotificationRow item={item} onOpen={open} />
                </li>
              ))}
            </ul>
          </>
        )}
      </Card>
      {list.data && (
        <Pager
          offset={offset}
          limit={PAGE_SIZE}
          total={list.data.total}
          onChange={setOffset}
          label={t("page.paged")}
        />
      )}
    </>
  );
}
