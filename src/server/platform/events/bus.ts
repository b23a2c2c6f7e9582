import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import type { Database } from "../../db/client";
import type { Logger } from "../../lib/logger";

/** What a message carries: JSON, kept small (see MAX_PAYLOAD_BYTES). */
export type BusPayload = string | number | boolean | null | BusPayload[] | { [key: string]: BusPayload };
export type BusHandler = (payload: BusPayload) => void;

/**
 * Messages between the server processes of one deployment: cache invalidations and live updates.
 * A message reaches every subscriber of its channel in every process, the publisher's included,
 * at most once. Publish after the change has committed: a subscriber that reads the database on a
 * message must find the change there.
 */
export interface EventBus {
  /**
   * Delivers in this process at once and to the other processes through the database. Rejects
   * only a message over MAX_PAYLOAD_BYTES; failing to reach the other processes is logged.
   */
  publish(channel: string, payload: BusPayload): Promise<void>;
  /** Returns the unsubscribe function. */
  subscribe(channel: string, handler: BusHandler): () => void;
  /**
   * Called after the connection that receives other processes' messages was lost and is back:
   * messages may have been missed meanwhile, so drop whatever they would have invalidated.
   */
  onMissedMessages(handler: () => void): () => void;
  close(): Promise<void>;
}

/** PostgreSQL refuses NOTIFY payloads from 8000 bytes; the envelope needs a little room. */
export const MAX_PAYLOAD_BYTES = 7_800;
/** The one PostgreSQL channel every process listens on; the bus's own channels travel inside. */
const NOTIFY_CHANNEL = "dash_events";
const RECONNECT_FIRST_DELAY_MS = 250;
const RECONNECT_MAX_DELAY_MS = 10_000;

interface Envelope {
  /** The publishing process, which has delivered to its own subscribers already. */
  origin: string;
  channel: string;
  payload: BusPayload;
}

/** Subscribers of this process, shared by both kinds of bus. */
function createDispatcher(logger: Logger) {
  const handlers = new Map<string, Set<BusHandler>>();
  const missedHandlers = new Set<() => void>();
  // One subscriber's failure must not keep the message from the others.
  const runSafely = (run: () => void, channel: string) => {
    try {
      run();
    } catch (error) {
      logger.error("event bus subscriber failed", { channel, error: String(error) });
    }
  };
  return {
    subscribe(channel: string, handler: BusHandler) {
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
      }
      set.add(handler);
      return () => {
        set.delete(handler);
      };
    },
    onMissedMessages(handler: () => void) {
      missedHandlers.add(handler);
      return () => {
        missedHandlers.delete(handler);
      };
    },
    deliver(channel: string, payload: BusPayload) {
      for (const handler of [...(handlers.get(channel) ?? [])]) runSafely(() => handler(payload), channel);
    },
    reportMissed() {
      for (const handler of [...missedHandlers]) runSafely(handler, "(missed messages)");
    },
  };
}

function checkedEnvelope(envelope: Envelope): string {
  const text = JSON.stringify(envelope);
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_PAYLOAD_BYTES) {
    throw new Error(
      `An event bus message on ${envelope.channel} has ${bytes} bytes, more than ${MAX_PAYLOAD_BYTES}: send ids, not records`,
    );
  }
  return text;
}

/** The embedded database belongs to one process: its messages never leave it. */
export function createLocalBus(logger: Logger): EventBus {
  const dispatcher = createDispatcher(logger);
  return {
    async publish(channel, payload) {
      // Same limit as across processes, so a message that works here works on PostgreSQL too.
      checkedEnvelope({ origin: "", channel, payload });
      dispatcher.deliver(channel, payload);
    },
    subscribe: dispatcher.subscribe,
    onMissedMessages: dispatcher.onMissedMessages,
    close: async () => {},
  };
}

/**
 * A bus across processes on PostgreSQL: NOTIFY through the app's pool, LISTEN on one dedicated
 * connection per process, reopened with backoff when it drops. Resolves once listening.
 */
export async function createPostgresBus(options: {
  db: Database;
  connectionString: string;
  logger: Logger;
}): Promise<EventBus> {
  const { db, connectionString, logger } = options;
  const dispatcher = createDispatcher(logger);
  const origin = randomUUID();
  let listener: pg.Client | null = null;
  let isClosed = false;
  let reconnectDelay = RECONNECT_FIRST_DELAY_MS;
  let reconnectTimer: NodeJS.Timeout | undefined;

  const receive = (message: pg.Notification) => {
    if (message.channel !== NOTIFY_CHANNEL || !message.payload) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(message.payload) as Envelope;
    } catch {
      logger.warn("event bus message is not JSON", { bytes: message.payload.length });
      return;
    }
    if (envelope.origin !== origin) dispatcher.deliver(envelope.channel, envelope.payload);
  };

  async function listen(): Promise<void> {
    const client = new pg.Client({ connectionString });
    client.on("notification", receive);
    // A dropped connection reports an error and then ends: reconnect once, on the end.
    client.on("error", (error) => logger.warn("event bus connection failed", { error: String(error) }));
    client.on("end", () => {
      if (listener !== client) return;
      listener = null;
      scheduleReconnect();
    });
    try {
      await client.connect();
      await client.query(`listen ${NOTIFY_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners("end");
      await client.end().catch(() => {});
      throw error;
    }
    listener = client;
  }

  function scheduleReconnect() {
    if (isClosed) return;
    reconnectTimer = setTimeout(async () => {
      try {
        await listen();
        if (isClosed) {
          await listener?.end();
          return;
        }
        logger.info("event bus listening again");
        reconnectDelay = RECONNECT_FIRST_DELAY_MS;
        dispatcher.reportMissed();
      } catch (error) {
        logger.warn("event bus could not reconnect", { error: String(error), retryInMs: reconnectDelay });
        reconnectDelay = Math.min(reconnectDelay * 2, RECONNECT_MAX_DELAY_MS);
        scheduleReconnect();
      }
    }, reconnectDelay);
    reconnectTimer.unref();
  }

  await listen();

  return {
    async publish(channel, payload) {
      const text = checkedEnvelope({ origin, channel, payload });
      dispatcher.deliver(channel, payload);
      try {
        await db.execute(sql`select pg_notify(${NOTIFY_CHANNEL}, ${text})`);
      } catch (error) {
        // The change itself has committed; other processes catch up when their caches expire.
        logger.warn("event bus could not publish", { channel, error: String(error) });
      }
    },
    subscribe: dispatcher.subscribe,
    onMissedMessages: dispatcher.onMissedMessages,
    async close() {
      isClosed = true;
      clearTimeout(reconnectTimer);
      const client = listener;
      listener = null;
      await client?.end().catch(() => {});
    },
  };
}
