import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { History } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { BarFigure } from "../../components/charts/bar-figure";
import { PageHeader } from "../../components/page-header";
import { DownloadLink } from "../../components/ui/download-link";
import { SelectField } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { TableRegion } from "../../components/ui/table-region";
import { instantLabel, monthLabel } from "../../lib/format";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { placementReportCsvUrl, placementReportQuery, type ReportFilters } from "./placements-api";
import { DateRangeFields, gradeName, subjectList } from "./placements-parts";

const PAGE_SIZE = 50;

/** /app/student-placement-report: every level change over time, per month and per student, with a CSV. */
export function PlacementReportPage() {
  const { t } = useTranslation("assessment");
  const [filters, setFilters] = useState<ReportFilters>({});
  const [page, setPage] = useState(0);
  const report = useQuery({
    ...placementReportQuery(filters, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  const change = (next: Partial<ReportFilters>) => {
    setFilters((current) => ({ ...current, ...next }));
    setPage(0);
  };
  const months = report.data?.perMonth ?? [];

  return (
    <div className="space-y-6">
      <PageHeader
        title={t("common:pages./app/student-placement-report.title")}
        description={t("placements.report.description")}
        actions={
          <DownloadLink href={placementReportCsvUrl(filters)}>{t("placements.report.download")}</DownloadLink>
        }
      />
      <Section title={t("placements.table.filters")}>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <SelectField
            label={t("placements.table.school")}
            value={filters.schoolId ?? ""}
            onChange={(event) => change({ schoolId: event.target.value || undefined })}
            options={[
              { value: "", label: t("placements.table.allSchools") },
              ...(report.data?.schools ?? []).map((school) => ({ value: school.id, label: school.name })),
            ]}
          />
          <SelectField
            label={t("placements.table.subject")}
            value={filters.subject ?? ""}
            onChange={(event) => change({ subject: event.target.value || undefined })}
            options={[
              { value: "", label: t("placements.table.allSubjects") },
              ...subjectList(report.data?.subjects ?? []).map((subject) => ({
                value: subject,
                label: subject,
              })),
            ]}
          />
          <DateRangeFields from={filters.from} to={filters.to} onChange={change} />
        </div>
      </Section>

      {report.isPending ? (
        <Loading label={t("placements.report.loading")} rows={6} />
      ) : report.isError ? (
        <QueryError
          error={report.error}
          fallback={t("placements.report.loadFailed")}
          onRetry={() => report.refetch()}
        />
      ) : report.data.total === 0 ? (
        <EmptyState icon={History} title={t("placements.report.emptyTitle")}>
          {t("placements.report.emptyBody")}
        </EmptyState>
      ) : (
        <>
          {months.length > 0 && (
            <Section title={t("placements.report.perMonthTitle")}>
              <BarFigure
                bars={months.map((month) => ({
                  label: monthLabel(`${month.month}-15`),
                  name: t("placements.report.monthName", {
                    month: monthLabel(`${month.month}-15`),
                    year: month.month.slice(0, 4),
                  }),
                  value: month.count,
                }))}
                description={t("placements.report.chartDescription")}
                valueLabel={t("placements.report.changes")}
                minimumTop={4}
                caption={t("placements.report.chartCaption", { count: report.data.total })}
              />
            </Section>
          )}
          <Section
            title={t("placements.report.tableTitle")}
            description={t("placements.report.count", { count: report.data.total })}
          >
            <TableRegion label={t("placements.report.tableTitle")}>
              <table className="w-full min-w-[44rem] text-left text-sm">
                <caption className="sr-only">{t("placements.report.tableTitle")}</caption>
                <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
                  <tr>
                    {["student", "subject", "change", "reason", "by", "when"].map((column) => (
                      <th key={column} scope="col" className="px-3 py-2 font-semibold">
                        {t(`placements.report.columns.${column}`)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                  {report.data.changes.map((change) => (
                    <tr key={change.id} className="align-top">
                      <th scope="row" className="px-3 py-2.5 text-left font-normal">
                        <span className="block font-semibold">{change.student.name}</span>
                        {change.schoolName && (
                          <span className="block text-xs text-slate-600 dark:text-slate-300">
                            {change.schoolName}
                          </span>
                        )}
                      </th>
                      <td className="px-3 py-2.5">{change.subject}</td>
                      <td className="px-3 py-2.5 whitespace-nowrap">
                        {change.fromGrade === null
                          ? t("placements.report.firstPlacement", { grade: gradeName(change.toGrade) })
                          : t("placements.report.moved", {
                              from: gradeName(change.fromGrade),
                              to: gradeName(change.toGrade),
                            })}
                      </td>
                      <td className="px-3 py-2.5">{change.reason}</td>
                      <td className="px-3 py-2.5">{change.changedBy ?? "—"}</td>
                      <td className="px-3 py-2.5 whitespace-nowrap text-slate-600 dark:text-slate-300">
                        {instantLabel(change.changedAt)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
            <Pager
              offset={page * PAGE_SIZE}
              limit={PAGE_SIZE}
              total={report.data.total}
              onChange={(offset) => setPage(offset / PAGE_SIZE)}
              label={t("placements.report.pagerLabel")}
            />
          </Section>
        </>
      )}
    </div>
  );
}
