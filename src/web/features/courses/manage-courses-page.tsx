import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import type { CourseSort } from "../../../shared/contracts/courses";
import { Card, PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { gradeNames } from "../../lib/format";
import { EmptyState, Loading } from "../home/parts";
import { courseListQuery, errorText, type ManageCoursesSearch, managedCoursesParams } from "./api";
import {
  HEAD_CLASS,
  Pager,
  Problem,
  SearchBox,
  SortableHeader,
  StatusBadge,
  TableRegion,
} from "./list-controls";

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

  return (
    <div>
      <PageHeader
        title="Manage courses"
        description="Every course of the district: search, sort, and open one to edit it, its units and its classes."
        actions={
          <Link to="/app/admin/admin-section/manage-courses/create" className={buttonClass("primary")}>
            New course
          </Link>
        }
      />
      <Card>
        <SearchBox
          label="Search courses"
          placeholder="Title or course code"
          value={search.search}
          onSearch={(text) => setSearch({ search: text, page: 0 }, true)}
          className="sm:max-w-md"
        />
        <div className="mt-5">
          {courses.isError && (
            <Problem>
              Could not load the courses: {errorText(courses.error)}{" "}
              <button type="button" className="font-semibold underline" onClick={() => courses.refetch()}>
                Try again
              </button>
            </Problem>
          )}
          {courses.isPending && <Loading label="Loading courses" rows={6} />}
          {courses.data &&
            (courses.data.total === 0 && search.page === 0 ? (
              <EmptyState icon="📚" title={search.search ? "No course matches" : "No courses yet"}>
                {search.search
                  ? `Nothing matches “${search.search}”.`
                  : "Create the first one with New course."}
              </EmptyState>
            ) : (
              <>
                <TableRegion label="Courses">
                  <table
                    className={`w-full min-w-[44rem] text-sm ${courses.isPlaceholderData ? "opacity-60" : ""}`}
                  >
                    <caption className="sr-only">Courses</caption>
                    <thead className={HEAD_CLASS}>
                      <tr>
                        <SortableHeader label="Title" field="title" {...header} className="pl-5 sm:pl-3" />
                        <SortableHeader label="Code" field="courseCode" {...header} />
                        <SortableHeader label="Organisation" field="orgName" {...header} />
                        <th scope="col" className="px-3 py-2 font-semibold">
                          Grades
                        </th>
                        <th scope="col" className="px-3 py-2 font-semibold">
                          Subjects
                        </th>
                        <th scope="col" className="px-3 py-2 text-right font-semibold">
                          Classes
                        </th>
                        <th scope="col" className="px-3 py-2 text-right font-semibold">
                          Students
                        </th>
                        <SortableHeader label="Status" field="status" {...header} className="pr-5 sm:pr-3" />
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
                            <StatusBadge status={course.status} ended="To be deleted" />
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
                  noun={["course", "courses"]}
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
