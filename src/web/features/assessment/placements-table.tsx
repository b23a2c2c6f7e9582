import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Users } from "lucide-react";
import { type ReactNode, useDeferredValue, useState } from "react";
import { useTranslation } from "react-i18next";
import type { PlacementStudentRow } from "../../../shared/contracts/assessment";
import { DownloadLink } from "../../components/ui/download-link";
import { buttonClass, SelectField, TextField } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { TableRegion } from "../../components/ui/table-region";
import { gradeNames } from "../../lib/format";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { SuccessNote } from "../rewards/admin-form";
import { type PlacementFilters, placementListQuery, placementsCsvUrl } from "./placements-api";
import {
  ChangeLevelDialog,
  gradeName,
  gradeOptions,
  NextTestLine,
  RecordTestDialog,
  type StudentToPlace,
  subjectList,
} from "./placements-parts";

const PAGE_SIZE = 25;

type Editing = { kind: "level" | "test"; student: StudentToPlace } | null;

const toPlace = (row: PlacementStudentRow): StudentToPlace => ({
  id: row.id,
  name: row.name,
  grades: Object.fromEntries(row.placements.map((placement) => [placement.subject, placement.currentGrade])),
});

/**
 * Students with a column per subject (level, course, next test), filtered and paged, each with
 * "Change level" and "Record test". Administrators also filter by school, pick students for a bulk
 * change, and download the filtered list.
 */
