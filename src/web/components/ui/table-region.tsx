import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

// Cells of the first column stay in view while the rest scrolls; they take the card's colour so
// the scrolled cells pass beneath them.
const STICKY_FIRST_COLUMN =
  "[&_tr>:first-child]:sticky [&_tr>:first-child]:left-0 [&_tr>:first-child]:z-10 [&_tr>:first-child]:bg-white dark:[&_tr>:first-child]:bg-slate-900";

/**
 * The one box every wide table sits in: it scrolls inside itself (never the page) with its first
 * column fixed, and a keyboard can reach and scroll it, named after the table.
 */
export function TableRegion({
  label,
  maxHeight,
  className = "",
  children,
}: {
  label: string;
  /** Scroll down inside the box too, past this height (a Tailwind max-height class). */
  maxHeight?: string;
  className?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <section
      aria-label={t("tableRegion", { label })}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard
      tabIndex={0}
      className={`relative overflow-auto focus-visible:outline-2 focus-visible:outline-brand-600 ${STICKY_FIRST_COLUMN} ${maxHeight ?? ""} ${className}`}
    >
      {children}
    </section>
  );
}
