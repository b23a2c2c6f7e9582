import { useQuery } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { GraduationCap, LibraryBig } from "lucide-react";
import { useDeferredValue, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { CourseProgress, LessonCounts } from "../../../shared/contracts/content";
import type { searchSchemas } from "../../../shared/routes";
import { Card, PageHeader } from "../../components/page-header";
import { DownloadLink } from "../../components/ui/download-link";
import { SelectField, TextField } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { TableRegion } from "../../components/ui/table-region";
import { Tabs } from "../../components/ui/tabs";
import { formatNumber, formatPercent, instantLabel, relativeTime } from "../../lib/format";
import { EmptyState, Loading, QueryError } from "../home/parts";
import { courseProgressCsvUrl, courseProgressQuery } from "./assignments-api";
import { CourseChooser } from "./course-chooser";
import { ProgressLegend, ProgressStack } from "./progress-parts";

type ProgressSearch = z.output<typeof searchSchemas.courseProgress>;
const STUDENTS_PER_PAGE = 25;

/**
 * /app/admin/course-progress: a course's students through its syllabus — per class or per unit as
 * bars, each student in the table — with the table as a spreadsheet.
 */
export function CourseProgressPage() {
  const { t } = useTranslation("content");
  const search = useSearch({ strict: false }) as ProgressSearch;
  const navigate = useNavigate();
  const go = (next: Partial<ProgressSearch>) =>
    void navigate({
      to: "/app/admin/course-progress",
      search: { ...search, ...next } as never,
      replace: true,
    });
  const filters = search.courseId ? { courseId: search.courseId, classId: search.classId } : null;
  const report = useQuery({ ...courseProgressQuery(filters ?? { courseId: "" }), enabled: Boolean(filters) });
  const data = filters ? report.data : undefined;

  return (
    <div>
      <PageHeader
        title={t("lessons.progress.page.title")}
        description={t("lessons.progress.page.description")}
        actions={
          filters && data && data.students.length > 0 ? (
            <DownloadLink href={courseProgressCsvUrl(filters)}>{t("lessons.progress.page.csv")}</DownloadLink>
          ) : undefined
        }
      />
      <div className="mb-5 grid gap-4 lg:grid-cols-3">
        <CourseChooser
          value={search.courseId}
          valueTitle={data?.course.title}
          onChange={(courseId) => go({ courseId, classId: undefined })}
          className="lg:col-span-2"
        />
        {data && (
          <SelectField
            label={t("lessons.progress.page.class")}
            value={search.classId ?? ""}
            onChange={(event) => go({ classId: event.target.value || undefined })}
            options={[
              { value: "", label: t("lessons.progress.page.allClasses") },
              ...data.classes.map((entry) => ({ value: entry.id, label: entry.title })),
            ]}
          />
        )}
      </div>

      {!filters ? (
        <EmptyState icon={LibraryBig} title={t("lessons.progress.page.chooseTitle")}>
          {t("lessons.progress.page.chooseBody")}
        </EmptyState>
      ) : report.isError ? (
        <QueryError
          error={report.error}
          fallback={t("lessons.progress.page.loadFailed")}
          onRetry={() => report.refetch()}
        />
      ) : !data ? (
        <Loading label={t("lessons.progress.page.loading")} rows={5} />
      ) : data.lessonCount === 0 ? (
        <EmptyState icon={LibraryBig} title={t("lessons.progress.page.noLessonsTitle")}>
          {t("lessons.progress.page.noLessonsBody")}
        </EmptyState>
      ) : (
        <ProgressReport data={data} search={search} onView={(view) => go({ view })} />
      )}
    </div>
  );
}

function ProgressReport({
  data,
  search,
  onView,
}: {
  data: CourseProgress;
  search: ProgressSearch;
  onView: (view: ProgressSearch["view"]) => void;
}) {
  const { t } = useTranslation("content");
  const panelId = useId();
  const view = search.view;
  const rows =
    view === "units"
      ? data.units.map((unit) => ({ id: unit.id, title: unit.title, counts: unit.counts }))
      : data.classes
          .filter((entry) => !search.classId || entry.id === search.classId)
          .map((entry) => ({ id: entry.id, title: entry.title, counts: entry.counts }));
  return (
    <div className="space-y-6">
      <Totals data={data} />
      <Card>
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-lg font-bold">{t("lessons.progress.page.chartTitle")}</h2>
          <Tabs
            label={t("lessons.progress.page.chartBy")}
            look="pills"
            idPrefix="progress-view"
            panelId={panelId}
            selected={view}
            onSelect={onView}
            items={[
              { id: "classes", label: t("lessons.progress.page.byClass") },
              { id: "units", label: t("lessons.progress.page.byUnit") },
            ]}
          />
        </div>
        <div id={panelId} role="tabpanel" aria-labelledby={`progress-view-${view}`}>
          <ProgressLegend />
          <ul className="mt-4 space-y-4">
            {rows.map((row) => (
              <li key={row.id}>
                <div className="mb-1 flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
                  <span className="font-semibold">{row.title}</span>
                  <span className="text-slate-600 tabular-nums dark:text-slate-300">
                    {t("lessons.progress.page.rowFigures", {
                      complete: row.counts.percentComplete,
                      mastered: row.counts.percentMastered,
                    })}
                  </span>
                </div>
                <ProgressStack counts={row.counts} unit="lessons" label={row.title} />
              </li>
            ))}
          </ul>
          <p className="mt-4 text-xs text-slate-600 dark:text-slate-300">
            {t(
              view === "units"
                ? "lessons.progress.page.unitsCaption"
                : "lessons.progress.page.classesCaption",
            )}
          </p>
        </div>
      </Card>
      <StudentTable data={data} />
    </div>
  );
}

/** The headline figures of the students shown. */
function Totals({ data }: { data: CourseProgress }) {
  const { t } = useTranslation("content");
  const figures = [
    { key: "students", value: formatNumber(data.students.length, 0) },
    { key: "lessons", value: formatNumber(data.lessonCount, 0) },
    { key: "complete", value: formatPercent(data.totals.percentComplete / 100) },
    { key: "mastered", value: formatPercent(data.totals.percentMastered / 100) },
  ] as const;
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {figures.map((figure) => (
        <div
          key={figure.key}
          className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
        >
          <dt className="text-sm text-slate-600 dark:text-slate-300">
            {t(`lessons.progress.page.totals.${figure.key}`)}
          </dt>
          <dd className="text-2xl font-extrabold tabular-nums">{figure.value}</dd>
        </div>
      ))}
    </dl>
  );
}