export function PlacementTable({
  isAdmin,
  bulkAction,
}: {
  isAdmin: boolean;
  /** The administrators' bulk change of the chosen students (ids and names). */
  bulkAction?: (chosen: Map<string, string>, clear: () => void) => ReactNode;
}) {
  const { t } = useTranslation("assessment");
  const [filters, setFilters] = useState<PlacementFilters>({});
  const [searchText, setSearchText] = useState("");
  const search = useDeferredValue(searchText.trim());
  const [page, setPage] = useState(0);
  const [editing, setEditing] = useState<Editing>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [chosen, setChosen] = useState(new Map<string, string>());
  const applied = { ...filters, search: search || undefined };
  const list = useQuery({
    ...placementListQuery(applied, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  const change = (next: Partial<PlacementFilters>) => {
    setFilters((current) => {
      const merged = { ...current, ...next };
      // A grade filters a subject's level: without a subject there is no grade to filter.
      if (!merged.subject) merged.grade = undefined;
      return merged;
    });
    setPage(0);
  };
  const rows = list.data?.students ?? [];
  const placedSubjects = new Set(rows.flatMap((row) => row.placements.map((placement) => placement.subject)));
  const columns = filters.subject
    ? [filters.subject]
    : subjectList().filter((subject) => placedSubjects.has(subject));
  const extraColumns = [...placedSubjects]
    .filter((subject) => !columns.includes(subject) && !filters.subject)
    .sort();
  const subjectColumns = [...columns, ...extraColumns];
  const subjects = subjectList(list.data?.subjects ?? []);
  const allChosen = rows.length > 0 && rows.every((row) => chosen.has(row.id));
  const toggle = (row: PlacementStudentRow, on: boolean) =>
    setChosen((current) => {
      const next = new Map(current);
      if (on) next.set(row.id, row.name);
      else next.delete(row.id);
      return next;
    });

  return (
    <div className="space-y-6">
      <Section title={t("placements.table.filters")}>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <TextField
            label={t("placements.table.search")}
            type="search"
            value={searchText}
            maxLength={200}
            onChange={(event) => {
              setSearchText(event.target.value);
              setPage(0);
            }}
          />
          {isAdmin && (
            <SelectField
              label={t("placements.table.school")}
              value={filters.schoolId ?? ""}
              onChange={(event) => change({ schoolId: event.target.value || undefined })}
              options={[
                { value: "", label: t("placements.table.allSchools") },
                ...(list.data?.schools ?? []).map((school) => ({ value: school.id, label: school.name })),
              ]}
            />
          )}
          <SelectField
            label={t("placements.table.subject")}
            value={filters.subject ?? ""}
            onChange={(event) => change({ subject: event.target.value || undefined })}
            options={[
              { value: "", label: t("placements.table.allSubjects") },
              ...subjects.map((subject) => ({ value: subject, label: subject })),
            ]}
          />
          <SelectField
            label={t("placements.table.grade")}
            value={filters.grade === undefined ? "" : String(filters.grade)}
            disabled={!filters.subject}
            onChange={(event) =>
              change({ grade: event.target.value === "" ? undefined : Number(event.target.value) })
            }
            options={[{ value: "", label: t("placements.table.anyGrade") }, ...gradeOptions()]}
          />
        </div>
      </Section>

      <Section
        title={t("placements.table.title")}
        description={list.data ? t("placements.table.count", { count: list.data.total }) : undefined}
        actions={
          isAdmin && (
            <DownloadLink href={placementsCsvUrl(applied)}>{t("placements.table.download")}</DownloadLink>
          )
        }
      >
        <div role="status">{notice && <SuccessNote className="mb-4">{notice}</SuccessNote>}</div>
        {isAdmin && bulkAction?.(chosen, () => setChosen(new Map()))}
        {list.isPending ? (
          <Loading label={t("placements.table.loading")} rows={6} />
        ) : list.isError ? (
          <QueryError
            error={list.error}
            fallback={t("placements.table.loadFailed")}
            onRetry={() => list.refetch()}
          />
        ) : rows.length === 0 ? (
          <EmptyState icon={Users} title={t("placements.table.emptyTitle")}>
            {t("placements.table.emptyBody")}
          </EmptyState>
        ) : (
          <>
            <TableRegion label={t("placements.table.title")}>
              <table className="w-full min-w-[44rem] text-left text-sm">
                <caption className="sr-only">{t("placements.table.title")}</caption>
                <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
                  <tr>
                    <th scope="col" className="px-3 py-2 font-semibold">
                      {isAdmin ? (
                        <label className="flex items-center gap-2">
                          <input
                            type="checkbox"
                            className="size-4 accent-brand-600"
                            checked={allChosen}
                            onChange={(event) => {
                              for (const row of rows) toggle(row, event.target.checked);
                            }}
                          />
                          {t("placements.table.student")}
                          <span className="sr-only">{t("placements.table.chooseAll")}</span>
                        </label>
                      ) : (
                        t("placements.table.student")
                      )}
                    </th>
                    {subjectColumns.map((subject) => (
                      <th key={subject} scope="col" className="min-w-[9.5rem] px-3 py-2 font-semibold">
                        {subject}
                      </th>
                    ))}
                    <th scope="col" className="px-3 py-2 font-semibold">
                      <span className="sr-only">{t("placements.table.actions")}</span>
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                  {rows.map((row) => (
                    <tr key={row.id} className="align-top">
                      <th scope="row" className="px-3 py-2.5 text-left font-normal">
                        {isAdmin ? (
                          <label className="flex items-start gap-2">
                            <input
                              type="checkbox"
                              className="mt-1 size-4 accent-brand-600"
                              checked={chosen.has(row.id)}
                              onChange={(event) => toggle(row, event.target.checked)}
                            />
                            <StudentCell row={row} />
                          </label>
                        ) : (
                          <StudentCell row={row} />
                        )}
                      </th>
                      {subjectColumns.map((subject) => {
                        const placement = row.placements.find((entry) => entry.subject === subject);
                        return (
                          <td key={subject} className="px-3 py-2.5">
                            {placement ? (
                              <div className="space-y-1">
                                <p className="font-semibold">
                                  {gradeName(placement.currentGrade)}
                                  {placement.startingGrade !== placement.currentGrade && (
                                    <span className="ml-1 text-xs font-normal text-slate-600 dark:text-slate-300">
                                      {t("placements.table.from", {
                                        grade: gradeName(placement.startingGrade),
                                      })}
                                    </span>
                                  )}
                                </p>
                                {placement.currentCourse && (
                                  <p className="text-xs text-slate-600 dark:text-slate-300">
                                    {placement.currentCourse}
                                  </p>
                                )}
                                <p className="text-xs">
                                  <NextTestLine test={placement.nextTest} compact />
                                </p>
                              </div>
                            ) : (
                              <span className="text-slate-600 dark:text-slate-300">
                                {t("placements.table.notPlaced")}
                              </span>
                            )}
                          </td>
                        );
                      })}
                      <td className="px-3 py-2.5">
                        <div className="flex flex-col gap-2">
                          <button
                            type="button"
                            className={buttonClass("secondary", "px-3 py-1.5 whitespace-nowrap")}
                            aria-label={t("placements.actions.changeLevelFor", { name: row.name })}
                            onClick={() => {
                              setNotice(null);
                              setEditing({ kind: "level", student: toPlace(row) });
                            }}
                          >
                            {t("placements.actions.changeLevel")}
                          </button>
                          <button
                            type="button"
                            className={buttonClass("secondary", "px-3 py-1.5 whitespace-nowrap")}
                            aria-label={t("placements.actions.recordTestFor", { name: row.name })}
                            onClick={() => {
                              setNotice(null);
                              setEditing({ kind: "test", student: toPlace(row) });
                            }}
                          >
                            {t("placements.actions.recordTest")}
                          </button>
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
            <Pager
              offset={page * PAGE_SIZE}
              limit={PAGE_SIZE}
              total={list.data.total}
              onChange={(offset) => setPage(offset / PAGE_SIZE)}
              label={t("placements.table.pagerLabel")}
            />
          </>
        )}
      </Section>
      {editing?.kind === "level" && (
        <ChangeLevelDialog
          student={editing.student}
          subjects={subjects}
          initialSubject={filters.subject}
          onClose={() => setEditing(null)}
          onDone={setNotice}
        />
      )}
      {editing?.kind === "test" && (
        <RecordTestDialog
          student={editing.student}
          subjects={subjects}
          initialSubject={filters.subject}
          onClose={() => setEditing(null)}
          onDone={setNotice}
        />
      )}
    </div>
  );
}

function StudentCell({ row }: { row: PlacementStudentRow }) {
  const { t } = useTranslation("assessment");
  return (
    <span className="block min-w-[9rem]">
      <span className="block font-semibold">{row.name}</span>
      <span className="block text-xs text-slate-600 dark:text-slate-300">
        {[
          row.grades.length ? t("placements.table.rosterGrade", { grades: gradeNames(row.grades) }) : null,
          row.schoolName,
        ]
          .filter(Boolean)
          .join(" · ")}
      </span>
    </span>
  );
}
