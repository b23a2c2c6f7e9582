import { useQuery } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { FileBarChart } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import {
  GROWTH_MULTIPLE_TARGET,
  type MapActualStatus,
  type MapReportRow,
} from "../../../shared/contracts/assessment";
import type { searchSchemas } from "../../../shared/routes";
import { Card, PageHeader } from "../../components/page-header";
import { DownloadLink } from "../../components/ui/download-link";
import { SelectField, TextField } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { TableRegion } from "../../components/ui/table-region";
import { formatNumber, formatPercent } from "../../lib/format";
import { orgClassesQuery, orgsQuery } from "../admin/api";
import { EmptyState, Loading, QueryError } from "../home/parts";
import { mapActualsCsvUrl, mapActualsQuery, mapReportCsvUrl, mapReportQuery } from "./map-api";

/**
 * A class of the chosen school: typing narrows the list (a school may have hundreds of classes).
 * Without a school there is nothing to choose.
 */
function ClassChooser({
  schoolId,
  value,
  onChange,
}: {
  schoolId: string | undefined;
  value: string | undefined;
  onChange: (classId: string | undefined) => void;
}) {
  const { t } = useTranslation("assessment");
  const [text, setText] = useState("");
  const classes = useQuery({ ...orgClassesQuery(schoolId ?? "", text, 0), enabled: Boolean(schoolId) });
  if (!schoolId) return null;
  return (
    <div className="grid grid-cols-2 gap-2">
      <TextField
        label={t("map.report.findClass")}
        type="search"
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <SelectField
        label={t("map.report.class")}
        value={value ?? ""}
        onChange={(event) => onChange(event.target.value || undefined)}
        options={[
          { value: "", label: t("map.report.allClasses") },
          ...(classes.data?.data ?? []).map((entry) => ({ value: entry.sourcedId, label: entry.title })),
        ]}
      />
    </div>
  );
}

type ReportSearch = z.output<typeof searchSchemas.mapReport>;

/** The schools (and the district) an administrator narrows a report to. */
function SchoolSelect({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (schoolId: string | undefined) => void;
}) {
  const { t } = useTranslation("assessment");
  const orgs = useQuery(orgsQuery(""));
  return (
    <SelectField
      label={t("map.report.school")}
      value={value ?? ""}
      onChange={(event) => onChange(event.target.value || undefined)}
      options={[
        { value: "", label: t("map.report.allSchools") },
        ...(orgs.data?.data ?? []).map((org) => ({ value: org.sourcedId, label: org.name })),
      ]}
    />
  );
}

/**
 * /app/map-growth-report: a school's (or a class's) growth over one window by grade and subject:
 * the share meeting projection, the median conditional growth percentile and the share at 2×.
 */
export function MapGrowthReportPage() {
  const { t } = useTranslation("assessment");
  const search = useSearch({ strict: false }) as ReportSearch;
  const navigate = useNavigate();
  const report = useQuery(mapReportQuery(search));
  const go = (next: Partial<ReportSearch>) =>
    void navigate({ to: "/app/map-growth-report", search: { ...search, ...next } as never, replace: true });
  const data = report.data;
  const years = data?.choices ?? [];
  const windows = years.find((choice) => choice.schoolYear === data?.schoolYear)?.windows ?? [];
  return (
    <div>
      <PageHeader
        title={t("map.report.title")}
        description={t("map.report.description", { target: GROWTH_MULTIPLE_TARGET })}
        actions={
          data && data.rows.length > 0 ? (
            <DownloadLink
              href={mapReportCsvUrl({
                ...search,
                schoolYear: data.schoolYear ?? undefined,
                window: data.window ?? undefined,
              })}
            >
              {t("map.report.csv")}
            </DownloadLink>
          ) : undefined
        }
      />
      <div className="mb-5 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <SelectField
          label={t("map.report.schoolYear")}
          value={String(data?.schoolYear ?? "")}
          onChange={(event) => go({ schoolYear: Number(event.target.value), window: undefined })}
          options={years.map((choice) => ({
            value: String(choice.schoolYear),
            label: `${choice.schoolYear}–${choice.schoolYear + 1}`,
          }))}
        />
        <SelectField
          label={t("map.report.window")}
          value={data?.window ?? ""}
          onChange={(event) => go({ window: event.target.value as ReportSearch["window"] })}
          options={windows.map((window) => ({ value: window, label: t(`map.windows.${window}`) }))}
        />
        <SchoolSelect value={search.schoolId} onChange={(schoolId) => go({ schoolId, classId: undefined })} />
        <ClassChooser
          schoolId={search.schoolId}
          value={search.classId}
          onChange={(classId) => go({ classId })}
        />
      </div>
      {report.isPending ? (
        <Loading label={t("map.loading")} rows={6} />
      ) : report.isError ? (
        <QueryError error={report.error} fallback={t("map.failed")} onRetry={() => report.refetch()} />
      ) : report.data.rows.length === 0 ? (
        <EmptyState icon={FileBarChart} title={t("map.report.emptyTitle")}>
          {t("map.report.emptyBody")}
        </EmptyState>
      ) : (
        <div className="space-y-6">
          {[...Map.groupBy(report.data.rows, (row) => row.subject)].map(([subject, rows]) => (
            <SubjectReport key={subject} subject={subject} rows={rows} />
          ))}
        </div>
      )}
    </div>
  );
}

