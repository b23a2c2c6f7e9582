import { useQuery } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { FileSpreadsheet, Lightbulb, TrendingDown, TrendingUp, UserRound } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  ADMIN_REPORT_IDS,
  type AdminReportId,
  type ReportFigure,
  type ReportFilter,
  type ReportId,
  type ReportResult,
  type ReportSearch,
} from "../../../shared/contracts/reports";
import { formatChange, formatReportValue } from "../../../shared/report-values";
import { Card, PageHeader } from "../../components/page-header";
import { DownloadLink } from "../../components/ui/download-link";
import { SelectField, TextField } from "../../components/ui/form";
import { shownLocale } from "../../lib/format";
import { useAuth } from "../auth/use-auth";
import { EmptyState, Loading, QueryError } from "../home/parts";
import { StudentPicker } from "../xp/student-picker";
import { reportDownload, reportQuery } from "./api";
import { ReportChartView } from "./report-chart";
import { ReportTableView } from "./report-table";
import { ReportSchedules } from "./schedules";

const DATE_FILTERS: ReadonlySet<ReportFilter> = new Set(["date", "startDate", "endDate"]);
const isAdminReport = (id: ReportId): id is AdminReportId =>
  (ADMIN_REPORT_IDS as readonly string[]).includes(id);

/**
 * Every report's page: its filters (kept in the address), its figures, highlights, charts and
 * tables, and its CSV and PDF, all from the one result the server builds for the page and the files.
 */
function ReportPage({ id }: { id: ReportId }) {
  const { t } = useTranslation("reports");
  const { activeRole } = useAuth();
  const search = useSearch({ strict: false }) as Partial<ReportSearch>;
  const navigate = useNavigate();
  const setSearch = (next: Partial<ReportSearch>) =>
    void navigate({ to: ".", search: { ...search, ...next } as never, replace: true });
  // Someone other than the student chooses whose report it is first.
  const choosesStudent = !isAdminReport(id) && activeRole !== "student";
  const waitsForStudent = choosesStudent && !search.studentId;
  const report = useQuery({ ...reportQuery(id, search), enabled: !waitsForStudent });
  const data = report.data;

  let body: ReactNode;
  if (waitsForStudent) body = <EmptyState icon={UserRound} title={t("chooseStudent")} />;
  else if (report.isPending) body = <Loading label={t("loading")} rows={6} />;
  else if (report.isError)
    body = <QueryError error={report.error} fallback={t("failed")} onRetry={() => report.refetch()} />;
  else if (data) body = <ReportBody report={data} search={search} setSearch={setSearch} />;

  return (
    <div className="space-y-6">
      <PageHeader
        title={data?.title ?? t(`titles.${id}`)}
        description={data ? `${data.subtitle} · ${data.scope}` : undefined}
        actions={
          data && (
            <div className="flex flex-wrap gap-2">
              <DownloadLink href={reportDownload(id, "csv", search)}>{t("downloadCsv")}</DownloadLink>
              <DownloadLink href={reportDownload(id, "pdf", search)}>{t("downloadPdf")}</DownloadLink>
            </div>
          )
        }
      />
      {choosesStudent && (
        <div className="max-w-sm">
          <StudentPicker
            selected={search.studentId ? { sourcedId: search.studentId, name: data?.scope ?? "" } : null}
            onSelect={(student) => setSearch({ studentId: student?.sourcedId, page: 0 })}
            autoSelect
            wide
          />
        </div>
      )}
      {data && <ReportFilters report={data} search={search} setSearch={setSearch} />}
      {body}
      {isAdminReport(id) && activeRole === "administrator" && (
        <ReportSchedules reportId={id} search={search} />
      )}
    </div>
  );
}

function ReportFilters({
  report,
  search,
  setSearch,
}: {
  report: ReportResult;
  search: Partial<ReportSearch>;
  setSearch: (next: Partial<ReportSearch>) => void;
}) {
  const { t } = useTranslation("reports");
  const filters = report.filterKeys.filter((filter) => filter !== "studentId");
  if (filters.length === 0) return null;
  const chosen = filters.filter((filter) => search[filter]).length;
  return (
    // Open on a wide screen; on a phone the filters fold away under their summary.
    <details open={window.matchMedia("(min-width: 640px)").matches} className="group">
      <summary className="cursor-pointer rounded-lg py-1 text-sm font-semibold text-brand-700 dark:text-brand-100">
        {t("filtersSummary", { count: chosen })}
      </summary>
      <Card className="mt-2">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {filters.map((filter) =>
            DATE_FILTERS.has(filter) ? (
              <TextField
                key={filter}
                type="date"
                label={t(`filters.${filter}`)}
                value={String(report.filters[filter] ?? "")}
                onChange={(event) => setSearch({ [filter]: event.target.value || undefined, page: 0 })}
              />
            ) : (
              <SelectField
                key={filter}
                label={t(`filters.${filter}`)}
                value={String(search[filter] ?? "")}
                onChange={(event) =>
                  setSearch({
                    [filter]: event.target.value || undefined,
                    // A class belongs to a school: choosing another school clears it.
                    ...(filter === "schoolId" ? { classId: undefined, guideId: undefined } : {}),
                    page: 0,
                  })
                }
                options={[{ value: "", label: t(`all.${filter}`) }, ...(report.options[filter] ?? [])]}
              />
            ),
          )}
        </div>
        {report.applied.length > 0 && (
          <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">
            {report.applied.map((entry) => `${entry.label}: ${entry.value}`).join(" · ")}
          </p>
        )}
      </Card>
    </details>
  );
}

