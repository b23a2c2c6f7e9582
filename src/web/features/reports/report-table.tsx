import { Link } from "@tanstack/react-router";
import { ArrowDown, ArrowUp } from "lucide-react";
import { useTranslation } from "react-i18next";
import {
  REPORT_PAGE_SIZE,
  type ReportColumn,
  type ReportSearch,
  type ReportTable,
  type ReportValue,
} from "../../../shared/contracts/reports";
import { columnHeading, formatReportValue } from "../../../shared/report-values";
import { Pager } from "../../components/ui/pager";
import { TableRegion } from "../../components/ui/table-region";
import { shownLocale } from "../../lib/format";
import { Sparkline } from "./report-chart";

const NUMERIC = new Set<ReportColumn["unit"]>([
  "count",
  "xp",
  "minutes",
  "hours",
  "percent",
  "xpPerHour",
  "rit",
]);

function Cell({ value, column, locale }: { value: ReportValue; column: ReportColumn; locale: string }) {
  if (column.unit === "trend" && Array.isArray(value))
    return <Sparkline values={value} label={formatReportValue(value, column.unit, locale)} />;
  return <>{formatReportValue(value, column.unit, locale)}</>;
}

/**
 * One of a report's tables. The main one is sorted by its headings and paged from the address;
 * the others show their first rows, with the count of all of them (the CSV and PDF hold every row).
 * A student's name links to their learning report when `studentLink` is given.
 */
export function ReportTableView({
  table,
  search,
  onSearch,
  studentLink,
}: {
  table: ReportTable;
  search: Partial<ReportSearch>;
  onSearch: (next: Partial<ReportSearch>) => void;
  studentLink: boolean;
}) {
  const { t } = useTranslation("reports");
  const locale = shownLocale();
  if (table.total === 0) return <p className="text-sm text-slate-600 dark:text-slate-300">{table.empty}</p>;
  const sortBy = (key: string) =>
    onSearch({
      sort: key,
      order: search.sort === key && search.order !== "asc" ? "asc" : "desc",
      page: 0,
    });
  const page = search.page ?? 0;
  return (
    <>
      <TableRegion label={table.title}>
        <table className="w-full min-w-max text-left text-sm">
          <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-600 dark:border-slate-700 dark:text-slate-300">
            <tr>
              {table.columns.map((column) => {
                const sorted = table.main && search.sort === column.key;
                const direction = sorted ? (search.order === "asc" ? "ascending" : "descending") : undefined;
                return (
                  <th
                    key={column.key}
                    scope="col"
                    aria-sort={direction}
                    className={`px-3 py-2 font-semibold ${NUMERIC.has(column.unit) ? "text-right" : ""}`}
                  >
                    {table.main && table.sortable.includes(column.key) ? (
                      <button
                        type="button"
                        onClick={() => sortBy(column.key)}
                        className="inline-flex items-center gap-1 uppercase hover:underline"
                      >
                        {columnHeading(column)}
                        {sorted &&
                          (search.order === "asc" ? (
                            <ArrowUp aria-hidden="true" className="size-3" />
                          ) : (
                            <ArrowDown aria-hidden="true" className="size-3" />
                          ))}
                      </button>
                    ) : (
                      columnHeading(column)
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, index) => {
              const studentId = table.studentIds?.[index];
              return (
                <tr
                  // biome-ignore lint/suspicious/noArrayIndexKey: a report's rows have no id; each answer replaces them all
                  key={index}
                  className="border-b border-slate-100 last:border-0 even:bg-slate-50/60 dark:border-slate-800 dark:even:bg-slate-800/40"
                >
                  {table.columns.map((column, at) => (
                    <td
                      key={column.key}
                      className={`px-3 py-2 ${NUMERIC.has(column.unit) ? "text-right tabular-nums" : ""} ${at === 0 ? "font-medium" : ""}`}
                    >
                      {at === 0 && studentId && studentLink ? (
                        <Link
                          to="/app/my-learning-report"
                          search={{ studentId }}
                          className="text-brand-700 underline-offset-2 hover:underline dark:text-brand-100"
                        >
                          <Cell value={row[at] ?? null} column={column} locale={locale} />
                        </Link>
                      ) : (
                        <Cell value={row[at] ?? null} column={column} locale={locale} />
                      )}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableRegion>
      {table.main ? (
        <Pager
          offset={page * REPORT_PAGE_SIZE}
          limit={REPORT_PAGE_SIZE}
          total={table.total}
          onChange={(offset) => onSearch({ page: Math.floor(offset / REPORT_PAGE_SIZE) })}
          label={table.title}
        />
      ) : (
        table.total > table.rows.length && (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
            {t("preview", { shown: table.rows.length, total: table.total })}
          </p>
        )
      )}
    </>
  );
}
