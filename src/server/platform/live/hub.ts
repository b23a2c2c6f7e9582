import { type LiveEventData, type LiveEventType, liveEventDataSchema } from "../../../shared/contracts/live";
import type { AuthService } from "../../domains/auth/service";
import { readSessionChange, SESSION_CHANGES_CHANNEL } from "../../domains/auth/service";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import type { Logger } from "../../lib/logger";
import type { BusPayload, EventBus } from "../events/bus";

/** The bus channel of events addressed to people: `{ type, userIds, data }`. */
const LIVE_CHANNEL = "live.events";
/** The events that name people; the others come from the hub itself. */
const PUBLISHED_TYPES = ["home-changed", "notifications-changed", "conversation-changed"] as const;
type PublishedType = (typeof PUBLISHED_TYPES)[number];
/** Ids per bus message: keeps each one far under the bus's size limit. */
const USER_IDS_PER_MESSAGE = 100;
/** Tabs of one person with a live stream, per server process. */
export const MAX_LIVE_CONNECTIONS_PER_USER = 5;
/** Keeps proxies and browsers from closing an idle stream (most wait 60 s or more). */
const HEARTBEAT_MS = 25_000;

/** One open stream: who it is for and how to write to it. */
export interface LiveListener {
  /** The session's cookie token, to check the session again after it changed. */
  token: string;
  tokenHash: string;
  /** The person who signed in, and whose view applies (the person viewed as, or the same). */
  realUserId: string;
  viewedUserId: string;
  send(type: LiveEventType, data: LiveEventData): void;
  heartbeat(): void;
  /** Ends the stream (the route's handler returns). */
  close(): void;
}

/**
 * The live updates of this process: streams open here, fed from the bus, so an event that
 * happened in any process reaches a person connected to any other. Create it after the auth
 * service, so a session change has been applied to the session cache when the hub checks it.
 */
export function createLiveHub(options: { bus: EventBus; auth: AuthService; logger: Logger }) {
  const { bus, auth, logger } = options;
  const listeners = new Set<LiveListener>();

  const isAddressedTo = (listener: LiveListener, userIds: ReadonlySet<string>) =>
    userIds.has(listener.realUserId) || userIds.has(listener.viewedUserId);

  bus.subscribe(LIVE_CHANNEL, (payload) => {
    const event = readLiveMessage(payload);
    if (!event) return;
    const userIds = new Set(event.userIds);
    for (const listener of listeners) {
      if (!isAddressedTo(listener, userIds)) continue;
      // A student's event names the student: a Guide viewing as two students in two tabs can tell.
      const studentId = userIds.has(listener.viewedUserId) ? listener.viewedUserId : listener.realUserId;
      listener.send(event.type, event.type === "home-changed" ? { studentId } : event.data);
    }
  });

  bus.subscribe(SESSION_CHANGES_CHANNEL, (payload) => {
    const change = readSessionChange(payload);
    if (!change) return;
    for (const listener of listeners) {
      if ("everyone" in change) listener.send("profile-changed", {});
      else if (
        "tokenHash" in change
          ? listener.tokenHash === change.tokenHash
          : isAddressedTo(listener, new Set([change.userId]))
      )
        void recheck(listener);
    }
  });

  bus.onMissedMessages(() => {
    for (const listener of listeners) listener.send("resync", {});
  });

  /** After its session changed: ends the stream of a session that ended, else follows the change. */
  async function recheck(listener: LiveListener): Promise<void> {
    try {
      const session = await auth.resolveSession(listener.token);
      if (!session) {
        listener.send("session-ended", {});
        remove(listener);
        listener.close();
        return;
      }
      listener.viewedUserId = session.impersonation?.user.sourcedId ?? session.user.sourcedId;
      listener.send("profile-changed", {});
    } catch (error) {
      logger.warn("live stream could not check its session", { error: String(error) });
    }
  }

  const heartbeats = setInterval(() => {
    for (const listener of listeners) listener.heartbeat();
  }, HEARTBEAT_MS);
  heartbeats.unref();

  function add(listener: LiveListener): void {
    let open = 0;
    for (const other of listeners) if (other.realUserId === listener.realUserId) open++;
    if (open >= MAX_LIVE_CONNECTIONS_PER_USER) {
      throw new AppError(
        "too_many_requests",
        message("common:live.tooManyConnections", { max: MAX_LIVE_CONNECTIONS_PER_USER }),
      );
    }
    listeners.add(listener);
  }

  function remove(listener: LiveListener): void {
    listeners.delete(listener);
  }

  /** Tells the people concerned, in every process, that something of theirs changed. */
  async function publish(type: PublishedType, userIds: readonly string[], data: LiveEventData = {}) {
    const unique = [...new Set(userIds)];
    for (let start = 0; start < unique.length; start += USER_IDS_PER_MESSAGE) {
      const slice = unique.slice(start, start + USER_IDS_PER_MESSAGE);
      await bus.publish(LIVE_CHANNEL, { type, userIds: slice, data: { ...data } });
    }
  }

  /** At shutdown: ends every stream, so the server can close (browsers reconnect elsewhere). */
  function closeAll(): void {
    clearInterval(heartbeats);
    for (const listener of listeners) listener.close();
    listeners.clear();
  }

  return { add, remove, publish, closeAll, connectionCount: () => listeners.size };
}

export type LiveHub = ReturnType<typeof createLiveHub>;

function readLiveMessage(
  payload: BusPayload,
): { type: PublishedType; userIds: string[]; data: LiveEventData } | null {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return null;
  const { type, userIds, data } = payload;
  if (!PUBLISHED_TYPES.includes(type as PublishedType) || !Array.isArray(userIds)) return null;
  const read = liveEventDataSchema.safeParse(data ?? {});
  return {
    type: type as PublishedType,
    userIds: userIds.filter((id): id is string => typeof id === "string"),
    data: read.success ? read.data : {},
  };
}
