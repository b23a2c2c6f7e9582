import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ChevronDown, Megaphone } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ReceivedAnnouncement } from "../../../shared/contracts/messaging";
import { RichText } from "../../components/rich-text";
import { Pager } from "../../components/ui/pager";
import { instantLabel } from "../../lib/format";
import { useAuth } from "../auth/use-auth";
import { EmptyState, Loading, QueryError } from "../home/parts";
import { markAnnouncementRead, receivedAnnouncementsQuery } from "./api";
import { messagingKeys } from "./keys";

const PAGE_SIZE = 10;

/** The announcements that reached the caller, newest first; opening one marks it read. */
export function ReceivedAnnouncements() {
  const { t } = useTranslation("messaging");
  const [offset, setOffset] = useState(0);
  const received = useQuery(receivedAnnouncementsQuery(offset, PAGE_SIZE));
  if (received.isPending) return <Loading label={t("announcements.loading")} rows={4} />;
  if (received.isError)
    return (
      <QueryError
        error={received.error}
        fallback={t("announcements.failed")}
        onRetry={() => void received.refetch()}
      />
    );
  if (received.data.total === 0)
    return (
      <EmptyState icon={Megaphone} title={t("announcements.none")}>
        {t("announcements.noneHint")}
      </EmptyState>
    );
  return (
    <div>
      <ul className="space-y-3">
        {received.data.items.map((announcement) => (
          <AnnouncementItem key={announcement.id} announcement={announcement} />
        ))}
      </ul>
      <Pager
        offset={offset}
        limit={PAGE_SIZE}
        total={received.data.total}
        onChange={setOffset}
        label={t("announcements.paged")}
      />
    </div>
  );
}

function AnnouncementItem({ announcement }: { announcement: ReceivedAnnouncement }) {
  const { t } = useTranslation("messaging");
  const queryClient = useQueryClient();
  const { isImpersonating } = useAuth();
  const markRead = useMutation({
    mutationFn: () => markAnnouncementRead(announcement.id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: messagingKeys.inbox }),
  });
  const isUnread = announcement.readAt === null;
  return (
    <li>
      <details
        className="group rounded-xl border border-slate-200 bg-white p-4 open:shadow-sm dark:border-slate-800 dark:bg-slate-900"
        onToggle={(event) => {
          if (event.currentTarget.open && isUnread && !isImpersonating && !markRead.isPending)
            markRead.mutate();
        }}
      >
        <summary className="flex cursor-pointer list-none flex-wrap items-baseline justify-between gap-x-3 gap-y-1 rounded-lg">
          <span className="flex items-center gap-2">
            <ChevronDown
              aria-hidden="true"
              className="size-4 shrink-0 text-slate-500 group-open:rotate-180 motion-safe:transition-transform"
            />
            {isUnread && (
              <span className="rounded-full bg-brand-700 px-2 py-0.5 text-xs font-bold text-white">
                {t("announcements.new")}
              </span>
            )}
            <span className={`text-base ${isUnread ? "font-bold" : "font-semibold"}`}>
              {announcement.title}
            </span>
          </span>
          <span className="text-sm text-slate-600 dark:text-slate-300">
            {t("announcements.from", {
              name: announcement.senderName,
              when: instantLabel(announcement.sentAt),
            })}
          </span>
        </summary>
        <RichText html={announcement.bodyHtml} className="mt-3 text-sm" />
      </details>
    </li>
  );
}
