import { useQuery } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { FolderOpen } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Enrollment, EnrollmentSort } from "../../../shared/contracts/courses";
import { Card, PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { fullName } from "../auth/auth-state";
import { myClassesQuery } from "../flow/api";
import { EmptyState, Loading } from "../home/parts";
import {
  courseDetailQuery,
  courseListQuery,
  enrollmentFilter,
  enrollmentListQuery,
  type ManageEnrollmentsSearch,
} from "./api";
import { AddEnrollmentPanel, EndEnrollmentDialog } from "./enrollment-actions";
import { ChoiceSelect, EnrollmentsTable, ROLE_CHOICES, STATUS_CHOICES } from "./enrollments-table";
import { Pager, Problem, SELECT_CLASS, SearchBox } from "./list-controls";

const PATH = "/app/admin/admin-section/manage-enrollments";

/** The API query of the page: its paging, sort, search, role and status filter, course and class. */
function enrollmentParams(search: ManageEnrollmentsSearch): Record<string, string> {
  const params: Record<string, string> = {
    offset: String(search.page * search.perPage),
    limit: String(search.perPage),
    sort: search.sort,
    orderBy: search.orderBy,
    search: search.search.trim().slice(0, 200),
    filter: enrollmentFilter(search.role, search.status),
  };
  if (search.courseId) params.courseId = search.courseId;
  if (search.classId) params.classId = search.classId;
  return params;
}

/** /app/admin/admin-section/manage-enrollments: every enrollment, filtered from the address; add and end them. */
export function ManageEnrollmentsPage() {
  const search = useSearch({ strict: false }) as ManageEnrollmentsSearch;
  const navigate = useNavigate();
  const { t } = useTranslation("courses");
  const enrollments = useQuery(enrollmentListQuery(enrollmentParams(search)));
  const [isAdding, setIsAdding] = useState(false);
  const [ending, setEnding] = useState<Enrollment | null>(null);
  const [ended, setEnded] = useState<string | null>(null);
  const setSearch = (next: Partial<ManageEnrollmentsSearch>, replace = false) =>
    void navigate({ to: PATH, search: { ...search, ...next } as never, replace });

  return (
    <div>
      <PageHeader
        title={t("courseAdmin.manageEnrollments")}
        description={t("manageEnrollments.description")}
        actions={
          !isAdding && (
            <button type="button" className={buttonClass("primary")} onClick={() => setIsAdding(true)}>
              {t("manageEnrollments.add")}
            </button>
          )
        }
      />
      {isAdding && <AddEnrollmentPanel onClose={() => setIsAdding(false)} />}
      <Card>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-6">
          <SearchBox
            label={t("manageEnrollments.search")}
            placeholder={t("searchEnrollmentsPlaceholder")}
            value={search.search}
            onSearch={(text) => setSearch({ search: text, page: 0 }, true)}
            className="sm:col-span-2"
          />
          <ChoiceSelect
            label={t("enrollmentsTable.role")}
            value={search.role}
            choices={ROLE_CHOICES}
            labelOf={(value) => t(`roleChoices.${value}`)}
            onChange={(role) => setSearch({ role, page: 0 })}
          />
          <ChoiceSelect
            label={t("enrollmentsTable.status")}
            value={search.status}
            choices={STATUS_CHOICES}
            labelOf={(value) => t(`statusChoices.${value}`)}
            onChange={(status) => setSearch({ status, page: 0 })}
          />
          <CourseAndClassFilter search={search} onChange={(next) => setSearch({ ...next, page: 0 })} />
        </div>
        <div aria-live="polite">
          {ended && (
            <p className="mt-4 rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100">
              {ended}
            </p>
          )}
        </div>
        <div className="mt-5">
          {enrollments.isError && (
            <Problem>
              {enrollments.error.message}{" "}
              <button type="button" className="font-semibold underline" onClick={() => enrollments.refetch()}>
                {t("tryAgain")}
              </button>
            </Problem>
          )}
          {enrollments.isPending && <Loading label={t("loadingEnrollments")} rows={6} />}
          {enrollments.data &&
            (enrollments.data.total === 0 && search.page === 0 ? (
              <EmptyState icon={FolderOpen} title={t("noEnrollmentMatches")}>
                {t("manageEnrollments.tryAnother")}
              </EmptyState>
            ) : (
              <>
                <EnrollmentsTable
                  enrollments={enrollments.data.data}
                  sort={search.sort}
                  orderBy={search.orderBy}
                  onSort={(sort: EnrollmentSort, orderBy) => setSearch({ sort, orderBy, page: 0 })}
                  onEnd={(enrollment) => {
                    setEnded(null);
                    setEnding(enrollment);
                  }}
                  isStale={enrollments.isPlaceholderData}
                />
                <Pager
                  page={search.page}
                  perPage={search.perPage}
                  total={enrollments.data.total}
                  what="enrollments"
                  onPage={(page) => setSearch({ page })}
                  onPerPage={(perPage) => setSearch({ perPage, page: 0 })}
                />
              </>
            ))}
        </div>
      </Card>
      {ending && (
        <EndEnrollmentDialog
          enrollment={ending}
          onClose={() => setEnding(null)}
          onEnded={(enrollment) => {
            setEnding(null);
            const values = { name: fullName(enrollment.user), date: enrollment.endDate };
            setEnded(
              enrollment.class.title
                ? t("manageEnrollments.ended", { ...values, className: enrollment.class.title })
                : t("manageEnrollments.endedTheClass", values),
            );
          }}
        />
      )}
    </div>
  );
}

/** A course choice, and a class choice among that course's classes (or every class). */
function CourseAndClassFilter({
  search,
  onChange,
}: {
  search: ManageEnrollmentsSearch;
  onChange: (next: Pick<ManageEnrollmentsSearch, "courseId" | "classId">) => void;
}) {
  const { t } = useTranslation("courses");
  const ids = { course: useId(), klass: useId() };
  const courses = useQuery(courseListQuery({ limit: "500", sort: "title", orderBy: "asc" }));
  const courseClasses = useQuery({
    ...courseDetailQuery(search.courseId ?? ""),
    enabled: Boolean(search.courseId),
  });
  const allClasses = useQuery({ ...myClassesQuery, enabled: !search.courseId });
  const classes = search.courseId
    ? (courseClasses.data?.classes ?? []).map((entry) => ({ ...entry, label: entry.title }))
    : (allClasses.data?.data ?? []).map((entry) => ({
        ...entry,
        label: entry.schoolName ? `${entry.title} — ${entry.schoolName}` : entry.title,
      }));
  return (
    <>
      <div>
        <label htmlFor={ids.course} className="text-sm font-medium">
          {t("course")}
        </label>
        <select
          id={ids.course}
          value={search.courseId ?? ""}
          onChange={(event) => onChange({ courseId: event.target.value || undefined, classId: undefined })}
          className={SELECT_CLASS}
        >
          <option value="">{t("allCourses")}</option>
          {courses.data?.data.map((course) => (
            <option key={course.sourcedId} value={course.sourcedId}>
              {course.title}
              {course.orgName ? ` — ${course.orgName}` : ""}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={ids.klass} className="text-sm font-medium">
          {t("enrollmentsTable.class")}
        </label>
        <select
          id={ids.klass}
          value={search.classId ?? ""}
          onChange={(event) =>
            onChange({ courseId: search.courseId, classId: event.target.value || undefined })
          }
          className={SELECT_CLASS}
        >
          <option value="">{t("manageEnrollments.allClasses")}</option>
          {classes.map((entry) => (
            <option key={entry.sourcedId} value={entry.sourcedId}>
              {entry.label}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}
