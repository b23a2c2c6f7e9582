import { type ReactNode, useEffect, useRef } from "react";

/**
 * What a step just did, in green; goes inside a `role="status"` region so it is read out. With
 * `takeFocus`, it also takes the keyboard's focus when it appears: the dialog or row that was
 * used is gone, and focus must not fall back to the start of the page.
 */
export function DoneNote({
  children,
  className = "",
  takeFocus = false,
}: {
  children: ReactNode;
  className?: string;
  takeFocus?: boolean;
}) {
  const note = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (takeFocus) note.current?.focus();
  }, [takeFocus]);
  return (
    <p
      ref={note}
      tabIndex={takeFocus ? -1 : undefined}
      className={`rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 focus-visible:outline-2 focus-visible:outline-brand-600 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100 ${className}`}
    >
      {children}
    </p>
  );
}
