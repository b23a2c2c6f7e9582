import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { Loading, Section } from "../home/parts";
import { courseDetailQuery, courseKeys, errorText, updateCourse } from "./api";
import { ClassesList } from "./classes-list";
import { ComponentsOutline } from "./components-editor";
import { CourseForm } from "./course-form";
import { Problem } from "./list-controls";

const ROLE_NAMES: Record<string, string> = {
  student: "Students",
  teacher: "Guides",
  administrator: "Administrators",
  proctor: "Proctors",
};

/** /app/admin/manage-courses/$sourcedId: a course's details (editable), classes, units and enrollments. */
export function CourseAdminPage() {
  const { sourcedId } = useParams({ strict: false }) as { sourcedId: string };
  const queryClient = useQueryClient();
  const detail = useQuery(courseDetailQuery(sourcedId));
  const course = detail.data?.course;

  return (
    <div>
      <PageHeader
        title={course?.title ?? "Course"}
        description={
          course
            ? [course.courseCode, course.orgName, course.schoolYearTitle].filter(Boolean).join(" · ")
            : undefined
        }
        actions={
          <Link to="/app/admin/manage-courses" className={buttonClass("secondary")}>
            All courses
          </Link>
        }
      />
      {detail.isError && (
        <Problem>
          Could not load the course: {errorText(detail.error)}{" "}
          <button type="button" className="font-semibold underline" onClick={() => detail.refetch()}>
            Try again
          </button>
        </Problem>
      )}
      {detail.isPending && <Loading label="Loading the course" rows={6} />}
      {detail.data && course && (
        <div className="grid gap-6 xl:grid-cols-2">
          <Section title="Details" className="xl:col-span-2">
            <CourseForm
              course={course}
              submitLabel="Save changes"
              onSubmit={async (values) => {
                await updateCourse(sourcedId, values);
                await queryClient.invalidateQueries({ queryKey: courseKeys.all });
              }}
            />
          </Section>
          <Section title="Units" description="In order; units without an order come last.">
            <ComponentsOutline courseId={sourcedId} components={detail.data.components} canEdit />
          </Section>
          <div className="space-y-6">
            <Section title="Classes" description="Where the course is taught.">
              <ClassesList classes={detail.data.classes} />
            </Section>
            <Section
              title="Enrollments"
              description="People in the course's classes."
              actions={
                <Link
                  to="/app/admin/admin-section/manage-enrollments"
                  search={{ courseId: sourcedId } as never}
                  className={buttonClass("secondary")}
                >
                  Manage enrollments
                </Link>
              }
            >
              <EnrollmentCounts counts={detail.data.enrollmentCounts ?? []} />
            </Section>
          </div>
        </div>
      )}
    </div>
  );
}

function EnrollmentCounts({ counts }: { counts: { role: string; status: string; count: number }[] }) {
  if (counts.length === 0)
    return <p className="text-sm text-slate-600 dark:text-slate-300">Nobody is enrolled yet.</p>;
  const roles = [...new Set(counts.map((entry) => entry.role))];
  const countOf = (role: string, status: string) =>
    counts.find((entry) => entry.role === role && entry.status === status)?.count ?? 0;
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {roles.map((role) => (
        <div key={role} className="rounded-xl border border-slate-200 p-3 dark:border-slate-800">
          <dt className="text-sm text-slate-600 dark:text-slate-300">{ROLE_NAMES[role] ?? role}</dt>
          <dd className="text-2xl font-extrabold tabular-nums">{countOf(role, "active")}</dd>
          {countOf(role, "tobedeleted") > 0 && (
            <dd className="text-xs text-slate-600 dark:text-slate-400">
              {countOf(role, "tobedeleted")} ended
            </dd>
          )}
        </div>
      ))}
    </dl>
  );
}