function FigureCard({ figure }: { figure: ReportFigure }) {
  const { t } = useTranslation("reports");
  const locale = shownLocale();
  const change = formatChange(figure.change, locale);
  const up = (figure.change ?? 0) > 0;
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
      <dt className="text-sm text-slate-600 dark:text-slate-300">{figure.label}</dt>
      <dd className="mt-1 text-2xl font-bold tabular-nums">
        {formatReportValue(figure.value, figure.unit, locale)}
      </dd>
      {figure.change === 0 && (
        <dd className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("noChange")}</dd>
      )}
      {change && figure.change !== 0 && (
        <dd
          className={`mt-1 inline-flex items-center gap-1 text-sm font-medium ${up ? "text-emerald-700 dark:text-emerald-400" : "text-slate-700 dark:text-slate-300"}`}
        >
          {up ? (
            <TrendingUp aria-hidden="true" className="size-4" />
          ) : (
            <TrendingDown aria-hidden="true" className="size-4" />
          )}
          {t("change", { change })}
        </dd>
      )}
    </div>
  );
}

function ReportBody({
  report,
  search,
  setSearch,
}: {
  report: ReportResult;
  search: Partial<ReportSearch>;
  setSearch: (next: Partial<ReportSearch>) => void;
}) {
  const { t } = useTranslation("reports");
  const main = report.tables.find((table) => table.main);
  const [query, setQuery] = useState(search.q ?? "");
  // The search box asks the server once typing pauses, not at every key.
  useEffect(() => {
    if (query === (search.q ?? "")) return;
    const timer = setTimeout(() => setSearch({ q: query || undefined, page: 0 }), 300);
    return () => clearTimeout(timer);
  }, [query, search.q, setSearch]);

  return (
    <>
      {report.figures.length > 0 && (
        <section aria-labelledby="report-figures">
          <h2 id="report-figures" className="sr-only">
            {t("figuresHeading")}
          </h2>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
            {report.figures.map((figure) => (
              <FigureCard key={figure.key} figure={figure} />
            ))}
          </dl>
          {report.comparedWith && (
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{report.comparedWith}</p>
          )}
        </section>
      )}
      {report.highlights.length > 0 && (
        <Card>
          <h2 className="mb-3 text-lg font-bold">{t("highlights")}</h2>
          <ul className="space-y-2">
            {report.highlights.map((highlight) => (
              <li key={highlight} className="flex gap-2">
                <Lightbulb
                  aria-hidden="true"
                  className="mt-0.5 size-5 shrink-0 text-amber-600 dark:text-amber-400"
                />
                <span>{highlight}</span>
              </li>
            ))}
          </ul>
        </Card>
      )}
      {report.charts.length > 0 && (
        <Card>
          <h2 className="sr-only">{t("chartsHeading")}</h2>
          <div className={`grid gap-6 ${report.charts.length > 1 ? "lg:grid-cols-2" : ""}`}>
            {report.charts.map((chart) => (
              <ReportChartView key={chart.key} chart={chart} />
            ))}
          </div>
        </Card>
      )}
      {report.tables.map((table) => (
        <Card key={table.key}>
          <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
            <h2 className="text-lg font-bold">{table.title}</h2>
            <div className="flex flex-wrap items-end gap-2">
              {table === main && table.columns.some((column) => column.unit === "text") && (
                <TextField
                  type="search"
                  label={t("searchTable")}
                  value={query}
                  onChange={(event) => setQuery(event.target.value)}
                  className="w-56"
                />
              )}
              <a
                href={reportDownload(report.id, "csv", search, table.key)}
                download
                className="inline-flex items-center gap-1 py-2 text-sm font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-100"
              >
                <FileSpreadsheet aria-hidden="true" className="size-4" />
                {t("tableCsv", { table: table.title })}
              </a>
            </div>
          </div>
          <ReportTableView
            table={table}
            search={search}
            onSearch={setSearch}
            studentLink={report.id !== "my-learning-report" && report.id !== "my-learning-report-2"}
          />
        </Card>
      ))}
    </>
  );
}

export const DailyMetricsPage = () => <ReportPage id="daily-metrics" />;
export const WeekReportPage = () => <ReportPage id="week-report" />;
export const MonthReportPage = () => <ReportPage id="month-report" />;
export const SessionReportPage = () => <ReportPage id="session-report" />;
export const StudentXpReportPage = () => <ReportPage id="student-xp-report" />;
export const SubjectReportPage = () => <ReportPage id="overall_students_subject_report" />;
export const LearningReportPage = () => <ReportPage id="my-learning-report" />;
export const LearningBySubjectReportPage = () => <ReportPage id="my-learning-report-2" />;
