import { Hono } from "hono";
import { getCookie } from "hono/cookie";
import { streamSSE } from "hono/streaming";
import { currentActor, SESSION_COOKIE } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import type { LiveListener } from "./hub";

/** How long a browser waits before reconnecting after the stream closed (a restart, a new process). */
const RECONNECT_AFTER_MS = 3_000;

/**
 * `GET /api/live`: server-sent events for the signed-in person (and the person viewed as), see
 * shared/contracts/live.ts. Needs a session; refused with 429 past the connections per person.
 */
export function liveRoutes({ live }: AppDeps) {
  return new Hono<AppEnv>().get("/", (c) => {
    const actor = currentActor(c);
    const token = getCookie(c, SESSION_COOKIE) as string;
    let closeStream = () => {};
    const closed = new Promise<void>((resolve) => {
      closeStream = resolve;
    });
    const pending: string[] = [];
    let write: (text: string) => void = (text) => pending.push(text);
    const listener: LiveListener = {
      token,
      tokenHash: actor.session.tokenHash,
      realUserId: actor.realUser.sourcedId,
      viewedUserId: actor.user.sourcedId,
      send: (type, data) => write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`),
      heartbeat: () => write(": heartbeat\n\n"),
      close: () => closeStream(),
    };
    // Before the stream starts, so a refusal is an ordinary 429 answer.
    live.add(listener);
    c.header("Cache-Control", "no-store");
    // Proxies such as nginx would otherwise hold the events back in their buffers.
    c.header("X-Accel-Buffering", "no");
    return streamSSE(c, async (stream) => {
      stream.onAbort(() => {
        live.remove(listener);
        closeStream();
      });
      write = (text) => {
        if (!stream.closed && !stream.aborted) void stream.write(text).catch(() => closeStream());
      };
      await stream.write(`retry: ${RECONNECT_AFTER_MS}\n\n`);
      await stream.writeSSE({ event: "ready", data: "{}" });
      for (const text of pending.splice(0)) write(text);
      await closed;
      live.remove(listener);
    });
  });
}
