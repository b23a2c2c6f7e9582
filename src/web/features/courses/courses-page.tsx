import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { BookOpen } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { CourseSummary } from "../../../shared/contracts/courses";
import type { DashRole } from "../../../shared/roles";
import { PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { gradeLabel } from "../../lib/format";
import { fullName } from "../auth/auth-state";
import { useAuth } from "../auth/use-auth";
import { EmptyState, Loading } from "../home/parts";
import { courseListQuery, errorText } from "./api";
import { Pager, Problem, SearchBox } from "./list-controls";

/** The roles with a description of their own (`coursesPage.descriptions.<role>`). */
const DESCRIBED_ROLES: readonly DashRole[] = ["administrator", "teacher", "parent", "guardian", "proctor"];
/** The roles with an empty-list text of their own (`coursesPage.empty.<role>`). */
const ROLES_WITH_EMPTY_TEXT: readonly DashRole[] = ["teacher", "parent", "guardian", "proctor"];

/** /app/courses: the courses the caller's role relates them to (students are sent away by the route guard). */
export function CoursesPage() {
  const { activeRole } = useAuth();
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(50);
  const courses = useQuery(
    courseListQuery({ search, offset: String(page * perPage), limit: String(perPage), sort: "title" }),
  );
  const role = activeRole ?? "administrator";
  const { t } = useTranslation("courses");

  return (
    <div>
      <PageHeader
        title={t("courses")}
        description={DESCRIBED_ROLES.includes(role) ? t(`coursesPage.descriptions.${role}`) : undefined}
      />
      <SearchBox
        label={t("searchCourses")}
        placeholder={t("searchCoursesPlaceholder")}
        value={search}
        onSearch={(text) => {
          setSearch(text);
          setPage(0);
        }}
        className="mb-6 sm:max-w-md"
      />
      {courses.isError && <Problem>{t("loadCoursesFailed", { error: errorText(courses.error) })}</Problem>}
      {courses.isPending && <Loading label={t("loadingCourses")} rows={4} />}
      {courses.data &&
        (courses.data.total === 0 ? (
          <EmptyState icon={BookOpen} title={search ? t("noCourseMatches") : t("coursesPage.noCourses")}>
            {search
              ? t("nothingMatches", { search })
              : ROLES_WITH_EMPTY_TEXT.includes(role)
                ? t(`coursesPage.empty.${role}`)
                : null}
          </EmptyState>
        ) : (
          <>
            <ul
              aria-label={t("courses")}
              className={`grid gap-4 sm:grid-cols-2 xl:grid-cols-3 ${courses.isPlaceholderData ? "opacity-60" : ""}`}
            >
              {courses.data.data.map((course) => (
                <CourseCard key={course.sourcedId} course={course} role={role} />
              ))}
            </ul>
            <Pager
              page={page}
              perPage={perPage}
              total={courses.data.total}
              what="courses"
              onPage={setPage}
              onPerPage={(next) => {
                setPerPage(next);
                setPage(0);
              }}
            />
          </>
        ))}
    </div>
  );
}

function CourseCard({ course, role }: { course: CourseSummary; role: DashRole }) {
  const { t } = useTranslation("courses");
  const canOpen = role === "teacher" || role === "administrator";
  const facts = [
    course.grades.length ? gradeLabel(course.grades) : null,
    course.subjects.join(", ") || null,
    t("classCount", { count: course.classCount }),
    t("studentCount", { count: course.studentCount }),
  ].filter(Boolean);
  return (
    <li className="flex flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <h2 className="text-lg font-bold">{course.title}</h2>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {[course.courseCode, course.orgName].filter(Boolean).join(" · ")}
      </p>
      <p className="mt-2 text-sm">{facts.join(" · ")}</p>
      {course.learners.length > 0 && (
        <p className="mt-2 text-sm">
          {t("coursesPage.takenBy", { names: course.learners.map(fullName).join(", ") })}
        </p>
      )}
      {canOpen && (
        <div className="mt-4 flex flex-wrap gap-2 pt-1">
          <Link
            to="/app/course/$courseId"
            params={{ courseId: course.sourcedId }}
            className={buttonClass("secondary")}
            aria-label={t("coursesPage.openCourse", { title: course.title })}
          >
            {t("coursesPage.open")}
          </Link>
          <Link
            to="/app/courses/$courseId/enrollments"
            params={{ courseId: course.sourcedId }}
            className={buttonClass("secondary")}
            aria-label={t("coursesPage.enrollmentsOf", { title: course.title })}
          >
            {t("enrollments")}
          </Link>
          {role === "administrator" && (
            <Link
              to="/app/admin/manage-courses/$sourcedId"
              params={{ sourcedId: course.sourcedId }}
              className={buttonClass("secondary")}
              aria-label={t("coursesPage.editCourse", { title: course.title })}
            >
              {t("coursesPage.edit")}
            </Link>
          )}
        </div>
      )}
    </li>
  );
}
