import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { useState } from "react";
import { DEFAULT_PAGE_SIZE, type EnrollmentSort } from "../../../shared/contracts/courses";
import { Card, PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { useAuth } from "../auth/use-auth";
import { EmptyState, Loading } from "../home/parts";
import { courseDetailQuery, enrollmentFilter, enrollmentListQuery, errorText } from "./api";
import { ChoiceSelect, EnrollmentsTable, ROLE_CHOICES, STATUS_CHOICES } from "./enrollments-table";
import { Pager, Problem, SearchBox } from "./list-controls";

type RoleChoice = (typeof ROLE_CHOICES)[number]["value"];
type StatusChoice = (typeof STATUS_CHOICES)[number]["value"];

/**
 * /app/courses/$courseId/enrollments: who is enrolled in a course's classes — for a Guide, the
 * classes they teach (the server decides).
 */
export function CourseEnrollmentsPage() {
  const { courseId } = useParams({ strict: false }) as { courseId: string };
  const { activeRole } = useAuth();
  const [text, setText] = useState("");
  const [role, setRole] = useState<RoleChoice>("student");
  const [status, setStatus] = useState<StatusChoice>("active");
  const [sort, setSort] = useState<{ sort: EnrollmentSort; orderBy: "asc" | "desc" }>({
    sort: "userName",
    orderBy: "asc",
  });
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(DEFAULT_PAGE_SIZE);
  const course = useQuery(courseDetailQuery(courseId));
  const enrollments = useQuery(
    enrollmentListQuery({
      courseId,
      offset: String(page * perPage),
      limit: String(perPage),
      sort: sort.sort,
      orderBy: sort.orderBy,
      search: text,
      filter: enrollmentFilter(role, status),
    }),
  );
  const title = course.data?.course.title;

  return (
    <div>
      <PageHeader
        title={title ? `Enrollments: ${title}` : "Course enrollments"}
        description={
          activeRole === "teacher"
            ? "The people enrolled in the classes of this course that you teach."
            : "The people enrolled in this course's classes."
        }
        actions={
          <div className="flex flex-wrap gap-2">
            <Link to="/app/course/$courseId" params={{ courseId }} className={buttonClass("secondary")}>
              Course
            </Link>
            {activeRole === "administrator" && (
              <Link
                to="/app/admin/admin-section/manage-enrollments"
                search={{ courseId } as never}
                className={buttonClass("primary")}
              >
                Manage
              </Link>
            )}
          </div>
        }
      />
      {course.isError && (
        <div className="mb-4">
          <Problem>Could not load the course: {errorText(course.error)}</Problem>
        </div>
      )}
      <Card>
        <div className="grid gap-4 sm:grid-cols-3">
          <SearchBox
            label="Search"
            placeholder="Name, email or class"
            value={text}
            onSearch={(next) => {
              setText(next);
              setPage(0);
            }}
          />
          <ChoiceSelect
            label="Role"
            value={role}
            choices={ROLE_CHOICES}
            onChange={(next) => {
              setRole(next);
              setPage(0);
            }}
          />
          <ChoiceSelect
            label="Status"
            value={status}
            choices={STATUS_CHOICES}
            onChange={(next) => {
              setStatus(next);
              setPage(0);
            }}
          />
        </div>
        <div className="mt-5">
          {enrollments.isError && <Problem>{enrollments.error.message}</Problem>}
          {enrollments.isPending && <Loading label="Loading enrollments" rows={6} />}
          {enrollments.data &&
            (enrollments.data.total === 0 ? (
              <EmptyState icon="🗂️" title="No enrollment matches">
                Try another role or status, or clear the search.
              </EmptyState>
            ) : (
              <>
                <EnrollmentsTable
                  enrollments={enrollments.data.data}
                  sort={sort.sort}
                  orderBy={sort.orderBy}
                  onSort={(nextSort, orderBy) => {
                    setSort({ sort: nextSort, orderBy });
                    setPage(0);
                  }}
                  isStale={enrollments.isPlaceholderData}
                />
                <Pager
                  page={page}
                  perPage={perPage}
                  total={enrollments.data.total}
                  noun={["enrollment", "enrollments"]}
                  onPage={setPage}
                  onPerPage={(next) => {
                    setPerPage(next);
                    setPage(0);
                  }}
                />
              </>
            ))}
        </div>
      </Card>
    </div>
  );
}
