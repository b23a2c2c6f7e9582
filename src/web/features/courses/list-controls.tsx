import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { buttonClass, TextField } from "../../components/ui/form";

/** The parts of the course and enrollment lists: a search box, sortable headers, paging, badges. */

export const SELECT_CLASS =
  "mt-1 block h-11 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm focus:border-brand-600 dark:border-slate-700 dark:bg-slate-950";

const SEARCH_DELAY_MS = 300;

/** A search box that reports what was typed once typing pauses, and follows the value when it changes elsewhere (back button). */
export function SearchBox({
  label,
  value,
  onSearch,
  placeholder,
  className = "",
}: {
  label: string;
  value: string;
  onSearch: (search: string) => void;
  placeholder?: string;
  className?: string;
}) {
  const [text, setText] = useState(value);
  const reported = useRef(value);
  const report = useRef(onSearch);
  report.current = onSearch;

  useEffect(() => {
    if (value === reported.current) return;
    reported.current = value;
    setText(value);
  }, [value]);

  useEffect(() => {
    const next = text.trim();
    if (next === reported.current) return;
    const timer = setTimeout(() => {
      reported.current = next;
      report.current(next);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);

  return (
    <TextField
      label={label}
      type="search"
      value={text}
      maxLength={200}
      placeholder={placeholder}
      onChange={(event) => setText(event.target.value)}
      className={className}
    />
  );
}

/** A column header that sorts the list: a first click sorts ascending, the next reverses. */
export function SortableHeader<Field extends string>({
  label,
  field,
  sort,
  orderBy,
  onSort,
  className = "",
}: {
  label: string;
  field: Field;
  sort: string;
  orderBy: "asc" | "desc";
  onSort: (sort: Field, orderBy: "asc" | "desc") => void;
  className?: string;
}) {
  const { t } = useTranslation("courses");
  const isActive = sort === field;
  const next = isActive && orderBy === "asc" ? "desc" : "asc";
  return (
    <th
      scope="col"
      aria-sort={isActive ? (orderBy === "asc" ? "ascending" : "descending") : "none"}
      className={`px-3 py-2 font-semibold ${className}`}
    >
      <button
        type="button"
        onClick={() => onSort(field, isActive ? next : "asc")}
        className="inline-flex items-center gap-1 rounded uppercase hover:text-slate-900 dark:hover:text-white"
      >
        {label}
        <span aria-hidden="true" className={isActive ? "text-brand-600 dark:text-brand-500" : "opacity-40"}>
          {isActive ? (orderBy === "asc" ? "▲" : "▼") : "↕"}
        </span>
        <span className="sr-only">
          {isActive
            ? t(orderBy === "asc" ? "sortable.ascending" : "sortable.descending")
            : t("sortable.sort")}
        </span>
      </button>
    </th>
  );
}

export const HEAD_CLASS =
  "border-b border-slate-200 text-left text-xs tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300";

const PAGE_SIZES = [25, 50, 100, 200, 500];

/** "1–100 of 240 courses", a page size choice and Previous / Next; `what` names what is counted. */
export function Pager({
  page,
  perPage,
  total,
  what,
  onPage,
  onPerPage,
}: {
  page: number;
  perPage: number;
  total: number;
  what: "courses" | "enrollments";
  onPage: (page: number) => void;
  onPerPage: (perPage: number) => void;
}) {
  const { t } = useTranslation("courses");
  const id = useId();
  const first = page * perPage + 1;
  const last = Math.min(total, (page + 1) * perPage);
  const pages = Math.max(1, Math.ceil(total / perPage));
  const sizes = PAGE_SIZES.includes(perPage) ? PAGE_SIZES : [...PAGE_SIZES, perPage].sort((a, b) => a - b);
  return (
    <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite">
        {total === 0
          ? t("pager.none", { what })
          : first > total
            ? t("pager.pastLast", { page: page + 1, pages })
            : t("pager.range", { what, first, last, total })}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={id} className="text-sm font-medium">
          {t("pager.perPage")}
        </label>
        <select
          id={id}
          value={perPage}
          onChange={(event) => onPerPage(Number(event.target.value))}
          className="h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm dark:border-slate-700 dark:bg-slate-950"
        >
          {sizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
        <button
          type="button"
          className={buttonClass("secondary")}
          disabled={page === 0}
          onClick={() => onPage(Math.min(page - 1, pages - 1))}
        >
          {t("common:pager.previous")}
        </button>
        <span className="text-sm tabular-nums">{t("pager.pageOf", { page: page + 1, pages })}</span>
        <button
          type="button"
          className={buttonClass("secondary")}
          disabled={page + 1 >= pages}
          onClick={() => onPage(page + 1)}
        >
          {t("common:pager.next")}
        </button>
      </div>
    </div>
  );
}

/** A roster record's status: active, or ended / to be deleted. */
export function StatusBadge({ status, ended }: { status: string; ended?: string }) {
  const { t } = useTranslation("courses");
  const isActive = status === "active";
  return (
    <span
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${
        isActive
          ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200"
          : "bg-slate-200 text-slate-700 dark:bg-slate-800 dark:text-slate-200"
      }`}
    >
      {isActive ? t("status.active") : (ended ?? t("status.ended"))}
    </span>
  );
}

/** A failed request, in the words the server or the browser gave. */
export function Problem({ children }: { children: ReactNode }) {
  return (
    <p
      role="alert"
      className="rounded-lg bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
    >
      {children}
    </p>
  );
}
