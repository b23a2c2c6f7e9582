import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSearch } from "@tanstack/react-router";
import { CalendarRange, Link2, UserCheck } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { MAX_MAP_UPLOAD_BYTES, type MapImportReport } from "../../../shared/contracts/assessment";
import type { searchSchemas } from "../../../shared/routes";
import { PageHeader } from "../../components/page-header";
import { ConfirmDialog } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { TableRegion } from "../../components/ui/table-region";
import { Tabs, tabId } from "../../components/ui/tabs";
import { dateLabel, formatNumber, instantLabel } from "../../lib/format";
import { ApiRequestError } from "../../lib/http";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { type PickedStudent, StudentPicker } from "../xp/student-picker";
import { ImportPanel } from "./import-panel";
import {
  type HeldMapRow,
  importMapExport,
  linkMapStudent,
  mapImportsQuery,
  mapKeys,
  mapTermsQuery,
  unmatchedMapRowsQuery,
} from "./map-api";

const TABS = ["import", "unmatched", "terms"] as const;

/** /app/admin/map-growth: import NWEA exports, match the rows no student matched, see the terms held. */
export function MapAdminPage() {
  const { t } = useTranslation("assessment");
  const { tab } = useSearch({ strict: false }) as z.output<typeof searchSchemas.mapAdmin>;
  return (
    <div>
      <PageHeader title={t("map.admin.title")} description={t("map.admin.description")} />
      <Tabs
        label={t("map.admin.sections")}
        idPrefix="map-admin-tab"
        panelId="map-admin-panel"
        selected={tab}
        items={TABS.map((id) => ({
          id,
          label: t(`map.admin.tabs.${id}`),
          link: { to: "/app/admin/map-growth", search: { tab: id } },
        }))}
        className="mb-6"
      />
      <div
        id="map-admin-panel"
        role="tabpanel"
        aria-labelledby={tabId("map-admin-tab", tab)}
        className="space-y-6"
      >
        {tab === "unmatched" ? <UnmatchedRows /> : tab === "terms" ? <Terms /> : <ImportTab />}
      </div>
    </div>
  );
}

type ImportAnswer = MapImportReport & { applied: boolean };

function ImportTab() {
  const { t } = useTranslation("assessment");
  return (
    <>
      <ImportPanel<ImportAnswer>
        title={t("map.admin.import.title")}
        description={t("map.admin.import.description", { limit: `${MAX_MAP_UPLOAD_BYTES / 1024 / 1024} MB` })}
        accept=".csv,.zip,text/csv,application/zip"
        upload={importMapExport}
        changesOf={(report) => report.rows.imported + report.rows.updated}
        summaryOf={(report) => t("map.admin.import.summary", { ...report.rows })}
        refresh={[mapKeys.all]}
        details={(report) => (report.unmatched.length > 0 ? <UnmatchedInReport report={report} /> : null)}
      />
      <ImportHistory />
    </>
  );
}

/** The rows of a report no student matched: they wait on the Unmatched tab once imported. */
function UnmatchedInReport({ report }: { report: ImportAnswer }) {
  const { t } = useTranslation("assessment");
  return (
    <details className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm dark:border-amber-800 dark:bg-amber-950">
      <summary className="cursor-pointer font-semibold">
        {t("map.admin.import.unmatched", { count: report.unmatched.length })}
      </summary>
      <ul className="mt-2 max-h-60 space-y-1 overflow-y-auto">
        {report.unmatched.map((row) => (
          <li key={`${row.line}-${row.studentId}`}>
            {t("map.admin.import.unmatchedRow", {
              line: row.line,
              studentId: row.studentId,
              name: row.name ?? "—",
              school: row.school ?? "—",
            })}
          </li>
        ))}
      </ul>
    </details>
  );
}

