import { z } from "zod";

/**
 * What the live stream (`GET /api/live`, server-sent events) tells the web app. Each event names
 * what changed, never the data itself: the app refetches through the usual APIs, which check
 * access as always.
 *
 * - `ready`: the stream is open (sent first);
 * - `home-changed`: a student's XP or home summary changed (activity arrived, XP was awarded);
 * - `profile-changed`: the signed-in person's roles, profile or view-as changed;
 * - `session-ended`: the session was signed out or revoked elsewhere; the stream then closes;
 * - `resync`: changes may have been missed; refetch everything on screen;
 * - `notifications-changed`: the person's notifications changed (one arrived, one was read);
 * - `conversation-changed`: a conversation the person is in has a new message (`conversationId`).
 */
export const LIVE_EVENT_TYPES = [
  "ready",
  "home-changed",
  "profile-changed",
  "session-ended",
  "resync",
  "notifications-changed",
  "conversation-changed",
] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

export const liveEventDataSchema = z.object({
  studentId: z.string().optional(),
  conversationId: z.string().optional(),
});
export type LiveEventData = z.infer<typeof liveEventDataSchema>;

export const LIVE_PATH = "/api/live";
