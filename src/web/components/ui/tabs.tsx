import { Link, type LinkProps } from "@tanstack/react-router";
import type { KeyboardEvent, ReactNode } from "react";

export interface TabItem<Id extends string> {
  id: Id;
  label: ReactNode;
  /** Where the tab leads, for a choice kept in the address; without it the tab is a button. */
  link?: LinkProps;
}

const LOOKS = {
  /** Sections of a page: a line under the row, the chosen tab underlined. */
  underline: {
    list: "flex overflow-x-auto border-b border-slate-200 sm:gap-2 dark:border-slate-800",
    tab: "-mb-px inline-flex min-h-10 items-center border-b-2 px-2.5 py-2 text-sm font-semibold whitespace-nowrap sm:px-4",
    selected: "border-brand-600 text-brand-700 dark:border-brand-500 dark:text-brand-100",
    other: "border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white",
  },
  /** A compact choice (a period, a view): buttons in a tray; on a narrow screen they wrap and fill its rows. */
  pills: {
    list: "flex max-w-full flex-wrap gap-1 rounded-lg border border-slate-300 bg-slate-100 p-1 sm:inline-flex dark:border-slate-700 dark:bg-slate-800",
    tab: "inline-flex min-h-9 flex-auto items-center justify-center rounded-md px-3 py-1.5 text-sm font-semibold whitespace-nowrap sm:flex-none sm:px-4",
    selected: "bg-white text-brand-700 shadow-sm dark:bg-slate-950 dark:text-brand-100",
    other: "text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white",
  },
} as const;

/** The id of a tab, for the panel that it labels (`aria-labelledby`). */
export function tabId(idPrefix: string, id: string): string {
  return `${idPrefix}-${id}`;
}

/**
 * A row of tabs (WAI-ARIA tabs): the chosen one is `aria-selected` and the only one reached with
 * Tab; the arrow keys, Home and End move between them, Enter or Space opens the focused one. A tab
 * with a `link` is a link (the choice lives in the address), any other a button calling `onSelect`.
 */
export function Tabs<Id extends string>({
  label,
  items,
  selected,
  onSelect,
  idPrefix,
  panelId,
  look = "underline",
  className = "",
}: {
  /** What the tabs choose between, for screen readers: "Sections", "Period". */
  label: string;
  items: readonly TabItem<Id>[];
  selected: Id | undefined;
  onSelect?: (id: Id) => void;
  /** Each tab's id is `<idPrefix>-<id>` (see `tabId`). */
  idPrefix: string;
  /** The panel the tabs show, when it carries `role="tabpanel"`. */
  panelId?: string;
  look?: keyof typeof LOOKS;
  className?: string;
}) {
  const styles = LOOKS[look];
  const reachable = items.some((item) => item.id === selected) ? selected : items[0]?.id;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const tabs = [...event.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]')];
    const current = tabs.indexOf(event.target as HTMLElement);
    if (current < 0) return;
    if (event.key === " " && event.target instanceof HTMLAnchorElement) {
      // A link opens with Enter only; a tab opens with Space too.
      event.preventDefault();
      event.target.click();
      return;
    }
    const next =
      event.key === "ArrowRight"
        ? (current + 1) % tabs.length
        : event.key === "ArrowLeft"
          ? (current - 1 + tabs.length) % tabs.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? tabs.length - 1
              : null;
    if (next === null) return;
    event.preventDefault();
    tabs[next]?.focus();
  };

  return (
    <div
      role="tablist"
      aria-label={label}
      aria-orientation="horizontal"
      onKeyDown={onKeyDown}
      className={`${styles.list} ${className}`}
    >
      {items.map((item) => {
        const isSelected = item.id === selected;
        const shared = {
          id: tabId(idPrefix, item.id),
          role: "tab",
          "aria-selected": isSelected,
          "aria-controls": panelId,
          tabIndex: item.id === reachable ? 0 : -1,
          className: `${styles.tab} ${isSelected ? styles.selected : styles.other}`,
        } as const;
        return item.link ? (
          <Link key={item.id} {...item.link} {...shared} onClick={() => onSelect?.(item.id)}>
            {item.label}
          </Link>
        ) : (
          <button key={item.id} type="button" {...shared} onClick={() => onSelect?.(item.id)}>
            {item.label}
          </button>
        );
      })}
    </div>
  );
}
