import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import type { TFunction } from "i18next";
import { Image, MessagesSquare, PenSquare } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { ConversationSummary } from "../../../shared/contracts/messaging";
import type { searchSchemas } from "../../../shared/routes";
import { PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { Tabs, tabId } from "../../components/ui/tabs";
import { relativeTime } from "../../lib/format";
import { fullName } from "../auth/auth-state";
import { useAuth } from "../auth/use-auth";
import { EmptyState, Loading, QueryError } from "../home/parts";
import { inboxQuery, receivedAnnouncementsQuery } from "./api";
import { conversationTitle, initialsOf, memberRole, refusalText } from "./describe";
import { NewMessageDialog } from "./new-message-dialog";
import { ReceivedAnnouncements } from "./received-announcements";
import { type InboxPath, ThreadView } from "./thread";

type InboxSearch = z.output<typeof searchSchemas.messages>;
type Section = "conversations" | "announcements";

/** Conversations listed at first; "Show more" adds as many again. */
const PAGE = 30;

/** /app/messages: the caller's conversations and the announcements that reached them. */
export function MessagesPage() {
  const { t } = useTranslation("messaging");
  return (
    <InboxPage
      path="/app/messages"
      title={t("page.messages.title")}
      description={t("page.messages.description")}
    />
  );
}

/** /app/admin/chat: the staff and administrators' inbox, the same conversations and announcements. */
export function ChatPage() {
  const { t } = useTranslation("messaging");
  return (
    <InboxPage path="/app/admin/chat" title={t("page.chat.title")} description={t("page.chat.description")} />
  );
}

function InboxPage({ path, title, description }: { path: InboxPath; title: string; description: string }) {
  const { t } = useTranslation("messaging");
  const { user } = useAuth();
  const search = useSearch({ strict: false }) as InboxSearch;
  const navigate = useNavigate();
  const [section, setSection] = useState<Section>("conversations");
  const [isWriting, setIsWriting] = useState(false);
  const [limit, setLimit] = useState(PAGE);
  const inbox = useQuery(inboxQuery(limit));
  const announcements = useQuery(receivedAnnouncementsQuery(0, 10));
  const open = (conversation: string) => {
    setIsWriting(false);
    setSection("conversations");
    void navigate({ to: path, search: { conversation } });
  };
  const shown: Section = search.conversation ? "conversations" : section;
  const panelId = "inbox-panel";

  return (
    <div>
      <PageHeader
        title={title}
        description={description}
        actions={
          inbox.data?.canStart && (
            <button
              type="button"
              onClick={() => setIsWriting(true)}
              className={buttonClass("primary", "inline-flex items-center gap-2")}
            >
              <PenSquare aria-hidden="true" className="size-4" />
              {t("new.open")}
            </button>
          )
        }
      />
      <Tabs
        label={t("tabs.label")}
        idPrefix="inbox"
        panelId={panelId}
        selected={shown}
        onSelect={(id) => {
          setSection(id);
          if (search.conversation) void navigate({ to: path, search: {} });
        }}
        items={[
          { id: "conversations", label: t("tabs.conversations", { count: inbox.data?.unreadMessages ?? 0 }) },
          { id: "announcements", label: t("tabs.announcements", { count: announcements.data?.unread ?? 0 }) },
        ]}
        className="mb-4"
      />
      <div id={panelId} role="tabpanel" aria-labelledby={tabId("inbox", shown)}>
        {shown === "announcements" ? (
          <ReceivedAnnouncements />
        ) : inbox.isPending ? (
          <Loading label={t("inbox.loading")} rows={4} />
        ) : inbox.isError ? (
          <QueryError error={inbox.error} fallback={t("inbox.failed")} onRetry={() => void inbox.refetch()} />
        ) : (
          <div
            className={`grid gap-4 ${inbox.data.conversations.length > 0 || search.conversation ? "lg:grid-cols-[minmax(16rem,22rem)_1fr]" : ""}`}
          >
            <div className={`min-w-0 ${search.conversation ? "max-lg:hidden" : ""}`}>
              {inbox.data.startRefusal && inbox.data.conversations.length === 0 ? (
                <EmptyState icon={MessagesSquare} title={t("inbox.none")}>
                  {refusalText(inbox.data.startRefusal, fullName(user), t)}
                </EmptyState>
              ) : inbox.data.conversations.length === 0 ? (
                <EmptyState icon={MessagesSquare} title={t("inbox.none")}>
                  {t("inbox.noneHint")}
                </EmptyState>
              ) : (
                <ConversationList
                  conversations={inbox.data.conversations}
                  selected={search.conversation}
                  path={path}
                />
              )}
              {inbox.data.total > inbox.data.conversations.length && (
                <button
                  type="button"
                  className={buttonClass("secondary", "mt-3 w-full")}
                  onClick={() => setLimit((current) => current + PAGE)}
                >
                  {t("inbox.more")}
                </button>
              )}
              {inbox.data.startRefusal && inbox.data.conversations.length > 0 && (
                <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">
                  {refusalText(inbox.data.startRefusal, fullName(user), t)}
                </p>
              )}
            </div>
            {search.conversation ? (
              <div className="min-w-0 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5 dark:border-slate-800 dark:bg-slate-900">
                <ThreadView key={search.conversation} conversationId={search.conversation} path={path} />
              </div>
            ) : (
              inbox.data.conversations.length > 0 && (
                <p className="rounded-2xl border border-dashed border-slate-300 py-10 text-center text-sm text-slate-600 max-lg:hidden dark:border-slate-700 dark:text-slate-300">
                  {t("inbox.choose")}
                </p>
              )
            )}
          </div>
        )}
      </div>
      {isWriting && <NewMessageDialog onOpen={open} onClose={() => setIsWriting(false)} />}
    </div>
  );
}

function ConversationList({
  conversations,
  selected,
  path,
}: {
  conversations: ConversationSummary[];
  selected: string | undefined;
  path: InboxPath;
}) {
  const { t } = useTranslation("messaging");
  const { activeRole } = useAuth();
  return (
    <nav aria-label={t("inbox.listLabel")}>
      <ul className="divide-y divide-slate-200 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
        {conversations.map((conversation) => {
          const title = conversationTitle(conversation.others, t);
          const last = conversation.lastMessage;
          const isSelected = conversation.id === selected;
          return (
            <li key={conversation.id}>
              <Link
                to={path}
                search={{ conversation: conversation.id }}
                aria-current={isSelected ? "page" : undefined}
                className={`flex gap-3 px-3 py-3 hover:bg-slate-50 dark:hover:bg-slate-800 ${isSelected ? "bg-brand-50 dark:bg-slate-800" : ""}`}
              >
                <span
                  aria-hidden="true"
                  className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-100 text-sm font-bold text-brand-900 dark:bg-brand-900 dark:text-brand-50"
                >
                  {initialsOf(conversation.others[0]?.name ?? "?")}
                </span>
                <span className="min-w-0 flex-1">
                  <span className="flex items-baseline justify-between gap-2">
                    <span className={`truncate ${conversation.unread > 0 ? "font-bold" : "font-semibold"}`}>
                      {title}
                    </span>
                    {last && (
                      <span className="shrink-0 text-xs text-slate-600 dark:text-slate-400">
                        {relativeTime(last.at)}
                      </span>
                    )}
                  </span>
                  <span className="block truncate text-xs text-slate-600 dark:text-slate-400">
                    {conversation.others
                      .map((member) => memberRole(member, activeRole, t))
                      .filter(Boolean)
                      .join(" · ")}
                  </span>
                  <span className="mt-0.5 flex items-center justify-between gap-2">
                    <span className="flex min-w-0 items-center gap-1 truncate text-sm text-slate-700 dark:text-slate-300">
                      {last && last.pictures > 0 && <Image aria-hidden="true" className="size-4 shrink-0" />}
                      <span className="truncate">{last ? previewText(last, t) : t("inbox.noMessages")}</span>
                    </span>
                    {conversation.unread > 0 && (
                      <span className="shrink-0 rounded-full bg-red-700 px-2 text-xs leading-5 font-bold text-white tabular-nums">
                        <span aria-hidden="true">{conversation.unread}</span>
                        <span className="sr-only">{t("inbox.unread", { count: conversation.unread })}</span>
                      </span>
                    )}
                  </span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function previewText(last: NonNullable<ConversationSummary["lastMessage"]>, t: TFunction<"messaging">) {
  const text = last.preview || t("inbox.pictures", { count: last.pictures });
  return last.isMine ? t("inbox.mine", { text }) : text;
}
