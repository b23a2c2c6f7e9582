import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
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

const DESCRIPTIONS: Partial<Record<DashRole, string>> = {
  administrator: "Every course of the district, with its classes.",
  teacher: "The courses of the classes you teach.",
  parent: "The courses your children are enrolled in.",
  guardian: "The courses your children are enrolled in.",
  proctor: "The courses of your school.",
};
const EMPTY_TEXTS: Partial<Record<DashRole, string>> = {
  teacher: "You teach no class yet.",
  parent: "Your children are not enrolled in a class yet.",
  guardian: "Your children are not enrolled in a class yet.",
  proctor: "Your school has no course yet.",
};

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

  return (
    <div>
      <PageHeader title="Courses" description={DESCRIPTIONS[role]} />
      <SearchBox
        label="Search courses"
        placeholder="Title or course code"
        value={search}
        onSearch={(text) => {
          setSearch(text);
          setPage(0);
        }}
        className="mb-6 sm:max-w-md"
      />
      {courses.isError && <Problem>Could not load the courses: {errorText(courses.error)}</Problem>}
      {courses.isPending && <Loading label="Loading courses" rows={4} />}
      {courses.data &&
        (courses.data.total === 0 ? (
          <EmptyState icon="📚" title={search ? "No course matches" : "No courses"}>
            {search ? `Nothing matches “${search}”.` : EMPTY_TEXTS[role]}
          </EmptyState>
        ) : (
          <>
            <ul
              aria-label="Courses"
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
              noun={["course", "courses"]}
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
  const canOpen = role === "teacher" || role === "administrator";
  const facts = [
    course.grades.length ? gradeLabel(course.grades) : null,
    course.subjects.join(", ") || null,
    `${course.classCount} ${course.classCount === 1 ? "class" : "classes"}`,
    `${course.studentCount} ${course.studentCount === 1 ? "student" : "students"}`,
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
          <span className="text-slate-600 dark:text-slate-300">Taken by </span>
          <span className="font-semibold">{course.learners.map(fullName).join(", ")}</span>
        </p>
      )}
      {canOpen && (
        <div className="mt-4 flex flex-wrap gap-2 pt-1">
          <Link
            to="/app/course/$courseId"
            params={{ courseId: course.sourcedId }}
            className={buttonClass("secondary")}
          >
            Open<span className="sr-only"> {course.title}</span>
          </Link>
          <Link
            to="/app/courses/$courseId/enrollments"
            params={{ courseId: course.sourcedId }}
            className={buttonClass("secondary")}
          >
            Enrollments<span className="sr-only"> of {course.title}</span>
          </Link>
          {role === "administrator" && (
            <Link
              to="/app/admin/manage-courses/$sourcedId"
              params={{ sourcedId: course.sourcedId }}
              className={buttonClass("secondary")}
            >
              Edit<span className="sr-only"> {course.title}</span>
            </Link>
          )}
        </div>
      )}
    </li>
  );
}
