import type { QueryClient } from "@tanstack/react-query";
import {
  type AnalyticsEventInput,
  cappedText,
  MAX_EVENTS_PER_REQUEST,
  MAX_MESSAGE_LENGTH,
  MAX_STACK_LENGTH,
  pagePathOf,
} from "../../../shared/contracts/analytics";
import type { MeResponse } from "../../../shared/contracts/auth";
import { localDateOf, SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { authKeys } from "../auth/api";

const ENDPOINT = "/api/analytics/events";
/** A batch leaves after this long, or as soon as it holds BATCH_SIZE events. */
const FLUSH_AFTER_MS = 5_000;
const BATCH_SIZE = 20;
/** Events waiting at most: a page that cannot reach the server does not grow without end. */
const MAX_WAITING = 200;
/** Errors reported per page load at most: a failing render loop must not flood the report. */
const MAX_EXCEPTIONS = 20;
const LOGIN_KEY = "dash.analytics.login";
const DAILY_ACTIVE_KEY = "dash.analytics.dailyActive";

/** The parts of the router the collector listens to. */
interface RouterLike {
  state: { location: { pathname: string } };
  subscribe(event: "onResolved", listener: (event: { toLocation: { pathname: string } }) => void): () => void;
}

const isMeQuery = (key: readonly unknown[]) =>
  key.length === authKeys.me.length && authKeys.me.every((part, index) => key[index] === part);

/** Runs `work`, swallowing anything it throws: analytics never breaks the page it watches. */
function quietly(work: () => void): void {
  try {
    work();
  } catch {
    // Nothing to do: a lost event is better than a broken page.
  }
}

function storageOf(kind: "sessionStorage" | "localStorage"): Storage | null {
  try {
    return window[kind];
  } catch {
    return null;
  }
}

/**
 * Reports page use and errors to Dash's own collector: a page view on every path change, a sign-in
 * once per browser session, daily activity once a day per person, and the page's uncaught errors
 * and unhandled rejections. Events wait in batches (every 5 s or 20 events) and the rest leaves
 * with `sendBeacon` when the page is hidden or left. Started once, when the app starts.
 */
export function startAnalytics(router: RouterLike, queryClient: QueryClient): void {
  const waiting: AnalyticsEventInput[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastPath: string | null = null;
  let exceptions = 0;

  function send(events: AnalyticsEventInput[], leaving: boolean): void {
    for (let start = 0; start < events.length; start += MAX_EVENTS_PER_REQUEST) {
      const body = JSON.stringify({ events: events.slice(start, start + MAX_EVENTS_PER_REQUEST) });
      // JSON as every state-changing request of Dash says it (the server refuses other types).
      if (leaving && navigator.sendBeacon?.(ENDPOINT, new Blob([body], { type: "application/json" })))
        continue;
      void fetch(ENDPOINT, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json" },
        body,
        keepalive: true,
      }).catch(() => {});
    }
  }

  function flush(leaving = false): void {
    quietly(() => {
      clearTimeout(timer);
      timer = undefined;
      if (waiting.length > 0) send(waiting.splice(0), leaving);
    });
  }

  function record(type: AnalyticsEventInput["type"], extra: Partial<AnalyticsEventInput> = {}): void {
    quietly(() => {
      if (waiting.length >= MAX_WAITING) return;
      const path = pagePathOf(window.location.pathname) || "/";
      waiting.push({ type, path, at: new Date().toISOString(), ...extra });
      if (waiting.length >= BATCH_SIZE) flush();
      else timer ??= setTimeout(() => flush(), FLUSH_AFTER_MS);
    });
  }

  function recordPath(pathname: string): void {
    if (pathname === lastPath) return;
    lastPath = pathname;
    record("page_view", { path: pathname });
  }

  function recordException(message: string, stack: string | undefined): void {
    if (exceptions >= MAX_EXCEPTIONS) return;
    exceptions += 1;
    record("exception", {
      message: cappedText(message, MAX_MESSAGE_LENGTH),
      stack: stack ? cappedText(stack, MAX_STACK_LENGTH) : undefined,
    });
  }

  /** A sign-in once per browser session, and daily activity once a day, for the person signed in. */
  function recordPerson(me: MeResponse | undefined): void {
    quietly(() => {
      const session = storageOf("sessionStorage");
      if (!me) return;
      if (!me.isAuthenticated) {
        // Signed out: the next sign-in in this tab is a new session.
        session?.removeItem(LOGIN_KEY);
        return;
      }
      // Viewing as someone is not that person's own sign-in or day of use.
      if (me.impersonatedUser) return;
      const userId = me.user.sourcedId;
      if (session && session.getItem(LOGIN_KEY) !== userId) {
        session.setItem(LOGIN_KEY, userId);
        record("login");
      }
      const local = storageOf("localStorage");
      const key = `${DAILY_ACTIVE_KEY}.${userId}`;
      const today = localDateOf(new Date(), SCHOOL_TIME_ZONE);
      if (local && local.getItem(key) !== today) {
        local.setItem(key, today);
        record("daily_active");
      }
    });
  }

  quietly(() => {
    recordPath(router.state.location.pathname);
    router.subscribe("onResolved", ({ toLocation }) => quietly(() => recordPath(toLocation.pathname)));

    recordPerson(queryClient.getQueryData<MeResponse>(authKeys.me));
    queryClient.getQueryCache().subscribe((event) => {
      if (event.type === "updated" && event.action.type === "success" && isMeQuery(event.query.queryKey))
        recordPerson(event.query.state.data as MeResponse | undefined);
    });

    window.addEventListener("error", (event) =>
      quietly(() => {
        const error = event.error as { stack?: unknown } | null | undefined;
        recordException(event.message, typeof error?.stack === "string" ? error.stack : undefined);
      }),
    );
    window.addEventListener("unhandledrejection", (event) =>
      quietly(() => {
        const reason = event.reason as unknown;
        if (reason instanceof Error) recordException(`${reason.name}: ${reason.message}`, reason.stack);
        else recordException(String(reason), undefined);
      }),
    );
    window.addEventListener("pagehide", () => flush(true));
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") flush(true);
    });
  });
}
