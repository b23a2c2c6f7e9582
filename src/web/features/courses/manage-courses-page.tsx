import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { BookOpen } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { CourseSort } from "../../../shared/contracts/courses";
import { Card, PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { TableRegion } from "../../components/ui/table-region";
import { gradeNames } from "../../lib/format";
import { EmptyState, Loading } from "../home/parts";
import { courseListQuery, errorText, type ManageCoursesSearch, managedCoursesParams } from "./api";
import { HEAD_CLASS, Pager, Problem, SearchBox, SortableHeader, StatusBadge } from "./list-controls";

const PATH = "/app/admin/manage-courses";

/** /app/admin/manage-courses: every course, searched, sorted and paged from the address. */
export function ManageCoursesPage() {
  const search = useSearch({ strict: false }) as ManageCoursesSearch;
  const navigate = useNavigate();
  // The loader has fetched this page already; coming back re-checks it there, not here too.
  const courses = useQuery({ ...courseListQuery(managedCoursesParams(search)), refetchOnMount: false });
  const setSearch = (next: Partial<ManageCoursesSearch>, replace = false) =>
    void navigate({ to: PATH, search: { ...search, ...next } as never, replace });
  const sortBy = (sort: CourseSort, orderBy: "asc" | "desc") => setSearch({ sort, orderBy, page: 0 });
  const header = { sort: search.sort, orderBy: search.orderBy, onSort: sortBy };
  const { t } = useTranslation("courses");

  return (
    <div>
      <PageHeader
        title={t("manageCourses.title")}
        description={t("manageCourses.description")}
        actions={
          <Link to="/app/admin/admin-section/manage-courses/create" className={buttonClass("primary")}>
            {t("manageCourses.newCourse")}
          </Link>
        }
      />
      <Card>
        <SearchBox
          label={t("searchCourses")}
          placeholder={t("searchCoursesPlaceholder")}
          value={search.search}
          onSearch={(text) => setSearch({ search: text, page: 0 }, true)}
          className="sm:max-w-md"
        />
        <div className="mt-5">
          {courses.isError && (
            <Problem>
              {t("loadCoursesFailed", { error: errorText(courses.error) })}{" "}
              <button type="button" className="font-semibold underline" onClick={() => courses.refetch()}>
                {t("tryAgain")}
              </button>
            </Problem>
          )}
          {courses.isPending && <Loading label={t("loadingCourses")} rows={6} />}
          {courses.data &&
            (courses.data.total === 0 && search.page === 0 ? (
              <EmptyState
                icon={BookOpen}
                title={search.search ? t("noCourseMatches") : t("manageCourses.noCourses")}
              >
                {search.search
                  ? t("nothingMatches", { search: search.search })
                  : t("manageCourses.createFirst")}
              </EmptyState>
            ) : (
              <>
                <TableRegion label={t("courses")}>
                  <table
                    className={`w-full min-w-[44rem] text-sm ${courses.isPlaceholderData ? "opacity-60" : ""}`}
                  >
                    <caption className="sr-only">{t("courses")}</caption>
                    <thead className={HEAD_CLASS}>
                      <tr>
                        <SortableHeader
                          label={t("manageCourses.columns.title")}
                          field="title"
                          {...header}
                          className="pl-5 sm:pl-3"
                        />
                        <SortableHeader
                          label={t("manageCourses.columns.code")}
                          field="courseCode"
                          {...header}
                        />
                        <SortableHeader
                          label={t("manageCourses.columns.organisation")}
                          field="orgName"
                          {...header}
                        />
                        <th scope="col" className="px-3 py-2 font-semibold">
                          {t("manageCourses.columns.grades")}
                        </th>
                        <th scope="col" className="px-3 py-2 font-semibold">
                          {t("manageCourses.columns.subjects")}
                        </th>
                        <th scope="col" className="px-3 py-2 text-right font-semibold">
                          {t("classes")}
                        </th>
                        <th scope="col" className="px-3 py-2 text-right font-semibold">
                          {t("manageCourses.columns.students")}
                        </th>
                        <SortableHeader
                          label={t("manageCourses.columns.status")}
                          field="status"
                          {...header}
                          className="pr-5 sm:pr-3"
                        />
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                      {courses.data.data.map((course) => (
                        <tr key={course.sourcedId}>
                          <th scope="row" className="py-2.5 pr-3 pl-5 text-left font-semibold sm:pl-3">
                            <Link
                              to="/app/admin/manage-courses/$sourcedId"
                              params={{ sourcedId: course.sourcedId }}
                              className="text-brand-700 underline-offset-2 hover:underline dark:text-brand-100"
                            >
                              {course.title}
                            </Link>
                          </th>
                          <td className="px-3 py-2.5 font-mono text-xs">{course.courseCode ?? "—"}</td>
                          <td className="px-3 py-2.5">{course.orgName ?? course.orgSourcedId}</td>
                          <td className="px-3 py-2.5">{gradeNames(course.grades) || "—"}</td>
                          <td className="px-3 py-2.5">{course.subjects.join(", ") || "—"}</td>
                          <td className="px-3 py-2.5 text-right tabular-nums">{course.classCount}</td>
                          <td className="px-3 py-2.5 text-right tabular-nums">{course.studentCount}</td>
                          <td className="py-2.5 pr-5 pl-3 sm:pr-3">
                            <StatusBadge status={course.status} ended={t("status.tobedeleted")} />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableRegion>
                <Pager
                  page={search.page}
                  perPage={search.perPage}
                  total={courses.data.total}
                  what="courses"
                  onPage={(page) => setSearch({ page })}
                  onPerPage={(perPage) => setSearch({ perPage, page: 0 })}
                />
              </>
            ))}
        </div>
      </Card>
    </div>
  );
}