/** A subject's grades, each with bars for the share meeting projection and the share at 2×. */
function SubjectReport({ subject, rows }: { subject: string; rows: MapReportRow[] }) {
  const { t } = useTranslation("assessment");
  const total = rows.find((row) => row.total);
  return (
    <Card>
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 className="text-xl font-bold">{subject}</h2>
        {total && (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {t("map.report.subjectSummary", {
              students: total.students,
              met: total.shareMetProjected === null ? "—" : formatPercent(total.shareMetProjected),
              target: total.shareAtTarget === null ? "—" : formatPercent(total.shareAtTarget),
            })}
          </p>
        )}
      </div>
      <TableRegion label={t("map.report.tableLabel", { subject })} className="mt-4">
        <table className="w-full min-w-[44rem] text-left text-sm">
          <thead className="border-b border-slate-200 text-slate-600 dark:border-slate-700 dark:text-slate-300">
            <tr>
              <th scope="col" className="py-2 pr-3">
                {t("map.report.grade")}
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                {t("map.report.students")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("map.report.metProjection")}
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                {t("map.report.medianCgp")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("map.report.atTarget", { target: GROWTH_MULTIPLE_TARGET })}
              </th>
              <th scope="col" className="py-2 text-right">
                {t("map.report.medianMultiple")}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr
                key={`${row.total}-${row.grade}`}
                className={`border-b border-slate-100 dark:border-slate-800 ${row.total ? "font-semibold" : ""}`}
              >
                <th scope="row" className="py-2 pr-3">
                  {row.total
                    ? t("map.report.allGrades")
                    : row.grade === null
                      ? t("map.report.gradeUnknown")
                      : row.grade === 0
                        ? t("map.report.kindergarten")
                        : t("map.report.gradeN", { grade: row.grade })}
                </th>
                <td className="py-2 pr-3 text-right tabular-nums">{row.students}</td>
                <td className="py-2 pr-3">
                  <ShareBar
                    share={row.shareMetProjected}
                    count={row.metProjected}
                    tone="bg-brand-600 dark:bg-brand-500"
                  />
                </td>
                <td className="py-2 pr-3 text-right tabular-nums">
                  {row.medianConditionalGrowthPercentile ?? "—"}
                </td>
                <td className="py-2 pr-3">
                  <ShareBar share={row.shareAtTarget} count={row.atTarget} tone="bg-emerald-600" />
                </td>
                <td className="py-2 text-right tabular-nums">
                  {row.medianMultiple === null ? "—" : `${formatNumber(row.medianMultiple, 2)}×`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
    </Card>
  );
}

function ShareBar({ share, count, tone }: { share: number | null; count: number; tone: string }) {
  if (share === null) return <span>—</span>;
  return (
    <span className="flex items-center gap-2">
      <span aria-hidden="true" className="h-2.5 w-24 rounded-full bg-slate-100 dark:bg-slate-800">
        <span
          className={`block h-2.5 rounded-full ${tone}`}
          style={{ width: `${Math.round(share * 100)}%` }}
        />
      </span>
      <span className="tabular-nums">
        {formatPercent(share)} <span className="text-slate-600 dark:text-slate-300">({count})</span>
      </span>
    </span>
  );
}

type ActualsSearch = z.output<typeof searchSchemas.mapActuals>;
const ACTUALS_PAGE_SIZE = 50;

const STATUS_STYLE: Record<MapActualStatus, string> = {
  goalReached: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  aboveProjection: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200",
  belowProjection: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  awaitingTest: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100",
};

/** /app/map_actuals_report: each student's actual RIT against the projection and their RIT goal. */
export function MapActualsReportPage() {
  const { t } = useTranslation("assessment");
  const search = useSearch({ strict: false }) as ActualsSearch;
  const navigate = useNavigate();
  const filters = { ...search, perPage: ACTUALS_PAGE_SIZE };
  const actuals = useQuery(mapActualsQuery(filters));
  const go = (next: Partial<ActualsSearch>) =>
    void navigate({
      to: "/app/map_actuals_report",
      search: { ...search, page: 0, ...next } as never,
      replace: true,
    });
  const data = actuals.data;
  return (
    <div>
      <PageHeader
        title={t("map.actuals.title")}
        description={t("map.actuals.description")}
        actions={
          data && data.total > 0 ? (
            <DownloadLink href={mapActualsCsvUrl({ ...filters, schoolYear: data.schoolYear ?? undefined })}>
              {t("map.report.csv")}
            </DownloadLink>
          ) : undefined
        }
      />
      <div className="mb-5 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <SelectField
          label={t("map.report.schoolYear")}
          value={String(data?.schoolYear ?? "")}
          onChange={(event) => go({ schoolYear: Number(event.target.value) })}
          options={(data?.schoolYears ?? []).map((year) => ({
            value: String(year),
            label: `${year}–${year + 1}`,
          }))}
        />
        <SchoolSelect value={search.schoolId} onChange={(schoolId) => go({ schoolId, classId: undefined })} />
        <ClassChooser
          schoolId={search.schoolId}
          value={search.classId}
          onChange={(classId) => go({ classId })}
        />
        <SelectField
          label={t("map.actuals.subject")}
          value={search.subject ?? ""}
          onChange={(event) => go({ subject: event.target.value || undefined })}
          options={[
            { value: "", label: t("map.guide.allSubjects") },
            ...(data?.subjects ?? []).map((subject) => ({ value: subject, label: subject })),
          ]}
        />
        <TextField
          label={t("map.guide.search")}
          type="search"
          defaultValue={search.search}
          onChange={(event) => go({ search: event.target.value })}
        />
      </div>
      {actuals.isPending ? (
        <Loading label={t("map.loading")} rows={6} />
      ) : actuals.isError ? (
        <QueryError error={actuals.error} fallback={t("map.failed")} onRetry={() => actuals.refetch()} />
      ) : actuals.data.rows.length === 0 ? (
        <EmptyState icon={FileBarChart} title={t("map.actuals.emptyTitle")}>
          {t("map.actuals.emptyBody")}
        </EmptyState>
      ) : (
        <>
          <TableRegion label={t("map.actuals.tableLabel")}>
            <table className="w-full min-w-[48rem] text-left text-sm">
              <thead className="border-b border-slate-200 text-slate-600 dark:border-slate-700 dark:text-slate-300">
                <tr>
                  <th scope="col" className="py-2 pr-3">
                    {t("map.guide.student")}
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    {t("map.actuals.subject")}
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right">
                    {t("map.actuals.fall")}
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right">
                    {t("map.actuals.latest")}
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right">
                    {t("map.actuals.projected")}
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right">
                    {t("map.actuals.goal")}
                  </th>
                  <th scope="col" className="py-2">
                    {t("map.actuals.status")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {actuals.data.rows.map((row) => (
                  <tr
                    key={`${row.studentId}-${row.subject}`}
                    className="border-b border-slate-100 dark:border-slate-800"
                  >
                    <th scope="row" className="py-2 pr-3 font-semibold">
                      {row.name}
                      {row.grade !== null && (
                        <span className="block text-xs font-normal text-slate-600 dark:text-slate-300">
                          {row.grade === 0
                            ? t("map.report.kindergarten")
                            : t("map.report.gradeN", { grade: row.grade })}
                        </span>
                      )}
                    </th>
                    <td className="py-2 pr-3">{row.subject}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{row.startRit}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">
                      {row.latestRit ?? "—"}
                      {row.latestTerm && (
                        <span className="block text-xs text-slate-600 dark:text-slate-300">
                          {row.latestTerm}
                        </span>
                      )}
                    </td>
                    <td className="py-2 pr-3 text-right tabular-nums">{row.projectedRit ?? "—"}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{row.goalRit ?? "—"}</td>
                    <td className="py-2">
                      <span
                        className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[row.status]}`}
                      >
                        {t(`map.actuals.statuses.${row.status}`)}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
          <Pager
            offset={actuals.data.page * actuals.data.perPage}
            limit={actuals.data.perPage}
            total={actuals.data.total}
            label={t("map.actuals.rows")}
            onChange={(offset) => go({ page: Math.floor(offset / ACTUALS_PAGE_SIZE) })}
          />
        </>
      )}
    </div>
  );
}