function ImportHistory() {
  const { t } = useTranslation("assessment");
  const imports = useQuery(mapImportsQuery);
  return (
    <Section title={t("map.admin.history.title")} description={t("map.admin.history.description")}>
      {imports.isPending ? (
        <Loading label={t("map.loading")} />
      ) : imports.isError ? (
        <QueryError error={imports.error} fallback={t("map.failed")} onRetry={() => imports.refetch()} />
      ) : imports.data.imports.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">{t("map.admin.history.none")}</p>
      ) : (
        <TableRegion label={t("map.admin.history.title")}>
          <table className="w-full min-w-[40rem] text-left text-sm">
            <thead className="border-b border-slate-200 text-slate-600 dark:border-slate-700 dark:text-slate-300">
              <tr>
                <th scope="col" className="py-2 pr-3">
                  {t("map.admin.history.file")}
                </th>
                <th scope="col" className="py-2 pr-3">
                  {t("map.admin.history.when")}
                </th>
                <th scope="col" className="py-2 pr-3">
                  {t("map.admin.history.by")}
                </th>
                <th scope="col" className="py-2">
                  {t("map.admin.history.rows")}
                </th>
              </tr>
            </thead>
            <tbody>
              {imports.data.imports.map((entry) => (
                <tr key={entry.id} className="border-b border-slate-100 dark:border-slate-800">
                  <th scope="row" className="py-2 pr-3 font-medium break-all">
                    {entry.fileName}
                  </th>
                  <td className="py-2 pr-3">{instantLabel(entry.importedAt)}</td>
                  <td className="py-2 pr-3">{entry.importedByName ?? entry.importedBy}</td>
                  <td className="py-2">{t("map.admin.import.summary", { ...entry.rows })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </Section>
  );
}

/** Rows no student matched: an administrator ties each StudentID to a student, and its rows import. */
function UnmatchedRows() {
  const { t } = useTranslation("assessment");
  const rows = useQuery(unmatchedMapRowsQuery);
  const [linking, setLinking] = useState<HeldMapRow | null>(null);
  if (rows.isPending) return <Loading label={t("map.loading")} />;
  if (rows.isError)
    return <QueryError error={rows.error} fallback={t("map.failed")} onRetry={() => rows.refetch()} />;
  if (rows.data.rows.length === 0)
    return (
      <EmptyState icon={UserCheck} title={t("map.admin.unmatched.noneTitle")}>
        {t("map.admin.unmatched.noneBody")}
      </EmptyState>
    );
  // One line per NWEA StudentID: linking it imports all of its rows.
  const byStudentId = [...Map.groupBy(rows.data.rows, (row) => row.studentId).values()];
  return (
    <Section title={t("map.admin.unmatched.title")} description={t("map.admin.unmatched.description")}>
      <TableRegion label={t("map.admin.unmatched.title")}>
        <table className="w-full min-w-[40rem] text-left text-sm">
          <thead className="border-b border-slate-200 text-slate-600 dark:border-slate-700 dark:text-slate-300">
            <tr>
              <th scope="col" className="py-2 pr-3">
                {t("map.admin.unmatched.studentId")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("map.admin.unmatched.name")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("map.admin.unmatched.school")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("map.admin.unmatched.tests")}
              </th>
              <th scope="col" className="py-2">
                <span className="sr-only">{t("map.admin.unmatched.actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {byStudentId.map((group) => {
              const first = group[0] as HeldMapRow;
              return (
                <tr key={first.studentId} className="border-b border-slate-100 dark:border-slate-800">
                  <th scope="row" className="py-2 pr-3 font-mono">
                    {first.studentId}
                  </th>
                  <td className="py-2 pr-3">{first.name ?? "—"}</td>
                  <td className="py-2 pr-3">{first.school ?? "—"}</td>
                  <td className="py-2 pr-3">
                    {group.map((row) => `${row.subject} · ${row.termName}`).join("; ")}
                  </td>
                  <td className="py-2 text-right">
                    <button
                      type="button"
                      className={buttonClass("secondary", "inline-flex items-center gap-1.5")}
                      onClick={() => setLinking(first)}
                    >
                      <Link2 aria-hidden="true" className="size-4" />
                      {t("map.admin.unmatched.link")}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableRegion>
      {linking && <LinkDialog row={linking} onClose={() => setLinking(null)} />}
    </Section>
  );
}

function LinkDialog({ row, onClose }: { row: HeldMapRow; onClose: () => void }) {
  const { t } = useTranslation("assessment");
  const [student, setStudent] = useState<PickedStudent | null>(null);
  const refresh = useRefreshMap();
  return (
    <ConfirmDialog
      title={t("map.admin.unmatched.linkTitle", { studentId: row.studentId })}
      message={t("map.admin.unmatched.linkMessage", { name: row.name ?? row.studentId })}
      confirmLabel={t("map.admin.unmatched.linkConfirm")}
      tone="primary"
      onConfirm={async () => {
        // Said in the dialog like the server's refusals.
        if (!student)
          throw new ApiRequestError(t("map.admin.unmatched.chooseStudent"), 400, "invalid_request");
        await linkMapStudent(row.studentId, student.sourcedId);
        await refresh();
      }}
      onClose={onClose}
    >
      <div className="mt-4">
        <StudentPicker wide selected={student} onSelect={setStudent} />
      </div>
    </ConfirmDialog>
  );
}

function useRefreshMap() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: mapKeys.all });
}

/** The terms the school's results cover. */
function Terms() {
  const { t } = useTranslation("assessment");
  const terms = useQuery(mapTermsQuery);
  if (terms.isPending) return <Loading label={t("map.loading")} />;
  if (terms.isError)
    return <QueryError error={terms.error} fallback={t("map.failed")} onRetry={() => terms.refetch()} />;
  if (terms.data.terms.length === 0)
    return (
      <EmptyState icon={CalendarRange} title={t("map.admin.terms.noneTitle")}>
        {t("map.admin.terms.noneBody")}
      </EmptyState>
    );
  return (
    <Section title={t("map.admin.terms.title")} description={t("map.admin.terms.description")}>
      <TableRegion label={t("map.admin.terms.title")}>
        <table className="w-full min-w-[36rem] text-left text-sm">
          <thead className="border-b border-slate-200 text-slate-600 dark:border-slate-700 dark:text-slate-300">
            <tr>
              <th scope="col" className="py-2 pr-3">
                {t("map.admin.terms.term")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("map.admin.terms.subjects")}
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                {t("map.admin.terms.students")}
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                {t("map.admin.terms.tests")}
              </th>
              <th scope="col" className="py-2">
                {t("map.admin.terms.dates")}
              </th>
            </tr>
          </thead>
          <tbody>
            {terms.data.terms.map((term) => (
              <tr key={term.termName} className="border-b border-slate-100 dark:border-slate-800">
                <th scope="row" className="py-2 pr-3 font-medium">
                  {term.termName}
                </th>
                <td className="py-2 pr-3">{term.subjects.join(", ")}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{formatNumber(term.students)}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{formatNumber(term.tests)}</td>
                <td className="py-2">
                  {t("map.admin.terms.dateRange", {
                    from: dateLabel(term.firstTestDate),
                    to: dateLabel(term.lastTestDate),
                  })}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
    </Section>
  );
}
