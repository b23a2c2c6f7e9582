import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { BookOpen, Hammer, Pencil } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { LessonListRow } from "../../../shared/contracts/content";
import { PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { TableRegion } from "../../components/ui/table-region";
import { formatNumber } from "../../lib/format";
import { courseListQuery } from "../courses/api";
import { SELECT_CLASS, SearchBox } from "../courses/list-controls";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { LessonSettingsForm } from "./course-builder-editors";
import { DialogKeepingChanges } from "./course-builder-unsaved";
import { lessonListQuery } from "./syllabus-api";

const PAGE_SIZE = 25;
/** The course filter lists this many courses, by title. */
const COURSE_CHOICES = 500;

/** /app/admin/lesson: every lesson of every course, searched and filtered by course, with their settings. */
export function AdminLessonsPage() {
  const { t } = useTranslation("content");
  const courseFieldId = useId();
  const [search, setSearch] = useState("");
  const [courseId, setCourseId] = useState("");
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<LessonListRow | null>(null);
  const lessons = useQuery(
    lessonListQuery({ search, courseId: courseId || undefined, offset, limit: PAGE_SIZE }),
  );
  const courses = useQuery(
    courseListQuery({
      offset: "0",
      limit: String(COURSE_CHOICES),
      sort: "title",
      orderBy: "asc",
      search: "",
    }),
  );
  const isFiltered = search.trim() !== "" || courseId !== "";

  return (
    <div className="space-y-6">
      <PageHeader
        title={t("common:pages./app/admin/lesson.title")}
        description={t("builder.admin.description")}
      />
      <Section title={t("builder.admin.filters")}>
        <div className="grid gap-4 md:grid-cols-2">
          <SearchBox
            label={t("builder.admin.search")}
            value={search}
            onSearch={(next) => {
              setSearch(next);
              setOffset(0);
            }}
          />
          <div>
            <label htmlFor={courseFieldId} className="text-sm font-medium">
              {t("builder.admin.course")}
            </label>
            <select
              id={courseFieldId}
              value={courseId}
              onChange={(event) => {
                setCourseId(event.target.value);
                setOffset(0);
              }}
              className={SELECT_CLASS}
            >
              <option value="">{t("builder.admin.allCourses")}</option>
              {courses.data?.data.map((course) => (
                <option key={course.sourcedId} value={course.sourcedId}>
                  {course.title}
                  {course.orgName ? ` · ${course.orgName}` : ""}
                </option>
              ))}
            </select>
          </div>
        </div>
      </Section>
      <Section
        title={t("builder.admin.lessons")}
        description={lessons.data ? t("builder.admin.count", { count: lessons.data.total }) : undefined}
      >
        {lessons.isError ? (
          <QueryError
            error={lessons.error}
            fallback={t("builder.admin.loadFailed")}
            onRetry={() => lessons.refetch()}
          />
        ) : !lessons.data ? (
          <Loading label={t("builder.admin.loading")} rows={6} />
        ) : lessons.data.total === 0 ? (
          <EmptyState icon={BookOpen} title={t("builder.admin.emptyTitle")}>
            {isFiltered ? t("builder.admin.emptyFiltered") : t("builder.admin.empty")}
          </EmptyState>
        ) : (
          <>
            <LessonTable rows={lessons.data.data} onEdit={setEditing} />
            <Pager
              offset={offset}
              limit={PAGE_SIZE}
              total={lessons.data.total}
              onChange={setOffset}
              label={t("builder.admin.lessons")}
            />
          </>
        )}
      </Section>
      {editing && (
        <DialogKeepingChanges
          title={t("builder.admin.editTitle", { title: editing.title })}
          description={t("builder.admin.editWhere", { course: editing.courseTitle, unit: editing.unitTitle })}
          onClose={() => setEditing(null)}
        >
          {(requestClose) => (
            <div className="mt-4 space-y-3">
              <LessonSettingsForm
                courseId={editing.courseId}
                lesson={{
                  sourcedId: editing.sourcedId,
                  title: editing.title,
                  sortOrder: null,
                  expectedXp: editing.expectedXp,
                  masteryPercent: editing.masteryPercent,
                  descriptionHtml: editing.descriptionHtml,
                  resources: [],
                }}
                onSaved={() => setEditing(null)}
              />
              <button type="button" onClick={requestClose} className={buttonClass("secondary")}>
                {t("common:dialog.cancel")}
              </button>
            </div>
          )}
        </DialogKeepingChanges>
      )}
    </div>
  );
}

function LessonTable({ rows, onEdit }: { rows: LessonListRow[]; onEdit: (row: LessonListRow) => void }) {
  const { t } = useTranslation("content");
  const head = "px-3 py-2 font-semibold";
  return (
    <TableRegion label={t("builder.admin.caption")}>
      <table className="w-full min-w-[52rem] text-left text-sm">
        <caption className="sr-only">{t("builder.admin.caption")}</caption>
        <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
          <tr>
            <th scope="col" className={head}>
              {t("builder.admin.lesson")}
            </th>
            <th scope="col" className={head}>
              {t("builder.admin.course")}
            </th>
            <th scope="col" className={`${head} text-right`}>
              {t("builder.admin.resources")}
            </th>
            <th scope="col" className={`${head} text-right`}>
              {t("builder.admin.expectedXp")}
            </th>
            <th scope="col" className={`${head} text-right`}>
              {t("builder.admin.mastery")}
            </th>
            <th scope="col" className={`${head} text-right`}>
              {t("builder.admin.students")}
            </th>
            <th scope="col" className={head}>
              <span className="sr-only">{t("builder.admin.actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((row) => (
            <tr key={row.sourcedId}>
              <th scope="row" className="px-3 py-2.5 text-left font-normal">
                <span className="block font-medium">{row.title}</span>
                <span className="block text-xs text-slate-600 dark:text-slate-400">{row.unitTitle}</span>
              </th>
              <td className="px-3 py-2.5">{row.courseTitle}</td>
              <td className="px-3 py-2.5 text-right tabular-nums">{row.resourceCount}</td>
              <td className="px-3 py-2.5 text-right tabular-nums">{formatNumber(row.expectedXp)}</td>
              <td className="px-3 py-2.5 text-right tabular-nums">
                {t("builder.admin.percent", { value: row.masteryPercent })}
              </td>
              <td className="px-3 py-2.5 text-right tabular-nums">{row.studentsAttempted}</td>
              <td className="px-3 py-2.5">
                <span className="flex flex-wrap justify-end gap-2">
                  <button
                    type="button"
                    onClick={() => onEdit(row)}
                    aria-label={t("builder.admin.editNamed", { title: row.title })}
                    className={buttonClass("secondary", "inline-flex items-center gap-1.5 px-3 py-1.5")}
                  >
                    <Pencil aria-hidden="true" className="size-4" />
                    {t("builder.admin.edit")}
                  </button>
                  <Link
                    to="/course-builder/$courseId"
                    params={{ courseId: row.courseId }}
                    aria-label={t("builder.admin.buildNamed", { title: row.courseTitle })}
                    className={buttonClass("secondary", "inline-flex items-center gap-1.5 px-3 py-1.5")}
                  >
                    <Hammer aria-hidden="true" className="size-4" />
                    {t("builder.admin.build")}
                  </Link>
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