const NUMBER_CELL = "px-3 py-2 text-right tabular-nums";

function Percent({ counts }: { counts: LessonCounts }) {
  return (
    <div className="flex min-w-28 items-center gap-2">
      <div
        aria-hidden="true"
        className="h-2 flex-1 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
      >
        <div
          className="h-full rounded-full bg-emerald-600 dark:bg-emerald-400"
          style={{ width: `${counts.percentComplete}%` }}
        />
      </div>
      <span className="w-12 text-right tabular-nums">{formatPercent(counts.percentComplete / 100)}</span>
    </div>
  );
}

/** Every student, found by name, a page at a time. */
function StudentTable({ data }: { data: CourseProgress }) {
  const { t } = useTranslation("content");
  const [text, setText] = useState("");
  const [offset, setOffset] = useState(0);
  const needle = useDeferredValue(text.trim().toLowerCase());
  const classTitles = new Map(data.classes.map((entry) => [entry.id, entry.title]));
  const students = needle
    ? data.students.filter((student) => student.name.toLowerCase().includes(needle))
    : data.students;
  const page = students.slice(offset, offset + STUDENTS_PER_PAGE);
  const headers = [
    "student",
    "classes",
    "completed",
    "mastered",
    "inProgress",
    "notStarted",
    "percent",
    "lastActivity",
  ] as const;
  return (
    <Card>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <h2 className="text-lg font-bold">{t("lessons.progress.page.studentsTitle")}</h2>
        <TextField
          label={t("lessons.progress.page.findStudent")}
          type="search"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setOffset(0);
          }}
          className="w-full sm:w-64"
        />
      </div>
      {students.length === 0 ? (
        <EmptyState icon={GraduationCap} title={t("lessons.progress.page.noStudents")} />
      ) : (
        <>
          <TableRegion label={t("lessons.progress.page.studentsTitle")}>
            <table className="w-full min-w-[48rem] text-sm">
              <caption className="sr-only">{t("lessons.progress.page.studentsTitle")}</caption>
              <thead className="border-b border-slate-200 text-left text-xs text-slate-600 uppercase dark:border-slate-800 dark:text-slate-300">
                <tr>
                  {headers.map((header) => (
                    <th
                      key={header}
                      scope="col"
                      className={`px-3 py-2 font-semibold ${["completed", "mastered", "inProgress", "notStarted"].includes(header) ? "text-right" : ""}`}
                    >
                      {t(`lessons.progress.page.columns.${header}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {page.map((student) => (
                  <tr key={student.id}>
                    <th scope="row" className="px-3 py-2 text-left font-semibold whitespace-nowrap">
                      {student.name}
                    </th>
                    <td className="min-w-48 px-3 py-2 text-slate-700 dark:text-slate-200">
                      {student.classIds.map((id) => classTitles.get(id) ?? id).join(", ")}
                    </td>
                    <td className={NUMBER_CELL}>{student.counts.completed}</td>
                    <td className={NUMBER_CELL}>{student.counts.mastered}</td>
                    <td className={NUMBER_CELL}>{student.counts.inProgress}</td>
                    <td className={NUMBER_CELL}>{student.counts.notStarted}</td>
                    <td className="px-3 py-2">
                      <Percent counts={student.counts} />
                    </td>
                    <td className="px-3 py-2 whitespace-nowrap text-slate-700 dark:text-slate-200">
                      {student.lastActivityAt ? (
                        <time dateTime={student.lastActivityAt} title={instantLabel(student.lastActivityAt)}>
                          {relativeTime(student.lastActivityAt)}
                        </time>
                      ) : (
                        t("lessons.progress.page.never")
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
          <Pager
            offset={offset}
            limit={STUDENTS_PER_PAGE}
            total={students.length}
            onChange={setOffset}
            label={t("lessons.progress.page.studentsTitle")}
          />
        </>
      )}
    </Card>
  );
}
