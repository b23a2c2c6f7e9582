import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ArrowLeft, Lock } from "lucide-react";
import { Fragment, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ThreadMessage } from "../../../shared/contracts/messaging";
import { RichText } from "../../components/rich-text";
import { buttonClass } from "../../components/ui/form";
import { instantDateLabel, timeLabel } from "../../lib/format";
import { fullName } from "../auth/auth-state";
import { useAuth } from "../auth/use-auth";
import { Loading, QueryError } from "../home/parts";
import { markConversationRead, olderMessages, threadQuery } from "./api";
import { Composer } from "./composer";
import { conversationTitle, initialsOf, memberRole, refusalText } from "./describe";
import { messagingKeys } from "./keys";

export type InboxPath = "/app/messages" | "/app/admin/chat";

/**
 * One conversation: its messages, oldest first, by day; earlier ones on request; and the composer,
 * or why the caller cannot write. New messages arrive by themselves (the live stream refreshes the
 * thread) and are marked read while the page is in view.
 */
export function ThreadView({ conversationId, path }: { conversationId: string; path: InboxPath }) {
  const { t } = useTranslation("messaging");
  const { activeRole, user } = useAuth();
  const thread = useQuery(threadQuery(conversationId));
  const [older, setOlder] = useState<{ messages: ThreadMessage[]; hasOlder: boolean } | null>(null);
  const loadOlder = useMutation({
    mutationFn: (before: string) => olderMessages(conversationId, before),
    onSuccess: (page) =>
      setOlder((current) => ({
        messages: [...page.messages, ...(current?.messages ?? [])],
        hasOlder: page.hasOlder,
      })),
  });
  useMarkRead(conversationId, thread.data?.messages, thread.data?.lastReadAt ?? null);
  // Every message shown so far stays: the newest page moves on as messages arrive, older pages do not.
  const shown = useRef(new Map<string, ThreadMessage>());
  const messages = useMemo(() => {
    for (const message of [...(older?.messages ?? []), ...(thread.data?.messages ?? [])])
      shown.current.set(message.id, message);
    return [...shown.current.values()].sort(
      (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
    );
  }, [older, thread.data]);

  if (thread.isPending) return <Loading label={t("thread.loading")} rows={5} />;
  if (thread.isError)
    return (
      <QueryError error={thread.error} fallback={t("thread.failed")} onRetry={() => void thread.refetch()} />
    );

  const data = thread.data;
  const hasOlder = older ? older.hasOlder : data.hasOlder;
  const title = conversationTitle(data.others, t);
  return (
    <section aria-labelledby={`thread-${conversationId}`} className="flex min-w-0 flex-col gap-4">
      <div className="flex items-start gap-3 border-b border-slate-200 pb-3 dark:border-slate-800">
        <Link
          to={path}
          search={{}}
          className="rounded-lg p-2 text-slate-700 hover:bg-slate-100 lg:hidden dark:text-slate-200 dark:hover:bg-slate-800"
          aria-label={t("thread.back")}
        >
          <ArrowLeft aria-hidden="true" className="size-5" />
        </Link>
        <div className="min-w-0">
          <h2 id={`thread-${conversationId}`} className="text-lg font-bold">
            {title}
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {data.others
              .map((member) => memberRole(member, activeRole, t))
              .filter(Boolean)
              .join(" · ")}
          </p>
        </div>
      </div>
      {hasOlder && (
        <button
          type="button"
          className={buttonClass("secondary", "self-center")}
          disabled={loadOlder.isPending}
          onClick={() => messages[0] && loadOlder.mutate(messages[0].id)}
        >
          {loadOlder.isPending ? t("thread.loadingOlder") : t("thread.older")}
        </button>
      )}
      <MessageList messages={messages} label={t("thread.messagesOf", { title })} />
      {data.canWrite ? (
        <Composer conversationId={conversationId} label={t("composer.replyTo", { title })} />
      ) : (
        <p className="flex items-start gap-2 rounded-lg bg-slate-100 p-3 text-sm text-slate-700 dark:bg-slate-800 dark:text-slate-200">
          <Lock aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {data.writingRefusal && refusalText(data.writingRefusal, fullName(user), t)}
        </p>
      )}
    </section>
  );
}

/**
 * Marks the conversation read while it is shown and the page is in view: when it opens, when
 * another's message arrives, and when the reader comes back to the tab. Viewing Dash as someone
 * marks nothing (the server would not either).
 */
function useMarkRead(
  conversationId: string,
  messages: ThreadMessage[] | undefined,
  lastReadAt: string | null,
) {
  const queryClient = useQueryClient();
  const { isImpersonating } = useAuth();
  const latestFromOthers = messages?.findLast((message) => !message.isMine)?.createdAt ?? null;
  const hasUnread = latestFromOthers !== null && (lastReadAt === null || latestFromOthers > lastReadAt);
  const isMarking = useRef(false);
  useEffect(() => {
    if (!hasUnread || isImpersonating) return;
    const mark = () => {
      if (document.visibilityState !== "visible" || isMarking.current) return;
      isMarking.current = true;
      void markConversationRead(conversationId)
        .then(() => queryClient.invalidateQueries({ queryKey: messagingKeys.inbox }))
        .catch(() => {})
        .finally(() => {
          isMarking.current = false;
        });
    };
    mark();
    document.addEventListener("visibilitychange", mark);
    return () => document.removeEventListener("visibilitychange", mark);
  }, [conversationId, hasUnread, isImpersonating, queryClient]);
}

/** The messages by day, kept scrolled to the newest while the reader is at the bottom. */
function MessageList({ messages, label }: { messages: ThreadMessage[]; label: string }) {
  const { t } = useTranslation("messaging");
  const list = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLOListElement>(null);
  const wasAtBottom = useRef(true);
  const newest = messages.at(-1)?.id;

  // A new message, or a picture that finished loading, keeps the newest in view for a reader at the bottom.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new newest message is the trigger
  useLayoutEffect(() => {
    const element = list.current;
    if (!element || !content.current) return;
    const keepAtBottom = () => {
      if (wasAtBottom.current) element.scrollTop = element.scrollHeight;
    };
    keepAtBottom();
    const observer = new ResizeObserver(keepAtBottom);
    observer.observe(content.current);
    return () => observer.disconnect();
  }, [newest]);

  if (messages.length === 0)
    return <p className="text-sm text-slate-600 dark:text-slate-300">{t("thread.empty")}</p>;
  let previousDay = "";
  return (
    <div
      ref={list}
      role="log"
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard
      tabIndex={0}
      onScroll={(event) => {
        const element = event.currentTarget;
        wasAtBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
      }}
      className="max-h-[55vh] min-h-40 overflow-y-auto rounded-xl bg-slate-50 p-3 focus-visible:outline-2 focus-visible:outline-brand-600 sm:p-4 dark:bg-slate-950"
    >
      <ol ref={content} className="space-y-3">
        {messages.map((message) => {
          const day = instantDateLabel(message.createdAt);
          const isNewDay = day !== previousDay;
          previousDay = day;
          return (
            <Fragment key={message.id}>
              {isNewDay && (
                <li
                  aria-hidden="true"
                  className="py-1 text-center text-xs font-semibold text-slate-600 dark:text-slate-400"
                >
                  {day}
                </li>
              )}
              <MessageBubble message={message} day={day} />
            </Fragment>
          );
        })}
      </ol>
    </div>
  );
}

function MessageBubble({ message, day }: { message: ThreadMessage; day: string }) {
  const { t } = useTranslation("messaging");
  const time = timeLabel(message.createdAt);
  const isRemoved = message.bodyHtml === "" && message.pictures.length === 0;
  return (
    <li className={`flex gap-2 ${message.isMine ? "justify-end" : "justify-start"}`}>
      {!message.isMine && (
        <span
          aria-hidden="true"
          className="mt-5 inline-flex size-8 shrink-0 items-center justify-center rounded-full bg-slate-200 text-xs font-bold text-slate-700 dark:bg-slate-700 dark:text-slate-100"
        >
          {initialsOf(message.authorName)}
        </span>
      )}
      <div
        className={`flex max-w-[85%] flex-col sm:max-w-[75%] ${message.isMine ? "items-end" : "items-start"}`}
      >
        <p className="mb-0.5 text-xs text-slate-600 dark:text-slate-400">
          <span className="sr-only">{t("thread.sentOn", { day })} </span>
          {message.isMine ? t("thread.you") : message.authorName},{" "}
          <time dateTime={message.createdAt}>{time}</time>
        </p>
        <div
          className={`rounded-2xl px-3.5 py-2 text-sm shadow-sm ${
            message.isMine
              ? "rounded-br-sm bg-brand-700 text-white [&_a]:text-white"
              : "rounded-bl-sm border border-slate-200 bg-white text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
          }`}
        >
          {isRemoved ? (
            <p className="italic">{t("thread.removed")}</p>
          ) : (
            message.bodyHtml && <RichText html={message.bodyHtml} className="break-words" />
          )}
          {message.pictures.length > 0 && (
            <ul className="mt-2 flex flex-wrap gap-2">
              {message.pictures.map((picture) => (
                <li key={picture.index}>
                  <a
                    href={picture.url}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="block rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2"
                  >
                    <img
                      src={picture.url}
                      alt={t("thread.picture", { name: picture.name })}
                      loading="lazy"
                      className="max-h-56 max-w-full rounded-lg border border-black/10 bg-white object-contain"
                    />
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </li>
  );
}
