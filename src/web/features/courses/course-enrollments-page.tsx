import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { FolderOpen } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
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
  const { t } = useTranslation("courses");

  return (
    <div>
      <PageHeader
        title={title ? t("courseEnrollments.titleOf", { title }) : t("courseEnrollments.title")}
        description={
          activeRole === "teacher"
            ? t("courseEnrollments.descriptionTeacher")
            : t("courseEnrollments.description")
        }
        actions={
          <div className="flex flex-wrap gap-2">
            <Link to="/app/course/$courseId" params={{ courseId }} className={buttonClass("secondary")}>
              {t("course")}
            </Link>
            {activeRole === "administrator" && (
              <Link
                to="/app/admin/admin-section/manage-enrollments"
                search={{ courseId } as never}
                className={buttonClass("primary")}
              >
                {t("courseEnrollments.manage")}
              </Link>
            )}
          </div>
        }
      />
      {course.isError && (
        <div className="mb-4">
          <Problem>{t("loadCourseFailed", { error: errorText(course.error) })}</Problem>
        </div>
      )}
      <Card>
        <div className="grid gap-4 sm:grid-cols-3">
          <SearchBox
            label={t("courseEnrollments.search")}
            placeholder={t("searchEnrollmentsPlaceholder")}
            value={text}
            onSearch={(next) => {
              setText(next);
              setPage(0);
            }}
          />
          <ChoiceSelect
            label={t("enrollmentsTable.role")}
            value={role}
            choices={ROLE_CHOICES}
            labelOf={(value) => t(`roleChoices.${value}`)}
            onChange={(next) => {
              setRole(next);
              setPage(0);
            }}
          />
          <ChoiceSelect
            label={t("enrollmentsTable.status")}
            value={status}
            choices={STATUS_CHOICES}
            labelOf={(value) => t(`statusChoices.${value}`)}
            onChange={(next) => {
              setStatus(next);
              setPage(0);
            }}
          />
        </div>
        <div className="mt-5">
          {enrollments.isError && <Problem>{enrollments.error.message}</Problem>}
          {enrollments.isPending && <Loading label={t("loadingEnrollments")} rows={6} />}
          {enrollments.data &&
            (enrollments.data.total === 0 ? (
              <EmptyState icon={FolderOpen} title={t("noEnrollmentMatches")}>
                {t("courseEnrollments.tryAnother")}
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
                  what="enrollments"
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
