import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";

/** Says what a step did; the row it was done to may leave its list, so focus moves to this message. */
export type Announce = (text: string) => void;

/** The page's message of what a step did, and the function that sets it. */
export function useAnnouncement(): [ReactNode, Announce] {
  const [announcement, setAnnouncement] = useState<{ text: string; at: number } | null>(null);
  const message = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (announcement) message.current?.focus();
  }, [announcement]);
  const node = (
    <div role="status">
      {announcement && (
        <p
          key={announcement.at}
          ref={message}
          tabIndex={-1}
          className="rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm font-medium text-emerald-900 focus-visible:outline-2 focus-visible:outline-brand-600 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100"
        >
          {announcement.text}
        </p>
      )}
    </div>
  );
  return [node, useCallback((text: string) => setAnnouncement({ text, at: Date.now() }), [])];
}
