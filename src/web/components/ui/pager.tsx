import { buttonClass } from "./form";

/** "11–20 of 52" with Previous and Next, for lists the server pages. */
export function Pager({
  offset,
  limit,
  total,
  onChange,
  label,
}: {
  offset: number;
  limit: number;
  total: number;
  onChange: (offset: number) => void;
  /** What is paged, for screen readers: "people", "classes". */
  label: string;
}) {
  if (total <= limit && offset === 0) return null;
  const last = Math.min(offset + limit, total);
  return (
    <nav aria-label={`Pages of ${label}`} className="mt-3 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-600 tabular-nums dark:text-slate-300" aria-live="polite">
        {total === 0 ? "None" : `${offset + 1}–${last} of ${total}`}
      </p>
      <div className="flex gap-2">
        <button
          type="button"
          disabled={offset === 0}
          onClick={() => onChange(Math.max(0, offset - limit))}
          className={buttonClass("secondary")}
        >
          Previous
        </button>
        <button
          type="button"
          disabled={last >= total}
          onClick={() => onChange(offset + limit)}
          className={buttonClass("secondary")}
        >
          Next
        </button>
      </div>
    </nav>
  );
}
