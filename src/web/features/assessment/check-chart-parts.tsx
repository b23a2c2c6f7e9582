import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { CheckChartSummary } from "../../../shared/contracts/assessment";
import { SELECT_CLASS } from "../xp/student-picker";
import { checkChartListQuery } from "./check-charts-api";

/** Small pieces the check chart pages share. */

export const LINK_CLASS =
  "rounded font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-100";

/** A small button drawn as a link, for a step inside a row. */
export const TEXT_BUTTON_CLASS =
  "rounded text-sm font-semibold text-brand-700 underline-offset-2 hover:underline disabled:opacity-60 dark:text-brand-100";

/** "Level 2: Subtracting within 10". */
export function useLevelTitle() {
  const { t } = useTranslation("assessment");
  return (index: number, name: string) => t("checkCharts.levelTitle", { number: index + 1, name });
}

/** Chooses one chart of the list the caller sees (every chart for staff). */
export function ChartSelect({
  value,
  onChange,
  label,
}: {
  value: string;
  onChange: (chartId: string, chart: CheckChartSummary | undefined) => void;
  label: string;
}) {
  const { t } = useTranslation("assessment");
  const id = useId();
  const charts = useQuery(checkChartListQuery());
  const list = charts.data?.charts ?? [];
  return (
    <div className="w-full sm:max-w-md">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        className={SELECT_CLASS}
        value={value}
        disabled={charts.isPending}
        onChange={(event) =>
          onChange(
            event.target.value,
            list.find((chart) => chart.id === event.target.value),
          )
        }
      >
        <option value="">{charts.isPending ? t("checkCharts.loading") : t("checkCharts.chooseChart")}</option>
        {list.map((chart) => (
          <option key={chart.id} value={chart.id}>
            {t("checkCharts.chartOption", { title: chart.title, subject: chart.subject })}
          </option>
        ))}
      </select>
      {charts.isError && (
        <p role="alert" className="mt-1 text-sm text-red-700 dark:text-red-300">
          {charts.error.message || t("checkCharts.list.loadFailed")}
        </p>
      )}
    </div>
  );
}

/** What the last change did, said to everyone (and to screen readers as it happens); hidden until then. */
export function StatusNote({ note, className = "" }: { note: string | null; className?: string }) {
  return (
    <p
      role="status"
      className={
        note
          ? `${className} rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100`
          : "sr-only"
      }
    >
      {note}
    </p>
  );
}
