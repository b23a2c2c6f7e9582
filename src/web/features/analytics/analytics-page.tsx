import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { Bug, MousePointerClick } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { AnalyticsReport } from "../../../shared/contracts/analytics";
import { DASH_ROLES } from "../../../shared/roles";
import type { searchSchemas } from "../../../shared/routes";
import { BarFigure } from "../../components/charts/bar-figure";
import { PageHeader } from "../../components/page-header";
import { buttonClass, SelectField, TextField } from "../../components/ui/form";
import { TableRegion } from "../../components/ui/table-region";
import { dateLabel, formatNumber, instantLabel, monthDayLabel } from "../../lib/format";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { analyticsReportQuery } from "./api";

type AnalyticsSearch = z.infer<(typeof searchSchemas)["adminAnalytics"]>;

const PAGE = "/app/admin/analytics";
const TH = "px-3 py-2 text-left font-semibold";
const TD = "px-3 py-2";

/** The administrators' view of how Dash is used and where it breaks, from Dash's own analytics. */
export function AnalyticsPage() {
  const { t } = useTranslation("analytics");
  const search = useSearch({ strict: false }) as AnalyticsSearch;
  const navigate = useNavigate();
  const query = { from: search.from, to: search.to, schoolId: search.schoolId, role: search.role };
  const report = useQuery({ ...analyticsReportQuery(query), placeholderData: keepPreviousData });
  const setFilters = (next: Partial<AnalyticsSearch>) =>
    void navigate({ to: PAGE, search: { ...search, ...next } as never });
  const hasFilters = Object.values(query).some(Boolean);

  return (
    <div className="space-y-6">
      <PageHeader title={t("common:pages./app/admin/analytics.title")} description={t("description")} />
      <Section title={t("filters.title")} description={t("filters.description")}>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <TextField
            label={t("filters.from")}
            type="date"
            value={search.from ?? report.data?.from ?? ""}
            max={search.to ?? report.data?.to}
            onChange={(event) => setFilters({ from: event.target.value || undefined })}
          />
          <TextField
            label={t("filters.to")}
            type="date"
            value={search.to ?? report.data?.to ?? ""}
            min={search.from ?? report.data?.from}
            onChange={(event) => setFilters({ to: event.target.value || undefined })}
          />
          <SelectField
            label={t("filters.school")}
            value={search.schoolId ?? ""}
            onChange={(event) => setFilters({ schoolId: event.target.value || undefined })}
            options={[
              { value: "", label: t("filters.allSchools") },
              ...(report.data?.schools ?? []).map((school) => ({ value: school.id, label: school.name })),
            ]}
          />
          <SelectField
            label={t("filters.role")}
            value={search.role ?? ""}
            onChange={(event) =>
              setFilters({ role: (event.target.value || undefined) as AnalyticsSearch["role"] })
            }
            options={[
              { value: "", label: t("filters.allRoles") },
              ...DASH_ROLES.map((role) => ({ value: role, label: t(`common:roles.${role}`) })),
            ]}
          />
        </div>
        {hasFilters && (
          <button
            type="button"
            onClick={() => void navigate({ to: PAGE, search: {} as never })}
            className={buttonClass("secondary", "mt-4")}
          >
            {t("filters.clear")}
          </button>
        )}
      </Section>
      {report.isError ? (
        <QueryError error={report.error} fallback={t("loadFailed")} onRetry={() => void report.refetch()} />
      ) : !report.data ? (
        <Loading label={t("loading")} rows={6} />
      ) : (
        <ReportBody report={report.data} />
      )}
    </div>
  );
}

function ReportBody({ report }: { report: AnalyticsReport }) {
  const { t } = useTranslation("analytics");
  const totalViews = report.days.reduce((sum, day) => sum + day.pageViews, 0);
  const totalErrors = report.days.reduce((sum, day) => sum + day.exceptions, 0);
  const averageDaily = report.days.reduce((sum, day) => sum + day.activePeople, 0) / report.days.length;
  const span = t("span", { from: dateLabel(report.from), to: dateLabel(report.to) });
  return (
    <>
      <dl className="grid gap-4 sm:grid-cols-3">
        <Figure label={t("figures.dailyActive")} value={formatNumber(averageDaily, 1)} />
        <Figure label={t("figures.pageViews")} value={formatNumber(totalViews, 0)} />
        <Figure label={t("figures.errors")} value={formatNumber(totalErrors, 0)} />
      </dl>
      <div className="grid gap-6 lg:grid-cols-2">
        <Section title={t("charts.dailyActive.title")} description={span}>
          <BarFigure
            description={t("charts.dailyActive.description")}
            valueLabel={t("charts.dailyActive.value")}
            formatValue={(value) => formatNumber(value, 0)}
            minimumTop={4}
            bars={report.days.map((day) => ({
              label: monthDayLabel(day.day),
              name: dateLabel(day.day),
              value: day.activePeople,
            }))}
            caption={t("charts.dailyActive.caption")}
          />
        </Section>
        <Section title={t("charts.weeklyActive.title")} description={span}>
          <BarFigure
            description={t("charts.weeklyActive.description")}
            valueLabel={t("charts.weeklyActive.value")}
            formatValue={(value) => formatNumber(value, 0)}
            minimumTop={4}
            bars={report.weeks.map((week) => ({
              label: monthDayLabel(week.weekStart),
              name: t("charts.weeklyActive.week", { day: dateLabel(week.weekStart) }),
              value: week.activePeople,
            }))}
            caption={t("charts.weeklyActive.caption")}
          />
        </Section>
      </div>
      <Section title={t("charts.pageViews.title")} description={span}>
        <BarFigure
          description={t("charts.pageViews.description")}
          valueLabel={t("charts.pageViews.value")}
          formatValue={(value) => formatNumber(value, 0)}
          minimumTop={10}
          bars={report.days.map((day) => ({
            label: monthDayLabel(day.day),
            name: dateLabel(day.day),
            value: day.pageViews,
          }))}
          caption={t("charts.pageViews.caption")}
        />
      </Section>
      <ActiveTable rows={report.activeByRoleAndSchool} />
      <TopPages pages={report.topPages} />
      <Errors errors={report.errors} />
    </>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <dt className="text-sm font-medium text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="mt-1 text-3xl font-bold tabular-nums">{value}</dd>
    </div>
  );
}

