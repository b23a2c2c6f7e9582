import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { LessonView, QtiResponseValue } from "../../../shared/contracts/content";
import { useAuth } from "../auth/use-auth";
import { assignmentKeys } from "./assignments-api";
import { keepResource, lessonKeys, saveResponse } from "./lesson-api";

/** An item's answer: its responses by response identifier. */
export type ItemAnswer = Record<string, QtiResponseValue>;

/** Where an item sits in a lesson: its resource and its identifier. */
export const itemKey = (resourceId: string, itemIdentifier: string) => `${resourceId}\n${itemIdentifier}`;

/** Whether an answer says anything: at least one response that is not empty. */
export function hasAnswer(answer: ItemAnswer | undefined): boolean {
  return Object.values(answer ?? {}).some((value) =>
    Array.isArray(value) ? value.length > 0 : value !== null && value.trim() !== "",
  );
}

/** Answers wait this long after the last change before they are sent. */
const SAVE_DELAY_MS = 800;

export type SaveStatus = "idle" | "saving" | "saved" | "failed";

/**
 * Keeps an attempt's answers on the server as they change: each item's latest answer is sent once
 * the learner pauses, one request at a time per item, so the last answer given is the one kept.
 * `flush` sends whatever waits and settles when all is saved (it throws when something was not).
 */
export function useAnswerSaver(attemptId: string | null) {
  const [status, setStatus] = useState<SaveStatus>("idle");
  const waiting = useRef(
    new Map<string, { resourceId: string; itemIdentifier: string; answer: ItemAnswer }>(),
  );
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const chains = useRef(new Map<string, Promise<void>>());
  const failed = useRef(new Set<string>());

  const send = useCallback(
    (key: string): Promise<void> => {
      const previous = chains.current.get(key) ?? Promise.resolve();
      const next = previous.then(async () => {
        const entry = waiting.current.get(key);
        if (!entry || !attemptId) return;
        waiting.current.delete(key);
        setStatus("saving");
        try {
          await saveResponse(attemptId, {
            resourceId: entry.resourceId,
            itemIdentifier: entry.itemIdentifier,
            response: entry.answer,
          });
          failed.current.delete(key);
        } catch (error) {
          // Kept for the next try, unless a newer answer took its place meanwhile.
          if (!waiting.current.has(key)) waiting.current.set(key, entry);
          failed.current.add(key);
          setStatus("failed");
          throw error;
        }
        if (waiting.current.size === 0 && failed.current.size === 0) setStatus("saved");
      });
      // A failure is reported once, by the caller that waits for it; the chain goes on.
      chains.current.set(
        key,
        next.catch(() => {}),
      );
      return next;
    },
    [attemptId],
  );

  const record = useCallback(
    (resourceId: string, itemIdentifier: string, answer: ItemAnswer) => {
      const key = itemKey(resourceId, itemIdentifier);
      waiting.current.set(key, { resourceId, itemIdentifier, answer });
      clearTimeout(timers.current.get(key));
      timers.current.set(
        key,
        setTimeout(() => {
          timers.current.delete(key);
          send(key).catch(() => {});
        }, SAVE_DELAY_MS),
      );
    },
    [send],
  );

  const flush = useCallback(async () => {
    for (const timer of timers.current.values()) clearTimeout(timer);
    timers.current.clear();
    const keys = new Set([...waiting.current.keys(), ...chains.current.keys()]);
    await Promise.all([...keys].map((key) => send(key)));
  }, [send]);

  // Leaving the page sends what waits; it may still be lost if the tab closes at once.
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const [key, timer] of pending) {
        clearTimeout(timer);
        send(key).catch(() => {});
      }
      pending.clear();
    };
  }, [send]);

  return { status, record, flush };
}

const activeKey = (attemptId: string) => `dash:lesson-active-seconds:${attemptId}`;

/**
 * Seconds the page was seen and in focus while the attempt was open, counted each second. The
 * count is kept in the tab's session storage, so a reload goes on from where it was.
 */
export function useActiveSeconds(attemptId: string | null): () => number {
  const seconds = useRef(0);
  useEffect(() => {
    if (!attemptId) return;
    seconds.current = Number(sessionStorage.getItem(activeKey(attemptId))) || 0;
    const tick = setInterval(() => {
      if (document.visibilityState !== "visible" || !document.hasFocus()) return;
      seconds.current += 1;
      sessionStorage.setItem(activeKey(attemptId), String(seconds.current));
    }, 1000);
    return () => clearInterval(tick);
  }, [attemptId]);
  return useCallback(() => Math.floor(seconds.current), []);
}

/** Forgets a finished attempt's count. */
export function forgetActiveSeconds(attemptId: string) {
  sessionStorage.removeItem(activeKey(attemptId));
}

/**
 * Keeps one of the lesson's resources for later, or lets it go. The step shows the change at once;
 * the clicks on one resource are sent one after the other, and when the last one fails the step
 * goes back to what the server last confirmed. The student's resources page is read again after.
 */
export function useKeepForLater(lessonId: string, resource: { id: string; saved: boolean }) {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const confirmed = useRef(resource.saved);
  const pending = useRef(0);
  // With nothing on its way, the lesson as read holds what the server said.
  if (pending.current === 0) confirmed.current = resource.saved;
  const show = (saved: boolean) =>
    queryClient.setQueryData<LessonView>(lessonKeys.lesson(lessonId), (current) =>
      current
        ? {
            ...current,
            resources: current.resources.map((shown) =>
              shown.id === resource.id ? { ...shown, saved } : shown,
            ),
          }
        : current,
    );
  return useMutation({
    scope: { id: `saved-resource:${resource.id}` },
    mutationFn: (keep: boolean) => keepResource(resource.id, keep),
    onMutate: (keep) => {
      pending.current += 1;
      show(keep);
    },
    onSuccess: (_, keep) => {
      confirmed.current = keep;
    },
    onError: () => {
      if (pending.current === 1) show(confirmed.current);
    },
    onSettled: () => {
      pending.current -= 1;
      return queryClient.invalidateQueries({ queryKey: assignmentKeys.resources(user.sourcedId) });
    },
  });
}
