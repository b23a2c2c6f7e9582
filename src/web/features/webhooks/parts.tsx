import { useTranslation } from "react-i18next";
import type { WebhookDeliveryState } from "../../../shared/contracts/webhooks";
import { TextField } from "../../components/ui/form";

export const TH = "px-3 py-2 text-left font-semibold";
export const TH_NUMBER = "px-3 py-2 text-right font-semibold";
export const TD = "px-3 py-2.5 align-top";
export const TD_NUMBER = "px-3 py-2.5 text-right align-top tabular-nums";
export const THEAD =
  "border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300";
export const ROW = "border-b border-slate-100 last:border-0 dark:border-slate-800";

const STATE_LOOKS: Record<WebhookDeliveryState, string> = {
  queued: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-100",
  delivering: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100",
  succeeded: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100",
  failed: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100",
};

/** A delivery's state as a coloured word. */
export function StateBadge({ state }: { state: WebhookDeliveryState }) {
  const { t } = useTranslation("webhooks");
  return (
    <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATE_LOOKS[state]}`}>
      {t(`states.${state}`)}
    </span>
  );
}

/** An address shown short: its host and path. */
export function shortUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`;
  } catch {
    return url;
  }
}

/** The "from" and "to" days of a filter, kept in the address. */
export function DayRange({
  from,
  to,
  onChange,
}: {
  from: string | undefined;
  to: string | undefined;
  onChange: (range: { from?: string; to?: string }) => void;
}) {
  const { t } = useTranslation("webhooks");
  return (
    <>
      <TextField
        label={t("filters.from")}
        type="date"
        value={from ?? ""}
        max={to}
        onChange={(event) => onChange({ from: event.target.value || undefined, to })}
      />
      <TextField
        label={t("filters.to")}
        type="date"
        value={to ?? ""}
        min={from}
        onChange={(event) => onChange({ from, to: event.target.value || undefined })}
      />
    </>
  );
}