function ActiveTable({ rows }: { rows: AnalyticsReport["activeByRoleAndSchool"] }) {
  const { t } = useTranslation("analytics");
  return (
    <Section title={t("active.title")} description={t("active.description")}>
      {rows.length === 0 ? (
        <EmptyState icon={MousePointerClick} title={t("active.empty")} />
      ) : (
        <TableRegion label={t("active.title")}>
          <table className="w-full min-w-[36rem] text-sm">
            <thead className="border-b border-slate-200 dark:border-slate-700">
              <tr>
                <th scope="col" className={TH}>
                  {t("active.role")}
                </th>
                <th scope="col" className={TH}>
                  {t("active.school")}
                </th>
                <th scope="col" className={`${TH} text-right`}>
                  {t("active.daily")}
                </th>
                <th scope="col" className={`${TH} text-right`}>
                  {t("active.weekly")}
                </th>
                <th scope="col" className={`${TH} text-right`}>
                  {t("active.people")}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {rows.map((row) => (
                <tr key={`${row.role}:${row.schoolId}`}>
                  <th scope="row" className={`${TD} text-left font-medium`}>
                    {row.role ? t(`common:roles.${row.role}`) : t("active.noRole")}
                  </th>
                  <td className={TD}>{row.schoolName ?? row.schoolId ?? t("active.noSchool")}</td>
                  <td className={`${TD} text-right tabular-nums`}>{formatNumber(row.dailyActive, 1)}</td>
                  <td className={`${TD} text-right tabular-nums`}>{formatNumber(row.weeklyActive, 1)}</td>
                  <td className={`${TD} text-right tabular-nums`}>{formatNumber(row.people, 0)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </Section>
  );
}

function TopPages({ pages }: { pages: AnalyticsReport["topPages"] }) {
  const { t } = useTranslation("analytics");
  return (
    <Section title={t("pages.title")} description={t("pages.description")}>
      {pages.length === 0 ? (
        <EmptyState icon={MousePointerClick} title={t("pages.empty")} />
      ) : (
        <TableRegion label={t("pages.title")}>
          <table className="w-full min-w-[28rem] text-sm">
            <thead className="border-b border-slate-200 dark:border-slate-700">
              <tr>
                <th scope="col" className={TH}>
                  {t("pages.path")}
                </th>
                <th scope="col" className={`${TH} text-right`}>
                  {t("pages.views")}
                </th>
                <th scope="col" className={`${TH} text-right`}>
                  {t("pages.people")}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {pages.map((page) => (
                <tr key={page.path}>
                  <th scope="row" className={`${TD} text-left font-mono text-xs font-normal break-all`}>
                    {page.path}
                  </th>
                  <td className={`${TD} text-right tabular-nums`}>{formatNumber(page.views, 0)}</td>
                  <td className={`${TD} text-right tabular-nums`}>{formatNumber(page.people, 0)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </Section>
  );
}

function Errors({ errors }: { errors: AnalyticsReport["errors"] }) {
  const { t } = useTranslation("analytics");
  return (
    <Section title={t("errors.title")} description={t("errors.description")}>
      {errors.length === 0 ? (
        <EmptyState icon={Bug} title={t("errors.empty")} />
      ) : (
        <ul className="space-y-3">
          {errors.map((error) => (
            <li
              key={error.message}
              className="rounded-xl border border-slate-200 p-4 dark:border-slate-700"
              data-error-group
            >
              <p className="font-mono text-sm font-semibold break-words text-red-800 dark:text-red-300">
                {error.message || t("errors.noMessage")}
              </p>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
                {t("errors.summary", {
                  count: error.count,
                  people: error.people,
                  when: instantLabel(error.lastSeenAt),
                })}
              </p>
              <p className="mt-1 text-sm break-all">
                <span className="font-medium">{t("errors.paths")}</span> {error.paths.join(", ")}
              </p>
              {error.sampleStack && (
                <details className="mt-2">
                  <summary className="cursor-pointer text-sm font-semibold text-brand-700 dark:text-brand-100">
                    {t("errors.stack")}
                  </summary>
                  <pre className="mt-2 max-h-64 overflow-auto rounded-lg bg-slate-100 p-3 text-xs whitespace-pre-wrap break-all dark:bg-slate-800">
                    {error.sampleStack}
                  </pre>
                </details>
              )}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
