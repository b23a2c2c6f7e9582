import { useTranslation } from "react-i18next";
import { buttonClass } from "./form";

/** "11–20 of 52" (or "Page 2 of 6") with Previous and Next, for lists the server pages. */
export function Pager({
  offset,
  limit,
  total,
  onChange,
  label,
  countPages = false,
}: {
  offset: number;
  limit: number;
  total: number;
  onChange: (offset: number) => void;
  /** What is paged, for screen readers: "people", "classes". */
  label: string;
  /** Say which page of how many, rather than which items. */
  countPages?: boolean;
}) {
  const { t } = useTranslation();
  if (total <= limit && offset === 0) return null;
  const last = Math.min(offset + limit, total);
  return (
    <nav
      aria-label={t("pager.pagesOf", { what: label })}
      className="mt-3 flex flex-wrap items-center justify-between gap-3"
    >
      <p className="text-sm text-slate-600 tabular-nums dark:text-slate-300" aria-live="polite">
        {total === 0
          ? t("pager.none")
          : countPages
            ? t("pager.page", {
                page: Math.floor(offset / limit) + 1,
                pages: Math.max(1, Math.ceil(total / limit)),
              })
            : t("pager.range", { first: offset + 1, last, total })}
      </p>
      <div className="flex gap-2">
        <button
          type="button"
          disabled={offset === 0}
          onClick={() => onChange(Math.max(0, offset - limit))}
          className={buttonClass("secondary")}
        >
          {t("pager.previous")}
        </button>
        <button
          type="button"
          disabled={last >= total}
          onClick={() => onChange(offset + limit)}
          className={buttonClass("secondary")}
        >
          {t("pager.next")}
        </button>
      </div>
    </nav>
  );
}
